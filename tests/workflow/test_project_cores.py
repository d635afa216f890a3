"""``scripts/project_cores.py``: a measured run replayed on a machine with more cores (issue 31's
16-core projection of the 2-core thesis-scale run). The schedule's arithmetic is checked on jobs
whose answer is known by hand; the parsing on a real Snakemake run of a toy workflow (its log,
its benchmark files, its ``--detailed-summary``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "project_cores.py"
_spec = importlib.util.spec_from_file_location("project_cores", SCRIPT)
pc = importlib.util.module_from_spec(_spec)
sys.modules["project_cores"] = pc
_spec.loader.exec_module(pc)


def _job(jid: int, rule: str, cpu: float, deps=(), priority: int = 0):
    return pc.Job(jid, rule, [f"out/{jid}"], cpu_s=cpu, priority=priority, deps=set(deps))


def test_independent_jobs_fill_the_cores() -> None:
    jobs = {i: _job(i, "matches", 10.0) for i in range(3)}
    assert pc.project(jobs, pc.Machine(cores=2))["makespan_s"] == 20.0  # 2 at once, then 1
    assert pc.project(jobs, pc.Machine(cores=3))["makespan_s"] == 10.0
    assert pc.project(jobs, pc.Machine(cores=3, speed=2.0))["makespan_s"] == 5.0


def test_a_chain_waits_and_the_critical_path_is_its_sum() -> None:
    jobs = {0: _job(0, "matches", 5.0), 1: _job(1, "dataset", 3.0, deps=[0]),
            2: _job(2, "train", 7.0, deps=[1]), 3: _job(3, "matches", 1.0)}
    p = pc.project(jobs, pc.Machine(cores=16))
    assert p["makespan_s"] == p["critical_path_s"] == 15.0
    assert [c.split(":")[0] for c in p["critical_path"]] == ["matches", "dataset", "train"]


def test_parallel_rules_divide_their_cpu_and_hold_their_threads() -> None:
    # an evaluation job of 40 CPU-s on 4 workers takes 10 s and holds 4 cores; the two 10-s
    # matches (higher priority) start first, so on 5 cores it waits for them (3 cores left)
    jobs = {0: _job(0, "eval_keys", 40.0, priority=0), 1: _job(1, "matches", 10.0, priority=10),
            2: _job(2, "matches", 10.0, priority=10)}
    assert pc.project(jobs, pc.Machine(cores=5, workers=4))["makespan_s"] == 20.0
    assert pc.project(jobs, pc.Machine(cores=6, workers=4))["makespan_s"] == 10.0
    p = pc.project(jobs, pc.Machine(cores=6, workers=4, parallel=frozenset()))
    assert p["makespan_s"] == 40.0  # not parallel: one thread, 40 s


def test_priority_decides_who_gets_the_last_core() -> None:
    # one core: the priority-10 job runs first, so its dependent starts at 1 s, not at 11 s
    jobs = {0: _job(0, "eval_keys", 10.0, priority=0), 1: _job(1, "matches", 1.0, priority=10),
            2: _job(2, "train", 1.0, deps=[1], priority=10)}
    times = pc.schedule(jobs, pc.Machine(cores=1, parallel=frozenset()))
    assert times[1] == (0.0, 1.0) and times[2] == (1.0, 2.0) and times[0] == (2.0, 12.0)


def test_a_rule_rescheduled_at_another_priority() -> None:
    # the same jobs with eval_keys raised above matches: now the key job takes the one core first
    jobs = {0: _job(0, "eval_keys", 10.0, priority=0), 1: _job(1, "matches", 1.0, priority=10),
            2: _job(2, "train", 1.0, deps=[1], priority=10)}
    pc.reprioritise(jobs, pc._priorities(["eval_keys=20"]))
    times = pc.schedule(jobs, pc.Machine(cores=1, parallel=frozenset()))
    assert times[0] == (0.0, 10.0) and times[1] == (10.0, 11.0)
    with pytest.raises(SystemExit, match="RULE=INTEGER"):
        pc._priorities(["eval_keys=high"])


def test_fixed_durations_replace_measured_cpu() -> None:
    jobs = {0: _job(0, "train_reversi", 1000.0), 1: _job(1, "matches", 2.0)}
    p = pc.project(jobs, pc.Machine(cores=4, fixed={"train_reversi": 70.0}))
    assert p["makespan_s"] == 70.0


def test_a_job_wider_than_the_machine_runs_on_all_of_it() -> None:
    jobs = {0: _job(0, "eval_keys", 32.0)}
    assert pc.project(jobs, pc.Machine(cores=2, workers=8))["makespan_s"] == 16.0


@pytest.mark.slow
def test_a_real_run_is_parsed_and_projected(tmp_path: Path) -> None:
    """A toy workflow: two CPU-bound jobs, then one that reads both; -j1 here, projected onto 2
    cores the first two overlap, so the projection is shorter than the sum of CPU."""
    (tmp_path / "Snakefile").write_text(textwrap.dedent("""
        rule all:
            input: "c.txt"
        rule burn:
            output: "{x}.txt"
            wildcard_constraints: x="[ab]"
            benchmark: "benchmarks/burn/{x}.tsv"
            shell: "python3 burn.py && echo {wildcards.x} > {output}"
        rule join:
            input: "a.txt", "b.txt"
            output: "c.txt"
            benchmark: "benchmarks/join.tsv"
            priority: 5
            shell: "cat {input} > {output}"
    """))
    (tmp_path / "burn.py").write_text(
        "import time\nt = time.process_time()\nwhile time.process_time() - t < 3.0:\n    pass\n")
    run = subprocess.run([sys.executable, "-m", "snakemake", "-j1"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    summary = subprocess.run([sys.executable, "-m", "snakemake", "--detailed-summary"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert summary.returncode == 0, summary.stderr[-2000:]
    (tmp_path / "ds.tsv").write_text(summary.stdout)

    jobs = pc.load_run(tmp_path, pc.newest_log(tmp_path), tmp_path / "ds.tsv")
    by_rule = {}
    for j in jobs.values():
        by_rule.setdefault(j.rule, []).append(j)
    assert sorted(by_rule) == ["burn", "join"]  # rule all writes nothing: not a job here
    join, = by_rule["join"]
    assert join.priority == 5 and {jobs[d].rule for d in join.deps} == {"burn"}
    assert len(join.deps) == 2
    # Snakemake samples a job's CPU about once a second, so its figure can miss the last second
    # (more when a loaded machine starves the sampler): 3 s burned reads as 1.5-4.5 s.
    assert all(1.5 < j.cpu_s < 4.5 for j in by_rule["burn"]), [j.cpu_s for j in by_rule["burn"]]

    one = pc.project(jobs, pc.Machine(cores=1))
    two = pc.project(jobs, pc.Machine(cores=2))
    assert one["makespan_s"] == pytest.approx(one["cpu_s"], abs=0.05)
    assert two["makespan_s"] < one["makespan_s"] - 1.0
    assert two["critical_path_s"] == pytest.approx(two["makespan_s"], abs=0.05)

    out = tmp_path / "p.json"
    pc.main([str(tmp_path), "--summary", str(tmp_path / "ds.tsv"), "--cores", "2",
             "--json", str(out)])
    assert '"makespan_s"' in out.read_text()
