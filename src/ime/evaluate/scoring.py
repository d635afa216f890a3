"""Score any agent on a stored key set, without re-mining (thesis 3.2: "lightweight, incremental").

For every key endgame the agent takes the target's seat at the key ply and finishes the game
against the stored opponent program(s), with the key's match id and seed. Its first response is
its single-step action (for S1) and the end result its outcome (for S2). One fork gives both.

A reference bot that was forked while mining already has both numbers stored in the key set, so
it is *extracted*, not re-played (same numbers, since forks are deterministic).

The score table has one row per key, in key-set order: ``match_id, ply, seat, action, outcome``.
Actions are stored as the key set stores them (:func:`ime.evaluate.forks.action_key`: integer
codes, or canonical JSON for games whose actions are not integers).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ime.core.registry import get_game
from ime.datasets.integrity import read_parquet, write_parquet
from ime.evaluate.agents import warm_up
from ime.evaluate.forks import BotProvider, action_column, action_key, finish_as, state_at
from ime.evaluate.keys import KeySet, read_keyset
from ime.evaluate.parallel import ordered_map

SCORE_COLUMNS = ["match_id", "ply", "seat", "action", "outcome"]


@dataclass
class _ScoreCtx:
    keys: KeySet
    provider: BotProvider


def _score_one(ctx: _ScoreCtx, task: tuple[int, str]) -> tuple[int | str, int]:
    i, agent = task
    game = get_game(ctx.keys.game, ctx.keys.game_params)
    m = ctx.keys.logged_match(i)
    ply = int(ctx.keys.df["ply"].iloc[i])
    seat = int(ctx.keys.df["seat"].iloc[i])
    state = state_at(game, m, ply)
    fo = finish_as(game, m, ply, seat, ctx.provider(agent), ctx.provider, state=state)
    return action_key(fo.action), int(fo.outcome)


def score_agent(
    keys: KeySet,
    agent: str,
    provider_factory: Callable[[], BotProvider],
    *,
    workers: int = 1,
    progress: bool = True,
    force_fork: bool = False,
) -> tuple[pd.DataFrame, dict]:
    """The agent's action and outcome on every key of ``keys``; plus timing info.

    ``force_fork`` re-plays even a stored reference (used by tests to prove the two agree).
    """
    base = keys.df[["match_id", "ply", "seat"]].copy()
    if agent in keys.references and not force_fork:
        return stored_scores(keys, agent), {
            "agent": agent, "target": keys.target, "source": "stored reference",
            "keys": len(base), "forks": 0, "seconds": 0.0}
    if agent == keys.target and not force_fork:
        base["action"] = _actions(keys.df["action"])
        base["outcome"] = keys.df["target_outcome"].astype(int).to_numpy()
        return base, {"agent": agent, "target": keys.target, "source": "target itself",
                      "keys": len(base), "forks": 0, "seconds": 0.0}

    df, info = score_per_key(keys, [agent] * len(keys.df), provider_factory, workers=workers,
                             progress=progress, desc=f"{agent} on {keys.target}")
    info["agent"] = agent
    return df.drop(columns=["agent"]), info


def score_per_key(
    keys: KeySet,
    agents: Sequence[str | None],
    provider_factory: Callable[[], BotProvider],
    *,
    workers: int = 1,
    progress: bool = True,
    desc: str = "scoring",
) -> tuple[pd.DataFrame, dict]:
    """Fork key ``i`` with agent ``agents[i]`` (``None``: leave the key out).

    The general form of :func:`score_agent`: the held-out evaluation plays each key with the
    imitator of the fold that did not train on that key's match. Rows come back in key order,
    with an ``agent`` column.
    """
    t0 = time.perf_counter()
    if len(agents) != len(keys.df):
        raise ValueError(f"{len(agents)} agents for {len(keys.df)} keys")
    tasks = [(i, a) for i, a in enumerate(agents) if a is not None]
    used = sorted({a for _, a in tasks})
    local = provider_factory()
    for a in used:  # a bad id fails here with the registry's message, not in a worker
        local(a)

    def setup() -> _ScoreCtx:
        prov = provider_factory()
        if workers > 1:
            opponents = {p for s in keys.df["players_json"] for p in json.loads(s)}
            warm_up(prov, [*used, *sorted(opponents)], get_game(keys.game, keys.game_params))
        return _ScoreCtx(keys, prov)

    n = len(tasks)
    keys_: list[int | str] = []
    outcomes = np.zeros(n, dtype=np.int64)
    bar = tqdm(total=n, desc=desc, unit="fork", disable=not progress)
    for j, (a, o) in enumerate(ordered_map(_score_one, tasks, setup, workers=workers)):
        keys_.append(a)
        outcomes[j] = o
        bar.update()
    bar.close()
    column = action_column(keys_)
    actions = (np.asarray(column, dtype=np.int64) if all(isinstance(a, int) for a in column)
               else np.asarray(column, dtype=object))
    rows = [i for i, _ in tasks]
    out = keys.df[["match_id", "ply", "seat"]].iloc[rows].reset_index(drop=True)
    out["action"] = actions
    out["outcome"] = outcomes
    out["agent"] = [a for _, a in tasks]
    seconds = time.perf_counter() - t0
    return out, {"agent": ",".join(used), "target": keys.target, "source": "fork",
                 "keys": n, "forks": n, "seconds": round(seconds, 3),
                 "forks_per_s": round(n / seconds, 3) if seconds > 0 else 0.0}


TIMING_KEYS = ("seconds", "forks_per_s")


def _actions(col: pd.Series) -> np.ndarray:
    """A stored action column as an array: ``int`` codes, or strings (canonical JSON)."""
    if pd.api.types.is_numeric_dtype(col):
        return col.astype(int).to_numpy()
    return col.astype(str).to_numpy(dtype=object)


def stored_scores(keys: KeySet, agent: str) -> pd.DataFrame:
    """A reference's score table, read from the key set (it was forked while mining)."""
    if agent not in keys.references:
        raise KeyError(f"{agent} is not a reference of {keys.target}'s key set "
                       f"(references: {keys.references})")
    out = keys.df[["match_id", "ply", "seat"]].copy()
    out["action"] = _actions(keys.df[f"action__{agent}"])
    out["outcome"] = keys.df[f"outcome__{agent}"].astype(int).to_numpy()
    return out


