"""The numba warm-up before a run's jobs: once per game and code, and harmless when it fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ime.workflow.warm import marker_path, run_games, warm_numba_cache


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


def test_the_snakefile_warms_the_games_of_its_jobs_on_start() -> None:
    text = (Path(__file__).resolve().parents[2] / "Snakefile").read_text()
    hook = text[text.index("onstart:"):text.index("onerror:")]
    assert "for game in run_games(workflow, WF.games, WF.default_game):" in hook
    assert "warm_numba_cache(game)" in hook


SNAKEFILE = '''
from ime.workflow.warm import run_games

onstart:
    games = run_games(workflow, ["connect4", "reversi", "snake"], "reversi")
    open("games.txt", "w").write(",".join(games))

rule all:
    input: "out/reversi/a.txt", "out/snake/a.txt", "out/snake/b.txt", "plain.txt"

rule per_game:
    output: "out/{game}/{name}.txt"
    shell: "touch {output}"

rule plain:
    output: "plain.txt"
    shell: "touch {output}"
'''


def test_the_games_warmed_are_those_of_the_jobs_that_will_run(tmp_path: Path) -> None:
    """The ``onstart`` hook reads the run's jobs from Snakemake's own DAG (a real run of a tiny
    Snakefile): the games of the jobs to run, not the ones already done, nor a job without a
    game; a run with nothing to do runs no hook."""
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    (tmp_path / "out" / "reversi").mkdir(parents=True)
    (tmp_path / "out" / "reversi" / "a.txt").write_text("")  # done: reversi has no job to run

    def snakemake() -> None:
        subprocess.run([sys.executable, "-m", "snakemake", "-c1", "-q"], cwd=tmp_path,
                       check=True, capture_output=True)

    snakemake()
    assert (tmp_path / "games.txt").read_text() == "snake"
    (tmp_path / "out" / "snake" / "b.txt").unlink()
    (tmp_path / "out" / "reversi" / "a.txt").unlink()
    snakemake()
    assert (tmp_path / "games.txt").read_text() == "reversi,snake"


def test_a_dag_that_cannot_be_read_warms_the_default_game(caplog) -> None:
    class NoDag:
        dag = None  # another Snakemake: no needrun_jobs

    assert run_games(NoDag(), ["reversi", "snake"], "snake") == ["snake"]
    assert "cannot read the run's jobs" in caplog.text
