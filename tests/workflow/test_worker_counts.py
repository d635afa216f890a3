"""Worker counts are runtime settings (issue 31): in no variant name, tag or job param, and the
evaluation's threads follow Snakemake's ``--cores`` (ime.core.workers, rules/evaluate.smk).

A result directory or a job's params that moved with ``evaluate.workers`` would make a user who
raises it to use their cores recompute everything downstream, although the count changes no
result; the dry run on the finished tiny run checks that through Snakemake's own provenance.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from workflow_helpers import TINY_RESULTS, job_counts, overrides_arg, smk

from ime.cli.main import main
from ime.core.registry import known_games
from ime.workflow import artifacts as A
from ime.workflow import default_config_dir, game_options, setup_workflow
from ime.workflow.thesis import ThesisPlan

CONFIG = default_config_dir()
GAMES = [g for g in game_options(CONFIG) if g in known_games()]
RUNTIME = ["evaluate.workers=16", "train.threads=3", "train.stack_bots=true"]


def _show(capsys: pytest.CaptureFixture[str], *overrides: str) -> str:
    assert main(["pipeline", "show", *overrides]) == 0
    return capsys.readouterr().out.splitlines()[0]


def test_pipeline_show_prints_the_default_directory_for_any_worker_count(capsys) -> None:
    assert _show(capsys) == "results: results/reversi/"
    assert _show(capsys, "evaluate.workers=16") == "results: results/reversi/"
    assert _show(capsys, "evaluate.workers=1", "train.threads=4") == "results: results/reversi/"
    # the command: thesis scale on rev5 with 16 workers named thesis__evaluate.workers-16
    thesis = ["scale=thesis", "game.targets=[rev5]"]
    assert _show(capsys, *thesis, "evaluate.workers=16") == _show(capsys, *thesis)


@pytest.mark.parametrize("game", GAMES)
def test_worker_counts_enter_no_name_tag_or_param(game: str) -> None:
    """Every params function that holds the config (run report, plug-in results, reproduction
    report) and every evaluation spec is the same with other worker counts."""
    base = setup_workflow({"overrides": [f"game={game}", "scale=tiny"]}, CONFIG)
    fast = setup_workflow({"overrides": [f"game={game}", "scale=tiny", *RUNTIME]}, CONFIG)
    v, w = base.main(game), fast.main(game)
    assert (v.results_dir, v.logs_tag, v.dataset_tag, v.train_tag, v.net_dirs) == \
        (w.results_dir, w.logs_tag, w.dataset_tag, w.train_tag, w.net_dirs)
    assert w.cfg["evaluate"]["workers"] == 16  # the override did compose
    rdir = v.results_dir
    if rdir in base.index.results:
        assert base.index.run_report_spec(rdir) == fast.index.run_report_spec(rdir)
    for name in A.game_results(game):
        spec = fast.result_spec(rdir, name)
        assert spec == base.result_spec(rdir, name)
        assert "workers" not in spec["config"]["evaluate"]
        assert "threads" not in spec["config"]["train"]
    e, f = base.evals.for_rdir(rdir), fast.evals.for_rdir(rdir)
    for t in e.targets:
        assert e.keys_spec(t) == f.keys_spec(t)
    for a, b in e.pairs():
        assert e.pair_spec(a, b) == f.pair_spec(a, b)
    assert e.similarity_spec() == f.similarity_spec()
    assert json.dumps(e.tournament_spec()) == json.dumps(f.tournament_spec())


def test_the_reproduction_report_params_hold_no_worker_count() -> None:
    base = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    fast = setup_workflow({"overrides": ["scale=tiny", *RUNTIME]}, CONFIG)
    tb, tf = ThesisPlan(base), ThesisPlan(fast)
    assert tb.directory() == tf.directory()
    assert tb.spec(tb.directory()) == tf.spec(tf.directory())


def test_threads_follow_the_cores_and_an_int_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IME_CPU_COUNT", "64")  # plan a 16-core machine on any box
    wf = setup_workflow({"overrides": ["scale=tiny"]}, CONFIG)
    assert wf.workers("reversi", 16) == 5 and wf.workers("reversi", 2) == 1
    assert wf.workers("reversi", 64) == 16
    forced = setup_workflow({"overrides": ["scale=tiny", "evaluate.workers=4"]}, CONFIG)
    assert forced.workers("reversi", 16) == 4 and forced.workers("reversi", 2) == 4


@pytest.mark.slow
def test_auto_leaves_the_stacked_train_jobs_their_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """``train.stack_bots``: Reversi's three nets train in three GPU jobs of one thread each, so
    ``auto`` leaves 1 + 3 cores of 16 and gives an evaluation job 4 (three mining jobs and the
    three train jobs then fit together); per-bot training leaves 1 (5 workers); an int is
    still taken as asked; 2 cores still give 1."""
    monkeypatch.setenv("IME_CPU_COUNT", "64")
    stacked = setup_workflow({"overrides": ["scale=thesis", "train.stack_bots=true"]}, CONFIG)
    assert stacked.stacked_train_cores("reversi") == 3
    assert stacked.workers("reversi", 16) == 4 and stacked.workers("reversi", 2) == 1
    threads = setup_workflow({"overrides": ["scale=thesis", "train.stack_bots=true",
                                            "train.threads=2"]}, CONFIG)
    assert threads.stacked_train_cores("reversi") == 6 and threads.workers("reversi", 16) == 3
    plain = setup_workflow({"overrides": ["scale=thesis"]}, CONFIG)
    assert plain.stacked_train_cores("reversi") == 0 and plain.workers("reversi", 16) == 5
    forced = setup_workflow({"overrides": ["scale=thesis", "train.stack_bots=true",
                                            "evaluate.workers=5"]}, CONFIG)
    assert forced.workers("reversi", 16) == 5


def _threads(dry: str) -> dict[str, set[int]]:
    """rule -> the thread counts its jobs get in a dry run (1 when Snakemake prints none)."""
    out: dict[str, set[int]] = {}
    rule = None
    for line in dry.splitlines():
        head = re.match(r"^(?:local)?rule (\w+):\s*$", line)
        if head:
            rule = head.group(1)
            out.setdefault(rule, set())
            continue
        m = re.match(r"^\s+threads: (\d+)$", line)
        if m and rule:
            out[rule].add(int(m.group(1)))
    return {r: (t or {1}) for r, t in out.items()}


@pytest.mark.slow
def test_snakemake_grants_threads_from_cores(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real Snakefile: ``--cores 16`` gives the evaluation's jobs 5 threads (a third
    of the 15 left after the core kept for the path to training, whose jobs carry a priority:
    several evaluation jobs run side by side with training; key mining comes next), a
    tournament pair at most its games (tiny: 1 round = 2 games), ``--cores 2`` one thread each.
    (A 64-CPU machine: on the box itself granted cores count only up to its CPUs.)"""
    monkeypatch.setenv("IME_CPU_COUNT", "64")
    targets = ["results/reversi/tiny/table4_5.csv", "results/reversi/tiny/table4_8.csv"]
    cfg = overrides_arg(["scale=tiny"])
    big = smk(tmp_path, "-n", "--cores", "16", *targets, "--config", cfg)
    th = _threads(big.stdout + big.stderr)
    for rule in ("eval_keys", "eval_score_imitator", "eval_score_heldout"):
        assert th[rule] == {5}, (rule, th)
    assert th["eval_tournament_pair"] == {2}
    assert th["dataset"] == th["decisions"] == {1}
    prio = re.findall(r"^rule (\w+):\n(?:    .*\n)*?    priority: (\d+)$",
                      big.stdout + big.stderr, flags=re.M)
    prio = {r: int(p) for r, p in prio}
    assert all(prio[r] == 10 for r in ("matches", "decisions", "dataset", "train_reversi"))
    # key mining next: the evaluation's longest jobs, each gating the scoring on its keys
    assert prio["eval_keys"] == 5
    assert not set(prio) & {"eval_tournament_pair", "eval_score_imitator"}
    small = smk(tmp_path, "-n", "--cores", "2", *targets, "--config", cfg)
    assert set().union(*_threads(small.stdout + small.stderr).values()) == {1}


@pytest.mark.slow
def test_a_changed_worker_count_reruns_nothing(tiny_run: Path) -> None:
    """On the finished tiny run, Reversi's results with other worker counts plan 0 jobs (no
    new directory, no params-triggered re-run), at another ``--cores`` too."""
    targets = [f"results/reversi/tiny/{f}" for f in TINY_RESULTS["reversi"]]
    same = smk(tiny_run, "-n", "--cores", "2", *targets, "--config",
               overrides_arg(["scale=tiny"]))
    assert job_counts(same.stdout + same.stderr) == {}, (same.stdout + same.stderr)[-3000:]
    for ovr, cores in ((["evaluate.workers=1"], "2"), (["evaluate.workers=7"], "16"),
                       (["evaluate.workers=auto", "train.threads=2"], "16")):
        out = smk(tiny_run, "-n", "--cores", cores, *targets, "--config",
                  overrides_arg(["scale=tiny", *ovr]))
        text = out.stdout + out.stderr
        assert job_counts(text) == {}, (ovr, text[-3000:])
        assert "Nothing to be done" in text
