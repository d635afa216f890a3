"""IME workflow: match logs -> datasets -> imitators (k-fold) -> evaluation -> the thesis's tables.

    snakemake -j8                                   # the default variant's tables (scale=quick)
    snakemake -j8 results/reversi/table4_4.csv      # one table
    snakemake -j8 --config overrides='[scale=thesis]'
    snakemake -n --config overrides='[dataset.matches=100]'   # what a variant would run

The config is composed by Hydra from config/ (config.yaml + groups game/, net/, scale/,
experiment/, evaluate/) with the overrides given under the single --config key `overrides`;
it is validated before any job is scheduled. See docs/pipeline.md.
"""

import os

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

from ime.config import ConfigError, setup_workflow

min_version("8.0")

CONFIG_DIR = os.path.join(workflow.basedir, "config")
os.environ.setdefault("IME_CONFIG_DIR", CONFIG_DIR)


try:
    OVERRIDES, PLAN, INDEX = setup_workflow(config, CONFIG_DIR)
except ConfigError as e:
    raise WorkflowError(f"IME config error: {e}") from None

MAIN = PLAN.main
CFG = MAIN.cfg
GAME = MAIN.game
RESULTS = MAIN.results_dir
ALL_TARGETS = [
    MAIN.table_path("table4_2.csv"),
    MAIN.table_path("table4_3.csv"),
    MAIN.table_path("table4_4.csv"),
    MAIN.table_path("run_report.json"),
]
if INDEX.sweep_path():
    ALL_TARGETS.append(INDEX.sweep_path())

wildcard_constraints:
    **INDEX.constraints(),


rule all:
    input:
        lambda wc: ALL_TARGETS,
    default_target: True


include: "rules/common.smk"
include: "rules/matches.smk"
include: "rules/datasets.smk"
include: "rules/train.smk"


if os.path.exists(os.path.join(workflow.basedir, "rules", "evaluate.smk")):

    include: "rules/evaluate.smk"


if os.path.exists(os.path.join(workflow.basedir, "rules", "report.smk")):

    include: "rules/report.smk"


localrules:
    all,
    table4_2,
    table4_3,
    table4_4,
    run_report,
