"""The decision memo answers a repeated position as the bot would, and only for bots that say so."""

from __future__ import annotations

import json

import pytest

from ime.bots.registry import make_bot
from ime.core.bot import Bot, DecisionContext
from ime.core.memo import MemoBot, memoize, memoize_provider
from ime.core.registry import get_game
from ime.matches.judge import run_match

GAME = get_game("reversi")


def _log(bots, k: int) -> str:
    return json.dumps(run_match(GAME, bots, match_id=f"m{k}", seed=5).to_json(), sort_keys=True)


@pytest.mark.slow
def test_memoised_bot_plays_the_same_matches_and_reuses_positions() -> None:
    plain = [make_bot("reversi", "rev5"), make_bot("reversi", "rev4")]
    memo = [memoize(make_bot("reversi", "rev5")), memoize(make_bot("reversi", "rev4"))]
    assert all(isinstance(b, MemoBot) for b in memo)
    for k in range(3):  # deterministic bots from the start: the same game thrice
        assert _log(memo, k) == _log(plain, k)
    assert memo[0].hits > 0 and memo[0].hits >= 2 * memo[0].misses
    assert memo[1].hits > 0


def test_stochastic_and_external_bots_are_not_memoised() -> None:
    rev3 = make_bot("reversi", "rev3")  # MCTS, seeded per decision by match and ply
    noisy = make_bot("reversi", "opp_noisy1")
    assert memoize(rev3) is rev3 and memoize(noisy) is noisy

    class Raw(Bot):
        bot_id = "raw"
        position_pure = True

        def act(self, state, ctx):  # pragma: no cover - never asked here
            raise AssertionError

        def respond(self, state, ctx):  # pragma: no cover - an external program's path
            raise AssertionError

    raw = Raw()
    assert memoize(raw) is raw


def test_memo_keys_on_position_and_player_and_starts_again_when_full() -> None:
    calls = []

    class Counting(Bot):
        bot_id = "counting"
        position_pure = True

        def act(self, state, ctx):
            calls.append(state.position_key())
            return state.legal_actions()[0]

    bot = MemoBot(Counting(), capacity=2)
    s0 = GAME.new_initial_state()
    s1 = s0.clone()
    s1.apply_action(s1.legal_actions()[0])
    ctx = DecisionContext(0, "m", 0, 0)
    a = bot.act(s0, ctx)
    assert bot.act(s0.clone(), DecisionContext(9, "other", 7, 0)) == a  # context ignored
    assert len(calls) == 1 and bot.hits == 1
    bot.act(s1, DecisionContext(0, "m", 1, 1))
    bot.act(s0, ctx)
    assert len(calls) == 2  # two positions fit
    s2 = s1.clone()
    s2.apply_action(s2.legal_actions()[0])
    bot.act(s2, DecisionContext(0, "m", 2, 0))  # a third: the memo starts again
    bot.act(s0, ctx)
    assert len(calls) == 4
    with pytest.raises(ValueError, match="capacity"):
        MemoBot(Counting(), capacity=0)


@pytest.mark.slow
def test_provider_memoises_once_per_bot_and_counts() -> None:
    made = []

    def base(bot_id: str) -> Bot:
        made.append(bot_id)
        return make_bot("reversi", bot_id)

    prov = memoize_provider(base)
    assert prov("rev5") is prov("rev5") and made == ["rev5"]
    assert prov("rev3").bot_id == "rev3"
    s = GAME.new_initial_state()
    prov("rev5").act(s, DecisionContext(0, "m", 0, 0))
    prov("rev5").act(s, DecisionContext(0, "n", 0, 0))
    assert (prov("rev5").hits, prov("rev5").misses) == (1, 1)
    assert not isinstance(prov("rev3"), MemoBot)  # stochastic: handed back as it is
