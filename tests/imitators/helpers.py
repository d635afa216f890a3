"""Shared helpers of the search imitator's tests: seeded positions and board symmetries."""

from __future__ import annotations

import numpy as np

from ime.core.encoding import grid_map
from ime.games.reversi.bitboard import BLACK_START, WHITE_START, flips, legal_moves

SYMMETRIES = ("id", "rot90", "rot180", "rot270", "diag", "antidiag", "flipx", "flipy")


def transform(board: int, name: str) -> int:
    """The bitboard under the board symmetry ``name`` (``ime.core.encoding.grid_map``)."""
    dst = grid_map(name, 8, 8)
    out = 0
    for sq in range(64):
        if (board >> sq) & 1:
            out |= 1 << int(dst[sq])
    return out


def play(P: int, O: int, sq: int) -> tuple[int, int]:
    """The position after the side owning ``P`` plays ``sq``, seen by the next side to move."""
    f = int(flips(np.uint64(P), np.uint64(O), sq))
    return O ^ f, P | f | (1 << sq)


def moves_of(P: int, O: int) -> list[int]:
    """Legal squares, ascending."""
    m = int(legal_moves(np.uint64(P), np.uint64(O)))
    return [s for s in range(64) if (m >> s) & 1]


def random_positions(n: int, seed: int, min_ply: int = 4, max_ply: int = 50,
                     with_pass: bool = False) -> list[tuple[int, int]]:
    """``n`` positions (side to move has a legal move) from seeded random games, at random plies;
    passes are played through. ``with_pass``: keep only positions whose side to move has a
    child in which the opponent must pass (exercises the search's pass handling)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        P, O = int(BLACK_START), int(WHITE_START)
        stop = int(rng.integers(min_ply, max_ply))
        for _ in range(stop):
            mv = moves_of(P, O)
            if not mv:
                if not moves_of(O, P):
                    break
                P, O = O, P
                continue
            P, O = play(P, O, mv[int(rng.integers(len(mv)))])
        mv = moves_of(P, O)
        if not mv:
            continue
        if with_pass and not any(not moves_of(*play(P, O, s)) for s in mv):
            continue
        out.append((P, O))
    return out
