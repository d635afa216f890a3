"""``scripts/bench_summary.py``: the per-rule table of a run (issue 31's GPU-machine run,
``scripts/device_thesis.sh``, and BENCHMARKS.md). Its figures are sums of Snakemake's own files,
so the tests check them against files whose numbers are known: a hand-made ``benchmarks/`` tree
in the layout the rules write (``paths.JOB_BENCHMARK``, with the header of a real benchmark file)
and the log of a real Snakemake run of a toy workflow cut off by SIGINT, as the deadline does."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_summary.py"
_spec = importlib.util.spec_from_file_location("bench_summary", SCRIPT)
bs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bs)

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time"
"""The header of a real benchmark file (benchmarks/snake/eval_keys/quick/n50_l2_s0/snk04.tsv of a
quick run, Snakemake 9.27)."""


def _bench(root: Path, rel: str, wall: float, cpu: str, mtime: float | None = None) -> None:
    path = root / "benchmarks" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{HEADER}\n{wall}\t0:00:{int(wall):02d}\t567.88\t2567.40\t126.32\t208.39\t"
                    f"0.03\t0.02\t32.49\t{cpu}\n")
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def test_rules_sums_maxima_and_end_times(tmp_path: Path) -> None:
    t0 = 1_700_000_000.0
    _bench(tmp_path, "reversi/matches/thesis/rev1/shard000.tsv", 10.0, "9.5", t0 + 20)
    _bench(tmp_path, "reversi/matches/thesis/rev1/shard001.tsv", 30.0, "28.0", t0 + 50)
    _bench(tmp_path, "reversi/eval_score/thesis/n1_l2_s0/imit/t/conv/ens/rev1/rev2.tsv", 4.0, "3")
    _bench(tmp_path, "reversi/eval_score/thesis/n1_l2_s0/heldout/t/conv/rev1/rev2.tsv", 2.0, "NA")
    _bench(tmp_path, "reversi/eval_score/thesis/n1_l2_s0/zoo/rev1/rev2.tsv", 1.0, "1")
    _bench(tmp_path, "reversi/eval_tournament/t/conv/ens/o/rev1__rev2.tsv", 5.0, "60")
    _bench(tmp_path, "reversi/train/t/conv/rev1.tsv", 70.0, "71")
    _bench(tmp_path, "reversi/train/t/conv/_stacked.tsv", 90.0, "95")
    _bench(tmp_path, "tables/results/reversi/thesis/game_result/moves.tsv", 3.0, "2.5")
    _bench(tmp_path, "snake/matches/thesis/snk01/shard000.tsv", 99.0, "99")
    _bench(tmp_path, "tables/results/snake/game_result/x.tsv", 99.0, "99")
    rows = {r["rule"]: r for r in bs.benchmark_rules(tmp_path / "benchmarks", "reversi", t0)}
    assert set(rows) == {"matches", "eval_score_imitator", "eval_score_heldout", "eval_score_zoo",
                         "eval_tournament_pair", "train_reversi", "train_reversi_stacked",
                         "game_result"}
    m = rows["matches"]
    assert (m["jobs"], m["wall_s"], m["cpu_s"], m["wall_max_s"]) == (2, 40.0, 37.5, 30.0)
    assert (m["first_end_s"], m["last_end_s"]) == (20.0, 50.0)
    assert rows["eval_score_heldout"]["cpu_missing"] == 1
    assert rows["eval_score_heldout"]["cpu_s"] == 0.0
    # sorted by CPU seconds, most first: the table reads as "where the time went"
    assert [r["rule"] for r in bs.benchmark_rules(tmp_path / "benchmarks", "reversi")][:2] == [
        "train_reversi_stacked", "train_reversi"]
    both = bs.benchmark_rules(tmp_path / "benchmarks")  # no game: snake's jobs count too
    assert {r["rule"]: r["jobs"] for r in both}["matches"] == 3


def test_a_malformed_benchmark_file_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "benchmarks" / "reversi" / "dataset" / "d" / "rev1.tsv"
    path.parent.mkdir(parents=True)
    path.write_text(f"{HEADER}\n1.0\t0:00:01\n")
    with pytest.raises(ValueError, match=r"rev1\.tsv:2: 2 fields"):
        bs.benchmark_rules(tmp_path / "benchmarks")


TOY = '''
rule all:
    input: expand("out/{i}.txt", i=range(3)), "out/bad.txt", "out/slow.txt"
rule one:
    output: "out/{i}.txt"
    wildcard_constraints: i=r"\\d+"
    benchmark: "benchmarks/toy/one/t/{i}.tsv"
    shell: "echo {wildcards.i} > {output}"
rule bad:
    output: "out/bad.txt"
    shell: "exit 3"
rule slow:
    input: expand("out/{i}.txt", i=range(3))
    output: "out/slow.txt"
    shell: "sleep 600; touch {output}"
'''


RACED = """\
[Sat Dec  5 05:50:10 2026]
localrule one:
    output: out/0.txt
    jobid: 1
[Sat Dec  5 05:50:10 2026]
Finished jobid: 1 (Rule: one)
1 of 4 steps (25%) done
[Sat Dec  5 05:50:10 2026]
localrule bad:
    output: out/bad.txt
    jobid: 2
