"""Big-2 as seed 004 plays it: the engine behind every stage (rules in ``docs/games/big2.md``).

* Two seats, a 52-card deck without jokers. The deal (:func:`ime.games.big2.cards.deal`) gives
  each seat ``hand_size`` cards (default 26: the whole deck, the seed's largest hands); any
  rest is set aside unseen. ``initdata`` carries the two hands (``{"hands": [[...], [...]]}``).
* Seat 0 leads the game. Seats alternate; a pass is a turn. The leader (game start, or the
  opponent passed) must play; a follower passes or beats the last play
  (:mod:`ime.games.big2.hands`). The first to empty the hand wins.
* Scores (:func:`ime.games.big2.rules.final_scores`): ``+n`` to the winner, ``-n`` to the loser,
  ``n`` the loser's cards left. A fault scores ``-hand_size`` / ``+hand_size``.

Actions are tuples of card ids, ascending; ``()`` is a pass. ``legal_actions`` lists one action
per legal rank multiset with the lowest card ids of each rank (suits never matter); the pass
first when following, then the DP generator's order (:mod:`ime.games.big2.movegen`).
``apply_action`` and ``decode_response`` accept any card ids of the player's hand, as a judge
does, so any log replays card for card.

Hidden information: a seat sees its own hand and the public plays. What a bot may read is
exposed without the other hand: :meth:`Big2State.hand`, :attr:`history`,
:meth:`cards_left`, :meth:`unseen_by` (the cards it has not seen: the opponent's hand plus the
undealt rest), :meth:`played_by`, :meth:`to_beat`, :meth:`legal_types`. With the default
26 + 26 deal ``unseen_by`` *is* the opponent's hand (it is deducible); with smaller hands it is
not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.big2 import codec
from ime.games.big2.cards import (
    MAX_HAND,
    NUM_CARDS,
    NUM_RANKS,
    RANK_OF,
    check_hand_size,
    counts_of,
    deal_from,
    pick_cards,
    ranks_text,
)
from ime.games.big2.hands import PASS, HandType, classify, from_meta
from ime.games.big2.movegen import Moves, generate_moves
from ime.games.big2.rules import (
    BAD_FORMAT,
    MISSING_CARD,
    REPEATED_CARD,
    PlayError,
    check_play,
    fault_scores,
    final_scores,
    reported_code,
)

GAME_TYPE = GameType(
    short_name="big2",
    long_name="Big-2 (seed 004's two-player game: ranks 3..2, trio kickers, bombs)",
    num_players=2,
    simultaneous=False,
    hidden_information=True,
    botzone_game_id=None,
    simple_interaction=False,
)

PLAYED, UNDEALT = -1, -2


def actions_of(hand: tuple[int, ...], moves: Moves) -> list[tuple[int, ...]]:
    """The canonical card ids (lowest of each rank) of every generated play."""
    by_rank: list[list[int]] = [[] for _ in range(NUM_RANKS)]
    for c in sorted(hand):
        by_rank[c // 4].append(c)
    out = []
    for row in moves.counts.tolist():
        a: list[int] = []
        for r, k in enumerate(row):
            if k:
                a += by_rank[r][:k]
        out.append(tuple(a))
    return out


class _Legal:
    """The legal moves of the player to move at one ply (computed once, shared by clones)."""

    __slots__ = ("actions", "index", "moves", "lead", "_types")

    def __init__(self, actions: list[tuple[int, ...]], moves: Moves, lead: bool):
        self.actions = actions
        self.index = {a: i for i, a in enumerate(actions)}
        self.moves = moves
        self.lead = lead
        self._types: list[HandType] | None = None

    def type_at(self, i: int) -> HandType:
        if not self.lead:
            if i == 0:
                return PASS
            i -= 1
        main, length, mult, kmult = self.moves.meta[i].tolist()
        return from_meta(main, length, mult, kmult, self.moves.counts[i].tolist())

    def types(self) -> list[HandType]:
        if self._types is None:
            self._types = [self.type_at(i) for i in range(len(self.actions))]
        return self._types


class Big2State(State):
    """A deal and the plays so far (see the module doc)."""

    __slots__ = ("game", "hands", "_dealt", "where", "played", "history", "types", "to_move",
                 "winner", "_last", "_terminal", "_returns", "_display", "_legal", "_decoded",
                 "_rejected")

    def __init__(self, game: Big2Game, hands: list[list[int]]):
        self.game = game
        self.hands = hands
        self._dealt = [frozenset(h) for h in hands]
        self.where = np.full(NUM_CARDS, UNDEALT, dtype=np.int64)
        for p, h in enumerate(hands):
            self.where[h] = p
        self.played = [False] * NUM_CARDS
        self.history: list[tuple[int, tuple[int, ...]]] = []
        self.types: list[HandType] = []
        self.to_move = 0
        self.winner: int | None = None
        self._last = -1
        self._terminal = False
        self._returns: list[float] | None = None
        self._display: Any = ""
        self._legal: _Legal | None = None
        self._decoded: tuple[int, tuple[int, ...], HandType] | None = None
        self._rejected: tuple[int, Any] | None = None

    # --- what a player may know --------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return self.game.hand_size

    def hand(self, player: int) -> tuple[int, ...]:
        """``player``'s remaining cards, ascending."""
        return tuple(np.flatnonzero(self.where == player).tolist())

    def hand_counts(self, player: int) -> np.ndarray:
        """``int64[13]`` remaining cards of ``player`` per rank."""
        return np.bincount(RANK_OF[self.where == player], minlength=NUM_RANKS).astype(np.int64)

    def cards_left(self, player: int) -> int:
        return int((self.where == player).sum())

    def played_by(self, player: int) -> tuple[int, ...]:
        """Cards ``player`` has played so far, ascending."""
        return tuple(sorted(c for p, cards in self.history if p == player for c in cards))

    def unseen_by(self, player: int) -> tuple[int, ...]:
        """Cards ``player`` has not seen: not in its hand, not played (the opponent's hand plus
        the undealt cards), ascending."""
        return tuple(np.flatnonzero((self.where != player) & (self.where != PLAYED)).tolist())

    @property
    def last_play(self) -> tuple[int, tuple[int, ...], HandType] | None:
        """``(player, cards, type)`` of the last non-pass play, ``None`` before the first."""
        if self._last < 0:
            return None
        p, cards = self.history[self._last]
        return p, cards, self.types[self._last]

    @property
    def leading(self) -> bool:
        """The player to move must lead (game start, or the opponent passed)."""
        return self._last < 0 or self.history[self._last][0] == self.to_move

    def to_beat(self) -> HandType | None:
        """The play to beat now, ``None`` when leading."""
        return None if self.leading else self.types[self._last]

    # --- core API ----------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self._terminal else [self.to_move]

    def _legal_now(self) -> _Legal:
        if self._legal is None:
            beat = self.to_beat()
            hand = self.hand(self.to_move)
            moves = generate_moves(counts_of(hand), None if beat is None else beat.key)
            acts = actions_of(hand, moves)
            self._legal = _Legal(acts if beat is None else [(), *acts], moves, beat is None)
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[tuple[int, ...]]:
        """Canonical legal actions (the pass ``()`` first when following; then the order of
        :mod:`ime.games.big2.movegen`)."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().actions)

    def legal_types(self, player: int | None = None) -> list[HandType]:
        """The :class:`HandType` of each of :meth:`legal_actions`, in the same order."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().types())

    def cards_for(self, player: int, counts: Any) -> tuple[int, ...]:
        """The canonical card ids (lowest of each rank) of a rank multiset (a
        :class:`HandType` or 13 counts) from ``player``'s hand; ValueError when it lacks them."""
        c = counts.counts if isinstance(counts, HandType) else counts
        return pick_cards(self.hand(player), c)

    def type_of(self, action: tuple[int, ...]) -> HandType | None:
        """The hand type of any card ids (``None``: no type; ``PASS`` for ``()``)."""
        return classify(counts_of(action))

    def _check(self, player: int, response: list[Any]) -> tuple[tuple[int, ...], HandType]:
        try:
            return check_play(response, self._dealt[player], self.played, self.to_beat())
        except PlayError as e:
            late = e.code not in (MISSING_CARD, REPEATED_CARD, BAD_FORMAT)
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
            cards, t = action, legal.type_at(i)
        elif self._decoded is not None and self._decoded[:2] == (self.ply, action):
            cards, t = action, self._decoded[2]
        else:
            if not isinstance(action, (tuple, list)):
                raise IllegalMoveError(p, "BAD_FORMAT: an action is a tuple of card ids", action)
            cards, t = self._check(p, [int(c) if isinstance(c, np.integer) else c
                                       for c in action])
        self._play(p, tuple(cards), t)

    def _play(self, p: int, cards: tuple[int, ...], t: HandType) -> None:
        for c in cards:
            self.played[c] = True
            self.where[c] = PLAYED
        self.history.append((p, cards))
        self.types.append(t)
        self._legal = None
        self._decoded = None
        event = {"player": p, "action": list(cards)}
        self.to_move = 1 - p
        if not t.is_pass:
            self._last = len(self.history) - 1
            if not (self.where == p).any():
                self.winner = p
                self._terminal = True
                s = self.returns()
                self._display = {"event": event, "0": s[0], "1": s[1]}
                return
        self._display = {"event": event}

    def forfeit(self, player: int, reason: str) -> None:
        """End the game on a fault by ``player`` (illegal response or bot failure)."""
        self._terminal = True
        self._returns = fault_scores(player, self.hand_size)
        s = self._returns
        if self._rejected is not None and self._rejected[0] == self.ply:
            action = self._rejected[1]
        else:
            action = list(self.history[-1][1]) if self.history else []
        self._display = {"event": {"player": player, "action": action},
                         "errorInfo": reported_code(reason), "0": s[0], "1": s[1]}

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if self.winner is None:
            return [0.0, 0.0]
        return final_scores(self.winner, self.cards_left(1 - self.winner))

    def clone(self) -> Big2State:
        s = Big2State.__new__(Big2State)
        s.game = self.game
        s.hands = self.hands
        s._dealt = self._dealt
        s.where = self.where.copy()
        s.played = list(self.played)
        s.history = list(self.history)
        s.types = list(self.types)
        s.to_move = self.to_move
        s.winner = self.winner
        s._last = self._last
        s._terminal = self._terminal
        s._returns = None if self._returns is None else list(self._returns)
        s._display = self._display
        s._legal = self._legal
        s._decoded = self._decoded
        s._rejected = self._rejected
        return s

    @property
    def ply(self) -> int:
        return len(self.history)

    # --- Botzone-style codec (ime.games.big2.codec) -----------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.ply, [c for _, c in self.history], self.hands[player])

    def decode_response(self, player: int, response: Any) -> tuple[int, ...]:
        """The judge on a response: the sorted card ids, or IllegalMoveError whose ``reason``
        starts with the error name (``"LESS_COMPARE: ..."``)."""
        if self._terminal or player != self.to_move:
            raise IllegalMoveError(player, "not this player's turn", response)
        try:
            content = codec.parse_response(player, response)
        except IllegalMoveError:
            self._rejected = (self.ply, response)
            raise
        cards, t = self._check(player, content)
        self._decoded = (self.ply, cards, t)
        return cards

    def encode_response(self, player: int, action: tuple[int, ...]) -> list[int]:
        return codec.encode_response(action)

    def initdata(self) -> dict:
        return {"hands": [list(h) for h in self.hands]}

    def display(self) -> Any:
        """The judge's ``display`` of the last transition (``event`` objects, as Botzone's
        FightTheLandlord; the final one carries the scores)."""
        return self._display

    def __str__(self) -> str:
        rows = [f"P{p} {ranks_text(self.hand(p)):26s} ({self.cards_left(p)})" for p in range(2)]
        last = self.last_play
        rows.append("last: " + ("-" if last is None else f"{last[0]} {last[2]}"))
        rows.append("to move: " + ("-" if self._terminal else str(self.to_move)))
        return "\n".join(rows)


class Big2Game(Game):
    """The Big-2 engine; ``hand_size`` cards per seat (1..26, default 26)."""

    game_type = GAME_TYPE

    def __init__(self, hand_size: int = MAX_HAND):
        self.hand_size = check_hand_size(hand_size)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> Big2State:
        """The hands of ``initdata`` (``{"hands": ...}``), else dealt from ``seed``."""
        return Big2State(self, deal_from(initdata, seed, self.hand_size))

    def params(self) -> dict:
        return {"hand_size": self.hand_size}

    def __repr__(self) -> str:
        return f"Big2Game(hand_size={self.hand_size})"


GAME = Big2Game()
