"""The evaluation's files are byte-identical for any worker count (issue 31).

``evaluate.workers`` is a runtime setting, kept out of every name and job param, which is only
right if no file a stage writes depends on it. Here the files the jobs write (key set,
candidates, mining stats, an agent's scores, a tournament pair's results and logs) are written
with 1, 2 and 3 workers and compared byte for byte; only the timing JSONs (wall-clock seconds
and the worker count itself) may differ.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ime.core.registry import get_game
from ime.evaluate.keys import mine_keys, read_keyset, write_keyset
from ime.evaluate.scoring import score_agent, write_scores
from ime.evaluate.tournament import pair_schedule, play_games, write_games
from ime.evaluate.toy import ToyProvider, ToyProviderFactory
from ime.matches.judge import run_match
from ime.matches.logs import write_matches

GAME = get_game("reversi")
MATCH_SEED = 7
WORKERS = (1, 2, 3)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 seeded matches of toy_first against toy_random, colours alternating."""
    prov = ToyProvider()
    ms = []
    for k in range(12):
        seats = [prov("toy_first"), prov("toy_random")]
        ms.append(run_match(GAME, seats if k % 2 == 0 else seats[::-1], match_id=f"w-{k}",
                            seed=MATCH_SEED))
    path = tmp_path_factory.mktemp("logs") / "m.jsonl"
    write_matches(path, ms)
    return path


def _files(out: Path, logs: Path, workers: int) -> dict[str, bytes]:
    """Every deterministic file of mining, scoring and one tournament pair, with ``workers``."""
    out.mkdir(parents=True)
    res = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [logs], ToyProviderFactory(),
                    n_keys=10, seed=3, match_seed=MATCH_SEED, workers=workers, progress=False)
    assert res.stats.workers == workers and res.stats.n_keys > 0
    write_keyset(res, out / "keys.parquet", out / "cand.parquet", out / "stats.json",
                 out / "timing.json")
    ks = read_keyset(out / "keys.parquet")
    df, info = score_agent(ks, "toy_last", ToyProviderFactory(), force_fork=True,
                           workers=workers, progress=False)
    write_scores(df, info, out / "scores.parquet", out / "scores.timing.json")
    games = pair_schedule("toy_first", "toy_random", 3)
    table, glogs = play_games("reversi", games, ToyProviderFactory(), rounds=3,
                              opening_plies=4, seed=0, workers=workers, progress=False)
    write_games(table, glogs, out / "pair.csv", out / "pair.jsonl")
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())
            if not p.name.endswith("timing.json")}


@pytest.mark.slow
def test_every_evaluation_file_is_the_same_bytes_for_any_worker_count(logs: Path,
                                                                       tmp_path: Path) -> None:
    runs = {w: _files(tmp_path / f"w{w}", logs, w) for w in WORKERS}
    assert {"keys.parquet", "cand.parquet", "stats.json", "scores.parquet", "pair.csv",
            "pair.jsonl"} <= set(runs[1])  # (and the Parquet files' .sha256 sidecars)
    for w in WORKERS[1:]:
        for name, blob in runs[1].items():
            assert runs[w][name] == blob, f"{name} differs with {w} workers"
