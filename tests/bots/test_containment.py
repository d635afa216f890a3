"""Issue 13, failures 1-2: no bot process, nor anything it started, outlives its turn, its match or
``ime play``, whatever signal ends it.

The bots are tests/programs/contain_bot.py, started with a unique marker in their argv; every
process they start (forked, ``setsid``-daemonized, or exec-ed with an empty environment) keeps the
marker in /proc/<pid>/cmdline, so a scan of /proc finds them without any help from the code
under test. ``ime play`` runs as a real subprocess, so this file also checks the code before the
change: ``PYTHONPATH=/tmp/base/src python -m pytest tests/bots/test_containment.py`` runs the
subprocess tests against the old package (they fail there: processes are left).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "tests" / "programs"
LINUX = sys.platform.startswith("linux")
pytestmark = pytest.mark.skipif(not LINUX, reason="process containment is Linux (/proc, prctl)")


# --- finding the bots' processes -----------------------------------------------------------------
def marked(marker: str) -> list[int]:
    """Live (not zombie) processes whose argv holds ``marker``."""
    needle = marker.encode()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        if needle in cmdline and stat[stat.rindex(b")") + 2:][:1] not in (b"Z", b"X"):
            out.append(int(entry))
    return out


def wait_until(predicate, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


@pytest.fixture
def marker():
    """A unique marker; whatever still carries it at teardown is killed (a failing test must not
    leave its sleepers behind for the next one)."""
    m = f"ime-contain-{uuid.uuid4().hex}"
    yield m
    for pid in marked(m):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def bots_file(tmp_path: Path, mode: str, marker: str, *args: str, **params) -> Path:
    """A --bots-file with one external bot, ``ext``, running contain_bot.py in ``mode``."""
    import json

    spec = {"ext": {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(BOTS / "contain_bot.py"), mode, marker, *args],
        "time_limit": 60, **params}}}
    path = tmp_path / "bots.yaml"
    path.write_text(json.dumps(spec))  # JSON is YAML
    return path


def start_play(tmp_path: Path, spec: Path, games: int, workers: int, *extra: str):
    cmd = [sys.executable, "-m", "ime", "play", "reversi", "--black", "ext", "--white",
           "opp_random", "--games", str(games), "--workers", str(workers), "--seed", "0",
           "--bots-file", str(spec), "--out", str(tmp_path / "out.jsonl"), "--no-progress",
           *extra]
    err = open(tmp_path / "stderr.txt", "w")  # a file, not a pipe: orphans cannot block us
    try:
        return subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=err)
    finally:
        err.close()


# --- failure 1 and 2: a signal to ime play -------------------------------------------------------
PER_BOT = {"hang": 1, "fork": 2, "setsid": 2}
"""Processes each hanging bot shows: itself, plus its forked child or its setsid daemon."""
EXIT = {signal.SIGTERM: 128 + 15, signal.SIGINT: 128 + 2, signal.SIGKILL: -9}


@pytest.mark.parametrize("mode", list(PER_BOT))
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT],
                         ids=["TERM", "KILL", "INT"])
@pytest.mark.slow
def test_signal_to_play_leaves_no_bot_process(tmp_path, marker, sig, workers, mode):
    # 8 games on 2 workers are two chunks of 4: both workers are inside a hanging bot's turn
    games = 8 if workers == 2 else 1
    proc = start_play(tmp_path, bots_file(tmp_path, mode, marker), games, workers)
    try:
        expected = PER_BOT[mode] * workers
        assert wait_until(lambda: len(marked(marker)) >= expected, 30), (
            f"bots did not start: {marked(marker)}; "
            + (tmp_path / "stderr.txt").read_text()[-2000:])
        time.sleep(0.2)  # let the setsid daemons' middle processes exit (orphans re-parented)
        before = len(marked(marker))
        proc.send_signal(sig)
        rc = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert before >= expected
    left = wait_until(lambda: not marked(marker), 5) or marked(marker)
    assert left is True, f"{len(left)} bot processes left after {sig.name}: {left}"
    assert rc == EXIT[sig], (tmp_path / "stderr.txt").read_text()[-2000:]


# --- failure 2: daemons left by bots that answer ------------------------------------------------
@pytest.mark.parametrize("mode,workers,keep", [("setsid_answer", 1, False),
                                               ("scrub_answer", 1, False),
                                               ("scrub_answer", 2, True)])
@pytest.mark.slow
def test_play_kills_what_each_turn_left(tmp_path, marker, mode, workers, keep):
    """Every turn leaves a daemon (its own session, its parent gone; ``scrub``: an empty
    environment too). A one-shot bot's daemon dies with its turn; a keep-running bot's with its
    program, at the next match or, for the last match, when the pool worker exits."""
    games = 4 if workers == 2 else 1  # 4 games on a pool: one chunk, in a pool worker
    params = {"keep_running": True} if keep else {}
    args = ("--keep-running",) if keep else ()
    spec = bots_file(tmp_path, mode, marker, *args, **params)
    proc = start_play(tmp_path, spec, games, workers)
    peak = 0
    try:
        while proc.poll() is None:
            peak = max(peak, len(marked(marker)))
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    err = (tmp_path / "stderr.txt").read_text()
    assert proc.returncode == 0, err[-2000:]
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(lines) == games and all('"fault"' not in line for line in lines)
    assert peak > 0
    assert wait_until(lambda: not marked(marker), 2), marked(marker)
    if not keep:
        assert peak <= 3  # a turn's bot, its middle process, its daemon: no accumulation


@pytest.mark.slow
def test_in_process_turns_kill_setsid_daemons(marker):
    """Library use (no CLI, no dedicated process): one-shot and keep-running bots that leave a
    ``setsid`` daemon every turn; nothing is left after each match."""
    from ime.bots.external import ExternalBot, ExternalSpec
    from ime.games.reversi import GAME
    from ime.matches.judge import run_match

    for extra, keep in (((), False), (("--keep-running",), True)):
        spec = ExternalSpec.from_params("d", {
            "command": [sys.executable, "-S", str(BOTS / "contain_bot.py"), "setsid_answer",
                        marker, *extra], "keep_running": keep, "time_limit": 20})
        bot = ExternalBot(spec, game="reversi")
        opp = ExternalBot(ExternalSpec.from_params("o", {
            "command": [sys.executable, "-S", str(BOTS / "json_bot.py")]}), game="reversi")
        res = run_match(GAME, [bot, opp], match_id=f"daemons-{keep}", seed=0)
        turns = sum(1 for e in res.log[1::2] if "0" in e)
        assert res.fault is None and turns > 20
        # run_match ends the match on every bot (Bot.end_match): a keep-running program and
        # the daemons it started die with the match, not with the bot's next match or close()
        assert wait_until(lambda: not marked(marker), 2), (keep, marked(marker))
        bot.close()
        opp.close()


def test_guardian_sweeps_marked_processes():
    """The guardian's sweep kills every process carrying its owner's token, setsid or not."""
    from ime.bots.external.guardian import ENV_KEY, sweep

    token = f"t{uuid.uuid4().hex[:8]}"
    env = {**os.environ, ENV_KEY: f"{token}.1"}
    kids = [subprocess.Popen([sys.executable, "-S", "-c", "import time; time.sleep(60)", token],
                             env=env, start_new_session=s) for s in (False, True)]
    assert wait_until(lambda: len(marked(token)) == 2, 10)
    assert sweep(token) == 2
    for k in kids:
        assert k.wait(timeout=5) == -signal.SIGKILL
    assert not marked(token)
