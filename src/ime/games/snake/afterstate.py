"""Snake's afterstates for the lookahead imitator: where each legal direction takes the own head.

Why only the own move: both snakes move at once, so the position a direction leads to depends on
the opponent's unknown move; the lookahead net (:mod:`ime.nets.lookahead`) values the board with
the own snake moved and the rest as observed (an afterstate, as in a simultaneous-move game's
one-sided lookahead). The encoded planes do not say which body cell is the tail, so the body
keeps its cells and gains the old head's (as when the snake grows, which it does on the turns the
judge's growth rule says; the net learns what matters).

Afterstate planes, the encoder's own (:mod:`ime.games.snake.encode`), from the mover's view: 0 the
new head, 1 the body with the old head added, 2 the opponent's snake, 3 obstacles, and the
off-board plane where the layout has one. The ego layout is not re-centred: its head moves one
cell off the centre. Directions: 0 = row - 1 (the judge's x - 1, up), 1 = column + 1, 2 = row + 1,
3 = column - 1. tests/games/test_afterstates.py checks the head against the engine.
"""

from __future__ import annotations

import torch

from ime.core.encoding import shift_cells

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""(row, column) step of each direction code."""


def afterstates(planes: torch.Tensor, directions: torch.Tensor) -> torch.Tensor:
    """The afterstate planes (module doc) of moving the own head in ``directions`` (``int64[M]``)
    in ``planes`` (``[M, C, H, W]``, plane 0 the own head)."""
    head = torch.zeros_like(planes[:, 0])
    for d, (dr, dc) in enumerate(STEPS):
        rows = directions == d
        if bool(rows.any()):
            head[rows] = shift_cells(planes[rows, 0], dr, dc)
    body = (planes[:, 1] + planes[:, 0]).clamp(max=1)
    return torch.cat([head.unsqueeze(1), body.unsqueeze(1), planes[:, 2:]], dim=1)


__all__ = ["STEPS", "afterstates"]
