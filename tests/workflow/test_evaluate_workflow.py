"""The evaluation rules through the snakemake CLI, on the shared tiny run (Reversi's rev1 and
rev2 as targets; the sparring pool and the references pinned to rev1..rev5, as at every scale).

The run's evaluation results are checked (key sets, S1/S2 in percent, Tables 4.5-4.8 and 6.1,
every column defined); then dry runs check that nothing is left to do, that a new agent adds only
its score jobs, and that a new target adds only its own jobs (matches, decisions, dataset, train,
keys, scores, held-out score, tournament pairs) and the aggregates.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import TINY, job_counts, overrides_arg, planned_jobs, smk

from ime.workflow import make_plan
from ime.workflow.artifacts import undefined_columns

pytestmark = pytest.mark.slow

RDIR = "results/reversi/tiny"
OUTPUTS = ["table4_5.csv", "table4_6.csv", "table4_7.csv", "table4_8.csv", "table6_1.csv",
           "clusters.csv", "figures/fig4_2.png", "eval_timing.csv"]
N_KEYS = int(make_plan(["scale=tiny"]).main.cfg["evaluate"]["n_keys"])  # key endgames a target


def _dry(run: Path, *extra: str) -> tuple[str, str]:
    """(results directory, dry-run output) of the evaluation outputs of ``scale=tiny`` plus
    ``extra`` overrides, on the shared run (nothing is written)."""
    ov = ["scale=tiny", *extra]
    rdir = make_plan(ov).main.results_dir
    out = smk(run, "-n", *[f"{rdir}/{o}" for o in OUTPUTS], "--config", overrides_arg(ov))
    return rdir, out.stdout + out.stderr


def test_evaluation_results(tiny_run: Path) -> None:
    res = tiny_run / RDIR
    t45 = pd.read_csv(res / "table4_5.csv")
    assert list(t45["bot"]) == ["rev1", "rev2"]
    assert t45["keys_heldout"].between(0, N_KEYS).all()
    sims = pd.read_csv(res / "similarity.csv")
    for c in ("s1", "s1_lo", "s1_hi", "s2", "s2_lo", "s2_hi", "baseline"):  # percent
        assert sims[c].between(0, 100).all(), c
    assert (sims["s1"] > 1).any()  # not fractions
    for t in ("table4_6.csv", "table4_7.csv"):
        m = pd.read_csv(res / t).set_index("bot")
        sq = m[list(m.index)].to_numpy()
        assert (sq == sq.T).all() and ((sq >= 0) & (sq <= 100)).all()
        assert (sq.diagonal() == 100).all()
    # every column of every table written here is in the column dictionary (index.md's)
    assert undefined_columns("reversi", res) == {}
    for stats in (tiny_run / "data").glob("reversi/eval/*/*/keys/*[!g].json"):
        st = json.loads(stats.read_text())
        assert st["self_fork_failed"] == 0 and st["n_keys"] == N_KEYS, st
    t48 = pd.read_csv(res / "table4_8.csv")
    assert len(t48) == 4 and (t48["games"] == 6).all()

    # the thesis names are byte copies of the generic results
    assert (res / "table4_5.csv").read_bytes() == (res / "s1s2_imitator.csv").read_bytes()
    again = smk(tiny_run, "-n", *[f"{RDIR}/{o}" for o in OUTPUTS], "--config", TINY)
    assert "Nothing to be done" in again.stdout + again.stderr, again.stdout[-3000:]


def test_a_new_agent_adds_only_its_score_jobs(tiny_run: Path) -> None:
    """opp_random scored on each target's keys, then the aggregate tables of its own results
    directory; no key, imitator, tournament, training or match job."""
    rdir, text = _dry(tiny_run, "evaluate.agents=[opp_random]")
    counts = job_counts(text)
    assert counts.get("eval_score_zoo") == 2, counts  # opp_random on rev1's and rev2's keys
    for rule in ("eval_keys", "eval_score_imitator", "eval_score_heldout",
                 "eval_tournament_pair", "train_reversi", "matches", "dataset"):
        assert rule not in counts, (rule, counts)
    for rule, outs in planned_jobs(text):
        assert rule == "eval_score_zoo" or all(o.startswith(rdir + "/") for o in outs), rule


def test_a_new_target_adds_only_its_own_jobs(tiny_run: Path) -> None:
    """rev3 (from the pinned pool) as a third target: only its own jobs and the aggregates;
    nothing of rev1's and rev2's is redone."""
    rdir, text = _dry(tiny_run, "game.targets=[rev1,rev2,rev3]")
    jobs = planned_jobs(text)
    assert job_counts(text) == {
        # train: only the imitator's net (conv), its 2 folds in one job; the tables asked for
        # need no other
        "matches": 2, "decisions": 2, "dataset": 1, "train_reversi": 1, "eval_keys": 1,
        "eval_score_heldout": 1,
        # imit_rev3 on the 3 key sets, the 2 other imitators on rev3's keys
        "eval_score_imitator": 5,
        # 6 players: 15 pairs, 6 of them played already
        "eval_tournament_pair": 9,
        "eval_similarity": 1, "report_similarity_tables": 1, "report_tournament": 1,
        "report_moves": 1, "report_eval_timing": 1,
        # the thesis names asked for (table4_5..4_8, 6_1, fig4_2) are copies of the generic files
        "artifact": 6,
    }, job_counts(text)
    per_target = {"matches", "decisions", "dataset", "train_reversi", "eval_keys",
                  "eval_score_heldout"}
    for rule, outs in jobs:
        assert outs, rule
        if rule in per_target:
            assert all("/rev3" in o for o in outs), (rule, outs)
        elif rule in ("eval_score_imitator", "eval_tournament_pair"):
            assert all("rev3" in o for o in outs), (rule, outs)
        else:
            assert all(o.startswith(rdir + "/") for o in outs), (rule, outs)


def test_held_out_s1s2_is_read_from_the_score_files_of_a_run_that_stopped_before_the_matrix(
        tiny_run: Path, tmp_path: Path) -> None:
    """ime.report.imitator_table on a results directory without s1s2_imitator.csv (a run that
    scored its imitators held out but not the all-pairs matrix) computes S1/S2 on held-out keys
    from the pipeline's held-out score files: the numbers Table 4.5 has."""
    import shutil

    from ime.report.imitator_table import family_table

    t45 = pd.read_csv(tiny_run / RDIR / "table4_5.csv").set_index("bot")
    cut = tmp_path / "reversi"
    shutil.copytree(tiny_run / RDIR, cut)
    for name in ("table4_5.csv", "s1s2_imitator.csv"):
        (cut / name).unlink()
    df = family_table([cut], models=tiny_run / "data").set_index("bot")
    for bot in ("rev1", "rev2"):
        r = df.loc[bot]
        assert r.s1s2_source == "held-out scores" and r.keys_heldout == t45.loc[bot, "keys_heldout"]
        for col in ("S1_heldout", "S2_heldout"):
            assert abs(r[col] - t45.loc[bot, col]) < 0.01, (bot, col, r[col], t45.loc[bot, col])
        assert pd.isna(r.S1)  # the in-sample S1 needs the matrix
    assert family_table([cut]).S1_heldout.isna().all()  # without the data folder: none
    full = family_table([tiny_run / RDIR], models=tiny_run / "data").set_index("bot")
    assert set(full.s1s2_source) == {"s1s2_imitator.csv"}
    # Maia's split of the held-out keys, with and without the matrix, checked by brute force
    for bot in ("rev1", "rev2"):
        unseen = _unseen_heldout_keys(tiny_run, bot)
        for table in (df, full):
            r = table.loc[bot]
            assert r.keys_unseen == unseen, (bot, r.keys_unseen, unseen)
            share = 100 * (1 - unseen / r.keys_heldout)
            assert abs(r.keys_seen_share - share) < 1e-9 and 0 < share < 100
            assert 0 <= r.S1_heldout_unseen <= 100