RuleException:
CalledProcessError in file "Snakefile", line 11:
Command 'set -euo pipefail;  exit 3' returned non-zero exit status 3.
[Sat Dec  5 05:50:10 2026]
Error in rule bad:
    message: None
    jobid: 2
[Sat Dec  5 05:50:11 2026]
localrule slow:
    output: out/slow.txt
    jobid: 3
[Sat Dec  5 05:50:11 2026]
localrule slower:
    output: out/slower.txt
    jobid: 4
RuleException:
CalledProcessError in file "Snakefile", line 15:
Command 'set -euo pipefail;  sleep 600; touch out/slow.txt' died with <Signals.SIGINT: 2>.
[Sat Dec  5 05:50:12 2026]
Error in rule slow:
    message: None
    jobid: 3
Terminating processes on user request, this might take some time.
"""
"""The toy run's log lines below (a second running job added), in the order a loaded machine can
write them: the deadline's SIGINT kills the slow job's shell and Snakemake logs its error before
its own handler logs that it terminates; the other job is still running when the log ends."""


def test_a_job_killed_by_the_deadline_before_snakemake_says_so_is_interrupted(
        tmp_path: Path) -> None:
    """Under load the order of the log's lines varies (a CI run on the 2-core box counted the
    slow job failed): a job whose command died of a signal, or that is still running when the
    log says it terminated, was cut off by the deadline; a job that exited with a status of its
    own failed."""
    def rules(text: str) -> dict[str, dict]:
        path = tmp_path / "run.snakemake.log"
        path.write_text(text)
        return {r["rule"]: r for r in bs.parse_snakemake_log(path)["rules"]}

    cut = rules(RACED)
    assert (cut["bad"]["failed"], cut["bad"]["interrupted"]) == (1, 0)
    assert (cut["slow"]["failed"], cut["slow"]["interrupted"]) == (0, 1)
    assert (cut["slower"]["running"], cut["slower"]["interrupted"]) == (0, 1)
    assert cut["one"]["finished"] == 1
    # a log of a run still going: its running job is running
    going = rules(RACED.replace("Terminating processes on user request, this might take some "
                                "time.\n", ""))
    assert (going["slower"]["running"], going["slower"]["interrupted"]) == (1, 0)


def _default_sigint() -> None:
    """SIGINT back to its default in the child: an xdist worker ignores it, and an ignored signal
    stays ignored across exec, so Snakemake would never see the deadline's SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_a_real_snakemake_log_cut_off_at_the_deadline(tmp_path: Path) -> None:
    """A real run: three jobs finish, one fails, one is running when SIGINT comes (what
    ``timeout -s INT`` sends at the deadline); the summary must count each as such."""
    (tmp_path / "Snakefile").write_text(TOY)
    t_start = int(time.time())  # whole seconds, as Snakemake's log stamps its jobs
    proc = subprocess.Popen([sys.executable, "-m", "snakemake", "-j1", "--keep-going"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        logs = list((tmp_path / ".snakemake" / "log").glob("*.snakemake.log"))
        if logs and "rule slow:" in logs[0].read_text():
            break
        time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("the toy workflow never started its slow job")
    # The log names the job a moment before its shell starts: wait for the job's `sleep` to run
    # (in Snakemake's session), so that the SIGINT interrupts it rather than arriving first.
    for _ in range(120):
        if subprocess.run(["pgrep", "-s", str(proc.pid), "-x", "sleep"],
                          capture_output=True).returncode == 0:
            break
        time.sleep(0.5)
    out = None
    for _ in range(9):  # the slow job sleeps 600 s: it can only end by the interrupt
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out = proc.communicate(timeout=10)[0].decode()
            break
        except subprocess.TimeoutExpired:
            continue
    if out is None:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("snakemake did not stop within 90 s of SIGINTs")
    assert proc.returncode != 0, out
    subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--json", "s.json",
                    "--markdown", "s.md", "--start", str(t_start), "--meta", "deadline_s=430",
                    "--meta", "card=H100"],
                   cwd=tmp_path, check=True, capture_output=True)
    s = json.loads((tmp_path / "s.json").read_text())
    assert s["meta"] == {"deadline_s": 430, "card": "H100"}
    smk = s["snakemake"]
    assert (smk["steps_done"], smk["steps_total"], smk["terminated"]) == (3, 6, True)
    rules = {r["rule"]: r for r in smk["rules"]}
    assert (rules["one"]["started"], rules["one"]["finished"]) == (3, 3)
    assert (rules["bad"]["failed"], rules["bad"]["finished"]) == (1, 0)
    assert rules["slow"]["interrupted"] == 1 and rules["slow"]["finished"] == 0, smk["jobs"]
    assert "all" not in rules
    # times after --start: the jobs began after Snakemake's start-up and in order
    one = rules["one"]
    assert 0 <= one["first_start_s"] <= one["last_end_s"] <= rules["slow"]["first_start_s"] < 120
    assert [(r["rule"], r["jobs"]) for r in s["benchmarks"]] == [("one", 3)]
    md = (tmp_path / "s.md").read_text()
    assert "3 of 6 steps done (stopped at the deadline)" in md
    assert "| one | 3 |" in md
