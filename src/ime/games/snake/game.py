"""Botzone's two-player simultaneous Snake, exactly as its judge ``Snake.cpp`` plays it.

Rules (``docs/games/snake.md`` has the whole account and what was read from the judge):

* A board of ``height`` rows (``x`` = 1..height) and ``width`` columns (``y`` = 1..width):
  width 10..12, height 10..16, drawn by the judge's own random generator so that
  ``width + height`` is odd, unless ``game.params`` fix them. Snake 0 starts at (1, 1),
  snake 1 at (height, width), both of length 1.
* ``width * height // 10`` obstacles (rounded down to pairs), placed in pairs symmetric through
  the centre, never on a start, redrawn until every free cell is connected.
* Both players answer every turn; ``current_players()`` is ``[0, 1]`` until the end, and
  ``apply_actions({0: d0, 1: d1})`` plays the turn. Directions: 0 = x-1, 1 = y+1, 2 = x+1,
  3 = y-1.
* Turn ``t`` (0-based) grows both snakes if ``t <= 9`` or ``(t - 9) % 3 == 0``; otherwise both
  tails go *before* the heads move. A snake that leaves the board, or enters an obstacle or a
  body, dies; snake 1 entering snake 0's new head kills both (the judge moves snake 0 first).
* One snake dead: 2/0 for the other; both: 1/1.

**Legal actions.** The judge accepts any response and kills a snake whose direction is not
valid (its ``display.err`` is ``INVALIDMOVE``, as for Reversi's illegal move), so the engine's
legal actions are the *valid* directions (:meth:`SnakeState.valid_actions`, which ignore the
opponent's move); a boxed-in snake has none, and then all four are legal (every answer loses).
An invalid direction while a valid one exists is an :class:`IllegalMoveError` (a fault, scored
0/2 or 1/1 exactly as the judge scores that turn: see :meth:`SnakeState.forfeit`).

The numba kernels and the state-vector layout that search bots use are in
:mod:`ime.games.snake.board`; ``state.S`` is the vector.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ime.core.codec import jsoncpp_int
from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.snake import board as B
from ime.games.snake import codec

GAME_TYPE = GameType(
    short_name="snake",
    long_name="Snake (Botzone two-player simultaneous snake)",
    num_players=2,
    simultaneous=True,
    hidden_information=False,
    botzone_game_id="550183b60003e25477128460",
    simple_interaction=False,
)

DIRECTIONS = ("up", "right", "down", "left")
"""Names of directions 0..3 with ``x`` the row counted from the top: x-1, y+1, x+1, y-1."""


def _option(v: Any) -> int:
    i = jsoncpp_int(v)
    return B.NO_OPTION if i is None else i


class SnakeState(State):
    """A position: the board, both snakes (``S``, the kernels' state vector) and the history of
    joint moves. Bots read it through the helpers below or hand ``S`` to the kernels."""

    __slots__ = ("game", "width", "height", "obstacles", "S", "history", "_ply0", "_submitted",
                 "_faults", "_display")

    def __init__(self, game: SnakeGame, width: int, height: int,
                 obstacles: Sequence[tuple[int, int]]):
        self.game = game
        self.width = int(width)
        self.height = int(height)
        self.obstacles = tuple((int(x), int(y)) for x, y in obstacles)
        obs = np.array(self.obstacles, dtype=np.int64).reshape(-1, 2)
        self.S = B.new_state(self.height, self.width, obs)
        self.history: list[tuple[int, int]] = []
        self._ply0 = 0
        self._submitted: dict[int, int] = {}
        self._faults: dict[int, str] = {}
        self._display: Any = ""

    # --- core API --------------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self.S[B.I_DEAD] else [0, 1]

    def valid_actions(self, player: int) -> list[int]:
        """Directions that do not kill ``player`` this turn whatever the opponent plays, except
        by a head-on collision (the judge's ``validDirection`` after this turn's tails go)."""
        if self.S[B.I_DEAD]:
            return []
        m = B.valid_mask(self.S, player)
        return [d for d in range(4) if (m >> d) & 1]

    def legal_actions(self, player: int) -> list[int]:
        """:meth:`valid_actions`, or all four directions when there is none (any answer loses)."""
        if self.S[B.I_DEAD]:
            return []
        m = B.legal_mask(self.S, player)
        return [d for d in range(4) if (m >> d) & 1]

    def apply_action(self, action: Any) -> None:
        raise IllegalMoveError(0, "both snakes move at once: use apply_actions", action)

    def apply_actions(self, actions: Mapping[int, Any]) -> None:
        """Play one turn; raises :class:`IllegalMoveError` for the first player (0, then 1)
        whose direction is not legal, leaving the state unchanged (the judge then calls
        :meth:`forfeit`)."""
        if self.S[B.I_DEAD]:
            raise IllegalMoveError(0, "game is over", actions)
        a = [int(actions[0]), int(actions[1])]
        self._submitted = {0: a[0], 1: a[1]}
        for p in (0, 1):
            if not 0 <= a[p] <= 3 or not (B.legal_mask(self.S, p) >> a[p]) & 1:
                raise IllegalMoveError(p, codec.INVALID_MOVE, actions[p])
        grow = bool(B.grows(self.ply))
        B.step(self.S, a[0], a[1])
        self.history.append((a[0], a[1]))
        self._submitted = {}
        self._set_display(grow, {0: a[0], 1: a[1]}, codec.INVALID_MOVE)

    def forfeit(self, player: int, reason: str) -> None:
        """End the turn on a fault by ``player`` (an invalid response, a crash, a time-out): it
        loses, and the other snake's move of this turn is judged as ``Snake.cpp`` judges it,
        so both may lose (1/1). The other's move is the one it submitted to
        :meth:`decode_response` or :meth:`apply_actions` this turn; a player that submitted
        none faulted too (the judge's missing response). A second call in the same turn (a
        second faulty player) makes it 1/1."""
        if self.S[B.I_DEAD]:
            if self._faults and player not in self._faults:
                self._faults[player] = reason
                self.S[B.I_DEAD] = 3
                self._display = {**self._display, "err": codec.BOTH_DIE}
                self._display.pop("winner", None)
            return
        a = [-1, -1]
        q = 1 - player
        a[q] = self._submitted.get(q, -1)
        self._faults = {player: reason}
        grow = bool(B.grows(self.ply))
        B.step(self.S, a[0], a[1])
        self._submitted = {}
        self._set_display(grow, {p: d for p, d in enumerate(a) if d != -1}, reason)

    def _set_display(self, grow: bool, directions: Mapping[int, int], err: str) -> None:
        """The judge's ``display`` of the turn just played."""
        d: dict[str, Any] = {str(p): int(v) for p, v in sorted(directions.items())}
        d["grow"] = "true" if grow else "false"
        dead = int(self.S[B.I_DEAD])
        if dead == 3:
            d["err"] = codec.BOTH_DIE
        elif dead:
            loser = 0 if dead == 1 else 1
            d["err"] = self._faults.get(loser, err)
            d["winner"] = str(1 - loser)
        self._display = d

    def is_terminal(self) -> bool:
        return bool(self.S[B.I_DEAD])

    def returns(self) -> list[float]:
        s0, s1 = B.scores(int(self.S[B.I_DEAD]))
        return [float(s0), float(s1)]

    def clone(self) -> SnakeState:
        s = SnakeState.__new__(SnakeState)
        s.game = self.game
        s.width, s.height, s.obstacles = self.width, self.height, self.obstacles
        s.S = self.S.copy()
        s.history = list(self.history)
        s._ply0 = self._ply0
        s._submitted = dict(self._submitted)
        s._faults = dict(self._faults)
        s._display = self._display
        return s

    @property
    def ply(self) -> int:
        """Turns played (both snakes' moves are one turn), including those before a set-up
        position (:meth:`SnakeGame.state_from_bodies`)."""
        return self._ply0 + len(self.history)

    # --- Botzone codec (ime.games.snake.codec) ---------------------------------------------------
    def request_for(self, player: int) -> dict:
        if self._ply0:
            raise ValueError("a set-up Snake position has no Botzone transcript")
        if not self.history:
            return codec.first_request(player, self.width, self.height, self.obstacles)
        return codec.later_request(self.history[-1][1 - player])

    def decode_response(self, player: int, response: Any) -> int:
        """The direction of ``response``; raises :class:`IllegalMoveError` with the judge's
        reason for an invalid input or a direction that is not legal. A decoded direction is
        remembered for this turn (see :meth:`forfeit`)."""
        d = codec.parse_direction(player, response)
        self._submitted[player] = d
        if not 0 <= d <= 3 or not (B.legal_mask(self.S, player) >> d) & 1:
            raise IllegalMoveError(player, codec.INVALID_MOVE, response)
        return d

    def encode_response(self, player: int, action: int) -> dict:
        return codec.encode_response(int(action))

    def initdata(self) -> dict:
        return codec.make_initdata(self.width, self.height, self.obstacles)

    def display(self) -> Any:
        return self._display

    # --- helpers for bots and encoders -----------------------------------------------------------
    @property
    def grows_now(self) -> bool:
        """Whether the snakes grow on this turn (else both tails go before the heads move)."""
        return bool(B.grows(self.ply))

    def cell(self, x: int, y: int) -> int:
        """Code of cell ``(x, y)`` (0..height+1, 0..width+1): ``board.EMPTY``, ``BORDER``,
        ``OBSTACLE``, ``SNAKE0`` or ``SNAKE1``."""
        return int(self.S[B.OFF_CELLS + x * (self.width + 2) + y])

    def grid(self) -> np.ndarray:
        """The cell codes as ``int32[height + 2, width + 2]`` (row ``x``, column ``y``; the
        padding is ``BORDER``), a copy."""
        n = (self.height + 2) * (self.width + 2)
        return self.S[B.OFF_CELLS:B.OFF_CELLS + n].reshape(self.height + 2,
                                                           self.width + 2).copy()

    def _xy(self, c: int) -> tuple[int, int]:
        x, y = divmod(int(c), self.width + 2)
        return x, y

    def head(self, player: int) -> tuple[int, int]:
        return self._xy(B.head(self.S, player))

    def body(self, player: int) -> list[tuple[int, int]]:
        """Snake ``player``'s cells, head first (the judge's list order)."""
        n = int(self.S[B.I_LEN + player])
        return [self._xy(B.segment(self.S, player, k)) for k in range(n - 1, -1, -1)]

    def area_after(self, player: int, direction: int) -> int:
        """Free cells reachable from ``player``'s head after it moves ``direction`` alone
        (tails of this turn removed, the opponent unmoved); -1 if the move is not valid."""
        return int(B.area_after(self.S, player, direction))

    def __str__(self) -> str:
        marks = {B.EMPTY: ".", B.OBSTACLE: "#", B.SNAKE0: "a", B.SNAKE1: "b"}
        rows = [[marks.get(self.cell(x, y), "?") for y in range(1, self.width + 1)]
                for x in range(1, self.height + 1)]
        for p, ch in ((0, "A"), (1, "B")):
            x, y = self.head(p)
            rows[x - 1][y - 1] = ch
        out = ["".join(r) for r in rows]
        out.append(f"turn {self.ply}, {'over ' + str(self.returns()) if self.is_terminal() else ''}"
                   .rstrip(", "))
        return "\n".join(out)


class SnakeGame(Game):
    """The engine. ``width``/``height`` (``game.params``) fix the board size; left out, every
    match draws its size as the judge does. Obstacles always come from the match's seed.
    ``encoding`` / ``ego_size`` choose the encoder's layout, ``opponent_head`` adds the
    opponent's head plane, ``turn_plane`` the turn plane and ``order_plane`` the bodies' order
    (they change no rule)."""

    game_type = GAME_TYPE
    num_actions = 4

    def __init__(self, width: int | None = None, height: int | None = None,
                 encoding: str = "pad", ego_size: Sequence[int] | None = None,
                 opponent_head: bool = False, turn_plane: bool = False,
                 order_plane: bool = False):
        if width is not None and not B.MIN_W <= int(width) <= B.MAX_W:
            raise ValueError(f"snake width must be {B.MIN_W}..{B.MAX_W} (the judge's range), "
                             f"got {width}")
        if height is not None and not B.MIN_H <= int(height) <= B.MAX_H:
            raise ValueError(f"snake height must be {B.MIN_H}..{B.MAX_H} (the judge's range), "
                             f"got {height}")
        if width is not None and height is not None and (int(width) + int(height)) % 2 == 0:
            raise ValueError(f"snake width + height must be odd (the judge draws no other "
                             f"board), got {width} + {height}")
        from ime.games.snake.encode import ENCODINGS

        if encoding not in ENCODINGS:
            raise ValueError(f"snake encoding must be one of {list(ENCODINGS)}, got {encoding!r}")
        self.width = None if width is None else int(width)
        self.height = None if height is None else int(height)
        self.encoding = encoding
        """The nets' view (``docs/games/snake_encoding.md``): ``pad`` or ``ego``."""
        self.ego_size = None if ego_size is None else [int(x) for x in ego_size]
        if not isinstance(opponent_head, bool):
            raise ValueError(f"snake opponent_head must be true or false, got {opponent_head!r}")
        self.opponent_head = opponent_head
        """A last plane with the opponent's head (beyond the thesis; off by default)."""
        if not isinstance(turn_plane, bool):
            raise ValueError(f"snake turn_plane must be true or false, got {turn_plane!r}")
        self.turn_plane = turn_plane
        """A last plane with the turn being decided (beyond the thesis; off by default)."""
        if not isinstance(order_plane, bool):
            raise ValueError(f"snake order_plane must be true or false, got {order_plane!r}")
        self.order_plane = order_plane
        """A last plane with the bodies' order (beyond the thesis; off by default)."""

    def params(self) -> dict:
        out = {k: v for k, v in (("width", self.width), ("height", self.height)) if v is not None}
        if self.encoding != "pad":
            out["encoding"] = self.encoding
        if self.ego_size is not None:
            out["ego_size"] = list(self.ego_size)
        if self.opponent_head:
            out["opponent_head"] = True
        if self.turn_plane:
            out["turn_plane"] = True
        if self.order_plane:
            out["order_plane"] = True
        return out

    def board(self, seed: int = 0) -> tuple[int, int, list[tuple[int, int]]]:
        """``(width, height, obstacles)`` the judge draws for ``initdata {"seed": seed mod 2**32}``
        with this game's size options."""
        w_opt = B.NO_OPTION if self.width is None else self.width
        h_opt = B.NO_OPTION if self.height is None else self.height
        w, h, obs = B.judge_board(int(seed), w_opt, h_opt)
        return int(w), int(h), [(int(x), int(y)) for x, y in obs]

    def random_initdata(self, seed: int) -> dict:
        """The full ``initdata`` of the board of ``seed`` (to pin a match's board)."""
        w, h, obs = self.board(seed)
        return codec.make_initdata(w, h, obs)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> SnakeState:
        """The start of a match. ``initdata`` (an object or a JSON string) is read as the judge
        reads it: a stored board (with an ``obstacle`` list) is used as it is; otherwise the
        board is drawn from its ``seed`` (else ``seed``, else 0) and its ``width``/``height``
        (else this game's options)."""
        data = codec.load_initdata(initdata)
        seed_used = jsoncpp_int(data.get("seed"))
        if seed_used is None:
            seed_used = 0 if seed is None else int(seed)
        w_opt = _option(data["width"]) if "width" in data else (
            B.NO_OPTION if self.width is None else self.width)
        h_opt = _option(data["height"]) if "height" in data else (
            B.NO_OPTION if self.height is None else self.height)
        if "obstacle" in data:
            g = B.glibc_srand(seed_used)
            w, h = B.judge_size(g, w_opt, h_opt)
            obs = codec.obstacles_from_json(data["obstacle"], int(w), int(h))
        else:
            w, h, arr = B.judge_board(seed_used, w_opt, h_opt)
            obs = [(int(x), int(y)) for x, y in arr]
        return SnakeState(self, int(w), int(h), obs)

    def state_from_moves(self, initdata: Any, moves: Sequence[tuple[int, int]]) -> SnakeState:
        """The state after the joint moves ``(d0, d1)`` on the board of ``initdata``."""
        st = self.new_initial_state(initdata)
        for d0, d1 in moves:
            st.apply_actions({0: d0, 1: d1})
        return st

    def state_from_bodies(self, width: int, height: int, obstacles: Sequence[tuple[int, int]],
                          bodies: Sequence[Sequence[tuple[int, int]]], ply: int = 0
                          ) -> SnakeState:
        """A set-up position: both snakes' cells (head first) before turn ``ply``. It has no
        move history, so it cannot be logged; tests, key positions and bots' unit tests use it.
        Raises ValueError for a body off the board, on an obstacle, overlapping, or not a chain
        of neighbouring cells."""
        st = SnakeState(self, width, height, obstacles)
        S = st.S
        taken = set(st.obstacles)
        for p, body in enumerate(bodies):
            cells = [(int(x), int(y)) for x, y in body]
            if not cells:
                raise ValueError(f"snake {p} has no cells")
            for k, (x, y) in enumerate(cells):
                if not (1 <= x <= st.height and 1 <= y <= st.width) or (x, y) in taken:
                    raise ValueError(f"snake {p} cell ({x}, {y}) is off the board, on an "
                                     "obstacle or on another segment")
                if k and abs(x - cells[k - 1][0]) + abs(y - cells[k - 1][1]) != 1:
                    raise ValueError(f"snake {p} cells {cells[k - 1]} and {(x, y)} are not "
                                     "neighbours")
                taken.add((x, y))
            B.clear_snake(S, p)
            for x, y in reversed(cells):
                B.push(S, p, x * (st.width + 2) + y)
        S[B.I_PLY] = int(ply)
        st._ply0 = int(ply)
        return st

    def state_from_transcript(self, requests: Sequence[Any], responses: Sequence[Any]
                              ) -> tuple[SnakeState, int]:
        """``(state, seat)`` a bot rebuilds from its Botzone requests and responses."""
        board, seat, moves = codec.transcript_moves(requests, responses)
        return self.state_from_moves(board, moves), seat

    def __repr__(self) -> str:
        return f"SnakeGame({self.params()})"


GAME = SnakeGame()
"""The judge's game: every match draws its board size."""
