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
of the player's hand, as the judge does, so a platform log replays card for card. The state
machinery is shared with Big-2 (:class:`ime.games.shedding.state.SheddingState`).

What a bot may know is exposed without the other hands: :meth:`DoudizhuState.hand`,
:attr:`history`, :attr:`public_cards`, :meth:`cards_left`, :meth:`unseen_by`, :meth:`played_by`,
:attr:`last_play` / :meth:`to_beat`, :meth:`legal_combos`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ime.core.game import Game, GameType
from ime.games.doudizhu import codec
from ime.games.doudizhu.cards import (
    LANDLORD,
    NUM_CARDS,
    NUM_RANKS,
    RANK_OF,
    counts_of,
    deal_from,
    pick_cards,
    ranks_text,
)
from ime.games.doudizhu.combos import PASS, Combo, classify, combo_from_counts
from ime.games.doudizhu.movegen import LEAD, generate_from_tables, hand_tables
from ime.games.doudizhu.rules import check_play, fault_scores, final_scores, reported_code
from ime.games.shedding.state import LegalPlays, SheddingState

GAME_TYPE = GameType(
    short_name="doudizhu",
    long_name="Doudizhu (Botzone FightTheLandlord v1: no bidding, seat 0 is the landlord)",
    num_players=3,
    simultaneous=False,
    hidden_information=True,
    botzone_game_id="545840890003e2b77caf768f",
    simple_interaction=False,
    teams=((0,), (1, 2)),  # the landlord against the two farmers (one side, one shared score)
)


class _Legal(LegalPlays):
    """The legal moves of one ply; a generator row is ``(kind, rank, chain, n_cards)``."""

    __slots__ = ()
    pass_play = PASS

    def decode(self, meta: list[int], counts: list[int]) -> Combo:
        kind, rank, chain, _ = meta
        return combo_from_counts(kind, rank, chain, counts)


class DoudizhuState(SheddingState):
    """A deal and the plays so far (see the module doc); ``combos`` are the plays'
    combinations. :meth:`unseen_by` holds the public cards still in the landlord's hand
    although everybody saw them."""

    __slots__ = ("allocation", "publiccard", "points")
    _seats = 3
    _num_cards = NUM_CARDS
    _num_ranks = NUM_RANKS
    _rank_table = RANK_OF
    _play_class = Combo
    _check_play = staticmethod(check_play)
    _reported_code = staticmethod(reported_code)
    _pick_cards = staticmethod(pick_cards)

    def __init__(self, game: DoudizhuGame, allocation: list[list[int]], publiccard: list[int]):
        super().__init__(game, allocation, LANDLORD)
        self.allocation = allocation
        self.publiccard = publiccard
        self.points = [0, 0, 0]

    @property
    def combos(self) -> list[Combo]:
        """The :class:`Combo` of every play of :attr:`history` (passes included)."""
        return self._plays

    # --- what a player may know --------------------------------------------------------------
    @property
    def public_cards(self) -> tuple[int, ...]:
        """The landlord's 3 public cards (everybody saw them)."""
        return tuple(self.publiccard)

    @staticmethod
    def is_landlord(player: int) -> bool:
        return player == LANDLORD

    @staticmethod
    def teammates(p: int, q: int) -> bool:
        """Both farmers (the landlord has no teammate)."""
        return p != q and p != LANDLORD and q != LANDLORD

    def legal_combos(self, player: int | None = None) -> list[Combo]:
        """The :class:`Combo` of each of :meth:`legal_actions`, in the same order."""
        return self._legal_plays(player)

    def canonical(self, player: int, action: tuple[int, ...]) -> tuple[int, ...]:
        """The canonical ids of the rank multiset that ``action`` plays (compare a bot's
        choice with a legal action whatever suits it picked)."""
        return pick_cards(set(self.hand(player)) | set(action), counts_of(action))

    def combo_of(self, action: tuple[int, ...]) -> Combo | None:
        """The combination of any card ids (``None``: no combination)."""
        return classify(counts_of(action))

    # --- the engine's part -------------------------------------------------------------------
    def _generate(self, beat: Combo | None) -> _Legal:
        h, ids = hand_tables(np.flatnonzero(self.where == self.to_move), RANK_OF)
        if beat is None:
            moves = generate_from_tables(h, ids, LEAD, -1, 0)
            return _Legal(moves.actions(), moves, True)
        moves = generate_from_tables(h, ids, int(beat.kind), beat.rank, beat.chain)
        return _Legal([(), *moves.actions()], moves, False)

    def _play(self, p: int, cards: tuple[int, ...], combo: Combo) -> None:
        self.points[p] += combo.points  # before the final scores, which count them
        super()._play(p, cards, combo)

    def _fault_scores(self, player: int) -> list[float]:
        return fault_scores(player)

    def _final_scores(self) -> list[float]:
        return final_scores(self.winner, self.points)

    def _copy_to(self, s: DoudizhuState) -> None:
        s.allocation = self.allocation
        s.publiccard = self.publiccard
        s.points = list(self.points)

    # --- Botzone codec (ime.games.doudizhu.codec) --------------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(self.ply, [c for _, c in self.history], self.allocation[player],
                             self.publiccard)

    def initdata(self) -> dict:
        return {"allocation": [list(h) for h in self.allocation],
                "publiccard": list(self.publiccard)}

    def __str__(self) -> str:
        rows = [f"{'LFF'[p]}{p} {ranks_text(self.hand(p)):20s} ({self.cards_left(p)})"
                for p in range(3)]
        return "\n".join(rows + self._table_rows())


OBSERVATIONS = ("thesis", "seats")
"""``game.params.observation``: what the encoder shows a seat (:mod:`ime.games.doudizhu.encode`);
the rules and the matches are the same for each."""


class DoudizhuGame(Game):
    """The FightTheLandlord v1 engine. Its one option, ``observation``, is the encoder's: the
    thesis's planes, or those and the seat planes (:mod:`ime.games.doudizhu.encode`)."""

    game_type = GAME_TYPE

    def __init__(self, observation: str = "thesis") -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"game.params.observation must be one of {list(OBSERVATIONS)}, "
                             f"got {observation!r}")
        self.observation = observation

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> DoudizhuState:
        """The deal of ``initdata`` (``allocation``/``publiccard``, as Botzone), else dealt from
        ``seed`` (see :func:`ime.games.doudizhu.cards.deal_from`)."""
        allocation, publiccard = deal_from(initdata, seed)
        return DoudizhuState(self, allocation, publiccard)

    def params(self) -> dict:
        return {} if self.observation == "thesis" else {"observation": self.observation}

    def __repr__(self) -> str:
        return f"DoudizhuGame({self.params() or ''})"


GAME = DoudizhuGame()


def make_game(**params: Any) -> DoudizhuGame:
    """The engine for ``game.params``: the thesis's one (:data:`GAME`) without options; an
    unknown option is an error naming it and the one there is."""
    unknown = sorted(set(params) - {"observation"})
    if unknown:
        raise ValueError(f"doudizhu has no game option {unknown[0]!r} (game.params); its one "
                         f"option is observation: {' | '.join(OBSERVATIONS)}")
    return GAME if params.get("observation", "thesis") == "thesis" else DoudizhuGame(**params)
