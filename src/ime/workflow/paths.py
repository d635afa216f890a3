"""Every file the workflow reads or writes, as one Snakemake pattern each, defined here only.

The rules import these patterns as their ``output:`` (Snakemake fills the ``{wildcards}``), and the
Python side fills the same patterns with :func:`fill` to name a job's inputs, so a path is never
spelled twice. Each directory names what its files depend on, so variants never overwrite each
other (docs/pipeline.md, "Variants"):

* ``ltag`` the match logs' tag, ``dtag`` the datasets', ``ttag`` the models' (the scale's name, or
  the scale plus the keys that differ from it: ``quick__dataset.matches-100``);
* ``part`` a log part (``<target>/shardNNN``, or a raw file's name), ``mode`` the replay mode;
* ``netdir`` a net's folder (its name, or ``<name>-<hash>`` for a changed architecture);
* ``ktag`` the key-mining settings (``n100_l2_s0``), ``ens`` ``ensemble`` or ``fold<k>``,
  ``otag`` the tournament's settings (``r50_p4_g3_s0``);
* ``ptag``, ``omdir``, ``opp``, ``cell`` the opponent-model search's cells (``OM_DIR``);
* ``rdir`` a variant's results directory (``results/<game>`` or ``results/<game>/<variant>``).
"""

from __future__ import annotations

from typing import Any

# --- stage 1-3: logs, decisions, datasets, models ------------------------------------------------
LOG = "data/{game}/logs/{ltag}/{part}.jsonl"
DECISIONS = "data/{game}/decisions/{ltag}/{mode}/{part}.parquet"
DECISIONS_REPORT = "data/{game}/decisions/{ltag}/{mode}/{part}.json"
DECISIONS_REJECTS = "data/{game}/decisions/{ltag}/{mode}/{part}.rejects.jsonl"
DATASET = "data/{game}/datasets/{dtag}/{bot}.parquet"
DATASET_STATS = "data/{game}/datasets/{dtag}/{bot}.json"
MODEL_DIR = "data/{game}/models/{ttag}/{netdir}"
CHECKPOINT = MODEL_DIR + "/{bot}/fold{fold}.pt"
METRICS = MODEL_DIR + "/{bot}/fold{fold}.json"
CEILING = "data/{game}/ceiling/{dtag}/{ctag}/{bot}.json"
"""A target's self-agreement on a sample of its dataset (``ctag``: ``n<decisions>_s<seed>``,
plus ``_r<re-asks>`` for the top-1 ceiling when evaluate.ceiling_repeats is not 1)."""

# --- stage 4: evaluation --------------------------------------------------------------------------
EVAL_DIR = "data/{game}/eval/{ltag}/{ktag}"
KEYS = EVAL_DIR + "/keys/{target}.parquet"
KEYS_CANDIDATES = EVAL_DIR + "/keys/{target}.candidates.parquet"
KEYS_STATS = EVAL_DIR + "/keys/{target}.json"
KEYS_TIMING = EVAL_DIR + "/keys/{target}.timing.json"
SCORES_ZOO = EVAL_DIR + "/scores/zoo/{agent}/{target}.parquet"
SCORES_ZOO_TIMING = EVAL_DIR + "/scores/zoo/{agent}/{target}.timing.json"
SCORES_IMIT = EVAL_DIR + "/scores/imit/{ttag}/{netdir}/{ens}/{agent}/{target}.parquet"
SCORES_IMIT_TIMING = EVAL_DIR + "/scores/imit/{ttag}/{netdir}/{ens}/{agent}/{target}.timing.json"
SCORES_HELDOUT = EVAL_DIR + "/scores/heldout/{ttag}/{netdir}/{agent}/{target}.parquet"
SCORES_HELDOUT_TIMING = EVAL_DIR + "/scores/heldout/{ttag}/{netdir}/{agent}/{target}.timing.json"
DISTS = EVAL_DIR + "/dists/{ttag}/{netdir}/{ens}/r{samples}/{target}.parquet"
"""Every agent's sampled moves on a target's keys (``samples`` draws a key; the JSD's input)."""
DISTS_TIMING = EVAL_DIR + "/dists/{ttag}/{netdir}/{ens}/r{samples}/{target}.timing.json"
TOUR_DIR = "data/{game}/eval/tournament/{ttag}/{netdir}/{ens}/{otag}"
PAIR = TOUR_DIR + "/{pa}__{pb}.csv"
PAIR_LOGS = TOUR_DIR + "/{pa}__{pb}.jsonl"
PAIR_TIMING = TOUR_DIR + "/{pa}__{pb}.timing.json"

