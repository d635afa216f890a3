"""Zoo measurements for Doudizhu: strength (the thesis's pair protocol), decision speed and
pairwise move agreement. Everything is seeded: the same arguments give the same numbers (the
times aside).

* :func:`round_robin` (``ime zoo roundrobin --game doudizhu`` once wired in ``tools.py``): every
  round deals one hand; every ordered pair (A, B) of distinct bots plays it with A the landlord
  and B in both farmer seats (Table 5.10's protocol: both orders of a pair play the same deal).
  Win 3 / loss 0; also wins as landlord and as farmer per bot.
* :func:`decision_speed`: CPU time per decision in mixed tables (three bots drawn per game).
* :func:`agreement`: share of positions where two bots choose the same play, on positions with
  more than one legal action reached in mixed-table zoo games.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.seeding import derive_seed

TARGETS = ("ddz1", "ddz2", "ddz3", "ddz4", "ddz5", "ddz_mc")
"""The zoo's bots, in Table 5.1 order, and the search bot."""


def make_zoo_bot(bot_id: str, specs: Mapping[str, Mapping[str, Any]] | None = None) -> Bot:
    """``bot_id`` of ``specs`` (default ``config/bots/doudizhu.yaml``), built from ``BOT_KINDS``
    and ``ZOO_KINDS`` (works before and after the two are merged)."""
    from ime.bots.registry import load_bot_specs
    from ime.games.doudizhu.bots import BOT_KINDS
    from ime.games.doudizhu.bots.zoo import ZOO_KINDS

    spec = (specs if specs is not None else load_bot_specs("doudizhu"))[bot_id]
    kinds = {**BOT_KINDS, **ZOO_KINDS}
    bot = kinds[spec["kind"]]("doudizhu", bot_id, dict(spec.get("params") or {}))
    bot.bot_id = bot_id
    return bot


def _deal_seed(seed: int, r: int) -> int:
    return derive_seed("doudizhu-roundrobin", seed, r) & 0x7FFFFFFF


