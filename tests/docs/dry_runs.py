"""Dry runs of the docs' snakemake commands, in one process through Snakemake's API.

``python3 dry_runs.py JOBS.json`` reads a list of
``{"index", "workdir", "targets", "config", "forcerun"}`` and prints one line per job,
``IME-DRY-RUN`` and JSON: ``{"index", "ok", "seconds", "jobs", "error"}``. One process runs many
dry runs: Python, Snakemake and IME are imported once (a ``snakemake -n`` subprocess spends most
of its 8-12 s on that here; in one process most dry runs take 1-3 s).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

MARK = "IME-DRY-RUN "
"""Prefix of the result lines (Snakemake and the jobs may print too)."""


def dry_run(workdir: str, targets: list[str], config: list[str], forcerun: list[str]) -> int:
    """``snakemake -n -s <workdir>/Snakefile -d <workdir> TARGETS [--forcerun ...] --config ...``;
    the number of jobs it would run."""
    from snakemake.api import SnakemakeApi
    from snakemake.cli import parse_config
    from snakemake.settings.types import (
        ConfigSettings,
        DAGSettings,
        OutputSettings,
        Quietness,
        ResourceSettings,
    )

    cwd = os.getcwd()
    os.environ.pop("IME_CONFIG_DIR", None)  # the Snakefile sets it to its own config/ if unset
    try:
        with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
            wf = api.workflow(resource_settings=ResourceSettings(cores=1),
                              config_settings=ConfigSettings(config=parse_config(config)),
                              snakefile=Path(workdir) / "Snakefile", workdir=Path(workdir))
            dag = wf.dag(dag_settings=DAGSettings(targets=set(targets),
                                                  forcerun=set(forcerun)))
            dag.execute_workflow(executor="dryrun")
            return len(list(dag.workflow_api._workflow.dag.jobs))
    finally:
        os.chdir(cwd)


def main(path: str) -> None:
    os.environ["PYTHONHASHSEED"] = "0"
    for job in json.loads(Path(path).read_text()):
        i = job["index"]
        t0 = time.monotonic()
        try:
            n = dry_run(job["workdir"], job["targets"], job["config"], job["forcerun"])
            out = {"index": i, "ok": True, "jobs": n, "error": ""}
        except BaseException as e:  # noqa: BLE001 - every failure is reported, none stops the rest
            out = {"index": i, "ok": False, "jobs": 0,
                   "error": "".join(traceback.format_exception_only(e))[-4000:]}
        out["seconds"] = round(time.monotonic() - t0, 1)
        print(MARK + json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