# --- opponent-model search against the originals (issue 49; ime.workflow.om_search) ----------
OM_DIR = "data/{game}/om_search/{ptag}/{omdir}/{opp}"
"""One target's cells: ``ptag`` the games' and our search's settings, ``omdir`` ``plain`` (cells
without an imitator) or ``<ttag>/<netdir>/<ens>/<mtag>`` (the imitator's models and how the
search uses them), ``opp`` the original bot played."""
OM_GAMES = OM_DIR + "/{cell}.csv"
OM_CELL = OM_DIR + "/{cell}.json"
OM_TIMING = OM_DIR + "/{cell}.timing.json"

# --- stage 5: results ---------------------------------------------------------------------------
RESULTS_DIR = "results/{game}"
"""The default composition's results directory; any other variant is ``RESULTS_DIR/<name>``."""
RESULT = "{rdir}/{name}"
"""A file of a variant's results directory (``name`` may hold ``figures/``)."""

# --- the thesis reproduction report (ime.workflow.thesis) --------------------------------------
THESIS_DIR = "results/thesis"
"""The default composition's reproduction report; any other variant's is ``THESIS_DIR/<name>``."""
THESIS_FILE = "{trdir}/{tname}"
"""A file of the report's folder (``trdir``: ``results/thesis[/<variant>]``)."""
THESIS_LOG = "logs/thesis/{trdir}.log"
ARCHIVE_MANIFEST = "reproduction/{aname}/MANIFEST.md"
"""The committed archive of a reproduction (``aname``: ``thesis``, ``quick``, ...)."""
ARCHIVE_LOG = "logs/thesis/archive/{aname}.log"

# --- logs and benchmarks of the jobs ------------------------------------------------------------
JOB_LOG = "logs/{game}/{kind}/{job}.log"
JOB_BENCHMARK = "benchmarks/{game}/{kind}/{job}.tsv"
RESULT_LOG = "logs/tables/{rdir}/{name}.log"
RESULT_BENCHMARK = "benchmarks/tables/{rdir}/{name}.tsv"
FAILED_RESULT = RESULTS_DIR.replace("{game}", "{failed}") + "/{anything}"
"""Any file under a game whose config failed to compose (the rule raising its config error)."""
MISPLACED_RESULT = RESULTS_DIR.replace("{game}", "{misplaced}") + "/{anything}"
"""A file under ``results/<game>/`` that no composed variant writes (the rule saying where)."""
FAILED_LOG = JOB_LOG.replace("{game}", "{failed}").replace("{kind}/{job}",
                                                           "config_error/{anything}")
MISPLACED_LOG = FAILED_LOG.replace("{failed}", "{misplaced}")
UNKNOWN_RESULT = "{unknown_result}"
"""Any path under ``results/`` that no other rule writes (a mistyped game or file name; the
catch-all rule raising a config error that names the nearest ones)."""
UNKNOWN_LOG = "logs/config_error/{unknown_result}.log"


def fill(pattern: str, **wildcards: Any) -> str:
    """``pattern`` with its wildcards filled in (what Snakemake does for a job's outputs)."""
    return pattern.format(**wildcards)


def job_log(kind: str, job: str) -> str:
    """The ``log:`` of a per-item job: ``logs/{game}/<kind>/<job>.log`` (``job`` holds the rule's
    wildcards, e.g. ``"{ltag}/{part}"``)."""
    return JOB_LOG.replace("{kind}", kind).replace("{job}", job)


def job_benchmark(kind: str, job: str) -> str:
    """The ``benchmark:`` of a heavy job, beside its log under ``benchmarks/``."""
    return JOB_BENCHMARK.replace("{kind}", kind).replace("{job}", job)


def result_log(name: str) -> str:
    """The ``log:`` of a results-directory job: ``logs/tables/{rdir}/<name>.log``."""
    return RESULT_LOG.replace("{name}", name)


def result_benchmark(name: str) -> str:
    """The ``benchmark:`` of a heavy results-directory job."""
    return RESULT_BENCHMARK.replace("{name}", name)


def result(name: str) -> str:
    """A results file's pattern: ``{rdir}/<name>`` (``rdir`` left as a wildcard)."""
    return RESULT.replace("{name}", name)


def thesis_dir(name: str = "") -> str:
    """``results/thesis`` for the default composition, else ``results/thesis/<name>``."""
    return f"{THESIS_DIR}/{name}" if name else THESIS_DIR


def thesis_file(name: str) -> str:
    """A report file's pattern: ``{trdir}/<name>``."""
    return THESIS_FILE.replace("{tname}", name)


def results_dir(game: str, name: str = "") -> str:
    """``results/<game>`` for the default composition, else ``results/<game>/<name>``."""
    base = fill(RESULTS_DIR, game=game)
    return f"{base}/{name}" if name else base
