"""A keep-running Reversi bot for the reliability tests: ``counting_bot.py COUNTER DELAY``.

It appends one line to the file ``COUNTER`` when it starts, i.e. once per match it plays (a
keep-running program lives for one match), so a test can count the matches a run really played;
then it sleeps ``DELAY`` seconds (a slow start, so that a test can interrupt a run between two
matches) and plays as tests/programs/keep_running_bot.py.
"""

import os
import runpy
import sys
import time
from pathlib import Path

with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()}\n")
time.sleep(float(sys.argv[2]))
programs = Path(__file__).resolve().parents[2] / "programs"
sys.path.insert(0, str(programs))
sys.argv = [sys.argv[0], *sys.argv[3:]]
runpy.run_path(str(programs / "keep_running_bot.py"), run_name="__main__")
