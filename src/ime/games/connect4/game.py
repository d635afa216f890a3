"""Connect Four on a configurable board with blocked cells (numba bitboards in ``board``).

Rules, exactly as implemented:

* ``width`` columns (0 = leftmost) of ``height`` cells, rows counted from the bottom; the
  standard board is 7x6. Any size with ``width * (height + 1) <= 64`` works.
* ``blocked``: cells ``[x, y]`` nobody can play. A disc dropped into a column falls onto the
  highest disc or blocked cell of that column: when the next free cell is blocked it lands on
  the first free cell above it (the Tsinghua course's "不可落子点" rule), and a column whose
  remaining cells are all blocked is full. A blocked cell belongs to nobody, so it breaks lines.
* Player 0 moves first; players alternate; an action is a column index.
* Four of one player's discs in a row (vertical, horizontal or diagonal) win at once: 2-0.
  A full board (every playable cell taken) without four is a draw: 1-1.
* A fault (unparsable response, a column off the board or full, a bot crash) loses 0-2
  (:meth:`Connect4State.forfeit`), as Botzone's judges score a fault.

The options travel in ``initdata`` (``{"width":..,"height":..,"blocked":[[x, y], ..]}``), so a
log replays on its own board.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.connect4 import codec
from ime.games.connect4.board import (
    ONE,
    ZERO,
    Geometry,
    column_cells,
    has_four,
    possible,
)
from ime.games.connect4.wide import py_has_four, py_possible

GAME_TYPE = GameType(
    short_name="connect4",
    long_name="Connect Four (configurable board and blocked cells)",
    num_players=2,
    simultaneous=False,
    hidden_information=False,
    botzone_game_id=None,
    simple_interaction=False,
)

_OPTION_KEYS = ("width", "height", "blocked")


class Connect4State(State):
    """Position and move history. ``boards[p]`` are player ``p``'s discs: an ``np.uint64`` on
    a board of at most 64 bits, a Python ``int`` on a wide one (``Geometry.wide``)."""

    __slots__ = ("game", "boards", "to_move", "history", "winner", "_terminal", "_returns",
                 "_last")

    def __init__(self, game: Connect4Game):
        self.game = game
        self.boards = [0, 0] if game.geometry.wide else [ZERO, ZERO]
        self.to_move = 0
        self.history: list[int] = []
        self.winner: int | None = None
        self._terminal = False
        self._returns: list[float] | None = None
        self._last: Any = ""

    # --- core API --------------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self._terminal else [self.to_move]

    def own_opp(self, player: int | None = None) -> tuple[Any, Any]:
        """``(discs of player, discs of the other)``; ``player`` defaults to the side to move."""
        p = self.to_move if player is None else player
        return self.boards[p], self.boards[1 - p]

    def next_cells(self) -> Any:
        """Bitboard of the cell each non-full column would receive."""
        geo = self.game.geometry
        if geo.wide:
            return py_possible(self.boards[0], self.boards[1], geo.bottom, geo.playable,
                               geo.blocked_mask)
        return possible(self.boards[0], self.boards[1], geo.g)

    def column_cell(self, col: int) -> Any:
        """The cell a disc dropped into column ``col`` would land on (0: full or off-board)."""
        geo = self.game.geometry
        if not 0 <= col < geo.width:
            return 0 if geo.wide else ZERO
        if geo.wide:
            return self.next_cells() & geo.columns[col]
        return self.next_cells() & column_cells(col, geo.g)

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._terminal or (player is not None and player != self.to_move):
            return []
        geo = self.game.geometry
        moves = self.next_cells()
        if geo.wide:
            return [c for c in range(geo.width) if moves & geo.columns[c]]
        return [c for c in range(self.game.width) if moves & column_cells(c, geo.g)]

    def apply_action(self, action: int) -> None:
        p = self.to_move
        if self._terminal:
            raise IllegalMoveError(p, "game is over", action)
        geo = self.game.geometry
        col = int(action)
        cell = self.column_cell(col)
        if not cell:
            raise IllegalMoveError(p, codec.INVALID_MOVE, action)
        discs = self.boards[p] | cell
        self.boards[p] = discs
        self.history.append(col)
        self._last = {"x": col, "y": (int(cell).bit_length() - 1) % geo.stride}
        if (py_has_four(discs, geo.stride) if geo.wide else has_four(discs, geo.g)):
            self.winner = p
            self._terminal = True
        elif not self.next_cells():
            self._terminal = True
        self.to_move = 1 - p

    def forfeit(self, player: int, reason: str) -> None:
        """End the game on a fault by ``player``: 0 for them, 2 for the other."""
        self._terminal = True
        self._returns = [0.0, 0.0]
        self._returns[1 - player] = 2.0
        self._last = {"err": reason, "winner": 1 - player}

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if not self._terminal:
            return [0.0, 0.0]
        if self.winner is None:
            return [1.0, 1.0]
        out = [0.0, 0.0]
        out[self.winner] = 2.0
        return out

    def clone(self) -> Connect4State:
        s = Connect4State.__new__(Connect4State)
        s.game = self.game
        s.boards = list(self.boards)
        s.to_move = self.to_move
        s.history = list(self.history)
        s.winner = self.winner
        s._terminal = self._terminal
        s._returns = None if self._returns is None else list(self._returns)
        s._last = self._last
        return s

    @property
    def ply(self) -> int:
        return len(self.history)

    # --- Botzone codec (ime.games.connect4.codec) -----------------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.history[-1] if self.history else None)

    def decode_response(self, player: int, response: Any) -> int:
        col = codec.parse_column(player, response, self.game.width)
        if not self.column_cell(col):
            raise IllegalMoveError(player, codec.INVALID_MOVE, response)
        return col

    def encode_response(self, player: int, action: int) -> dict:
        return codec.encode_response(int(action))

    def initdata(self) -> dict:
        return self.game.geometry.options()

    def display(self) -> Any:
        d = self._last
        if isinstance(d, dict) and self._terminal and "err" not in d and self.winner is not None:
            d = {**d, "winner": self.winner}
        return d

    # --- helpers ---------------------------------------------------------------------------------
    def cell(self, x: int, y: int) -> str:
        """``X`` (player 0), ``O`` (player 1), ``#`` (blocked) or ``.`` (empty)."""
        geo = self.game.geometry
        b = (1 << (x * geo.stride + y)) if geo.wide else ONE << np.uint64(x * geo.stride + y)
        if self.boards[0] & b:
            return "X"
        if self.boards[1] & b:
            return "O"
        return "#" if (x, y) in self.game.geometry.blocked else "."

    def __str__(self) -> str:
        w, h = self.game.width, self.game.height
        rows = [" ".join(self.cell(x, y) for x in range(w)) for y in reversed(range(h))]
        rows.append(" ".join(str(x % 10) for x in range(w)))
        rows.append("to move: " + ("-" if self._terminal else "XO"[self.to_move]))
        return "\n".join(rows)


