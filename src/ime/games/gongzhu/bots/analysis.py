"""Zoo measurements for Gongzhu: strength in 4-seat round robins and pairwise move agreement.
Everything is seeded: the same arguments give the same numbers.

* :func:`round_robin` (``ime zoo roundrobin --game gongzhu``): every round deals one hand; every
  4-subset of the bots plays it in each of the 4 seat rotations (duplicate format: every bot
  plays the same cards from every seat, so a lucky deal favours no bot). Per bot: mean deal score
  and win rate (top score, a shared top counting as a win; a deal where all four tie is a draw),
  each with a 95% CI from a bootstrap over rounds; points win 3 / draw 1 / loss 0.
* :func:`agreement`: share of positions where two bots choose the same action, on positions
  with more than one legal action reached in mixed-table games of the bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.seeding import derive_seed

TARGETS = ("gz_duck", "gz_shoot", "gz_low", "gz_random")
"""The zoo's rule bots (``config/bots/gongzhu.yaml``)."""


def make_zoo_bot(bot_id: str, specs: Mapping[str, Mapping[str, Any]] | None = None) -> Bot:
    """``bot_id`` of ``specs`` (default ``config/bots/gongzhu.yaml``), built from ``BOT_KINDS``."""
    from ime.bots.registry import load_bot_specs
    from ime.games.gongzhu.bots import BOT_KINDS

    spec = (specs if specs is not None else load_bot_specs("gongzhu"))[bot_id]
    bot = BOT_KINDS[spec["kind"]]("gongzhu", bot_id, dict(spec.get("params") or {}))
    bot.bot_id = bot_id
    return bot


def _deal_seed(seed: int, r: int) -> int:
    return derive_seed("gongzhu-roundrobin", seed, r) & 0x7FFFFFFF


def _ci(values: np.ndarray, rng: np.random.Generator, reps: int = 1000) -> tuple[float, float]:
    """95% bootstrap CI of the mean of per-round values (rows = rounds)."""
    if len(values) < 2:
        m = float(values.mean()) if len(values) else float("nan")
        return m, m
    idx = rng.integers(0, len(values), size=(reps, len(values)))
    means = values[idx].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return float(lo), float(hi)


def round_robin(bots: Sequence[str] = TARGETS, rounds: int = 10, seed: int = 0,
                specs: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The duplicate 4-seat protocol of the module doc: ``rounds * C(n, 4) * 4`` matches."""
    from ime.evaluate.forks import DRAW, WIN, outcome
    from ime.games.gongzhu.game import GAME
    from ime.matches.judge import run_match

    bots = list(bots)
    if len(bots) < 4:
        raise ValueError(f"a Gongzhu round robin needs >= 4 bots, got {bots}")
    made = {b: make_zoo_bot(b, specs) for b in bots}
    n = len(bots)
    score_sum = np.zeros((rounds, n))
    win_sum = np.zeros((rounds, n))
    games = np.zeros((rounds, n))
    wins = dict.fromkeys(bots, 0)
    draws = dict.fromkeys(bots, 0)
    losses = dict.fromkeys(bots, 0)
    matches = faults = 0
    for r in range(rounds):
        init = GAME.new_initial_state(seed=_deal_seed(seed, r)).initdata()
        for quad in combinations(range(n), 4):
            for rot in range(4):
                seats = [quad[(k + rot) % 4] for k in range(4)]
                res = run_match(GAME, [made[bots[i]] for i in seats],
                                match_id=f"rr{r}-{'-'.join(map(str, seats))}",
                                seed=seed, initdata=init,
                                player_ids=[bots[i] for i in seats])
                matches += 1
                faults += res.fault is not None
                for seat, i in enumerate(seats):
                    o = outcome(res.scores, seat)
                    score_sum[r, i] += res.scores[seat]
                    games[r, i] += 1
                    if o == WIN:
                        wins[bots[i]] += 1
                        win_sum[r, i] += 1
                    elif o == DRAW:
                        draws[bots[i]] += 1
                    else:
                        losses[bots[i]] += 1
    rng = np.random.default_rng(derive_seed("gongzhu-rr-ci", seed))
    per = games.sum(axis=0)
    out: dict[str, Any] = {"bots": bots, "rounds": rounds, "matches": matches,
                           "faults": faults, "wins": wins, "draws": draws, "losses": losses,
                           "points": {b: 3 * wins[b] + draws[b] for b in bots},
                           "mean_score": {}, "mean_score_ci": {}, "win_rate": {},
                           "win_rate_ci": {}, "games": {}}
    for i, b in enumerate(bots):
        g = games[:, i]
        out["games"][b] = int(per[i])
        out["mean_score"][b] = float(score_sum[:, i].sum() / per[i])
        out["win_rate"][b] = float(win_sum[:, i].sum() / per[i])
        # ratio estimators over rounds (every round gives each bot the same number of games)
        out["mean_score_ci"][b] = _ci(score_sum[:, i] / g, rng)
        out["win_rate_ci"][b] = _ci(win_sum[:, i] / g, rng)
    return out


def agreement(bots: Sequence[str] = TARGETS, n_positions: int = 1000, seed: int = 0,
              specs: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Pairwise agreement on ``n_positions`` positions (more than one legal action) reached in
    games of four bots drawn from ``bots`` per game."""
    from ime.games.gongzhu.game import GAME

    bots = list(bots)
    made = {b: make_zoo_bot(b, specs) for b in bots}
    rng = np.random.default_rng(derive_seed("gongzhu-agreement", seed))
    choices: list[list[int]] = []
    g = 0
    while len(choices) < n_positions:
        st = GAME.new_initial_state(seed=int(rng.integers(1 << 31)))
        table = [bots[int(rng.integers(len(bots)))] for _ in range(4)]
        mid = f"agree{g}"
        g += 1
        while not st.is_terminal() and len(choices) < n_positions:
            p = st.current_players()[0]
            ctx = DecisionContext(seed=seed, match_id=mid, ply=st.ply, player=p)
            if len(st.legal_actions(p)) > 1:
                choices.append([int(made[b].act(st.clone(), ctx)) for b in bots])
            a = made[table[p]].act(st.clone(), ctx)
            st.apply_action(int(a))
    c = np.asarray(choices)
    m = [[float((c[:, i] == c[:, j]).mean()) for j in range(len(bots))]
         for i in range(len(bots))]
    return {"bots": bots, "matrix": m, "n_positions": len(choices), "seed": seed}


__all__ = ["TARGETS", "agreement", "make_zoo_bot", "round_robin"]
