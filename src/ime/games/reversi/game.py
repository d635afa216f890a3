"""Reversi with Botzone's rules, on numba bitboards.

Rules follow Botzone's judge (``Reversi.cpp``) move for move:

* player 0 is black and moves first; its first request is ``{"x": -1, "y": -1}``;
* every turn is explicit: a player with no legal move must answer ``{"x": -1, "y": -1}`` (a pass);
  passing while a move exists, an illegal square, or unparsable output loses 0-2;
* the game ends right after a *move* that leaves neither side a legal move (the judge never checks
  after a pass, and none is needed: a pass always leaves the other side a move); more discs wins
  2-0, equal discs 1-1.

Action codes: square ``y * 8 + x`` (0..63), ``PASS = 64``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.reversi import codec
from ime.games.reversi.bitboard import (
    BLACK_START,
    PASS,
    WHITE_START,
    legal_moves,
    play,
    popcount,
)

NUM_SQUARES = 64
NUM_ACTIONS = 65  # 64 squares + pass
FILES = "ABCDEFGH"


def square_name(sq: int) -> str:
    """``0 -> "A1"``, ``63 -> "H8"``, ``PASS -> "pass"``."""
    if sq == PASS:
        return "pass"
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def parse_square(name: str) -> int:
    name = name.strip().upper()
    if name in ("PASS", "PS", "--"):
        return PASS
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"not a square: {name!r} (expected A1..H8)")
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def bits_to_squares(b: int) -> list[int]:
    out = []
    b = int(b)
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


class ReversiState(State):
    """Position + full action history. ``boards[0]`` is black, ``boards[1]`` white."""

    __slots__ = ("game", "boards", "to_move", "history", "_terminal", "_returns", "_last")

    def __init__(self, game: ReversiGame, black: int, white: int, to_move: int = 0):
        self.game = game
        self.boards = [np.uint64(black), np.uint64(white)]
        self.to_move = to_move
        self.history: list[int] = []
        self._terminal = False
        self._returns: list[float] | None = None
        self._last: Any = ""

    # --- core API --------------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self._terminal else [self.to_move]

    def own_opp(self, player: int | None = None) -> tuple[np.uint64, np.uint64]:
        p = self.to_move if player is None else player
        return self.boards[p], self.boards[1 - p]

    def legal_moves_bits(self) -> np.uint64:
        P, O = self.own_opp()
        return legal_moves(P, O)

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._terminal or (player is not None and player != self.to_move):
            return []
        squares = bits_to_squares(self.legal_moves_bits())
        return squares if squares else [PASS]

    def apply_action(self, action: int) -> None:
        if self._terminal:
            raise IllegalMoveError(self.to_move, "game is over", action)
        p = self.to_move
        P, O = self.own_opp()
        if action == PASS:
            if legal_moves(P, O):
                raise IllegalMoveError(p, "HE_THOUGHT_THAT_HE_COULDNOT_MOVE_BUT_IN_FACT_HE_CAN")
            self._last = {"x": -1, "y": -1}
        else:
            if not (0 <= action < 64):
                raise IllegalMoveError(p, "INVALID_MOVE", action)
            # One compiled call (moves, the move and the end test): forks replay many plies.
            sq = int(action)
            moves, nP, nO, over = play(P, O, sq)
            if not (moves >> sq) & 1:
                raise IllegalMoveError(p, "INVALID_MOVE", action)
            self.boards[p] = np.uint64(nP)
            self.boards[1 - p] = np.uint64(nO)
            self._last = {"x": action % 8, "y": action // 8}
            if over:
                self._terminal = True
        self.history.append(int(action))
        self.to_move = 1 - p

    def forfeit(self, player: int, reason: str) -> None:
        """End the game as the judge does on a fault by ``player``: 0 for them, 2 for the other."""
        self._terminal = True
        self._returns = [0.0, 0.0]
        self._returns[1 - player] = 2.0
        self._last = {"err": reason, "winner": 1 - player}

    def is_terminal(self) -> bool:
        return self._terminal

    def disc_counts(self) -> tuple[int, int]:
        return int(popcount(self.boards[0])), int(popcount(self.boards[1]))

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if not self._terminal:
            return [0.0, 0.0]
        b, w = self.disc_counts()
        if b > w:
            return [2.0, 0.0]
        if b < w:
            return [0.0, 2.0]
        return [1.0, 1.0]

    def clone(self) -> ReversiState:
        s = ReversiState.__new__(ReversiState)
        s.game = self.game
        s.boards = list(self.boards)
        s.to_move = self.to_move
        s.history = list(self.history)
        s._terminal = self._terminal
        s._returns = None if self._returns is None else list(self._returns)
        s._last = self._last
        return s

    @property
    def ply(self) -> int:
        return len(self.history)

    def position_key(self) -> tuple[int, int, int]:
        """Black's and white's discs and the side to move: all a position-pure bot reads (the
        zoo's deterministic alpha-beta bots)."""
        return int(self.boards[0]), int(self.boards[1]), self.to_move

    # --- Botzone codec (ime.games.reversi.codec) ------------------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.history[-1] if self.history else None)

    def decode_response(self, player: int, response: Any) -> int:
        return codec.decode_response(player, response)

    def encode_response(self, player: int, action: int) -> dict:
        return codec.encode_response(int(action))

    def initdata(self) -> Any:
        return ""

    def display(self) -> Any:
        d = self._last
        if isinstance(d, dict) and self._terminal and "err" not in d:
            d = dict(d)
            r = self.returns()
            if r[0] != r[1]:
                d["winner"] = 0 if r[0] > r[1] else 1
        return d

    # --- helpers ---------------------------------------------------------------------------------
    def board_string(self) -> str:
        """64 chars A1..H8 row by row: X black, O white, - empty (``ime solve`` format)."""
        b, w = int(self.boards[0]), int(self.boards[1])
        return "".join(
            "X" if (b >> i) & 1 else "O" if (w >> i) & 1 else "-" for i in range(64)
        )

    def __str__(self) -> str:
        s = self.board_string()
        rows = ["  " + " ".join(FILES)]
        for y in range(8):
            rows.append(f"{y + 1} " + " ".join(s[y * 8 : y * 8 + 8]))
        rows.append(f"to move: {'X (black)' if self.to_move == 0 else 'O (white)'}")
        return "\n".join(rows)


GAME_TYPE = GameType(
    short_name="reversi",
    long_name="Reversi (Botzone rules)",
    num_players=2,
    simultaneous=False,
    hidden_information=False,
    botzone_game_id="53e1db360003e29c2ba227b8",
    simple_interaction=True,
)


class ReversiGame(Game):
    game_type = GAME_TYPE
    num_actions = NUM_ACTIONS

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> ReversiState:
        return ReversiState(self, int(BLACK_START), int(WHITE_START), 0)

    def state_from_board(self, board: str, to_move: str) -> ReversiState:
        """A position from the 64-char board string (no history: it cannot be replayed)."""
        board = board.strip()
        if len(board) != 64 or set(board) - set("XO-"):
            raise ValueError("board must be 64 chars of X, O, - (A1..H8 row by row)")
        if to_move not in ("X", "O"):
            raise ValueError("to-move must be X or O")
        black = sum(1 << i for i, c in enumerate(board) if c == "X")
        white = sum(1 << i for i, c in enumerate(board) if c == "O")
        st = ReversiState(self, black, white, 0 if to_move == "X" else 1)
        if not legal_moves(np.uint64(black), np.uint64(white)) and not legal_moves(
            np.uint64(white), np.uint64(black)
        ):
            st._terminal = True
        return st


GAME = ReversiGame()
