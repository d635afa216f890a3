"""The case study (thesis 5.5.2) in the shared tiny run: Reversi's ``case_study.csv`` and
Doudizhu's ``table5_11.csv`` hold one key endgame traced through the target, its references and
its imitator; every agent's result there is its S2 verdict stored by the evaluation (key set and
imitator scores); ``ime trace`` on that key, with the imitator's checkpoints, writes the same
table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import TINY_RESULTS

from ime.bots.registry import load_bot_specs
from ime.cli.main import main
from ime.evaluate.forks import OUTCOME_NAMES, WIN
from ime.evaluate.keyset import read_keyset
from ime.evaluate.scoring import read_scores
from ime.evaluate.trace import TRACE_COLUMNS, key_names
from ime.workflow import make_plan
from ime.workflow.evalplan import EvalPlan

pytestmark = pytest.mark.slow


def _key_of(run: Path, game: str, table: pd.DataFrame):
    """(key set path, key set, row) of the traced key: the target's first row is the key."""
    first = table[table["role"] == "target"].iloc[0]
    for path in sorted(run.glob(f"data/{game}/eval/*/*/keys/{first['agent']}.parquet")):
        ks = read_keyset(path)
        hit = ks.df.index[(ks.df["match_id"] == first["match_id"])
                          & (ks.df["ply"] == first["ply"]) & (ks.df["seat"] == first["seat"])]
        if len(hit) == 1:
            return path, ks, int(hit[0])
    raise AssertionError(f"no key set of {first['agent']} holds {first.to_dict()}")


@pytest.mark.parametrize("game,name", [("reversi", "case_study.csv"),
                                       ("doudizhu", "table5_11.csv")])
def test_case_study_results_are_the_stored_s2_verdicts(tiny_run: Path, game: str,
                                                       name: str) -> None:
    rdir = tiny_run / "results" / game / "tiny"
    if game != "reversi":
        assert name in TINY_RESULTS[game]
        assert (rdir / name).read_bytes() == (rdir / "case_study.csv").read_bytes()
        assert (rdir / "figures/fig5_4.png").read_bytes() == (
            rdir / "figures/case_study.png").read_bytes()
    assert (rdir / "figures/case_study.png").stat().st_size > 5000
    table = pd.read_csv(rdir / "case_study.csv")
    assert list(table.columns) == TRACE_COLUMNS and len(table)
    _, ks, i = _key_of(tiny_run, game, table)
    results = table.drop_duplicates("agent").set_index("agent")["result"]
    imit = f"imit_{ks.target}"
    assert set(results.index) == {ks.target, *ks.references, imit}
    assert results[ks.target] == OUTCOME_NAMES[int(ks.df["target_outcome"].iloc[i])]
    for ref in ks.references:
        assert results[ref] == OUTCOME_NAMES[int(ks.df[f"outcome__{ref}"].iloc[i])], ref
    [score_path] = tiny_run.glob(f"data/{game}/eval/*/*/scores/imit/*/*/*/{imit}/"
                                 f"{ks.target}.parquet")
    scores = read_scores(score_path)[0]
    assert results[imit] == OUTCOME_NAMES[int(scores["outcome"].iloc[i])]
    # the thesis's case when the run has one: the original and its imitator both win
    imit_wins = (scores["outcome"] == WIN) & (ks.df["target_outcome"] == WIN)
    if imit_wins.any():
        assert results[ks.target] == results[imit] == "win"
    assert table.loc[table["agent"] == ks.target, "same_as_target"].all()


def test_ime_trace_writes_the_case_study_table(tiny_run: Path, tmp_path: Path) -> None:
    rdir = tiny_run / "results/reversi/tiny"
    table = pd.read_csv(rdir / "case_study.csv")
    path, ks, i = _key_of(tiny_run, "reversi", table)
    plan = EvalPlan(make_plan(["scale=tiny"]).main, load_bot_specs("reversi"))
    ckpts = [str(tiny_run / c) for c in plan.checkpoints(ks.target)]
    score = tiny_run / plan.score_path(f"imit_{ks.target}", ks.target)
    out = tmp_path / "trace.csv"
    rc = main(["trace", "reversi", str(path), key_names(ks)[i], *sum(
        (["--checkpoint", c] for c in ckpts), []), "--scores", f"imit_{ks.target}={score}",
        "--csv", str(out)])
    assert rc == 0
    assert out.read_bytes() == (rdir / "case_study.csv").read_bytes()
