"""The Snakemake glue: config composition and schemas, variants and paths, job functions.

* :mod:`.compose`   Hydra composition of ``config/`` with the ``--config overrides=[...]``
* :mod:`.schema`    one typed (pydantic) schema per config section and for the bot specs
* :mod:`.tags`      what each stage depends on, and the directory tags made from it
* :mod:`.paths`     every file pattern of the workflow, used by the rules and by Python
* :mod:`.variants`  a composed config and where its stages read and write; sweep plans
* :mod:`.index`     rules' wildcards -> variant and a job's plain params (stages 1-3)
* :mod:`.evalplan`  the same for the evaluation (stage 4) and its results
* :mod:`.artifacts` the results directory: generic names, each game's names, ``index.md``
* :mod:`.setup`     what the Snakefile runs first: every game's plan (game from target path)
* :mod:`.jobs`      what each job does (``workflow_scripts/*.py`` are one call each)

Nothing here is imported by a stage; ``ime.cli`` imports it for ``ime pipeline show``.
"""

from ime.workflow.compose import (
    compose,
    default_config_dir,
    game_options,
    load_net_file,
    parse_overrides,
    to_plain,
)
from ime.workflow.errors import ConfigError
from ime.workflow.evalplan import EvalIndex, EvalPlan
from ime.workflow.index import WorkflowIndex
from ime.workflow.setup import Workflow, setup_workflow
from ime.workflow.tags import dataset_key, logs_key, results_key, sparring_pool, tag, train_key
from ime.workflow.variants import Plan, Variant, make_plan, make_variant

__all__ = [
    "ConfigError", "EvalIndex", "EvalPlan", "Plan", "Variant", "Workflow", "WorkflowIndex",
    "compose", "dataset_key", "default_config_dir", "game_options", "load_net_file", "logs_key",
    "make_plan", "make_variant", "parse_overrides", "results_key", "setup_workflow",
    "sparring_pool", "tag", "to_plain", "train_key",
]
