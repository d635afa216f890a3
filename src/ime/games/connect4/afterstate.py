"""Connect Four's afterstates for the lookahead imitator: the board each legal column leads to.

Why torch: the lookahead net (:mod:`ime.nets.lookahead`) values every legal column of every row
of a training batch on the net's own device; the landing cell of a column is one cumulative
product over its cells, with no loop over rows.

A disc lands on the lowest empty cell of its column (what the engine's ``(filled + bottom) &
playable`` gives, blocked cells counting as filled). Afterstate planes, from the mover's view:
0 the mover's discs (the new one included), 1 the opponent's, 2 the blocked cells, 3 the cell
just played. tests/games/test_afterstates.py checks them against the engine.
"""

from __future__ import annotations

import torch

PLANES = 4


def afterstates(planes: torch.Tensor, columns: torch.Tensor) -> torch.Tensor:
    """The afterstate planes (module doc) of dropping a disc in ``columns`` (``int64[M]``, each
    legal) of ``planes`` (``[M, 3, H, W]``, row 0 the top row)."""
    m, _, h, w = planes.shape
    rows = torch.arange(m, device=planes.device)
    filled = planes.sum(dim=1).clamp(max=1)  # [M, H, W]
    col = filled[rows, :, columns]  # [M, H], top row first
    stack = torch.cumprod(col.flip(1), dim=1).sum(dim=1).long()  # filled cells from the bottom
    landing = h - 1 - stack
    move = torch.zeros(m, h, w, dtype=planes.dtype, device=planes.device)
    move[rows, landing, columns] = 1
    return torch.stack([planes[:, 0] + move, planes[:, 1], planes[:, 2], move], dim=1)


__all__ = ["PLANES", "afterstates"]
