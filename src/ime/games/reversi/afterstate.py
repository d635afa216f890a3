"""Reversi's afterstates for the lookahead imitator: the position each legal move leads to.

Why torch and not the engine: the lookahead net (:mod:`ime.nets.lookahead`) scores every legal
move of every row of a training batch by a value of the position it leads to, thousands of moves
a step, on the device the net trains on, and gradients never flow through the rules. The rays of
every square are precomputed once; a move's flips are one gather, a cumulative product and one
scatter, and both sides' mobility eight Kogge-Stone fills over the planes, with no Python loop
over rows or squares.

Afterstate planes, from the mover's view (the value is how good the move is for the mover):

0. the mover's discs after the move (the move and its flips included);
1. the opponent's discs after the move;
2. the discs the move flipped;
3. the square played;
4. the opponent's legal moves in the afterstate (its mobility, where it can reply);
5. the mover's own legal moves in the afterstate, were it to move again (its potential mobility).

The rules are the engine's (:mod:`ime.games.reversi.bitboard`); tests/games/test_afterstates.py
checks every plane against it on seeded positions.
"""

from __future__ import annotations

import numpy as np
import torch

from ime.core.encoding import shift_cells

BOARD = 8
PLANES = 6
_DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
OFF = 64
"""Index of the padding cell that every ray past the board's edge points to (always empty)."""


def _rays() -> np.ndarray:
    """``int64[64, 8, 7]``: for each square and direction, the squares met walking away from it
    (``OFF`` beyond the edge)."""
    out = np.full((64, len(_DIRS), BOARD - 1), OFF, dtype=np.int64)
    for sq in range(64):
        y0, x0 = divmod(sq, BOARD)
        for d, (dy, dx) in enumerate(_DIRS):
            for k in range(1, BOARD):
                y, x = y0 + dy * k, x0 + dx * k
                if not (0 <= y < BOARD and 0 <= x < BOARD):
                    break
                out[sq, d, k - 1] = y * BOARD + x
    return out


RAYS = _rays()
_RAYS_T: dict[torch.device, torch.Tensor] = {}


def _rays_on(device: torch.device) -> torch.Tensor:
    if device not in _RAYS_T:
        _RAYS_T[device] = torch.as_tensor(RAYS, device=device)
    return _RAYS_T[device]


def _padded(board: torch.Tensor) -> torch.Tensor:
    """``[M, 64]`` -> ``[M, 65]`` with the always-empty padding cell last."""
    return torch.cat([board, board.new_zeros(board.shape[0], 1)], dim=1)


def _capture_runs(own: torch.Tensor, opp: torch.Tensor, rays: torch.Tensor) -> torch.Tensor:
    """For boards ``own``/``opp`` (``[M, 65]``) and rays ``[M, R, 8, 7]`` (``R`` squares each),
    ``[M, R, 8, 7]`` ones at the discs a move on each square would flip along each direction."""
    m = own.shape[0]
    flat = rays.reshape(m, -1)
    own_g = torch.gather(own, 1, flat).reshape(rays.shape)
    opp_g = torch.gather(opp, 1, flat).reshape(rays.shape)
    run = torch.cumprod(opp_g, dim=3)  # 1 while the ray has met only opponent discs
    length = run.sum(dim=3, keepdim=True).long()  # opponent discs before the first other cell
    closer = torch.gather(torch.cat([own_g, own_g.new_zeros(*own_g.shape[:3], 1)], dim=3), 3,
                          length)  # the cell after the run: the mover's disc?
    valid = (length > 0) & (closer > 0)
    return run * valid


def legal_squares(own: torch.Tensor, opp: torch.Tensor) -> torch.Tensor:
    """``[M, 64]`` ones at the squares where the side owning ``own`` (``[M, 64]``) may move: the
    empty squares reached from one of its discs over a run of the opponent's (Kogge-Stone fills
    of the board along each direction, as the engine's bitboards do)."""
    m = own.shape[0]
    o = own.reshape(m, BOARD, BOARD) > 0
    p = opp.reshape(m, BOARD, BOARD) > 0
    empty = ~(o | p)
    moves = torch.zeros_like(o)
    for dy, dx in _DIRS:
        run = shift_cells(o, dy, dx) & p
        for _ in range(BOARD - 3):
            run = run | (shift_cells(run, dy, dx) & p)
        moves = moves | (shift_cells(run, dy, dx) & empty)
    return moves.reshape(m, 64).to(own.dtype)


def afterstates(planes: torch.Tensor, squares: torch.Tensor) -> torch.Tensor:
    """The afterstate planes (module doc) of playing ``squares`` (``int64[M]``, each legal) in
    ``planes`` (``[M, 2, 8, 8]``: the mover's discs, the opponent's)."""
    m = planes.shape[0]
    # 0/1 whatever comes in (a disc is a positive cell), so the rays' runs stay 0/1
    own = (planes[:, 0].reshape(m, 64) > 0).to(planes.dtype)
    opp = (planes[:, 1].reshape(m, 64) > 0).to(planes.dtype) * (1 - own)
    rays = _rays_on(planes.device)[squares].unsqueeze(1)  # [M, 1, 8, 7]
    run = _capture_runs(_padded(own), _padded(opp), rays).reshape(m, -1)
    flipped = torch.zeros(m, 65, dtype=planes.dtype, device=planes.device)
    flipped.scatter_add_(1, rays.reshape(m, -1), run)
    flipped = flipped[:, :64].clamp(max=1)
    move = torch.nn.functional.one_hot(squares, 64).to(planes.dtype)
    own2 = (own + flipped + move).clamp(max=1)
    opp2 = opp * (1 - flipped) * (1 - move)
    out = torch.stack([own2, opp2, flipped, move, legal_squares(opp2, own2),
                       legal_squares(own2, opp2)], dim=1)
    return out.reshape(m, PLANES, BOARD, BOARD)


def replies(after: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The opponent's planes (its discs first) and legal squares (``[M, 64]``, plane 4) in each
    afterstate, for a two-ply lookahead; a row where it must pass has an empty mask."""
    m = after.shape[0]
    return torch.stack([after[:, 1], after[:, 0]], dim=1), after[:, 4].reshape(m, 64)


__all__ = ["PLANES", "RAYS", "afterstates", "legal_squares", "replies"]
