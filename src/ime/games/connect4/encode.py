"""Connect Four observations for the nets: ``3 x height x width`` planes and a column mask.

Plane 0 holds the discs of the player observed (the side to move by default), plane 1 the
opponent's, plane 2 the blocked cells. Row 0 of a plane is the *top* row of the board (as it is
drawn), column ``x`` is column ``x``. One action head, ``column``, of ``width`` codes; its mask
marks the columns that are not full.

Symmetry groups: ``none``, and ``flipx`` (identity + the left-right mirror, column ``x`` ->
``width - 1 - x``), which maps a position to an equivalent one only when the blocked cells are
mirror-symmetric; asking for it on another board raises.

Encoding is vectorised: boards go in as ``uint64`` arrays and come out through
``np.unpackbits``; no Python loop over cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ime.core.encoding import ActionHead, Encoder, Observation, Symmetry, grid_map
from ime.core.game import Action, State
from ime.games.connect4 import wide as wd
from ime.games.connect4.board import G_BLOCKED, G_BOTTOM, G_PLAYABLE, Geometry

ENCODER_VERSION = "connect4-planes-v1"
PLANES = 3


def bits_to_cells(boards: np.ndarray, geo: Geometry) -> np.ndarray:
    """``uint64[N]`` (or ``uint64[N, 3]`` word triples of a wide board, low word first) ->
    ``uint8[N, width, height]``: bit of cell ``(x, y)`` at ``[x, y]``."""
    b = np.ascontiguousarray(boards, dtype="<u8")
    b = b.view(np.uint8).reshape(b.shape[0], -1)
    bits = np.unpackbits(b, axis=1, bitorder="little")[:, : geo.width * geo.stride]
    return bits.reshape(-1, geo.width, geo.stride)[:, :, : geo.height]


def bits_to_planes(boards: np.ndarray, geo: Geometry) -> np.ndarray:
    """``uint64[N]`` (or ``uint64[N, 3]``) -> ``uint8[N, height, width]``, top row first."""
    return np.ascontiguousarray(bits_to_cells(boards, geo).transpose(0, 2, 1)[:, ::-1, :])


def encode_boards(own: np.ndarray, opp: np.ndarray, geo: Geometry
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Planes ``uint8[N, 3, height, width]`` and column mask ``uint8[N, width]``."""
    own = np.asarray(own, dtype=np.uint64)
    opp = np.asarray(opp, dtype=np.uint64)
    blocked = np.full(len(own), geo.g[G_BLOCKED], dtype=np.uint64)
    planes = np.stack([bits_to_planes(own, geo), bits_to_planes(opp, geo),
                       bits_to_planes(blocked, geo)], axis=1)
    filled = own | opp | blocked
    nxt = (filled + geo.g[G_BOTTOM]) & geo.g[G_PLAYABLE]
    mask = bits_to_cells(nxt, geo).any(axis=2).astype(np.uint8)
    return planes, mask


class Connect4Encoder(Encoder):
    """One head of ``width`` columns, for one board geometry."""

    def __init__(self, geometry: Geometry) -> None:
        groups = ("none", "flipx") if geometry.mirror_symmetric() else ("none",)
        super().__init__(
            version=ENCODER_VERSION,
            heads=(ActionHead("column", geometry.width, "column x, 0 = leftmost"),),
            state_shape=(PLANES, geometry.height, geometry.width),
            symmetry_groups=groups,
        )
        self.geometry = geometry

    afterstate_planes = 4  # ime.games.connect4.afterstate

    def afterstates(self, planes, codes):  # type: ignore[no-untyped-def]
        from ime.games.connect4.afterstate import afterstates

        return afterstates(planes, codes)

    def _check(self, states: Sequence[State]) -> None:
        for s in states:
            if s.game.geometry != self.geometry:  # type: ignore[attr-defined]
                raise ValueError(f"state of a {s.game!r} given to the encoder of a "
                                 f"{self.geometry.width}x{self.geometry.height} board "
                                 f"with blocked {list(self.geometry.blocked)}")

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        self._check(states)
        if players is None:
            players = [s.to_move for s in states]  # type: ignore[attr-defined]
        if self.geometry.wide:
            return self._encode_wide(states, players)
        own = np.array([s.boards[p] for s, p in zip(states, players, strict=True)],
                       dtype=np.uint64)
        opp = np.array([s.boards[1 - p] for s, p in zip(states, players, strict=True)],
                       dtype=np.uint64)
        planes, mask = encode_boards(own, opp, self.geometry)
        return Observation(planes, [mask])

    def _encode_wide(self, states: Sequence[State], players: Sequence[int]) -> Observation:
        """The same planes and mask on a wide board (Python-int boards as word triples)."""
        geo = self.geometry

        def words(bs: list[int]) -> np.ndarray:
            return np.array([wd.to_words(b) for b in bs], dtype=np.uint64).reshape(-1, wd.WORDS)

        own = words([s.boards[p] for s, p in zip(states, players, strict=True)])  # type: ignore[attr-defined]
        opp = words([s.boards[1 - p] for s, p in zip(states, players, strict=True)])  # type: ignore[attr-defined]
        blocked = words([geo.blocked_mask] * len(states))
        planes = np.stack([bits_to_planes(own, geo), bits_to_planes(opp, geo),
                           bits_to_planes(blocked, geo)], axis=1)
        nxt = words([s.next_cells() for s in states])  # type: ignore[attr-defined]
        mask = bits_to_cells(nxt, geo).any(axis=2).astype(np.uint8)
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        return np.asarray([int(a) for a in actions], dtype=np.int64).reshape(-1, 1)

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])

    def symmetries(self, group: str) -> list[Symmetry]:
        geo = self.geometry
        if group == "flipx" and not geo.mirror_symmetric():
            raise ValueError(f"game.augment=flipx needs mirror-symmetric blocked cells; "
                             f"{list(geo.blocked)} on a {geo.width}-wide board are not")
        if group not in ("none", "flipx"):
            raise ValueError(f"game.augment must be one of ['none', 'flipx'], got {group!r}")
        cols = np.arange(geo.width)
        out = [Symmetry("id", np.arange(geo.height * geo.width), (cols,))]
        if group == "flipx":
            out.append(Symmetry("flipx", grid_map("flipx", geo.height, geo.width),
                                (geo.width - 1 - cols,)))
        return out
