"""Move distributions on key positions, and the Jensen-Shannon divergence between them (issue 48).

S1 asks each agent once per key, which is all there is to ask of a deterministic bot. A
stochastic one (MCTS with random playouts, random tie-breaks) plays a *distribution* of moves
on a position, and one draw of it agrees with the target's one logged draw only by luck. Here
each agent is asked ``samples`` times on every key of a target's key set, under seeds that are
not the match's (:func:`draw_seed`: the bot contract keys a stochastic bot's randomness by
(seed, match, ply), so a new seed is a new, replayable draw), and the empirical distributions
are compared by the Jensen-Shannon divergence, in nats:

    JSD(P, Q) = H(M) - (H(P) + H(Q)) / 2,   M = (P + Q) / 2,

0 for identical distributions and ``ln 2`` for disjoint ones. Agents are black boxes here, as
for S1: an imitator is asked as it plays (the argmax of its net, deterministic), not for its
softmax. A bot whose ``deterministic`` flag is set is asked once and its answer counts
``samples`` times (the same distribution, ``samples`` - 1 decisions cheaper); a flag that lies
is caught by the ceiling (:mod:`ime.evaluate.ceiling`), which re-asks such bots.

**Finite samples.** The plug-in JSD of two ``samples``-draw estimates of the *same* distribution
is above 0 (about ``(k - 1) / (4 samples)`` nats for ``k`` moves in its support). The pair table
therefore also has one row per stochastic agent against itself (``a == b``): the JSD between
the two halves of its own draws, an upper bound of that bias at half the draws, below which a
pair's JSD says nothing.

The position is rebuilt from the key set's stored prefix with every seat's Botzone transcript, as
the ceiling's re-asking does, so an external program is asked as in a match.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ime.core.bot import DecisionContext
from ime.core.game import Game, State
from ime.core.registry import get_game
from ime.core.seeding import derive_seed
from ime.evaluate.forks import BotProvider, LoggedMatch, action_key
from ime.evaluate.keyset import KeySet
from ime.evaluate.parallel import ordered_map
from ime.evaluate.similarity import cluster_bootstrap_ci
from ime.matches.judge import respond

DIST_COLUMNS = ["match_id", "ply", "seat", "agent", "draw", "action"]
JSD_COLUMNS = ["a", "b", "kind", "keys", "jsd", "jsd_lo", "jsd_hi"]
LN2 = float(np.log(2.0))


def draw_seed(match_seed: int, draw: int) -> int:
    """The seed of draw ``draw`` on a key of a match seeded ``match_seed`` (never the match's)."""
    return derive_seed(match_seed, "move_distribution", draw)


def decision_point(game: Game, match: LoggedMatch, ply: int,
                   seat: int) -> tuple[State, list[Any], list[Any]]:
    """The position before turn ``ply`` and ``seat``'s Botzone transcript there (its requests,
    the one of turn ``ply`` last, and its earlier responses)."""
    state = game.new_initial_state(initdata=match.initdata, seed=match.seed)
    requests: list[Any] = []
    responses: list[Any] = []
    for entry in match.entries[:ply]:
        movers = state.current_players()
        if seat in movers:
            requests.append(state.request_for(seat))
            responses.append(entry[str(seat)]["response"])
        state.apply_actions({p: state.decode_response(p, entry[str(p)]["response"])
                             for p in movers})
    if state.ply != ply or seat not in state.current_players():
        raise ValueError(f"match {match.match_id}: seat {seat} does not decide at ply {ply}")
    requests.append(state.request_for(seat))
    return state, requests, responses


@dataclass
class _Ctx:
    keys: KeySet
    provider: BotProvider
    agents: tuple[str, ...]
    samples: int


def _sample_key(ctx: _Ctx, i: int) -> list[tuple[str, int, int | str]]:
    game = get_game(ctx.keys.game, ctx.keys.game_params)
    m = ctx.keys.logged_match(i)
    r = ctx.keys.df.iloc[i]
    ply, seat = int(r["ply"]), int(r["seat"])
    state, requests, responses = decision_point(game, m, ply, seat)
    out = []
    for agent in ctx.agents:
        bot = ctx.provider(agent)
        draws = 1 if getattr(bot, "deterministic", False) else ctx.samples
        for d in range(draws):
            dc = DecisionContext(seed=draw_seed(m.seed, d), match_id=m.match_id, ply=ply,
                                 player=seat, requests=list(requests),
                                 responses=list(responses))
            raw = respond(bot, state.clone(), dc)
            try:
                act = action_key(state.decode_response(seat, raw))
            except ValueError:  # an illegal answer is a move of its own: "none"
                act = action_key(None)
            bot.end_match(m.match_id)
            out += [(agent, d, act)] if draws > 1 else [(agent, k, act)
                                                        for k in range(ctx.samples)]
    return out


def sample_moves(keys: KeySet, agents: Sequence[str],
                 provider_factory: Callable[[], BotProvider], *, samples: int,
                 workers: int = 1) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Every agent's ``samples`` draws on every key: one row per (key, agent, draw), in key
    order; plus timing info. Same inputs, same rows, whatever ``workers``."""
    if samples < 2:
        raise ValueError(f"a move distribution needs at least 2 draws a key, got {samples}")
    t0 = time.perf_counter()
    local = provider_factory()
    for a in agents:  # a bad id fails here with the registry's message, not in a worker
        local(a)
    stochastic = [a for a in agents if not getattr(local(a), "deterministic", False)]

    def setup() -> _Ctx:
        return _Ctx(keys, provider_factory(), tuple(agents), int(samples))

    rows = []
    for i, drawn in enumerate(ordered_map(_sample_key, range(len(keys.df)), setup,
                                          workers=workers)):
        r = keys.df.iloc[i]
        rows += [(str(r["match_id"]), int(r["ply"]), int(r["seat"]), a, d, act)
                 for a, d, act in drawn]
    df = pd.DataFrame(rows, columns=DIST_COLUMNS)
    if len(df) and not all(isinstance(a, int) for a in df["action"]):
        df["action"] = ["" if a == -1 else str(a) for a in df["action"]]
    seconds = time.perf_counter() - t0
    return df, {"target": keys.target, "agents": list(agents), "stochastic": stochastic,
                "keys": len(keys.df), "samples": int(samples), "decisions": len(df),
                "seconds": round(seconds, 3)}


def write_dists(df: pd.DataFrame, info: Mapping[str, Any], path: str | Path,
                timing_path: str | Path | None = None) -> None:
    """Parquet with the sampling's info (target, agents, which are stochastic) in its metadata;
    the wall time goes to ``timing_path`` only, so the same draws are the same bytes."""
    import pyarrow as pa

    from ime.datasets.integrity import write_parquet

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df[DIST_COLUMNS], preserve_index=False)
    stable = {k: v for k, v in info.items() if k != "seconds"}
    meta = {**(table.schema.metadata or {}),
            b"ime.dists_info": json.dumps(stable, sort_keys=True).encode()}
    write_parquet(table.replace_schema_metadata(meta), path)
    if timing_path is not None:
        Path(timing_path).write_text(json.dumps(dict(info), indent=2) + "\n")


def read_dists(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    from ime.datasets.integrity import read_parquet

    table = read_parquet(path)
    info = json.loads((table.schema.metadata or {}).get(b"ime.dists_info", b"{}"))
    return table.to_pandas(), info


def jsd(p: Mapping[Any, float], q: Mapping[Any, float]) -> float:
    """Jensen-Shannon divergence (nats) of two distributions given as ``move -> weight``
    (counts or probabilities; each normalised here)."""
    sp, sq = float(sum(p.values())), float(sum(q.values()))
    if sp <= 0 or sq <= 0:
        raise ValueError("JSD of an empty distribution is undefined")
    support = sorted(set(p) | set(q), key=str)
    pv = np.array([p.get(k, 0.0) for k in support], dtype=np.float64) / sp
    qv = np.array([q.get(k, 0.0) for k in support], dtype=np.float64) / sq
    mv = (pv + qv) / 2.0

    def h(x: np.ndarray) -> float:
        x = x[x > 0]
        return float(-(x * np.log(x)).sum())

    return max(0.0, h(mv) - (h(pv) + h(qv)) / 2.0)


def _per_key(df: pd.DataFrame) -> dict[tuple[str, int, int], dict[str, dict[Any, float]]]:
    """``key -> agent -> move -> draws``."""
    out: dict[tuple[str, int, int], dict[str, dict[Any, float]]] = {}
    counts = df.groupby(["match_id", "ply", "seat", "agent", "action"], sort=False).size()
    for (mid, ply, seat, agent, act), c in counts.items():
        out.setdefault((str(mid), int(ply), int(seat)), {}).setdefault(agent, {})[act] = float(c)
    return out


def _halves(df: pd.DataFrame) -> dict[tuple[str, int, int], dict[str, tuple[dict, dict]]]:
    """``key -> agent -> (first half's counts, second half's)`` of its draws (by draw index)."""
    samples = int(df["draw"].max()) + 1 if len(df) else 0
    out: dict = {}
    for half, part in ((0, df[df["draw"] < samples // 2]), (1, df[df["draw"] >= samples // 2])):
        for key, agents in _per_key(part).items():
            for agent, counts in agents.items():
                out.setdefault(key, {}).setdefault(agent, [{}, {}])[half] = counts
    return out


def pairwise_jsd(dists: Mapping[str, pd.DataFrame], bots: Sequence[str],
                 imitators: Mapping[str, str] | None = None, *, stochastic: Sequence[str] = (),
                 n_boot: int = 1000, level: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """Mean per-key JSD with match-clustered CIs: between every two ``bots`` pooled over both
    targets' keys (``kind`` originals), each imitator (``imitators``: target -> its id) against
    its target on the target's keys (``imitator``), and each ``stochastic`` bot's two halves of
    its own draws on its own keys (``self``, the estimator's floor: the module doc).
    ``dists[target]`` is :func:`sample_moves`' table on that target's keys."""
    per = {t: _per_key(d) for t, d in dists.items()}
    rows = []

    def add(a: str, b: str, kind: str, vals: list[tuple[float, str]]) -> None:
        if not vals:
            return
        v = np.array([x for x, _ in vals])
        lo, hi = cluster_bootstrap_ci(v, [c for _, c in vals], n_boot=n_boot, level=level,
                                      seed=seed, salt=f"jsd|{kind}|{a}|{b}") if n_boot else (
            float("nan"), float("nan"))
        rows.append({"a": a, "b": b, "kind": kind, "keys": len(v), "jsd": float(v.mean()),
                     "jsd_lo": lo, "jsd_hi": hi})

    def on(target: str, a: str, b: str) -> list[tuple[float, str]]:
        return [(jsd(ag[a], ag[b]), key[0]) for key, ag in per.get(target, {}).items()
                if a in ag and b in ag]

    for ia, a in enumerate(bots):
        for b in bots[ia + 1:]:
            add(a, b, "originals", on(a, a, b) + on(b, a, b))
    for target, imit in (imitators or {}).items():
        add(target, imit, "imitator", on(target, target, imit))
    for b in stochastic:
        if b in dists:
            halves = _halves(dists[b])
            add(b, b, "self", [(jsd(*ag[b]), key[0]) for key, ag in halves.items()
                               if b in ag and all(ag[b])])
    return pd.DataFrame(rows, columns=JSD_COLUMNS)
