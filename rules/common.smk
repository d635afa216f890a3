# Shared helpers for the stage rules. The Snakefile has composed the config into PLAN / INDEX.
#
# For rules of later stages (evaluate.smk, report.smk), the main variant is MAIN:
#   CFG                          plain resolved config (dict) of the main variant
#   GAME, RESULTS                game name, results directory (results/<game>[/<variant>])
#   MAIN.targets                 target bot ids;  MAIN.folds: number of CV folds
#   MAIN.log_paths(target=None)  match-log files (Botzone JSON lines): every part, or the parts
#                                holding `target`'s matches (its own generated parts; every raw file)
#   MAIN.dataset_path(bot)       Parquet dataset of a bot
#   MAIN.checkpoint_path(bot, net=None, fold=0) / MAIN.metrics_path(...)
#                                net=None is the selected net (CFG["net"]["name"])
#   MAIN.table_path("table4_5.csv")  a file in the results directory
#   ALL_TARGETS                  append final files here to have `snakemake` (rule all) build them


def job_log(kind, pattern):
    """Log file of a job: logs/<game>/<kind>/<pattern>.log (wildcards filled by Snakemake)."""
    return f"logs/{{game}}/{kind}/{pattern}.log"


def job_benchmark(kind, pattern):
    return f"benchmarks/{{game}}/{kind}/{pattern}.tsv"


TRAIN_CFG = CFG["train"]
TRAIN_RESOURCES = {"mem_mb": 2000}
if TRAIN_CFG["gpu"]:
    TRAIN_RESOURCES["gpu"] = 1

