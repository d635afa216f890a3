"""The numba warm-up before a run's jobs: once per game and code, and harmless when it fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ime.workflow.warm import marker_path, warm_numba_cache


class Runs:
    def __init__(self, rc: int = 0):
        self.rc = rc
        self.calls: list[list[str]] = []

    def __call__(self, cmd, **_):
        self.calls.append(cmd)
        return subprocess.CompletedProcess(cmd, self.rc, "", "Traceback\nboom")


def test_warms_once_per_game_and_cache(tmp_path: Path) -> None:
    runs = Runs()
    assert warm_numba_cache("reversi", cache_dir=tmp_path, run=runs) is not None
    assert runs.calls == [[sys.executable, "-m", "ime", "bench", "reversi", "--quick", "--only",
                           "bots"]]
    assert marker_path("reversi", tmp_path).exists()
    assert warm_numba_cache("reversi", cache_dir=tmp_path, run=runs) is None  # a stat, no run
    assert len(runs.calls) == 1
    warm_numba_cache("snake", cache_dir=tmp_path, run=runs)  # another game: its own marker
    assert len(runs.calls) == 2


def test_a_failed_warm_up_is_logged_and_retried_next_time(tmp_path: Path, caplog) -> None:
    runs = Runs(rc=1)
    assert warm_numba_cache("reversi", cache_dir=tmp_path, run=runs) is None
    assert not marker_path("reversi", tmp_path).exists()
    assert "numba warm-up for reversi failed (rc 1: boom)" in caplog.text
    warm_numba_cache("reversi", cache_dir=tmp_path, run=runs)
    assert len(runs.calls) == 2


def test_the_default_marker_lives_in_this_codes_numba_cache() -> None:
    import ime

    assert marker_path("reversi") == Path(ime.NUMBA_CACHE_DIR) / ".warm-reversi"


def test_the_snakefile_warms_the_default_game_on_start() -> None:
    text = (Path(__file__).resolve().parents[2] / "Snakefile").read_text()
    assert "onstart:" in text and "warm_numba_cache(WF.default_game)" in text
