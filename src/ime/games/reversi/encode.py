"""Reversi observations for the nets (thesis 4.3.1): 2x8x8 planes + a 64-square legal mask.

Plane 0 holds the discs of the player to move, plane 1 the opponent's; square ``y * 8 + x`` sits at
``[y, x]``. The mask marks legal squares. Decisions where the only legal action is a pass carry
no choice and are not encoded (datasets drop them).

Encoding is vectorised: boards go in as ``uint64`` arrays and come out through ``np.unpackbits``,
with no Python loop over squares.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.games.reversi.bitboard import legal_moves

ENCODER_VERSION = "reversi-planes-v1"
PLANES = 2
BOARD = 8
NUM_SQUARE_ACTIONS = 64


def bits_to_planes(boards: np.ndarray) -> np.ndarray:
    """``uint64[N]`` -> ``uint8[N, 8, 8]`` with bit ``y*8+x`` at ``[y, x]``."""
    b = np.ascontiguousarray(boards, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(b, axis=1, bitorder="little").reshape(-1, BOARD, BOARD)


def encode_boards(own: np.ndarray, opp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``uint8[N, 2, 8, 8]`` and legal mask ``uint8[N, 64]`` from own/opponent bitboards."""
    own = np.asarray(own, dtype=np.uint64)
    opp = np.asarray(opp, dtype=np.uint64)
    planes = np.stack([bits_to_planes(own), bits_to_planes(opp)], axis=1)
    moves = np.fromiter((legal_moves(p, o) for p, o in zip(own, opp, strict=True)),
                        dtype=np.uint64, count=len(own))
    mask = bits_to_planes(moves).reshape(-1, NUM_SQUARE_ACTIONS)
    return planes, mask


def encode_states(states: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """Encode ReversiStates from the perspective of their player to move."""
    own = np.array([s.boards[s.to_move] for s in states], dtype=np.uint64)
    opp = np.array([s.boards[1 - s.to_move] for s in states], dtype=np.uint64)
    return encode_boards(own, opp)
