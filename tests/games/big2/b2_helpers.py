"""Helpers shared by the Big-2 tests: rank text -> counts / cards, a state from a deal text,
and checked bots."""

from __future__ import annotations

import numpy as np

from ime.core.bot import Bot, DecisionContext
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


def ctx(st, seed: int = 0, match: str = "m") -> DecisionContext:
    return DecisionContext(seed=seed, match_id=match, ply=st.ply, player=st.to_move)


class Checked(Bot):
    """Asserts that every action is one of the canonical legal actions and the state is not
    mutated."""

    def __init__(self, inner: Bot):
        self.inner, self.bot_id = inner, inner.bot_id

    def act(self, state, c):
        before = (state.ply, state.hand(c.player), state.to_move)
        a = self.inner.act(state, c)
        assert a in state.legal_actions(c.player), (self.bot_id, a, str(state))
        assert (state.ply, state.hand(c.player), state.to_move) == before
        return a


def random_counts(rng: np.random.Generator, n: int) -> np.ndarray:
    """The 13 counts of ``n`` cards drawn from the deck."""
    cards = rng.choice(NUM_CARDS, size=n, replace=False)
    return np.bincount(cards // 4, minlength=13).astype(np.int64)