def round_robin(bots: Sequence[str] = TARGETS, rounds: int = 10, seed: int = 0,
                specs: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The pair protocol of the module doc: ``rounds * n * (n - 1)`` matches (``specs``:
    bot specs instead of the config file's)."""
    from ime.games.doudizhu.game import GAME
    from ime.matches.judge import run_match

    made = {b: make_zoo_bot(b, specs) for b in bots}
    zero = {b: 0 for b in bots}
    pts, wins, losses = dict(zero), dict(zero), dict(zero)
    ll_games, ll_wins, f_games, f_wins = dict(zero), dict(zero), dict(zero), dict(zero)
    pair = {a: {b: 0 for b in bots} for a in bots}
    faults = 0
    for r in range(rounds):
        s = _deal_seed(seed, r)
        for a in bots:
            for b in bots:
                if a == b:
                    continue
                res = run_match(GAME, [made[a], made[b], made[b]],
                                match_id=f"ddz-rr{seed}-{r}-{a}-{b}", seed=s)
                faults += res.fault is not None
                landlord_won = res.scores[0] > res.scores[1]
                winner, loser = (a, b) if landlord_won else (b, a)
                pts[winner] += 3
                wins[winner] += 1
                losses[loser] += 1
                ll_games[a] += 1
                f_games[b] += 1
                ll_wins[a] += landlord_won
                f_wins[b] += not landlord_won
                pair[a][b] += landlord_won
    return {"bots": list(bots), "rounds": rounds, "seed": seed,
            "matches": rounds * len(bots) * (len(bots) - 1), "points": pts, "wins": wins,
            "draws": dict(zero), "losses": losses, "faults": faults,
            "landlord_win_rate": {b: ll_wins[b] / max(ll_games[b], 1) for b in bots},
            "farmer_win_rate": {b: f_wins[b] / max(f_games[b], 1) for b in bots},
            "landlord_wins_vs": pair}


class _Timed(Bot):
    """Times a bot's decisions (CPU seconds of this process)."""

    def __init__(self, bot: Bot, log: list[float]):
        self.bot, self.bot_id, self.log = bot, bot.bot_id, log

    def act(self, state, ctx: DecisionContext):
        t = time.process_time()
        a = self.bot.act(state, ctx)
        self.log.append(time.process_time() - t)
        return a


def decision_speed(bots: Sequence[str] = TARGETS, games: int = 60, seed: int = 0
                   ) -> dict[str, dict[str, float]]:
    """Per bot: decisions timed, mean / p99 / max milliseconds per decision, and the mean CPU
    seconds of a match's decisions of that bot per seat it held; in ``games`` mixed-table
    matches (each seat drawn from ``bots``), after one warm-up game per bot."""
    from ime.games.doudizhu.game import GAME
    from ime.matches.judge import run_match

    made = {b: make_zoo_bot(b) for b in bots}
    for b in bots:  # warm-up: numba caches, memo tables
        run_match(GAME, [made[b]] * 3, match_id=f"warm-{b}", seed=seed)
    logs: dict[str, list[float]] = {b: [] for b in bots}
    seats = {b: 0 for b in bots}
    rng = np.random.default_rng(seed)
    for g in range(games):
        names = [bots[int(i)] for i in rng.integers(len(bots), size=3)]
        for n in names:
            seats[n] += 1
        run_match(GAME, [_Timed(made[n], logs[n]) for n in names],
                  match_id=f"speed-{seed}-{g}", seed=int(rng.integers(1 << 31)))
    out = {}
    for b, t in logs.items():
        a = np.array(t) * 1e3 if t else np.zeros(1)
        out[b] = {"decisions": len(t), "mean_ms": float(a.mean()),
                  "p99_ms": float(np.percentile(a, 99)), "max_ms": float(a.max()),
                  "match_s_per_seat": float(a.sum() / 1e3 / max(seats[b], 1))}
    return out


def zoo_positions(n: int, seed: int, bots: Sequence[str] = TARGETS) -> list:
    """``n`` positions with more than one legal action, from mixed-table zoo games."""
    from ime.games.doudizhu.game import GAME
    from ime.matches.judge import run_match

    made = {b: make_zoo_bot(b) for b in bots}
    rng = np.random.default_rng(seed)
    out: list = []
    g = 0
    while len(out) < n:
        names = [bots[int(i)] for i in rng.integers(len(bots), size=3)]
        res = run_match(GAME, [made[x] for x in names], match_id=f"pos-{seed}-{g}",
                        seed=int(rng.integers(1 << 31)), record_decisions=True)
        g += 1
        keep = [d.state for d in res.decisions if len(d.state.legal_actions()) > 1]
        for i in rng.permutation(len(keep))[:4]:
            out.append(keep[int(i)])
    return out[:n]


def agreement(bots: Sequence[str] = TARGETS, positions: int = 500, seed: int = 0
              ) -> dict[str, Any]:
    """Pairwise share of equal choices (same rank multiset) on :func:`zoo_positions`, overall
    (``matrix``) and per situation (``by_situation``: ``lead`` / ``opponent`` / ``teammate``,
    i.e. leading, following an opponent's play, following the teammate's)."""
    from ime.games.doudizhu.bots.view import seat_view

    states = zoo_positions(positions, seed)
    made = {b: make_zoo_bot(b) for b in bots}
    choices: dict[str, list] = {b: [] for b in bots}
    situation = []
    for k, st in enumerate(states):
        view = seat_view(st, st.to_move)
        situation.append("lead" if view.leading else
                         "teammate" if view.by_teammate else "opponent")
        ctx = DecisionContext(seed=seed, match_id=f"agree-{k}", ply=st.ply, player=st.to_move)
        for b in bots:
            a = made[b].act(st.clone(), ctx)
            choices[b].append(st.combo_of(a))

    def matrix(rows: list[int]) -> list[list[float]]:
        return [[float(np.mean([choices[a][i] == choices[b][i] for i in rows])) if rows
                 else float("nan") for b in bots] for a in bots]

    by = {}
    for name in ("lead", "opponent", "teammate"):
        rows = [i for i, s in enumerate(situation) if s == name]
        by[name] = {"n_positions": len(rows), "matrix": matrix(rows)}
    return {"bots": list(bots), "n_positions": len(states), "seed": seed,
            "matrix": matrix(list(range(len(states)))), "by_situation": by}


__all__ = ["TARGETS", "agreement", "decision_speed", "make_zoo_bot", "round_robin",
           "zoo_positions"]
