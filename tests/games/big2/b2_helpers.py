"""Helpers shared by the Big-2 tests: rank text -> counts / cards, a state from a deal text,
and a deal the player to move can not tell apart. (What Doudizhu's tests share is in
``tests/games/shedding_helpers.py``.)"""

from __future__ import annotations

import numpy as np

from ime.games.big2 import Big2Game
from ime.games.big2.cards import NUM_CARDS, parse_ranks, pick_cards
from ime.games.big2.hands import HandType, classify


def t(text: str) -> HandType | None:
    """The hand type of a rank text (``"33344456"``)."""
    return classify(parse_ranks(text))


def deal_texts(a: str, b: str) -> list[list[int]]:
    """Two hands of card ids spelling the rank texts ``a`` and ``b`` (lowest free ids)."""
    free = list(range(NUM_CARDS))
    out = []
    for text in (a, b):
        ids = pick_cards(free, parse_ranks(text))
        free = [c for c in free if c not in ids]
        out.append(list(ids))
    return out


def state_of(a: str, b: str, plays: list[str] = ()):
    """A state dealt ``a`` / ``b`` (hand_size = their length), after ``plays`` (rank texts,
    ``""`` a pass)."""
    hands = deal_texts(a, b)
    game = Big2Game(len(hands[0]))
    st = game.new_initial_state(initdata={"hands": hands})
    for p in plays:
        st.apply_action(st.cards_for(st.to_move, parse_ranks(p)) if p else ())
    return st


def swap_hidden(st, rng: np.random.Generator):
    """The same public history and own hand for the player to move, the opponent's unplayed
    cards and the undealt ones shuffled together (a deal the player can not tell apart)."""
    me, opp = st.to_move, 1 - st.to_move
    hidden = list(st.unseen_by(me))
    hidden = [hidden[int(i)] for i in rng.permutation(len(hidden))]
    hands = [None, None]
    hands[me] = list(st.hands[me])
    hands[opp] = list(st.played_by(opp)) + hidden[:st.cards_left(opp)]
    alt = st.game.new_initial_state(initdata={"hands": hands})
    for _, cards in st.history:
        alt.apply_action(cards)
    assert alt.hand(me) == st.hand(me) and alt.to_move == me
    return alt


def random_counts(rng: np.random.Generator, n: int) -> np.ndarray:
    """The 13 counts of ``n`` cards drawn from the deck."""
    cards = rng.choice(NUM_CARDS, size=n, replace=False)
    return np.bincount(cards // 4, minlength=13).astype(np.int64)
