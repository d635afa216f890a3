"""Snake observations for the nets: the thesis's four planes, on the board or around the head.

The thesis (2.1.3, Fig 2.5) feeds a ``10 x 11 x 4`` tensor: own head, own body, the enemy snake,
obstacles. The judge draws boards of 10..16 rows and 10..12 columns, so the encoder has two
layouts, chosen by ``game.params.encoding`` (``docs/games/snake_encoding.md``):

* ``pad`` (default). Planes ``[C, rows, cols]`` with cell ``(x, y)`` at row ``x - 1``,
  column ``y - 1`` (``x`` is the judge's row, ``y`` its column): 0 own head, 1 the rest of the
  own body, 2 the opponent's whole snake, 3 obstacles. When the game fixes the board
  (``game.params`` ``width`` and ``height``) the planes are exactly ``height x width`` and there
  are four of them: the thesis's ``10 x 11`` board (``height: 10, width: 11``) gives
  ``4 x 10 x 11`` = 440 inputs, which is what makes Table 2.2's MLP counts come out. When the
  size varies, the board sits at the top-left of the judge's largest one (16 x 12) and a fifth
  plane marks the cells off this match's board.
* ``ego``. The same four planes plus the off-board plane, on a crop centred on the observed
  snake's head (the head is always the centre cell). The default crop, ``2 * rows - 1`` by
  ``2 * cols - 1`` of the largest board the game allows, shows the whole board from any head
  position, so nothing is lost; ``ego_size`` takes a smaller odd window (a local view). The crop
  is not rotated: direction codes stay absolute, and the first turn has no "last direction" to
  rotate by.

Beyond the thesis, ``game.params.opponent_head: true`` adds a last plane with the opponent's
head (either layout; the version gets ``+head``). Why: the four planes do not say which end of
the opponent's snake is its head, and no rule tells when the length is odd, yet every bot sees
it (Botzone sends each bot the whole history). A search imitator reading the thesis's planes
must then answer every head the rules leave open, and on about half of a deterministic bot's
positions it does so unlike the bot (docs/imitators.md, "Snake's budgeted search"). Off by
default: the thesis's nets read four planes.

``game.params.turn_plane: true`` adds a last plane (after the head plane, if any) whose on-board
cells all hold the turn being decided (0-based, the growth rule's ``t``; 255 stands for 255 or
more); the version gets ``+turn``. Why: the snakes grow on each of the first 10 turns and then on
every third, so past 11 cells the planes leave three turns open, and with them when the tails leave;
a bot knows the turn (the history it is sent). A search imitator that must guess it counts some safe
moves as losses (docs/imitators.md, "The turn plane, the leaves budget and the climb under a
budget"). Nets read the raw count; off by default.

``game.params.order_plane: true`` adds a last plane (after the head and turn planes, if any)
whose cells of either snake hold their place from that snake's tail (1 = the tail, the head the
snake's length; 255 for 255 and above); the version gets ``+order``. Why: the planes give a
body's cells, not their order, so where several paths run through them the search does not know
which cell leaves next, and keeps a tail that the judge removes; every bot knows the order (the
history it is sent). It also gives the opponent's head (its largest place).

One action head ``direction`` (4 codes: 0 = x-1 (up), 1 = y+1 (right), 2 = x+1 (down), 3 = y-1
(left)) masked by the engine's legal directions (``SnakeState.legal_actions``: those that do not
die at once, or all four when the snake is boxed in). Both players move at once, so ``encode``
needs the deciding seat of every state; each seat sees itself as "own".

Forced decisions: a decision with a single legal direction gets an empty mask unless
``keep_forced`` (datasets drop and count such rows, as for Doudizhu and Gongzhu), and
:meth:`SnakeEncoder.select` plays that direction without asking the net. Why: the thesis's
random baselines, 40.0-47.3 % over its 22 bots, are what our zoo's datasets give without them
(39.6-46.8 % measured over 22 bots x 100 matches); with them they are 47.2-64.7 %, because
12.6-33.8 % of a bot's decisions are corridor moves (docs/games/snake.md, "The random
baseline").

Symmetry groups: ``none``, and ``rot180`` (identity + the half turn, directions ``d -> d + 2 mod
4``) for a fixed-size ``pad`` board and for ``ego``. The judge's rules, obstacle pairs and start
corners are symmetric through the centre, so a half-turned position is a position of the same
game (seen by the other seat of the turned game). The variable-size ``pad`` layout has only
``none`` (a half turn would move the board off the top-left corner).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ime.core.encoding import ActionHead, Encoder, Observation, Policy, Symmetry, grid_map
from ime.core.game import Action, State
from ime.games.snake import board as B

ENCODINGS = ("pad", "ego")
"""Values of ``game.params.encoding``."""
PAD_VERSION = "snake-pad-v1"
EGO_VERSION = "snake-ego-v1"
BOARD_PLANES = 4
"""Own head, own body, the opponent's snake, obstacles (thesis Fig 2.5)."""
HEAD_SUFFIX = "+head"
"""What ``opponent_head`` adds to an encoder's version (the planes are not the thesis's)."""
TURN_SUFFIX = "+turn"
"""What ``turn_plane`` adds to an encoder's version."""
TURN_CAP = 255
"""The turn plane's largest value (a ``uint8``): this turn or any later one."""
ORDER_SUFFIX = "+order"
"""What ``order_plane`` adds to an encoder's version."""
HEAD = ActionHead("direction", 4, "0 = x-1 (up), 1 = y+1 (right), 2 = x+1 (down), 3 = y-1 (left)")


