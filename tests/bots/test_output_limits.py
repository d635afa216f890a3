"""Issue 13, failure 3: a bot's stdout and stderr are bounded per turn (OLE past the limit, the
head kept for the log), and stderr is read as it comes, never piled into a file."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from ime.bots.external import OUTPUT_LIMIT, STDERR_LIMIT, ExternalBot, ExternalSpec
from ime.games.reversi import GAME
from ime.matches.judge import run_match

BOTS = Path(__file__).resolve().parents[1] / "programs"
PY = [sys.executable, "-S"]


def contain_bot(mode: str, *args: str, **params) -> ExternalBot:
    spec = ExternalSpec.from_params(f"b_{mode}", {
        "command": [*PY, str(BOTS / "contain_bot.py"), mode, "limits-test", *args],
        "time_limit": 10, **params})
    return ExternalBot(spec, game="reversi")


def opponent() -> ExternalBot:
    return ExternalBot(ExternalSpec.from_params("o", {"command": [*PY, str(BOTS / "json_bot.py")]}),
                       game="reversi")


def first_entry(bot: ExternalBot, match_id: str):
    opp = opponent()
    try:
        res = run_match(GAME, [bot, opp], match_id=match_id, seed=0)
    finally:
        bot.close()
        opp.close()
    return res, res.log[1]["0"]


def test_defaults_are_botzone_s_one_mebibyte():
    spec = ExternalSpec.from_params("d", {"command": [*PY, str(BOTS / "json_bot.py")]})
    assert spec.stdout_limit == OUTPUT_LIMIT == 1 << 20
    assert spec.stderr_limit == STDERR_LIMIT == 1 << 20
    for bad in (0, -1, "lots", True):
        with pytest.raises(ValueError, match="stderr_limit must be a positive number of bytes"):
            ExternalSpec.from_params("d", {"command": [*PY, str(BOTS / "json_bot.py")],
                                           "stderr_limit": bad})


def test_stderr_past_the_default_limit_is_ole_with_its_head():
    bot = contain_bot("stderr_burst", "--bytes", str(5 << 20))  # 5 MiB, then a legal answer
    res, entry = first_entry(bot, "stderr-burst")
    assert (res.fault.player, res.fault.verdict) == (0, "OLE")
    assert entry["verdict"] == "OLE" and "response" not in entry
    assert entry["debug"].startswith(f"more than {STDERR_LIMIT} bytes on stderr in one turn")
    assert "head: 'EEEE" in entry["debug"]


def test_endless_stderr_stops_at_the_limit_not_the_deadline():
    bot = contain_bot("stderr_flood", stderr_limit=1 << 18)  # writes forever, never answers
    t = time.monotonic()
    res, entry = first_entry(bot, "stderr-flood")
    assert time.monotonic() - t < 3.0  # the time limit is 10 s
    assert res.fault.verdict == "OLE" and "262144 bytes on stderr" in entry["debug"]


@pytest.mark.slow
def test_stdout_limit_is_configurable_and_keeps_the_head():
    res, entry = first_entry(contain_bot("stdout_burst", "--bytes", "5000",
                                         stdout_limit=1000), "stdout-small")
    assert res.fault.verdict == "OLE"
    assert entry["debug"].startswith("more than 1000 bytes on stdout in one turn; head: ")
    assert '{"response": {"x": 3, "y": 2}}' in entry["debug"]
    res, entry = first_entry(contain_bot("stdout_burst", "--bytes", "5000",
                                         stdout_limit=10000), "stdout-fits")
    assert entry == {"verdict": "OK", "response": {"x": 3, "y": 2}}


def test_stderr_is_counted_per_turn_for_a_kept_running_program():
    """300 KiB of stderr every turn of a whole match is 9 MiB in all, but never 1 MiB a turn."""
    bot = contain_bot("stderr_burst", "--bytes", str(300 << 10), "--keep-running",
                      keep_running=True, keep_running_time_limit=10)
    opp = opponent()
    try:
        res = run_match(GAME, [bot, opp], match_id="kr-stderr", seed=0)
    finally:
        bot.close()
        opp.close()
    turns = sum(1 for e in res.log[1::2] if "0" in e)
    assert res.fault is None and turns * (300 << 10) > 8 * STDERR_LIMIT