class Connect4Game(Game):
    """The engine of one board: size and blocked cells (``game.params`` in the config)."""

    game_type = GAME_TYPE

    def __init__(self, width: int = 7, height: int = 6, blocked: Any = ()):
        self.geometry = Geometry(int(width), int(height), tuple(tuple(c) for c in blocked or ()))

    @property
    def width(self) -> int:
        return self.geometry.width

    @property
    def height(self) -> int:
        return self.geometry.height

    @property
    def blocked(self) -> tuple[tuple[int, int], ...]:
        return self.geometry.blocked

    @property
    def num_actions(self) -> int:
        return self.geometry.width

    def params(self) -> dict:
        return self.geometry.options()

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> Connect4State:
        """The empty board of this game, or of the board a log's ``initdata`` names."""
        return Connect4State(self._game_for(initdata))

    def _game_for(self, initdata: Any) -> Connect4Game:
        if isinstance(initdata, str) and initdata.strip():
            initdata = json.loads(initdata)
        if not initdata:
            return self
        if not isinstance(initdata, Mapping) or set(initdata) - set(_OPTION_KEYS):
            raise ValueError(f"connect4 initdata must be a mapping with keys {_OPTION_KEYS}, "
                             f"got {initdata!r}")
        opts = {**self.params(), **initdata}
        other = connect4_game(opts["width"], opts["height"],
                              tuple(tuple(c) for c in opts["blocked"] or ()))
        return self if other.geometry == self.geometry else other

    def state_from_moves(self, columns: Any) -> Connect4State:
        """The state after playing ``columns`` (ints, or a string of 1-based digits as in Pascal
        Pons' test sets: ``"4453"``)."""
        st = self.new_initial_state()
        cols = [int(c) - 1 for c in columns] if isinstance(columns, str) else list(columns)
        for c in cols:
            st.apply_action(c)
        return st

    def __repr__(self) -> str:
        return f"Connect4Game({self.params()})"


@functools.lru_cache(maxsize=64)
def connect4_game(width: int = 7, height: int = 6,
                  blocked: tuple[tuple[int, int], ...] = ()) -> Connect4Game:
    """One shared engine per board (logs name their board in ``initdata``)."""
    return Connect4Game(width, height, blocked)


GAME = connect4_game()
"""The standard 7x6 game."""
