"""Issue 13, failure 9: ``ime play`` wrote its output only at the end (a 40-game run killed after
8 s kept nothing) and every failed run left a 0-byte ``<out>.part``, even on a spec error.

Now every finished match is appended as it completes, in schedule order; a rerun resumes
without replaying finished matches (a torn last line is dropped) and ends byte-identical to an
uninterrupted run; no ``.part`` is left; the match stage's journal survives Snakemake deleting
its output. The bots count the matches they really play (tests/reliability/programs/
counting_bot.py appends a line per match).

Fails on the old package: nothing is kept, a ``.part`` is left, a rerun replays everything.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_helpers import PROGRAMS, REPO, ime

GAMES = 6


def counting_spec(counter: Path, delay: float = 0.25) -> dict:
    return {"kind": "external", "params": {
        "command": [sys.executable, str(PROGRAMS / "counting_bot.py"), str(counter), str(delay)],
        "keep_running": True, "time_limit": 30, "keep_running_time_limit": 10}}


def bots_file(tmp: Path, counter: Path) -> Path:
    f = tmp / "bots.yaml"
    f.write_text(json.dumps({"counter": counting_spec(counter)}))
    return f


def play_args(bots: Path, out: Path, workers: int, *extra: str) -> list[str]:
    return ["play", "reversi", "--black", "counter", "--white", "opp_random", "--games",
            str(GAMES), "--seed", "0", "--workers", str(workers), "--bots-file", str(bots),
            "--out", str(out), "--no-progress", *extra]


def played(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def settled(counter: Path, timeout: float = 15) -> int:
    """:func:`played` once no bot of this counter has been alive for 10 consecutive
    looks (a program started just before a kill may still be writing its line; one look can
    miss a process mid-``exec``, whose command line reads empty for a moment, and a CI run under
    load once counted a match too few)."""
    needle = str(counter).encode()
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 10:
        alive = []
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            try:
                if needle in Path(f"/proc/{pid}/cmdline").read_bytes():
                    alive.append(pid)
            except OSError:
                continue
        quiet = 0 if alive else quiet + 1
        time.sleep(0.05)
    return played(counter)


def complete_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith((".part", ".tmp"))]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    """The uninterrupted run's bytes."""
    tmp = tmp_path_factory.mktemp("reference")
    counter = tmp / "count"
    out = tmp / "out.jsonl"
    run = ime(*play_args(bots_file(tmp, counter), out, 1))
    assert run.returncode == 0, run.stderr
    assert complete_lines(out) == GAMES and played(counter) == GAMES
    return out.read_bytes()


@pytest.mark.parametrize("sig,workers", [(signal.SIGTERM, 1), (signal.SIGKILL, 2),
                                         (signal.SIGINT, 2)],
                         ids=["SIGTERM-1", "SIGKILL-2", "SIGINT-2"])
@pytest.mark.slow
def test_interrupted_play_keeps_its_matches_and_resumes(tmp_path, reference, sig, workers):
    counter = tmp_path / "count"
    out = tmp_path / "out.jsonl"
    bots = bots_file(tmp_path, counter)
    proc = subprocess.Popen([sys.executable, "-m", "ime", *play_args(bots, out, workers)],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while complete_lines(out) < 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    kept = complete_lines(out)
    assert 1 <= kept < GAMES, f"{kept} matches kept after {sig.name}"
    assert reference.startswith(out.read_bytes()), "what was kept is not the run's prefix"
    assert not leftovers(tmp_path), leftovers(tmp_path)
    before = settled(counter)
    again = ime(*play_args(bots, out, workers))
    assert again.returncode == 0, again.stderr
    assert f"resuming: {kept} of {GAMES} matches already in {out}" in again.stderr
    assert out.read_bytes() == reference
    assert played(counter) - before == GAMES - kept  # the kept matches were not replayed
    assert not leftovers(tmp_path)


@pytest.mark.slow
def test_a_torn_last_line_is_dropped_and_the_rest_replayed(tmp_path, reference):
    counter = tmp_path / "count"
    out = tmp_path / "out.jsonl"
    lines = reference.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][: len(lines[2]) // 2])  # killed mid-write
    run = ime(*play_args(bots_file(tmp_path, counter), out, 1))
    assert run.returncode == 0, run.stderr
    assert out.read_bytes() == reference
    assert played(counter) == GAMES - 2


@pytest.mark.slow
def test_a_spec_error_leaves_no_file(tmp_path):
    bots = tmp_path / "bots.yaml"
    bots.write_text(json.dumps({"broken": {"kind": "no_such_kind"}}))
    out = tmp_path / "out.jsonl"
    run = ime("play", "reversi", "--black", "broken", "--white", "opp_random", "--games", "2",
              "--workers", "1", "--bots-file", str(bots), "--out", str(out), "--no-progress")
    assert run.returncode != 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bots.yaml"], list(tmp_path.iterdir())


@pytest.mark.slow
def test_another_runs_output_is_refused_not_overwritten(tmp_path, reference):
    counter = tmp_path / "count"
    out = tmp_path / "out.jsonl"
    out.write_bytes(reference)
    bots = bots_file(tmp_path, counter)
    other = play_args(bots, out, 1)
    other[other.index("--seed") + 1] = "1"
    run = ime(*other)
    assert run.returncode == 2, run.stderr
    assert "is not an interrupted run of this schedule" in run.stderr and "--restart" in run.stderr
    assert out.read_bytes() == reference and played(counter) == 0
    again = ime(*play_args(bots, out, 1))  # the same run again: nothing to play
    assert again.returncode == 0 and out.read_bytes() == reference and played(counter) == 0


STAGE = """
import sys
from ime.matches.runner import build_target_schedule, play_schedule
import json
specs = json.loads(sys.argv[1])
sched = build_target_schedule("reversi", "counter", ["opp_random"], [], {games}, seed=2)
play_schedule("reversi", sched, specs, sys.argv[2], seed=2, workers=1, progress=False,
              journal=sys.argv[3] == "journal")
"""


@pytest.mark.slow
def test_the_match_stage_resumes_from_its_journal(tmp_path):
    """Snakemake deletes a job's output before it runs and after it fails: the match stage's
    finished matches live in ``<out>.<fingerprint>.journal`` until the schedule is complete."""
    code = STAGE.format(games=GAMES)
    counter = tmp_path / "count"
    specs = json.dumps({"counter": counting_spec(counter),
                        "opp_random": {"kind": "random"}})
    ref = tmp_path / "ref.jsonl"
    subprocess.run([sys.executable, "-c", code, specs, str(ref), "plain"], cwd=REPO,
                   check=True, timeout=120)
    out = tmp_path / "logs" / "shard000.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", code, specs, str(out), "journal"], cwd=REPO)
    deadline = time.monotonic() + 30

    def journal() -> list[Path]:
        return sorted(out.parent.glob("shard000.jsonl.*.journal")) if out.parent.exists() else []

    while (not journal() or complete_lines(journal()[0]) < 1) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not out.exists() and len(journal()) == 1
    kept = complete_lines(journal()[0])
    assert 1 <= kept < GAMES
    before = settled(counter)
    subprocess.run([sys.executable, "-c", code, specs, str(out), "journal"], cwd=REPO,
                   check=True, timeout=120)
    assert out.read_bytes() == ref.read_bytes()
    assert played(counter) - before == GAMES - kept
    assert not journal() and not leftovers(tmp_path)
