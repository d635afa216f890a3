"""FightTheLandlord (Doudizhu) v1 as Botzone's judge plays it: the engine behind every stage.

* Three seats; seat 0 is always the landlord (no bidding) with 20 cards including the 3 public
  cards, seats 1 and 2 are the farmers with 17 each. Deal: ``initdata``'s ``allocation`` /
  ``publiccard``, or :func:`ime.games.doudizhu.cards.deal` of a seed.
* Seats play in turn 0, 1, 2, 0, ...; a pass is a turn. The leader (seat 0 at the start, or the
  player whose play the two others passed) must play; a follower passes or beats the last play
  (:mod:`ime.games.doudizhu.combos`). The first to empty the hand wins for its side.
* Scores (:func:`ime.games.doudizhu.rules.final_scores`): the winning side 2 each, plus each
  seat's combo points / 100, the farmers' totals averaged. A fault (an illegal response, a bot
  failure) scores ``[-1, 2.5, 2.5]`` when the landlord made it, else ``[2.5, -1, -1]``.

Actions are tuples of card ids, ascending; ``()`` is a pass. ``legal_actions`` lists one action
per legal rank multiset with the lowest card ids of each rank (the engine's canonical choice:
suits never matter to the rules); ``apply_action`` and ``decode_response`` accept any card ids
of the player's hand, as the judge does, so a platform log replays card for card.

What a bot may know is exposed without the other hands: :meth:`DoudizhuState.hand`,
:attr:`history`, :attr:`public_cards`, :meth:`cards_left`, :meth:`unseen_by`, :meth:`played_by`,
:attr:`last_play` / :meth:`to_beat`, :meth:`legal_combos`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.doudizhu import codec
from ime.games.doudizhu.cards import LANDLORD, NUM_CARDS, RANK_OF, deal_from
from ime.games.doudizhu.combos import PASS, Combo, classify, combo_from_counts
from ime.games.doudizhu.movegen import LEAD, generate_from_tables, hand_tables
from ime.games.doudizhu.rules import (
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
    short_name="doudizhu",
    long_name="Doudizhu (Botzone FightTheLandlord v1: no bidding, seat 0 is the landlord)",
    num_players=3,
    simultaneous=False,
    hidden_information=True,
    botzone_game_id="545840890003e2b77caf768f",
    simple_interaction=False,
)


class _Legal:
    """The legal moves of the player to move at one ply (computed once, shared by clones)."""

    __slots__ = ("actions", "index", "moves", "lead", "_combos")

    def __init__(self, actions: list[tuple[int, ...]], moves: Any, lead: bool):
        self.actions = actions
        self.index = {a: i for i, a in enumerate(actions)}
        self.moves = moves
        self.lead = lead
        self._combos: list[Combo] | None = None

    def combo(self, i: int) -> Combo:
        if not self.lead:
            if i == 0:
                return PASS
            i -= 1
        kind, rank, chain, _ = self.moves.meta[i].tolist()
        return combo_from_counts(kind, rank, chain, self.moves.counts[i].tolist())

    def combos(self) -> list[Combo]:
        if self._combos is None:
            self._combos = [self.combo(i) for i in range(len(self.actions))]
        return self._combos


class DoudizhuState(State):
    """A deal and the plays so far (see the module doc)."""

    __slots__ = ("game", "allocation", "publiccard", "_dealt", "where", "played", "history",
                 "combos", "to_move", "points", "winner", "_last", "_terminal", "_returns",
                 "_display", "_legal", "_decoded", "_rejected")

    def __init__(self, game: DoudizhuGame, allocation: list[list[int]], publiccard: list[int]):
        self.game = game
        self.allocation = allocation
        self.publiccard = publiccard
        self._dealt = [frozenset(h) for h in allocation]
        self.where = np.full(NUM_CARDS, -1, dtype=np.int64)
        for p, h in enumerate(allocation):
            self.where[h] = p
        self.played = [False] * NUM_CARDS
        self.history: list[tuple[int, tuple[int, ...]]] = []
        self.combos: list[Combo] = []
        self.to_move = LANDLORD
        self.points = [0, 0, 0]
        self.winner: int | None = None
        self._last = -1
        self._terminal = False
        self._returns: list[float] | None = None
        self._display: Any = ""
        self._legal: _Legal | None = None
        self._decoded: tuple[int, tuple[int, ...], Combo] | None = None
        self._rejected: tuple[int, Any] | None = None

    # --- what a player may know --------------------------------------------------------------
    def hand(self, player: int) -> tuple[int, ...]:
        """``player``'s remaining cards, ascending."""
        return tuple(np.flatnonzero(self.where == player).tolist())

    def hand_counts(self, player: int) -> np.ndarray:
        """``int64[15]`` remaining cards of ``player`` per rank."""
        return np.bincount(RANK_OF[self.where == player], minlength=15).astype(np.int64)

    def cards_left(self, player: int) -> int:
        return int((self.where == player).sum())

    @property
    def public_cards(self) -> tuple[int, ...]:
        """The landlord's 3 public cards (everybody saw them)."""
        return tuple(self.publiccard)

    def played_by(self, player: int) -> tuple[int, ...]:
        """Cards ``player`` has played so far, ascending."""
        return tuple(sorted(c for p, cards in self.history if p == player for c in cards))

    def unseen_by(self, player: int) -> tuple[int, ...]:
        """Cards in the other two hands (not ``player``'s, not yet played), ascending. The public
        cards still in the landlord's hand are among them although everybody saw them."""
        return tuple(np.flatnonzero((self.where >= 0) & (self.where != player)).tolist())

    @property
    def last_play(self) -> tuple[int, tuple[int, ...], Combo] | None:
        """``(player, cards, combo)`` of the last non-pass play, ``None`` before the first."""
        if self._last < 0:
            return None
        p, cards = self.history[self._last]
        return p, cards, self.combos[self._last]

    @property
    def leading(self) -> bool:
        """The player to move must lead (game start, or both others passed)."""
        return self._last < 0 or self.history[self._last][0] == self.to_move

    def to_beat(self) -> Combo | None:
        """The combination to beat now, ``None`` when leading."""
        return None if self.leading else self.combos[self._last]

    @staticmethod
    def is_landlord(player: int) -> bool:
        return player == LANDLORD

    @staticmethod
    def teammates(p: int, q: int) -> bool:
        """Both farmers (the landlord has no teammate)."""
        return p != q and p != LANDLORD and q != LANDLORD

    # --- core API ----------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self._terminal else [self.to_move]

    def _legal_now(self) -> _Legal:
        if self._legal is None:
            beat = self.to_beat()
            h, ids = hand_tables(np.flatnonzero(self.where == self.to_move), RANK_OF)
            if beat is None:
                moves = generate_from_tables(h, ids, LEAD, -1, 0)
                self._legal = _Legal(moves.actions(), moves, True)
            else:
                moves = generate_from_tables(h, ids, int(beat.kind), beat.rank, beat.chain)
                self._legal = _Legal([(), *moves.actions()], moves, False)
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[tuple[int, ...]]:
        """Canonical legal actions (the pass ``()`` first when following; then the order of
        :mod:`ime.games.doudizhu.movegen`)."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().actions)

    def legal_combos(self, player: int | None = None) -> list[Combo]:
        """The :class:`Combo` of each of :meth:`legal_actions`, in the same order."""
        if self._terminal or (player is not None and player != self.to_move):
            return []
        return list(self._legal_now().combos())

    def cards_for(self, player: int, counts: Any) -> tuple[int, ...]:
        """The canonical card ids (lowest of each rank) of a rank multiset (a :class:`Combo` or
        15 counts) from ``player``'s hand; ValueError when the hand lacks them."""
        from ime.games.doudizhu.cards import pick_cards

        c = counts.counts if isinstance(counts, Combo) else counts
        return pick_cards(self.hand(player), c)

    def canonical(self, player: int, action: tuple[int, ...]) -> tuple[int, ...]:
        """The canonical ids of the rank multiset that ``action`` plays (compare a bot's
        choice with a legal action whatever suits it picked)."""
        from ime.games.doudizhu.cards import counts_of, pick_cards

        return pick_cards(set(self.hand(player)) | set(action), counts_of(action))

    def combo_of(self, action: tuple[int, ...]) -> Combo | None:
        """The combination of any card ids (``None``: no combination)."""
        from ime.games.doudizhu.cards import counts_of

        return classify(counts_of(action))

    def _check(self, player: int, response: list[Any]) -> tuple[tuple[int, ...], Combo]:
        try:
            return check_play(response, self._dealt[player], self.played, self.to_beat())
        except PlayError as e:
            # the judge shows the rejected response, sorted once its cards passed the checks
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
            cards, combo = action, legal.combo(i)
        elif self._decoded is not None and self._decoded[:2] == (self.ply, action):
            cards, combo = action, self._decoded[2]
        else:
            if not isinstance(action, (tuple, list)):
                raise IllegalMoveError(p, "BAD_FORMAT: an action is a tuple of card ids", action)
            cards, combo = self._check(p, list(action))
        self._play(p, tuple(cards), combo)

    def _play(self, p: int, cards: tuple[int, ...], combo: Combo) -> None:
        for c in cards:
            self.played[c] = True
            self.where[c] = -1
        self.history.append((p, cards))
        self.combos.append(combo)
        self.points[p] += combo.points
        self._legal = None
        self._decoded = None
        event = {"player": p, "action": list(cards)}
        if not combo.is_pass:
            self._last = len(self.history) - 1
            if not (self.where == p).any():
                self.winner = p
                self._terminal = True
                s = self.returns()
                self._display = {"event": event, "0": s[0], "1": s[1], "2": s[2]}
                self.to_move = (p + 1) % 3
                return
        self._display = {"event": event}
        self.to_move = (p + 1) % 3

    def forfeit(self, player: int, reason: str) -> None:
        """End the game on a fault by ``player`` (illegal response or bot failure)."""
        self._terminal = True
        self._returns = fault_scores(player)
        s = self._returns
        if self._rejected is not None and self._rejected[0] == self.ply:
            action = self._rejected[1]  # the judge shows the rejected response
        else:
            action = list(self.history[-1][1]) if self.history else []
        self._display = {"event": {"player": player, "action": action},
                         "errorInfo": reported_code(reason), "0": s[0], "1": s[1], "2": s[2]}

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if self.winner is None:
            return [0.0, 0.0, 0.0]
        return final_scores(self.winner, self.points)

    def clone(self) -> DoudizhuState:
        s = DoudizhuState.__new__(DoudizhuState)
        s.game = self.game
        s.allocation = self.allocation
        s.publiccard = self.publiccard
        s._dealt = self._dealt
        s.where = self.where.copy()
        s.played = list(self.played)
        s.history = list(self.history)
        s.combos = list(self.combos)
        s.to_move = self.to_move
        s.points = list(self.points)
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

    # --- Botzone codec (ime.games.doudizhu.codec) --------------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.ply, [c for _, c in self.history], self.allocation[player],
                             self.publiccard)

    def decode_response(self, player: int, response: Any) -> tuple[int, ...]:
        """The judge on a response: the sorted card ids, or IllegalMoveError whose ``reason``
        starts with Botzone's error name (``"LESS_COMPARE: ..."``)."""
        if self._terminal or player != self.to_move:
            raise IllegalMoveError(player, "not this player's turn", response)
        try:
            content = codec.parse_response(player, response)
        except IllegalMoveError:
            self._rejected = (self.ply, response)
            raise
        cards, combo = self._check(player, content)
        self._decoded = (self.ply, cards, combo)
        return cards

    def encode_response(self, player: int, action: tuple[int, ...]) -> list[int]:
        return codec.encode_response(action)

    def initdata(self) -> dict:
        return {"allocation": [list(h) for h in self.allocation],
                "publiccard": list(self.publiccard)}

    def display(self) -> Any:
        """The judge's ``display`` of the last transition (Botzone's ``event`` objects)."""
        return self._display

    def __str__(self) -> str:
        from ime.games.doudizhu.cards import ranks_text

        rows = [f"{'LFF'[p]}{p} {ranks_text(self.hand(p)):20s} ({self.cards_left(p)})"
                for p in range(3)]
        last = self.last_play
        rows.append("last: " + ("-" if last is None else f"{last[0]} {last[2]}"))
        rows.append("to move: " + ("-" if self._terminal else str(self.to_move)))
        return "\n".join(rows)


class DoudizhuGame(Game):
    """The FightTheLandlord v1 engine (no options)."""

    game_type = GAME_TYPE

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> DoudizhuState:
        """The deal of ``initdata`` (``allocation``/``publiccard``, as Botzone), else dealt from
        ``seed`` (see :func:`ime.games.doudizhu.cards.deal_from`)."""
        allocation, publiccard = deal_from(initdata, seed)
        return DoudizhuState(self, allocation, publiccard)

    def params(self) -> dict:
        return {}

    def __repr__(self) -> str:
        return "DoudizhuGame()"


GAME = DoudizhuGame()
