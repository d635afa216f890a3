"""IME workflow: match logs -> datasets -> imitators (k-fold) -> evaluation -> results.

    snakemake -j8                                     # the default game's results (scale=quick)
    snakemake -j8 results/reversi/table4_4.csv        # one file; the game comes from the path
    snakemake -j8 results/connect4/s1s2_imitator.csv  # another game, with no override
    snakemake -j8 all_games                           # every game's results
    snakemake -j8 reversi_tables --config overrides='[net=mlp2]'  # a variant's, by game name
    snakemake -j8 --config overrides='[scale=thesis]'
    snakemake -n --config overrides='[dataset.matches=100]'   # what a variant would run
    snakemake -j8 reproduction --config overrides='[scale=thesis]'  # the thesis reproduced

The config is composed by Hydra from config/ (config.yaml + groups game/, net/, scale/,
experiment/, evaluate/) with the overrides given under the --config key `overrides` (the one
other key, `thesis_games`, names the games of a partial reproduction report; docs/thesis.md),
for every game with a config/game/<game>.yaml, and validated before any job is scheduled
(ime.workflow.setup). Every path is a pattern of ime.workflow.paths. See docs/pipeline.md.
"""

import os

from snakemake.exceptions import WorkflowError  # rules/results.smk's unknown_result
from snakemake.utils import min_version

from ime.workflow import ConfigError, setup_workflow
from ime.workflow import paths as P
from ime.workflow.console import check_directory, on_interrupt
from ime.workflow.errors import config_exit
from ime.workflow.index import alternatives
from ime.workflow.scheduler import single_reevaluation
from ime.workflow.thesis import ThesisPlan

min_version("8.0")
# Started outside the repository's root (snakemake -s ../Snakefile from results/): stop, before
# anything is planned or written there, with the command to type (ime.workflow.console). A
# working directory given with -d/--directory is taken as meant.
check_directory(workflow)
# Ctrl-C: Snakemake stops and cleans up as always; the terminal gets one line saying so and that
# the same command continues, instead of a traceback per job (ime.workflow.console).
on_interrupt(workflow)
# Snakemake's scheduler otherwise wakes once a second per finished job, so that its own CPU
# grows with the run (a third of a core after 148 jobs); one pending wake-up is enough
# (ime.workflow.scheduler, docs/pipeline.md "Snakemake's own CPU")
single_reevaluation()

CONFIG_DIR = os.path.join(workflow.basedir, "config")
os.environ.setdefault("IME_CONFIG_DIR", CONFIG_DIR)

try:
    WF = setup_workflow(config, CONFIG_DIR)
except ConfigError as e:
    # printed alone, wrapped, not inside Snakemake's frame (ime.workflow.errors.ConfigExit)
    raise config_exit(e) from None

INDEX = WF.index  # stages 1-3: wildcards -> variant and job params (ime.workflow.index)
EVAL = WF.evals  # stage 4 and results (ime.workflow.evalplan)
THESIS = ThesisPlan(WF)  # the reproduction report (ime.workflow.thesis)
# P: every path pattern (ime.workflow.paths); the rules' outputs are these patterns.

# Jobs placed to fill the machine (docs/pipeline.md, "Cores, workers and priorities"):
# CORES is Snakemake's --cores (-j on a local run; None when a cluster executor has only
# --jobs). evaluate.workers=auto sizes the evaluation's jobs from it, leaving one core to the
# jobs on the path to training (ime.core.workers), and those jobs (matches, decisions, dataset,
# train) go before any other ready job (TRAIN_PATH_PRIORITY; Snakemake's default is 0), so that
# with a GPU training runs while the other cores mine keys and play the tournament.
CORES = workflow.resource_settings.cores
TRAIN_PATH_PRIORITY = 10
# Key mining next: each key set is the evaluation's longest job and gates every scoring job on
# its keys, so it starts before the short scoring and tournament jobs (at 0 the scheduler ran
# those first, and the idle thesis-scale Reversi run ended on one key-mining job alone).
KEYS_PRIORITY = 5


wildcard_constraints:
    **WF.constraints(),


# Before the first job (never on a no-op or a dry run): compile the game's numba kernels in one
# process, so that the first wave of jobs loads them instead of each compiling them side by side
# (ime.workflow.warm; a stat when this code's cache is warm already).
onstart:
    from ime.workflow.warm import warm_numba_cache

    warm_numba_cache(WF.default_game)


# After a Ctrl-C: remove the stopped jobs' partial files and incomplete marks, which Snakemake 9
# leaves on an interrupt, so that the same command continues (ime.workflow.console).
onerror:
    from ime.workflow.console import finish_interrupted

    finish_interrupted(workflow)


rule all:
    input:
        lambda wc: WF.checked(WF.targets),
    default_target: True


rule all_games:
    input:
        lambda wc: WF.checked(WF.all_games_targets),


# reproduction: the reproduction report of this composition (rules/thesis.smk), wherever the
# overrides put it: snakemake -j8 reproduction --config overrides='[scale=thesis]'
rule reproduction:
    input:
        lambda wc: WF.checked(THESIS.report_path),
    localrule: True


# archive_reproduction: the report and every result of the three games copied to
# reproduction/<scale or variant>/ to commit (rules/thesis.smk, docs/thesis.md)
rule archive_reproduction:
    input:
        lambda wc: WF.checked(THESIS.archive_path),
    localrule: True


# <game>_tables: what rule all builds for that game, wherever the overrides put it, so that a
# variant's results need no directory name: snakemake -j8 reversi_tables --config overrides='[...]'
for _game in WF.games:

    rule:
        name:
            f"{_game}_tables"
        input:
            lambda wc, _g=_game: WF.checked(WF.targets, _g),
        localrule: True


include: "rules/matches.smk"
include: "rules/datasets.smk"
include: "rules/train.smk"
include: "rules/evaluate.smk"
include: "rules/report.smk"
include: "rules/identify.smk"
include: "rules/om_search.smk"
include: "rules/thesis.smk"
include: "rules/results.smk"


localrules:
    all,
    all_games,
    dataset_stats,
    net_architectures,
    imitation_accuracy,
    run_report,
    thesis_report,
    archive_report,
    artifact,
    results_index,