def write_scores(df: pd.DataFrame, info: dict, path: str | Path,
                 timing_path: str | Path | None = None) -> None:
    """Parquet with the run info (agent, target, source) in the file metadata.

    Wall-clock timings go to ``timing_path`` (JSON), never into the Parquet file, so the scores
    are byte-identical across runs.
    """
    import pyarrow as pa

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df[SCORE_COLUMNS], preserve_index=False)
    meta = dict(table.schema.metadata or {})
    stable = {k: v for k, v in info.items() if k not in TIMING_KEYS}
    meta[b"ime.score_info"] = json.dumps(stable, sort_keys=True).encode()
    write_parquet(table.replace_schema_metadata(meta), path)
    if timing_path is not None:
        Path(timing_path).parent.mkdir(parents=True, exist_ok=True)
        Path(timing_path).write_text(json.dumps(info, indent=2) + "\n")


def read_scores(path: str | Path) -> tuple[pd.DataFrame, dict]:
    table = read_parquet(path)
    meta = table.schema.metadata or {}
    info = json.loads(meta.get(b"ime.score_info", b"{}"))
    return table.to_pandas(), info


def score_from_path(keys_path: str | Path, agent: str,
                    provider_factory: Callable[[], BotProvider], **kw) -> tuple[pd.DataFrame, dict]:
    return score_agent(read_keyset(keys_path), agent, provider_factory, **kw)
