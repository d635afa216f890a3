"""The evaluation rules through the snakemake CLI on a tiny setup (slow: about two minutes).

Cheap zoo bots stand in for the targets (fast, and different enough that keys are found in a few
forks); everything else is the real pipeline at the tiny scale. After the run, dry runs check
that a new agent adds only its score jobs, and that a new target adds only its own jobs (matches,
decisions, dataset, train, keys, scores, held-out score, tournament pairs) and the aggregates.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from workflow_helpers import (
    copy_workflow,
    overrides_arg,
    planned_jobs,
    results_dir,
    snakemake,
)

from ime.workflow.artifacts import undefined_columns

# The sparring pool and the references are pinned (to cheap bots, one of which is not a target
# in the first run), as the Reversi defaults pin them to rev1..rev5: then a third target adds
# only its own jobs.
POOL = "[opp_greedy,opp_positional,opp_noisy1]"


def _overrides(*extra: str, targets: str = "[opp_greedy,opp_positional]") -> str:
    return overrides_arg([
        "scale=tiny", f"game.targets={targets}",
        "game.opponents=[opp_random]", f"game.sparring={POOL}",
        f"game.references={POOL}", "evaluate.n_keys=3",
        "evaluate.tournament.rounds=1", "evaluate.bootstrap=50", *extra])


@pytest.mark.slow
def test_evaluation_rules_end_to_end(tmp_path):
    copy_workflow(tmp_path)
    outputs = ["table4_5.csv", "table4_6.csv", "table4_7.csv", "table4_8.csv", "table6_1.csv",
               "clusters.csv", "figures/fig4_2.png", "eval_timing.csv"]
    rdir = results_dir(tmp_path, _overrides())  # where the variant's results go
    run = snakemake(tmp_path, "-j2", *[f"{rdir}/{o}" for o in outputs], "--config",
                    _overrides())
    assert run.returncode == 0, (run.stdout + run.stderr)[-5000:]
    res = tmp_path / rdir

    t45 = pd.read_csv(res / "table4_5.csv")
    assert list(t45["bot"]) == ["opp_greedy", "opp_positional"]
    assert t45["keys_heldout"].between(0, 3).all()
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
    for stats in (tmp_path / "data").glob("reversi/eval/*/*/keys/*[!g].json"):
        st = json.loads(stats.read_text())
        assert st["self_fork_failed"] == 0 and st["n_keys"] == 3, st
    t48 = pd.read_csv(res / "table4_8.csv")
    assert len(t48) == 4 and (t48["games"] == 6).all()

    # nothing left to do
    again = snakemake(tmp_path, "-n", *[f"{rdir}/{o}" for o in outputs], "--config",
                      _overrides())
    assert "Nothing to be done" in again.stdout + again.stderr, again.stdout[-3000:]

    # a new agent: only its score jobs and the aggregate tables (of its own results variant)
    extra = "evaluate.agents=[opp_random]"
    rdir2 = results_dir(tmp_path, _overrides(extra))
    plus = snakemake(tmp_path, "-n", *[f"{rdir2}/{o}" for o in outputs], "--config",
                     _overrides(extra))
    text = plus.stdout + plus.stderr
    assert plus.returncode == 0, text[-3000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", text, re.M))
    assert counts.get("eval_score_zoo") == "2", counts  # opp_random on each target's keys
    for rule in ("eval_keys", "eval_score_imitator", "eval_score_heldout",
                 "eval_tournament_pair", "train_reversi", "matches", "dataset"):
        assert rule not in counts, (rule, counts)

    # a third target: only its own jobs and the aggregates; nothing of the first two is redone
    three = "[opp_greedy,opp_positional,opp_noisy1]"
    rdir3 = results_dir(tmp_path, _overrides(targets=three))
    plan = snakemake(tmp_path, "-n", *[f"{rdir3}/{o}" for o in outputs], "--config",
                     _overrides(targets=three))
    text = plan.stdout + plan.stderr
    assert plan.returncode == 0, text[-3000:]
    jobs = planned_jobs(text)
    counts: dict[str, int] = {}
    for rule, _ in jobs:
        counts[rule] = counts.get(rule, 0) + 1
    assert counts == {
        # train: only the imitator's net (conv), its 2 folds in one job; the tables asked for
        # need no other
        "matches": 2, "decisions": 2, "dataset": 1, "train_reversi": 1, "eval_keys": 1,
        "eval_score_heldout": 1,
        # imit_opp_noisy1 on the 3 key sets, the 2 other imitators on opp_noisy1's keys
        "eval_score_imitator": 5,
        # 6 players: 15 pairs, 6 of them played already
        "eval_tournament_pair": 9,
        "eval_similarity": 1, "report_similarity_tables": 1, "report_tournament": 1,
        "report_moves": 1, "report_eval_timing": 1,
        # the thesis names asked for (table4_5..4_8, 6_1, fig4_2) are copies of the generic files
        "artifact": 6,
    }, counts
    per_target = {"matches", "decisions", "dataset", "train_reversi", "eval_keys",
                  "eval_score_heldout"}
    for rule, outs in jobs:
        assert outs, rule
        if rule in per_target:
            assert all("/opp_noisy1" in o for o in outs), (rule, outs)
        elif rule in ("eval_score_imitator", "eval_tournament_pair"):
            assert all("opp_noisy1" in o for o in outs), (rule, outs)
        else:
            assert all(o.startswith(rdir3 + "/") for o in outs), (rule, outs)
    # the thesis names are byte copies of the generic results
    assert (res / "table4_5.csv").read_bytes() == (res / "s1s2_imitator.csv").read_bytes()
