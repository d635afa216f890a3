"""The engine state both shedding games share: dealt hands, the plays so far, the judge's checks
and the display.

Seats play in turn (a pass is a turn). The leader (game start, or every other seat passed since
its play) must play; a follower passes or beats the last play. The first to empty its hand wins.
Actions are tuples of card ids, ascending; ``()`` is a pass. ``legal_actions`` lists one action
per legal rank multiset with the lowest card ids of each rank (the pass first when following);
``apply_action`` and ``decode_response`` accept any card ids of the player's hand, as a judge
does, so any log replays card for card.

A game subclasses :class:`SheddingState` with its seats, its deck (card ids, ranks), its play
class (``HandType``, ``Combo``) and judge (``rules.check_play``, ``rules.reported_code``) as
class attributes, and writes its move generation (``_generate``), scores, requests and text
form: the judges differ in the order of their checks and in their scores, the generators in
their output. The plays of :attr:`history` are kept in ``_plays``; each game names them
(``types``, ``combos``), as it names the legal plays (``legal_types``, ``legal_combos``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np

from ime.core.game import IllegalMoveError, State
from ime.games.shedding.codec import encode_response, parse_response
from ime.games.shedding.judge import CARD_CODES, PlayError

PLAYED, UNDEALT = -1, -2
""":attr:`SheddingState.where` of a card on the table, and of one dealt to nobody."""

S = TypeVar("S", bound="SheddingState")


class LegalPlays(ABC):
    """The legal moves of the player to move at one ply (computed once, shared by clones).

    ``moves`` is the game's generator output, one ``meta`` and ``counts`` row per non-pass play;
    when following, ``actions`` starts with the pass. A subclass gives :attr:`pass_play` and
    :meth:`decode` (a generator row -> the game's play).
    """

    __slots__ = ("actions", "index", "moves", "lead", "_plays")
    pass_play: ClassVar[Any]

    def __init__(self, actions: list[tuple[int, ...]], moves: Any, lead: bool):
        self.actions = actions
        self.index = {a: i for i, a in enumerate(actions)}
        self.moves = moves
        self.lead = lead
        self._plays: list[Any] | None = None

    @abstractmethod
    def decode(self, meta: list[int], counts: list[int]) -> Any:
        """The play of one generator row."""

    def play_at(self, i: int) -> Any:
        """The play of ``actions[i]``."""
        if not self.lead:
            if i == 0:
                return self.pass_play
            i -= 1
        return self.decode(self.moves.meta[i].tolist(), self.moves.counts[i].tolist())

    def plays(self) -> list[Any]:
        """The play of every action, in order (decoded once)."""
        if self._plays is None:
            self._plays = [self.play_at(i) for i in range(len(self.actions))]
        return self._plays


class SheddingState(State):
    """A deal and the plays so far (see the module doc)."""

    __slots__ = ("game", "_dealt", "where", "played", "history", "_plays", "to_move", "winner",
                 "_last", "_terminal", "_returns", "_display", "_legal", "_decoded",
                 "_rejected")

    # --- the game's part ------------------------------------------------------------------------
    _seats: ClassVar[int]
    _num_cards: ClassVar[int]
    _num_ranks: ClassVar[int]
    _rank_table: ClassVar[np.ndarray]
    """Rank of every card id."""
    _play_class: ClassVar[type]
    """The game's play (its ``counts`` is a rank multiset)."""
    _check_play: ClassVar[Callable[[Sequence[Any], Collection[int], Sequence[bool], Any],
                                  tuple[tuple[int, ...], Any]]]
    """The game's judge on one response (raises :class:`~ime.games.shedding.judge.PlayError`);
    set as a ``staticmethod``."""
    _reported_code: ClassVar[Callable[[str], str]]
    """The ``errorInfo`` a fault shows for a reason (a ``staticmethod``)."""
    _pick_cards: ClassVar[Callable[[Any, Any], tuple[int, ...]]]
    """The game's canonical card ids of a rank multiset (a ``staticmethod``)."""

    @abstractmethod
    def _generate(self, beat: Any | None) -> LegalPlays:
        """The legal plays of the player to move after ``beat`` (``None``: leading)."""

    @abstractmethod
    def _fault_scores(self, player: int) -> list[float]:
        """The scores when ``player`` faults."""

    @abstractmethod
    def _final_scores(self) -> list[float]:
        """The scores of a finished game (:attr:`winner` is set)."""

    @abstractmethod
    def _copy_to(self, s: Any) -> None:
        """Copy the game's own fields into the clone ``s``."""

    @staticmethod
    def _as_response(action: Sequence[Any]) -> list[Any]:
        """An action that is no listed legal one, as the response the judge checks (and shows
        when it rejects it): as it came, unless the game's judge wants its elements
        normalised."""
        return list(action)

    # --- shared ---------------------------------------------------------------------------------
    def __init__(self, game: Any, hands: Sequence[Sequence[int]], leader: int = 0):
        self.game = game
        self._dealt = [frozenset(h) for h in hands]
        self.where = np.full(self._num_cards, UNDEALT, dtype=np.int64)
        for p, h in enumerate(hands):
            self.where[h] = p
        self.played = [False] * self._num_cards
        self.history: list[tuple[int, tuple[int, ...]]] = []
        self._plays: list[Any] = []
        self.to_move = leader
        self.winner: int | None = None
        self._last = -1
        self._terminal = False
        self._returns: list[float] | None = None
        self._display: Any = ""
        self._legal: LegalPlays | None = None
        self._decoded: tuple[int, tuple[int, ...], Any] | None = None
        self._rejected: tuple[int, Any] | None = None

    # --- what a player may know ---------------------------------------------------------------
    def hand(self, player: int) -> tuple[int, ...]:
        """``player``'s remaining cards, ascending."""
        return tuple(np.flatnonzero(self.where == player).tolist())

    def hand_counts(self, player: int) -> np.ndarray:
        """``int64[ranks]`` remaining cards of ``player`` per rank."""
        return np.bincount(self._rank_table[self.where == player],
                           minlength=self._num_ranks).astype(np.int64)

    def cards_left(self, player: int) -> int:
        return int((self.where == player).sum())

    def played_by(self, player: int) -> tuple[int, ...]:
        """Cards ``player`` has played so far, ascending."""
        return tuple(sorted(c for p, cards in self.history if p == player for c in cards))

    def unseen_by(self, player: int) -> tuple[int, ...]:
        """Cards ``player`` has not seen: not in its hand, not played (the other hands plus any
        undealt cards), ascending."""
        return tuple(np.flatnonzero((self.where != player) & (self.where != PLAYED)).tolist())

    @property
    def last_play(self) -> tuple[int, tuple[int, ...], Any] | None:
        """``(player, cards, play)`` of the last non-pass play, ``None`` before the first."""
        if self._last < 0:
            return None
        p, cards = self.history[self._last]
        return p, cards, self._plays[self._last]

    @property
    def leading(self) -> bool:
        """The player to move must lead (game start, or every other seat passed)."""
        return self._last < 0 or self.history[self._last][0] == self.to_move

    def to_beat(self) -> Any | None:
        """The play to beat now, ``None`` when leading."""
        return None if self.leading else self._plays[self._last]

    # --- core API ----------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self._terminal else [self.to_move]

    def _legal_now(self) -> LegalPlays:
        if self._legal is None:
            self._legal = self._generate(self.to_beat())
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[tuple[int, ...]]:
        """Canonical legal actions (the pass ``()`` first when following; then the order of the
        game's move generator)."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().actions)

    def _legal_plays(self, player: int | None = None) -> list[Any]:
        """The play of each of :meth:`legal_actions`, in the same order (each game names it)."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().plays())

    def cards_for(self, player: int, counts: Any) -> tuple[int, ...]:
        """The canonical card ids (lowest of each rank) of a rank multiset (a play or the
        game's counts per rank) from ``player``'s hand; ValueError when the hand lacks them."""
        c = counts.counts if isinstance(counts, self._play_class) else counts
        return self._pick_cards(self.hand(player), c)

    def _check(self, player: int, response: list[Any]) -> tuple[tuple[int, ...], Any]:
        try:
            return self._check_play(response, self._dealt[player], self.played, self.to_beat())
        except PlayError as e:
            # the judge shows the rejected response, sorted once its cards passed the checks
            late = e.code not in CARD_CODES
            self._rejected = (self.ply, sorted(response) if late else response)
            raise IllegalMoveError(player, str(e), response) from None

    def apply_action(self, action: tuple[int, ...]) -> None:
        p = self.to_move
        if self._terminal:
            raise IllegalMoveError(p, "the game is over", action)
        legal = self._legal
        try:
            i = legal.index.get(action) if legal is not None else None
        except TypeError:  # unhashable: not a listed action
            i = None
        if legal is not None and i is not None:
            cards, play = action, legal.play_at(i)
        elif self._decoded is not None and self._decoded[:2] == (self.ply, action):
            cards, play = action, self._decoded[2]
        else:
            if not isinstance(action, (tuple, list)):
                raise IllegalMoveError(p, "BAD_FORMAT: an action is a tuple of card ids", action)
            cards, play = self._check(p, self._as_response(action))
        self._play(p, tuple(cards), play)

    def _scores(self, s: Sequence[float]) -> dict[str, float]:
        """The display's score entries (``"0"``, ``"1"``, ...)."""
        return {str(i): s[i] for i in range(self._seats)}

    def _play(self, p: int, cards: tuple[int, ...], play: Any) -> None:
        for c in cards:
            self.played[c] = True
            self.where[c] = PLAYED
        self.history.append((p, cards))
        self._plays.append(play)
        self._legal = None
        self._decoded = None
        event = {"player": p, "action": list(cards)}
        self.to_move = (p + 1) % self._seats
        if not play.is_pass:
            self._last = len(self.history) - 1
            if not (self.where == p).any():
                self.winner = p
                self._terminal = True
                self._display = {"event": event, **self._scores(self.returns())}
                return
        self._display = {"event": event}

    def forfeit(self, player: int, reason: str) -> None:
        """End the game on a fault by ``player`` (illegal response or bot failure)."""
        self._terminal = True
        self._returns = self._fault_scores(player)
        if self._rejected is not None and self._rejected[0] == self.ply:
            action = self._rejected[1]  # the judge shows the rejected response
        else:
            action = list(self.history[-1][1]) if self.history else []
        self._display = {"event": {"player": player, "action": action},
                         "errorInfo": self._reported_code(reason), **self._scores(self._returns)}

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if self.winner is None:
            return [0.0] * self._seats
        return self._final_scores()

    def clone(self: S) -> S:
        s = type(self).__new__(type(self))
        s.game = self.game
        s._dealt = self._dealt
        s.where = self.where.copy()
        s.played = list(self.played)
        s.history = list(self.history)
        s._plays = list(self._plays)
        s.to_move = self.to_move
        s.winner = self.winner
        s._last = self._last
        s._terminal = self._terminal
        s._returns = None if self._returns is None else list(self._returns)
        s._display = self._display
        s._legal = self._legal
        s._decoded = self._decoded
        s._rejected = self._rejected
        self._copy_to(s)
        return s

    @property
    def ply(self) -> int:
        return len(self.history)

    # --- the Botzone-style codec ------------------------------------------------------------
    def decode_response(self, player: int, response: Any) -> tuple[int, ...]:
        """The judge on a response: the sorted card ids, or IllegalMoveError whose ``reason``
        starts with the error name (``"LESS_COMPARE: ..."``)."""
        if self._terminal or player != self.to_move:
            raise IllegalMoveError(player, "not this player's turn", response)
        try:
            content = parse_response(player, response)
        except IllegalMoveError:
            self._rejected = (self.ply, response)
            raise
        cards, play = self._check(player, content)
        self._decoded = (self.ply, cards, play)
        return cards

    def encode_response(self, player: int, action: tuple[int, ...]) -> list[int]:
        return encode_response(action)

    def display(self) -> Any:
        """The judge's ``display`` of the last transition (Botzone's FightTheLandlord ``event``
        objects; the final one carries the scores)."""
        return self._display

    def _table_rows(self) -> list[str]:
        """The last rows of the text form (under one row per seat): the last play, who moves."""
        last = self.last_play
        return ["last: " + ("-" if last is None else f"{last[0]} {last[2]}"),
                "to move: " + ("-" if self._terminal else str(self.to_move))]


__all__ = ["PLAYED", "UNDEALT", "LegalPlays", "SheddingState"]
