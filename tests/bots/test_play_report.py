"""Issue 13, failure 8: ``ime play`` reports faults (verdict counts per bot) and ``--strict``
fails on them; a bot whose script or working directory is missing is an error when it is built,
not an RE in every match. ``ime play`` runs as a subprocess (as a user runs it), so the file also
runs against an older package with ``PYTHONPATH``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "tests" / "programs"


def play(tmp_path: Path, black: str, white: str, games: int, specs: dict, *extra: str):
    bots = tmp_path / "bots.yaml"
    bots.write_text(json.dumps(specs))
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "ime", "play", "reversi", "--black", black, "--white", white,
           "--games", str(games), "--workers", "1", "--seed", "0", "--bots-file", str(bots),
           "--out", str(out), "--no-progress", *extra]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120), out


def fault_bot(mode: str) -> dict:
    return {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(BOTS / "fault_bot.py"), mode], "time_limit": 20}}


@pytest.mark.parametrize("mode,verdict", [("crash", "RE"), ("illegal", "INVALID_MOVE")])
@pytest.mark.slow
def test_play_prints_verdict_counts_per_bot_and_strict_fails(tmp_path, mode, verdict):
    specs = {"faulty": fault_bot(mode)}
    run, out = play(tmp_path, "faulty", "opp_random", 2, specs)
    assert run.returncode == 0, run.stderr
    assert "faults: 2 of 2 matches ended by a fault" in run.stderr
    assert f"  faulty: {verdict} 2" in run.stderr
    assert len(out.read_text().splitlines()) == 2
    strict, _ = play(tmp_path, "faulty", "opp_random", 2, specs, "--strict")
    assert strict.returncode == 1 and f"faulty: {verdict} 2" in strict.stderr


def test_play_without_faults_says_so_and_strict_passes(tmp_path):
    run, out = play(tmp_path, "opp_random", "opp_greedy", 2, {}, "--strict")
    assert run.returncode == 0, run.stderr
    assert "faults: none in 2 matches" in run.stderr


def test_missing_script_stops_play_before_any_match(tmp_path):
    specs = {"lost": {"kind": "external", "params": {
        "command": "{python} -S no_such_bot.py", "cwd": str(tmp_path)}}}
    run, out = play(tmp_path, "lost", "opp_random", 3, specs)
    assert run.returncode == 2
    assert f"script no_such_bot.py not found (looked for {tmp_path / 'no_such_bot.py'})" in (
        run.stderr)
    assert not out.exists()


def test_spec_checks_the_script_and_the_working_directory(tmp_path):
    from ime.bots.external import ExternalSpec

    (tmp_path / "bot.py").write_text("print('{}')\n")
    ok = ExternalSpec.from_params("b", {"command": "python3 -u bot.py", "cwd": str(tmp_path)})
    assert ok.command[-1] == "bot.py"
    with pytest.raises(ValueError, match=r"'b': script gone\.py not found \(looked for "
                                         + str(tmp_path / "gone.py")):
        ExternalSpec.from_params("b", {"command": "python3 -u gone.py", "cwd": str(tmp_path)})
    with pytest.raises(ValueError, match="script run.sh not found"):
        ExternalSpec.from_params("b", {"command": "sh -e run.sh", "cwd": str(tmp_path)})
    with pytest.raises(ValueError, match=f"cwd {tmp_path / 'nowhere'} is not a directory"):
        ExternalSpec.from_params("b", {"command": "python3 bot.py",
                                       "cwd": str(tmp_path / "nowhere")})
    # inline code, a module, a program given by path: no script argument to check
    for cmd in ("python3 -c 'print(1)'", "python3 -m json.tool", "python3 -Sc pass"):
        ExternalSpec.from_params("b", {"command": cmd, "cwd": str(tmp_path)})


def test_script_argument_reading():
    from ime.bots.external.spec import script_argument

    assert script_argument(["/usr/bin/python3.11", "-S", "-X", "dev", "b.py", "x"]) == "b.py"
    assert script_argument(["node", "--require", "m", "bot.js"]) == "bot.js"
    assert script_argument(["java", "-Xmx1g", "-jar", "bot.jar"]) == "bot.jar"
    assert script_argument(["bash", "-c", "echo"]) is None
    assert script_argument(["java", "Main"]) is None
    assert script_argument(["./bot"]) is None
