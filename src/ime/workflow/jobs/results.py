"""Results-directory jobs that are not a stage's: ``index.md`` and a game plug-in's own results."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ime.workflow.jobs.logging import job_logging

log = logging.getLogger("ime.workflow")


def job_results_index(smk: Any) -> None:
    """Write ``<rdir>/index.md``: every file of the results directory and what it holds."""
    from ime.workflow.artifacts import index_markdown

    p = smk.params.spec
    with job_logging(smk):
        text = index_markdown(p["game"], p["rdir"], p["rows"], variant=p["variant"],
                              tags=p["tags"])
        Path(smk.output[0]).parent.mkdir(parents=True, exist_ok=True)
        Path(smk.output[0]).write_text(text, encoding="utf-8")
        log.info("%s: %d files described", smk.output[0], len(p["rows"]))


def job_game_result(smk: Any) -> None:
    """One of a game plug-in's own results (``GamePlugin.results[name](config, out_path)``).

    The params' config holds no worker count (a runtime key, kept out so that changing it
    re-runs nothing); the hook finds the job's threads as ``evaluate.workers``."""
    from ime.core.registry import get_plugin

    p = smk.params.spec
    cfg = {**p["config"], "evaluate": {**p["config"]["evaluate"], "workers": int(smk.threads)}}
    with job_logging(smk):
        Path(smk.output[0]).parent.mkdir(parents=True, exist_ok=True)
        get_plugin(p["game"]).results[p["name"]](cfg, str(smk.output[0]))
        log.info("%s: %s's result %s", smk.output[0], p["game"], p["name"])
