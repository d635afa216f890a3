"""DMC must never wait forever: a buffer layout that cannot fill a batch fails at once, naming the
stream; the tightest legal layout (``num_buffers == batch``, several actors, per-position streams)
runs to its budget; the learner's stall report names who waits for what.

The two runs are real subprocesses under a wall-clock timeout, so a deadlock fails the test
instead of hanging it (pytest-timeout is not assumed), and their process group is killed so no
blocked actor outlives the test.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ime.games.gongzhu.agents import dmc
from ime.games.gongzhu.agents.dmc import PLAYING, DMCConfig, progress_report, stall_report

ROOT = Path(__file__).resolve().parents[4]
TINY_FLAGS = ["--per-position", "true", "--width", "16", "--depth", "1", "--lstm-hidden", "8",
              "--show-width", "8", "--show-depth", "1", "--device", "cpu", "--eval-every", "0",
              "--save-every", "100000000"]
LIMIT_S = 150  # a fixed run needs seconds; before the fix the first run below never ended


def _run_dmc(out: Path, *flags: str) -> subprocess.CompletedProcess:
    """``python -m ime.games.gongzhu.agents.dmc train`` in its own process group; on timeout the
    group is killed and the test fails."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "ime.games.gongzhu.agents.dmc", "train", "--out", str(out),
           *TINY_FLAGS, *flags]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail(f"DMC run still going after {LIMIT_S} s (deadlock?): {' '.join(cmd)}\n"
                    f"{stdout[-2000:]}\n{stderr[-2000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


@pytest.mark.slow
def test_fewer_buffers_than_a_batch_fail_at_once_naming_the_stream(tmp_path):
    # 3 buffers per stream, batches of 4: the learner would hold all three buffers of play_A and
    # the actors would wait for a free one forever (the run used to sit there silently)
    res = _run_dmc(tmp_path / "run", "--actors", "2", "--unroll", "13", "--batch", "4",
                   "--show-unroll", "1", "--show-batch", "4", "--num-buffers", "3",
                   "--frames", "2000")
    assert res.returncode != 0
    assert "stream play_A: num_buffers=3 is less than its batch of 4" in res.stderr
    assert not (tmp_path / "run" / "curve.csv").exists()


@pytest.mark.slow
def test_tightest_legal_layout_with_several_actors_runs_to_its_budget(tmp_path):
    # num_buffers == batch for both kinds: the learner holds a whole pool before each step, the
    # three actors block on it in turn, and the run still reaches its frames
    res = _run_dmc(tmp_path / "run", "--actors", "3", "--unroll", "13", "--batch", "4",
                   "--show-unroll", "1", "--show-batch", "4", "--num-buffers", "4",
                   "--frames", "1500", "--log-every", "500")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader((tmp_path / "run" / "curve.csv").open()))
    assert int(rows[-1]["frames"]) >= 1500
    assert all(rows[-1][f"mean_return_{p}"] != "" for p in "ABCD")


def test_config_check_accepts_a_batch_of_buffers_and_rejects_less():
    DMCConfig(per_position=True, batch=36, show_batch=36, num_buffers=36).check_buffers()
    with pytest.raises(ValueError, match="stream show: num_buffers=5 is less than its batch of 6"):
        DMCConfig(batch=4, show_batch=6, num_buffers=5).check_buffers()


def test_stall_report_names_waiting_actors_and_flags_only_a_true_deadlock():
    cfg = DMCConfig(per_position=True, batch=4, show_batch=4, num_buffers=4)
    streams = cfg.streams()
    held = {"play_A": 3, "play_B": 1}
    # two actors wait for play_A, whose fourth buffer is still out (free, queued or written)
    msg, stuck = stall_report(cfg, held, [PLAYING, streams.index("play_A"),
                                          streams.index("play_A")], deals=7, waited_s=20.4)
    assert stuck == []
    assert "1 playing, 2 waiting for a free buffer (play_A x2)" in msg
    assert "7 deals finished" in msg and "for 20 s" in msg
    assert "play_A 3/4" in msg and "play_B 1/4" in msg and "show_D 0/4" in msg
    # every actor playing, no deals: the symptom of slow or stuck self-play, not a deadlock
    msg, stuck = stall_report(cfg, {}, [PLAYING] * 16, deals=0, waited_s=80)
    assert stuck == [] and "16 playing, 0 waiting for a free buffer (none); 0 deals" in msg
    # the learner holds all num_buffers of a stream an actor waits for: nothing can come back
    small = DMCConfig(per_position=True, batch=4, show_batch=4, num_buffers=3)
    _, stuck = stall_report(small, {"play_C": 3}, [streams.index("play_C")], 0, 10)
    assert stuck == ["play_C"]


def test_progress_report_says_deals_per_second_and_which_deal_is_oldest():
    msg = progress_report({"play": 2, "show": 1}, buffers=9, deals=45, since_s=30.0,
                          deal_ages=[0.2, 95.0, 0.4, 0.1])
    assert "no curve row for 30 s: 45 deals finished (1.5/s), 9 full buffers received" in msg
    assert "steps play 2 / show 1" in msg
    assert "the oldest deal in progress 95.0 s (actor 1), the median 0.4 s" in msg


@pytest.mark.slow
def test_the_learner_logs_progress_reports_between_curve_rows(tmp_path, monkeypatch):
    # every loop pass is past the (zeroed) interval, so the report comes between rows; the
    # run still reaches its budget and the deals it reports are real (the actors' counters)
    monkeypatch.setattr(dmc, "PROGRESS_REPORT_S", 0.0)
    lines: list[str] = []
    cfg = DMCConfig(out=str(tmp_path / "run"), frames=600, actors=2, per_position=False,
                    width=16, depth=1, lstm_hidden=8, show_width=8, show_depth=1, unroll=13,
                    batch=2, show_unroll=1, show_batch=4, num_buffers=4, log_every=100_000,
                    save_every=100_000_000, eval_every=0, device="cpu")
    prog = dmc.train(cfg, log=lines.append)
    assert prog.frames >= 600
    reports = [x for x in lines if x.startswith("DMC: no curve row for ")]
    assert reports, lines
    assert all("deals finished" in x and "the oldest deal in progress" in x for x in reports)
    assert sum(int(x.split(": ")[2].split(" deals")[0]) for x in reports) > 0
