"""Shared helpers for the Gongzhu agent tests: positions reached by seeded rule-bot play, and
states whose hidden hands are reshuffled without changing anything public."""

from __future__ import annotations

import numpy as np

from ime.core.seeding import derive_seed
from ime.games.gongzhu import rules as R
from ime.games.gongzhu.bots.rulebots import RULE_STYLES, rule_action


def positions(n_games: int, seed: int = 0, every: int = 1):
    """Yield ``(state copy, seat to move)`` at decisions of ``n_games`` seeded mixed-style games."""
    for g in range(n_games):
        state = R.deal(derive_seed(seed, "test-deal", g))
        styles = [RULE_STYLES[(g + s) % len(RULE_STYLES)] for s in range(4)]
        ply = 0
        while not R.is_terminal(state):
            seat = state.to_move
            if ply % every == 0:
                yield state.copy(), seat
            rng = np.random.default_rng(derive_seed(seed, "test-move", g, ply))
            R.apply(state, rule_action(styles[seat], state, seat, rng))
            ply += 1


def reshuffle_hidden(state: R.GongzhuState, seat: int, rng: np.random.Generator) -> R.GongzhuState:
    """A copy where the other seats' unplayed cards are redistributed at random among them (each
    keeps its card count): everything ``seat`` may see is unchanged."""
    out = state.copy()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in R.cards_of_mask(state.hands[s])]
    rng.shuffle(pool)
    i = 0
    for s in others:
        n = state.hands[s].bit_count()
        out.hands[s] = R.mask_of(pool[i : i + n])
        i += n
    return out
