"""Issue 13, failure 1 (the gap Deliver 1 left): a keep-running program whose match ended on
*another* seat's move lived on until the bot's next match or ``close()``, because the judge
never told the bots that a match was over. Now ``run_match`` calls ``end_match(match_id)`` on
every bot however the match ends, and the program dies with its match, as on Botzone.

Fails on the old package: the program is still alive after ``run_match`` returns.
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "programs"


def marked(marker: str) -> list[int]:
    """Live (not zombie) processes whose argv holds ``marker``."""
    out = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if marker.encode() in cmdline and stat[stat.rindex(")") + 2] not in "ZX":
            out.append(int(pid))
    return out


def test_a_kept_running_program_dies_when_the_other_seat_ends_the_match():
    from ime.bots.registry import make_bot
    from ime.core.registry import get_game
    from ime.matches.judge import run_match

    marker = f"ime-test-{uuid.uuid4().hex}"
    specs = {
        "kr": {"kind": "external", "params": {
            "command": [sys.executable, str(PROGRAMS / "keep_running_bot.py"), marker],
            "keep_running": True, "time_limit": 20, "keep_running_time_limit": 5}},
        "crasher": {"kind": "external", "params": {
            "command": [sys.executable, str(PROGRAMS / "fault_bot.py"), "crash", "--after", "2"],
            "time_limit": 20}},
    }
    kr = make_bot("reversi", "kr", specs)
    crasher = make_bot("reversi", "crasher", specs)
    try:
        res = run_match(get_game("reversi"), [kr, crasher], match_id="m1", seed=0)
        assert res.fault is not None and res.fault.player == 1  # white ended it, by crashing
        deadline = time.monotonic() + 5
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marked(marker) == [], "the kept-running program outlived its match"
    finally:
        kr.close()
        crasher.close()
