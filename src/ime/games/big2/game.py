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
does, so any log replays card for card. The state machinery is Doudizhu's, shared
(:class:`ime.games.shedding.state.SheddingState`).

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

from ime.core.game import Game, GameType
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
from ime.games.big2.rules import check_play, fault_scores, final_scores, reported_code
from ime.games.shedding.state import PLAYED as PLAYED  # re-exported: the values of ``where``
from ime.games.shedding.state import UNDEALT as UNDEALT
from ime.games.shedding.state import LegalPlays, SheddingState

GAME_TYPE = GameType(
    short_name="big2",
    long_name="Big-2 (seed 004's two-player game: ranks 3..2, trio kickers, bombs)",
    num_players=2,
    simultaneous=False,
    hidden_information=True,
    botzone_game_id=None,
    simple_interaction=False,
)


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


class _Legal(LegalPlays):
    """The legal moves of one ply; a generator row is ``(main, length, mult, kmult)``."""

    __slots__ = ()
    pass_play = PASS

    def decode(self, meta: list[int], counts: list[int]) -> HandType:
        main, length, mult, kmult = meta
        return from_meta(main, length, mult, kmult, counts)


class Big2State(SheddingState):
    """A deal and the plays so far (see the module doc); ``types`` are the plays' hand types."""

    __slots__ = ("hands",)
    _seats = 2
    _num_cards = NUM_CARDS
    _num_ranks = NUM_RANKS
    _rank_table = RANK_OF
    _play_class = HandType
    _check_play = staticmethod(check_play)
    _reported_code = staticmethod(reported_code)
    _pick_cards = staticmethod(pick_cards)

    def __init__(self, game: Big2Game, hands: list[list[int]]):
        super().__init__(game, hands)
        self.hands = hands

    @property
    def types(self) -> list[HandType]:
        """The :class:`HandType` of every play of :attr:`history` (passes included)."""
        return self._plays

    # --- what a player may know --------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return self.game.hand_size

    def legal_types(self, player: int | None = None) -> list[HandType]:
        """The :class:`HandType` of each of :meth:`legal_actions`, in the same order."""
        return self._legal_plays(player)

    def type_of(self, action: tuple[int, ...]) -> HandType | None:
        """The hand type of any card ids (``None``: no type; ``PASS`` for ``()``)."""
        return classify(counts_of(action))

    # --- the engine's part -------------------------------------------------------------------
    def _generate(self, beat: HandType | None) -> _Legal:
        hand = self.hand(self.to_move)
        moves = generate_moves(counts_of(hand), None if beat is None else beat.key)
        acts = actions_of(hand, moves)
        return _Legal(acts if beat is None else [(), *acts], moves, beat is None)

    @staticmethod
    def _as_response(action: tuple[int, ...]) -> list[Any]:
        # numpy ints are card ids too: this judge's rules take ints only
        return [int(c) if isinstance(c, np.integer) else c for c in action]

    def _fault_scores(self, player: int) -> list[float]:
        return fault_scores(player, self.hand_size)

    def _final_scores(self) -> list[float]:
        return final_scores(self.winner, self.cards_left(1 - self.winner))

    def _copy_to(self, s: Big2State) -> None:
        s.hands = self.hands

    # --- Botzone-style codec (ime.games.big2.codec) -----------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.ply, [c for _, c in self.history], self.hands[player])

    def initdata(self) -> dict:
        return {"hands": [list(h) for h in self.hands]}

    def __str__(self) -> str:
        rows = [f"P{p} {ranks_text(self.hand(p)):26s} ({self.cards_left(p)})" for p in range(2)]
        return "\n".join(rows + self._table_rows())


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