def opponent_head_plane(state: State, player: int) -> np.ndarray:
    """``uint8[height, width]``: the opponent's head (the ``opponent_head`` plane)."""
    h, w = state.height, state.width  # type: ignore[attr-defined]
    out = np.zeros((h, w), np.uint8)
    hx, hy = divmod(int(B.head(state.S, 1 - player)), w + 2)  # type: ignore[attr-defined]
    out[hx - 1, hy - 1] = 1
    return out


def turn_value(state: State) -> int:
    """The turn plane's value: the turn being decided (0-based), at most :data:`TURN_CAP`."""
    return min(int(state.S[B.I_PLY]), TURN_CAP)  # type: ignore[attr-defined]


def order_values(state: State) -> np.ndarray:
    """``uint8[height, width]``: the order plane (each snake cell's place from its tail, 1 = the
    tail; at most 255)."""
    h, w = state.height, state.width  # type: ignore[attr-defined]
    S = state.S  # type: ignore[attr-defined]
    out = np.zeros((h, w), np.uint8)
    for p in (0, 1):
        for k in range(int(S[B.I_LEN + p])):
            x, y = divmod(int(B.segment(S, p, k)), w + 2)
            out[x - 1, y - 1] = min(k + 1, 255)
    return out


EXTRA_PLANES = (("opponent_head", HEAD_SUFFIX), ("turn_plane", TURN_SUFFIX),
                ("order_plane", ORDER_SUFFIX))
"""The encoder's options beyond the thesis's planes, in the order of their planes (after the
off-board plane, if any), each with what it adds to the version."""


def _suffix(opponent_head: bool, turn_plane: bool, order_plane: bool = False) -> str:
    """The version's suffix for the extra planes."""
    on = {"opponent_head": opponent_head, "turn_plane": turn_plane, "order_plane": order_plane}
    return "".join(suffix for name, suffix in EXTRA_PLANES if on[name])


def extra_options(version: str) -> dict[str, bool]:
    """Which of :data:`EXTRA_PLANES` an encoder of ``version`` has (a dataset's encoder
    version is all a reader of its planes needs)."""
    return {name: suffix in version for name, suffix in EXTRA_PLANES}


def board_planes(states: Sequence[State], players: Sequence[int]) -> list[np.ndarray]:
    """Per state, ``uint8[4, height, width]``: own head, own body, opponent, obstacles."""
    out = []
    for s, p in zip(states, players, strict=True):
        h, w = s.height, s.width  # type: ignore[attr-defined]
        S = s.S  # type: ignore[attr-defined]
        n = (h + 2) * (w + 2)
        cells = S[B.OFF_CELLS:B.OFF_CELLS + n].reshape(h + 2, w + 2)[1:h + 1, 1:w + 1]
        planes = np.zeros((BOARD_PLANES, h, w), np.uint8)
        planes[1] = cells == B.SNAKE0 + p
        planes[2] = cells == B.SNAKE1 - p
        planes[3] = cells == B.OBSTACLE
        hx, hy = divmod(int(B.head(S, p)), w + 2)
        planes[1, hx - 1, hy - 1] = 0
        planes[0, hx - 1, hy - 1] = 1
        out.append(planes)
    return out


def legal_masks(states: Sequence[State], players: Sequence[int]) -> np.ndarray:
    """``uint8[N, 4]``: the engine's legal directions (none once the game is over)."""
    mask = np.zeros((len(states), 4), np.uint8)
    for i, (s, p) in enumerate(zip(states, players, strict=True)):
        S = s.S  # type: ignore[attr-defined]
        if not S[B.I_DEAD]:
            m = int(B.legal_mask(S, p))
            mask[i] = [(m >> d) & 1 for d in range(4)]
    return mask


def _need_players(players: Sequence[int] | None) -> Sequence[int]:
    if players is None:
        raise ValueError("Snake is simultaneous: encode needs the deciding seat of each state")
    return players


