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

from ime.core.encoding import (
    ActionHead,
    Encoder,
    Observation,
    Policy,
    Symmetry,
    grid_map,
)
from ime.core.game import Action, State
from ime.games.reversi.bitboard import PASS, legal_moves

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
    obs = ReversiEncoder().encode(states)
    return obs.planes, obs.mask


# --- the plug-in's Encoder ------------------------------------------------------------------------
_SYMMETRY_GROUPS = {"none": ("id",), "sym4": ("id", "rot180", "diag", "antidiag"),
                    "sym8": ("id", "rot90", "rot180", "rot270", "diag", "antidiag", "flipx",
                             "flipy")}
"""``sym4``: the four symmetries that fix Reversi's initial position (identity, 180-degree
rotation, the two diagonal reflections), so a transformed game is a legal game from the same
start; ``sym8`` adds the other four (the full dihedral group). Thesis 6.2 lists symmetric
positions as an open question; the default ``none`` trains on the logs as they are."""


class ReversiEncoder(Encoder):
    """One head of 64 squares; a forced pass has an empty mask (no choice, not a dataset row)."""

    def __init__(self) -> None:
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("square", NUM_SQUARE_ACTIONS, "square y * 8 + x"),),
            state_shape=(PLANES, BOARD, BOARD),
            symmetry_groups=tuple(_SYMMETRY_GROUPS),
        )

    afterstate_planes = 6  # ime.games.reversi.afterstate

    def afterstates(self, planes, codes):  # type: ignore[no-untyped-def]
        from ime.games.reversi.afterstate import afterstates

        return afterstates(planes, codes)

    reply_lookahead = True

    def replies(self, after):  # type: ignore[no-untyped-def]
        from ime.games.reversi.afterstate import replies

        return replies(after)

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            players = [s.to_move for s in states]
        own = np.array([s.boards[p] for s, p in zip(states, players, strict=True)],
                       dtype=np.uint64)
        opp = np.array([s.boards[1 - p] for s, p in zip(states, players, strict=True)],
                       dtype=np.uint64)
        planes, mask = encode_boards(own, opp)
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        codes = np.asarray([int(a) for a in actions], dtype=np.int64).reshape(-1, 1)
        codes[codes == PASS] = -1
        return codes

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])

    def select(self, state: State, player: int, policy: Policy) -> Action:
        legal = state.legal_actions(player)
        if legal == [PASS]:
            return PASS
        return super().select(state, player, policy)

    def symmetries(self, group: str) -> list[Symmetry]:
        if group not in _SYMMETRY_GROUPS:
            raise ValueError(f"game.augment must be one of {list(_SYMMETRY_GROUPS)}, got {group!r}")
        out = []
        for name in _SYMMETRY_GROUPS[group]:
            dst = grid_map(name, BOARD, BOARD)
            out.append(Symmetry(name, dst, (dst,)))
        return out
