"""The evaluation rules through the snakemake CLI on a tiny setup (slow: about two minutes).

Cheap zoo bots stand in for the targets (fast, and different enough that keys are found in a few
forks); everything else is the real pipeline at the tiny scale.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from ime.paths import repo_root

ROOT = repo_root()
COPY = ["Snakefile", "rules", "config", "workflow_scripts", "report", "envs"]


def _evaluate_override() -> list[str]:
    """``+evaluate=default`` until config.yaml's defaults list the group, then nothing."""
    text = (ROOT / "config" / "config.yaml").read_text()
    return [] if re.search(r"^\s*-\s*evaluate\s*:", text, re.M) else ["+evaluate=default"]


def _overrides(*extra: str) -> str:
    items = ["scale=tiny", *_evaluate_override(), "game.targets=[opp_greedy,opp_positional]",
             "game.opponents=[opp_random]", "evaluate.n_keys=3", "evaluate.tournament.rounds=1",
             "evaluate.bootstrap=50", *extra]
    return "overrides=[" + ",".join(f'"{o}"' for o in items) + "]"


def _snakemake(workdir: Path, *args: str, timeout: int = 400) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(workdir / "Snakefile"), "-d",
           str(workdir), *args]
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("IME_CONFIG_DIR", None)
    return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout,
                          env=env)


@pytest.mark.slow
def test_evaluation_rules_end_to_end(tmp_path):
    if not (ROOT / "rules" / "train.smk").is_file():
        pytest.skip("the pipeline's rules are not there yet")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name)
        elif src.is_file():
            shutil.copy(src, tmp_path / name)
    outputs = ["table4_5.csv", "table4_6.csv", "table4_7.csv", "table4_8.csv", "table6_1.csv",
               "clusters.csv", "figures/fig4_2.png", "eval_timing.csv"]
    # where the variant's results go
    dry = _snakemake(tmp_path, "-n", "--config", _overrides())
    assert dry.returncode == 0, dry.stderr[-3000:]
    rdir = re.search(r"(results/reversi/[^/\s]+)/table4_5\.csv", dry.stdout + dry.stderr)
    assert rdir, (dry.stdout + dry.stderr)[-3000:]
    rdir = rdir.group(1)
    run = _snakemake(tmp_path, "-j2", *[f"{rdir}/{o}" for o in outputs], "--config",
                     _overrides())
    assert run.returncode == 0, (run.stdout + run.stderr)[-5000:]
    res = tmp_path / rdir

    t45 = pd.read_csv(res / "table4_5.csv")
    assert list(t45["bot"]) == ["opp_greedy", "opp_positional"]
    assert t45["keys_heldout"].between(0, 3).all()
    sims = pd.read_csv(res / "similarity.csv")
    for c in ("s1", "s1_lo", "s1_hi", "s2", "s2_lo", "s2_hi", "baseline"):
        assert sims[c].between(0, 1).all(), c
    for t in ("table4_6.csv", "table4_7.csv"):
        m = pd.read_csv(res / t).set_index("bot")
        sq = m[list(m.index)].to_numpy()
        assert (sq == sq.T).all() and ((sq >= 0) & (sq <= 1)).all()
    for stats in (tmp_path / "data").glob("reversi/eval/*/*/keys/*[!g].json"):
        st = json.loads(stats.read_text())
        assert st["self_fork_failed"] == 0 and st["n_keys"] == 3, st
    t48 = pd.read_csv(res / "table4_8.csv")
    assert len(t48) == 4 and (t48["games"] == 6).all()

    # nothing left to do
    again = _snakemake(tmp_path, "-n", *[f"{rdir}/{o}" for o in outputs], "--config",
                       _overrides())
    assert "Nothing to be done" in again.stdout + again.stderr, again.stdout[-3000:]

    # a new agent: only its score jobs and the aggregate tables (of its own results variant)
    extra = "evaluate.agents=[opp_random]"
    dry2 = _snakemake(tmp_path, "-n", "--config", _overrides(extra))
    rdir2 = re.search(r"(results/reversi/[^/\s]+)/table4_5\.csv", dry2.stdout + dry2.stderr)
    assert rdir2, (dry2.stdout + dry2.stderr)[-3000:]
    plus = _snakemake(tmp_path, "-n", *[f"{rdir2.group(1)}/{o}" for o in outputs], "--config",
                      _overrides(extra))
    text = plus.stdout + plus.stderr
    assert plus.returncode == 0, text[-3000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", text, re.M))
    assert counts.get("eval_score_zoo") == "2", counts  # opp_random on each target's keys
    for rule in ("eval_keys", "eval_score_imitator", "eval_score_heldout",
                 "eval_tournament_pair", "train", "matches", "dataset"):
        assert rule not in counts, (rule, counts)