class SnakeEncoder(Encoder):
    """What both layouts share: the direction head, its labels and decoding, the half turn, and
    what a forced decision (one legal direction) becomes: an empty mask unless ``keep_forced``."""

    opponent_head = turn_plane = order_plane = False

    def _extra(self, state: State, player: int) -> list[np.ndarray]:
        """The extra planes on the board (``uint8[height, width]`` each), in their order: the
        opponent's head, the turn, the bodies' order."""
        out = []
        if self.opponent_head:
            out.append(opponent_head_plane(state, player))
        if self.turn_plane:
            shape = (state.height, state.width)  # type: ignore[attr-defined]
            out.append(np.full(shape, turn_value(state), np.uint8))
        if self.order_plane:
            out.append(order_values(state))
        return out

    rows: int
    cols: int
    keep_forced: bool = False

    @property
    def afterstate_shape(self) -> tuple[int, ...]:
        """The encoder's own planes with the head moved (:mod:`ime.games.snake.afterstate`)."""
        return tuple(self.state_shape)

    def afterstates(self, planes, codes):  # type: ignore[no-untyped-def]
        from ime.games.snake.afterstate import afterstates

        return afterstates(planes, codes)

    def masks(self, states: Sequence[State], players: Sequence[int]) -> np.ndarray:
        """The legal masks as rows: :func:`legal_masks`, a single legal direction emptied
        unless ``keep_forced`` (the row carries no choice for a net to learn)."""
        mask = legal_masks(states, players)
        if not self.keep_forced:
            mask[mask.sum(axis=1) == 1] = 0
        return mask

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """The net's most probable legal direction (lowest code on ties); a forced decision
        (one legal direction, an empty mask) is played without asking the net."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return int(legal[0])
        return super().select(state, player, policy)

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        return np.asarray([int(a) for a in actions], dtype=np.int64).reshape(-1, 1)

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])

    def symmetries(self, group: str) -> list[Symmetry]:
        if group not in self.symmetry_groups:
            raise ValueError(f"encoder {self.version} has no symmetry group {group!r}; "
                             f"known: {list(self.symmetry_groups)}")
        dirs = np.arange(4)
        out = [Symmetry("id", np.arange(self.rows * self.cols), (dirs,))]
        if group == "rot180":
            out.append(Symmetry("rot180", grid_map("rot180", self.rows, self.cols),
                                ((dirs + 2) % 4,)))
        return out


class SnakePadEncoder(SnakeEncoder):
    """The board itself: ``4 x height x width`` for a fixed size, else ``5 x 16 x 12`` with an
    off-board plane (the board at the top-left)."""

    def __init__(self, width: int | None = None, height: int | None = None,
                 keep_forced: bool = False, opponent_head: bool = False,
                 turn_plane: bool = False, order_plane: bool = False) -> None:
        self.keep_forced = bool(keep_forced)
        self.opponent_head = bool(opponent_head)
        self.turn_plane = bool(turn_plane)
        self.order_plane = bool(order_plane)
        self.fixed = width is not None and height is not None
        self.rows = int(height) if self.fixed else B.MAX_H  # type: ignore[arg-type]
        self.cols = int(width) if self.fixed else B.MAX_W  # type: ignore[arg-type]
        planes = ((BOARD_PLANES if self.fixed else BOARD_PLANES + 1) + self.opponent_head
                  + self.turn_plane + self.order_plane)
        size = f"{self.rows}x{self.cols}" if self.fixed else "any"
        suffix = _suffix(self.opponent_head, self.turn_plane, self.order_plane)
        super().__init__(version=f"{PAD_VERSION}{suffix}:{size}",
                         heads=(HEAD,), state_shape=(planes, self.rows, self.cols),
                         symmetry_groups=("none", "rot180") if self.fixed else ("none",))

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        players = _need_players(players)
        out = np.zeros((len(states), *self.state_shape), np.uint8)
        if not self.fixed:
            out[:, BOARD_PLANES] = 1
        for i, planes in enumerate(board_planes(states, players)):
            h, w = planes.shape[1:]
            if self.fixed and (h, w) != (self.rows, self.cols):
                raise ValueError(f"a {h}x{w} Snake board (height x width) given to the encoder "
                                 f"of the fixed {self.rows}x{self.cols} board; set game.params "
                                 "width/height to match, or leave them out to pad")
            out[i, :BOARD_PLANES, :h, :w] = planes
            if not self.fixed:
                out[i, BOARD_PLANES, :h, :w] = 0
            for k, plane in enumerate(self._extra(states[i], players[i])):
                out[i, BOARD_PLANES + (not self.fixed) + k, :h, :w] = plane
        return Observation(out, [self.masks(states, players)])


class SnakeEgoEncoder(SnakeEncoder):
    """A crop centred on the observed head: the four planes and an off-board plane."""

    def __init__(self, rows: int, cols: int, keep_forced: bool = False,
                 opponent_head: bool = False, turn_plane: bool = False,
                 order_plane: bool = False) -> None:
        self.keep_forced = bool(keep_forced)
        self.opponent_head = bool(opponent_head)
        self.turn_plane = bool(turn_plane)
        self.order_plane = bool(order_plane)
        if rows < 1 or cols < 1 or rows % 2 == 0 or cols % 2 == 0:
            raise ValueError(f"the egocentric crop needs odd sides (the head is the centre "
                             f"cell), got {rows}x{cols}")
        self.rows, self.cols = int(rows), int(cols)
        suffix = _suffix(self.opponent_head, self.turn_plane, self.order_plane)
        super().__init__(version=f"{EGO_VERSION}{suffix}:{self.rows}x{self.cols}", heads=(HEAD,),
                         state_shape=(BOARD_PLANES + 1 + self.opponent_head + self.turn_plane
                                      + self.order_plane, self.rows, self.cols),
                         symmetry_groups=("none", "rot180"))

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        players = _need_players(players)
        out = np.zeros((len(states), *self.state_shape), np.uint8)
        out[:, BOARD_PLANES] = 1
        cr, cc = self.rows // 2, self.cols // 2
        for i, (planes, p, s) in enumerate(zip(board_planes(states, players), players, states,
                                               strict=True)):
            h, w = planes.shape[1:]
            hx, hy = s.head(p)  # type: ignore[attr-defined]
            dr, dc = cr - (hx - 1), cc - (hy - 1)  # board row r -> crop row r + dr
            r0, r1 = max(0, -dr), min(h, self.rows - dr)
            c0, c1 = max(0, -dc), min(w, self.cols - dc)
            out[i, :BOARD_PLANES, r0 + dr:r1 + dr, c0 + dc:c1 + dc] = planes[:, r0:r1, c0:c1]
            out[i, BOARD_PLANES, r0 + dr:r1 + dr, c0 + dc:c1 + dc] = 0
            for k, plane in enumerate(self._extra(s, p)):
                out[i, BOARD_PLANES + 1 + k, r0 + dr:r1 + dr, c0 + dc:c1 + dc] = \
                    plane[r0:r1, c0:c1]
        return Observation(out, [self.masks(states, players)])


def make_encoder(game: Any, encoding: str | None = None,
                 ego_size: Sequence[int] | None = None, keep_forced: bool = False,
                 opponent_head: bool | None = None,
                 turn_plane: bool | None = None,
                 order_plane: bool | None = None) -> SnakeEncoder:
    """The encoder of ``game`` (a ``SnakeGame``): layout ``encoding`` (else the game's
    ``encoding`` attribute, else ``pad``) for its board size (``width``/``height``, ``None`` when
    drawn per match). ``ego_size`` ``[rows, cols]`` (else the game's ``ego_size``) narrows the
    egocentric crop; by default it shows the whole largest board from any head position.
    ``keep_forced``: a single legal direction keeps its mask (``dataset.keep_forced``), so
    forced decisions become rows; by default they are dropped, as the thesis's baselines say.
    ``opponent_head`` (else the game's attribute, else off): the opponent's head plane;
    ``turn_plane``, ``order_plane`` (likewise): the turn and order planes."""
    enc = encoding or getattr(game, "encoding", None) or "pad"
    head = bool(getattr(game, "opponent_head", False) if opponent_head is None
                else opponent_head)
    turn = bool(getattr(game, "turn_plane", False) if turn_plane is None else turn_plane)
    order = bool(getattr(game, "order_plane", False) if order_plane is None else order_plane)
    width, height = getattr(game, "width", None), getattr(game, "height", None)
    if enc == "pad":
        return SnakePadEncoder(width, height, keep_forced, head, turn, order)
    if enc == "ego":
        size = ego_size if ego_size is not None else getattr(game, "ego_size", None)
        if size is None:
            rows = 2 * (B.MAX_H if height is None else int(height)) - 1
            cols = 2 * (B.MAX_W if width is None else int(width)) - 1
        else:
            rows, cols = (int(v) for v in size)
        return SnakeEgoEncoder(rows, cols, keep_forced, head, turn, order)
    raise ValueError(f"game.params.encoding must be one of {list(ENCODINGS)}, got {enc!r}")


__all__ = ["BOARD_PLANES", "ENCODINGS", "EGO_VERSION", "EXTRA_PLANES", "HEAD", "HEAD_SUFFIX",
           "ORDER_SUFFIX", "PAD_VERSION", "SnakeEgoEncoder", "SnakeEncoder", "SnakePadEncoder",
           "TURN_CAP", "TURN_SUFFIX", "board_planes", "extra_options", "legal_masks",
           "make_encoder", "opponent_head_plane", "order_values", "turn_value"]
