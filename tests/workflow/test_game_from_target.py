"""The game comes from the target path: dry runs of the real ``snakemake`` CLI on a copy of the
workflow (``snakemake -n``: nothing runs, each call takes a few seconds)."""

from __future__ import annotations

import pytest
from workflow_helpers import copy_workflow, job_counts, overrides_arg, planned_jobs, snakemake

from ime.core.registry import known_games
from ime.workflow import default_config_dir, game_options

OTHERS = [g for g in game_options(default_config_dir()) if g in known_games() and g != "reversi"]
TINY = overrides_arg(["scale=tiny"])

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory):
    return copy_workflow(tmp_path_factory.mktemp("wf"))


def _outputs(text: str) -> list[str]:
    return [o for _, outs in planned_jobs(text) for o in outs]


def test_no_target_is_the_default_games_chapter(work) -> None:
    run = snakemake(work, "-n", "--config", TINY)
    text = run.stdout + run.stderr
    assert run.returncode == 0, text[-3000:]
    outs = _outputs(text)
    assert "results/reversi/tiny/table4_5.csv" in outs
    assert all(o.startswith(("data/reversi/", "results/reversi/")) for o in outs), outs[:5]


def test_a_target_of_another_game_composes_that_game(work) -> None:
    assert OTHERS, "every game but Reversi lost its config or plug-in"
    game = OTHERS[0]
    run = snakemake(work, "-n", f"results/{game}/tiny/s1s2_imitator.csv", "--config", TINY)
    text = run.stdout + run.stderr
    assert run.returncode == 0, text[-3000:]
    outs = _outputs(text)
    assert outs and all(o.startswith((f"data/{game}/", f"results/{game}/")) for o in outs)
    counts = job_counts(text)
    assert counts["report_similarity_tables"] == 1 and counts["eval_keys"] >= 1, counts


def test_a_config_error_stops_only_the_game_asked_for(work) -> None:
    """``game.targets=[rev1,rev2]`` is a Reversi override: the Reversi workflow runs; a target
    of another game stops with that game's config error, before any job."""
    cfg = overrides_arg(["scale=tiny", "game.targets=[rev1,rev2]"])
    ok = snakemake(work, "-n", "--config", cfg)
    assert ok.returncode == 0, (ok.stdout + ok.stderr)[-3000:]
    assert OTHERS, "every game but Reversi lost its config or plug-in"
    game = OTHERS[0]
    bad = snakemake(work, "-n", f"results/{game}/tiny/s1s2_imitator.csv", "--config", cfg)
    text = bad.stdout + bad.stderr
    assert bad.returncode != 0
    assert "IME config error" in text and f"game {game}" in text and "rev1" in text, text[-3000:]
    assert not (work / "data").exists()


def test_all_games_builds_every_games_results(work) -> None:
    run = snakemake(work, "-n", "all_games", "--config", TINY)
    text = run.stdout + run.stderr
    assert run.returncode == 0, text[-3000:]
    outs = set(_outputs(text))
    for game in ["reversi", *OTHERS]:
        assert f"results/{game}/tiny/index.md" in outs, game


def test_a_file_of_another_composition_says_where_the_results_are(work) -> None:
    run = snakemake(work, "-n", "results/reversi/table4_5.csv", "--config", TINY)
    text = run.stdout + run.stderr
    assert run.returncode != 0
    assert "IME config error" in text and "results/reversi/tiny/table4_5.csv" in text, text[-3000:]