def _unseen_heldout_keys(run: Path, bot: str) -> int:
    """Held-out keys of ``bot`` whose position no row of another fold's matches holds, by a
    plain loop over the dataset's rows (what ime.evaluate.heldout.keys_seen_in_training
    computes with array keys)."""
    import glob

    from ime.datasets.schema import read_arrays
    from ime.evaluate.heldout import dataset_match_folds
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import read_scores

    data = run / "data/reversi"
    train = json.loads((run / RDIR / "run_report.json").read_text())["config"]["train"]
    dataset = next(iter(glob.glob(f"{data}/datasets/*/{bot}.parquet")))
    arr = read_arrays(dataset)
    fold_of = dataset_match_folds(dataset, int(train["folds"]), int(train["seed"]))
    ks = read_keyset(next(iter(glob.glob(f"{data}/eval/**/keys/{bot}.parquet",
                                         recursive=True))))
    scores, _ = read_scores(next(iter(glob.glob(f"{data}/eval/**/scores/heldout/**/"
                                                f"imit_{bot}/{bot}.parquet", recursive=True))))
    played = set(zip(scores.match_id, scores.ply, scores.seat, strict=True))
    count = 0
    for i, k in enumerate(ks.df.itertuples()):
        if (k.match_id, k.ply, k.seat) not in played:
            continue
        f = fold_of.get(k.match_id, -1)
        pos = ks.planes[i].astype(arr.state.dtype).tobytes()
        held = {arr.state[j].tobytes() for j in range(len(arr.state))
                if f < 0 or fold_of.get(arr.match_id[j]) != f}
        count += pos not in held
    return count
