"""``sandbox: bwrap``: no network, a read-only disk apart from a private /tmp, and a PID namespace
that leaves nothing behind. Skipped (with the reason) where bubblewrap is not installed."""

from __future__ import annotations

import os
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from ime.bots.external import ExternalBot, ExternalSpec
from ime.bots.external import sandbox as sandbox_mod
from ime.core.bot import DecisionContext
from ime.games.reversi import GAME
from ime.matches.judge import run_match

BOTS = Path(__file__).resolve().parents[1] / "programs"
PY = [sys.executable, "-S"]
OPENING = DecisionContext(0, "sandbox", 0, 0, requests=[{"x": -1, "y": -1}], responses=[])
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None or bool(sandbox_mod._bwrap_problem(shutil.which("bwrap"))),
    reason="bubblewrap (bwrap) is not installed or cannot create namespaces here")


def test_unknown_sandbox_is_a_build_error():
    with pytest.raises(ValueError, match=r"sandbox must be one of \['none', 'bwrap'\]"):
        ExternalSpec.from_params("s", {"command": [*PY, str(BOTS / "json_bot.py")],
                                       "sandbox": "docker"})


def test_bwrap_missing_is_a_build_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no bwrap on PATH
    with pytest.raises(ValueError, match=r"'s': sandbox: bwrap: bubblewrap \(bwrap\) is not "
                                         "installed"):
        ExternalSpec.from_params("s", {"command": [*PY, str(BOTS / "json_bot.py")],
                                       "sandbox": "bwrap"})


@needs_bwrap
def test_bwrap_sandbox_has_no_network_and_a_read_only_disk(tmp_path):
    # the program lives under /tmp, which the sandbox replaces by a private tmpfs: its own
    # directory must still be there (read-only)
    home = tmp_path / "bot"
    home.mkdir()
    for name in ("sandbox_probe.py", "_reversi.py"):
        shutil.copy(BOTS / name, home / name)
    (tmp_path / "host-file.txt").write_text("not for bots")
    host_tmp = Path("/tmp") / f"ime-host-only-{os.getpid()}"
    host_tmp.write_text("not for bots")
    spec = ExternalSpec.from_params("probe", {
        "command": [*PY, str(home / "sandbox_probe.py"), str(Path.home())],
        "sandbox": "bwrap", "time_limit": 20})
    bot = ExternalBot(spec, game="reversi")
    assert bot.respond(GAME.new_initial_state(), OPENING) == {"x": 3, "y": 2}
    seen = bot.last_turn.debug
    bot.close()
    assert seen["own_dir"] == "EROFS" and seen["host_dir"] == "EROFS"
    assert seen["tmp"] == "ok"
    # a fresh /tmp: nothing of the host's; only the ways down to what the sandbox mounts
    # read-only (the bot's own directory, and the interpreter or checkout when they live there)
    host_tmp.unlink()
    assert host_tmp.name not in seen["tmp_before"]
    under_tmp = tmp_path.parts[1] == "tmp"
    if under_tmp:
        assert tmp_path.parts[2] in seen["tmp_before"]
    assert len(seen["tmp_before"]) <= 4, seen["tmp_before"]
    assert seen["net"] in ("ENETUNREACH", "EHOSTUNREACH", "EACCES", "EPERM")


def _marked(marker: str) -> list[int]:
    import os

    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmd and stat[stat.rindex(b")") + 2:][:1] not in (b"Z", b"X"):
            out.append(int(entry))
    return out


@needs_bwrap
@pytest.mark.parametrize("keep", [False, True], ids=["one-shot", "keep-running"])
def test_bwrap_contains_daemons(keep):
    import time

    marker = f"ime-bwrap-{uuid.uuid4().hex}"
    spec = ExternalSpec.from_params("sb", {
        "command": [*PY, str(BOTS / "contain_bot.py"), "setsid_answer", marker,
                    *(["--keep-running"] if keep else [])],
        "sandbox": "bwrap", "keep_running": keep, "time_limit": 20})
    bot = ExternalBot(spec, game="reversi")
    opp = ExternalBot(ExternalSpec.from_params("o", {"command": [*PY, str(BOTS / "json_bot.py")]}),
                      game="reversi")
    try:
        res = run_match(GAME, [bot, opp], match_id=f"sandboxed-{keep}", seed=0)
        assert res.fault is None
        bot.end_match(f"sandboxed-{keep}")
        deadline = time.monotonic() + 2
        while _marked(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _marked(marker) == []
    finally:
        bot.close()
        opp.close()
