# Stage 4: evaluation (thesis 3.2, 4.4): key endgames per target, every agent scored on every
# target's stored key set (S1/S2), and the originals-vs-imitators round-robin (Table 4.8).
# References (evaluate.references: a pinned pool, or the other targets) were forked while mining:
# their scores are read from the key sets by eval_similarity, so only imitators and the other
# agents (evaluate.agents, targets outside the pool) get score jobs.
# Paths and params come from ime.evaluate.workflow (see its module doc); the jobs' logic lives
# in ime.evaluate.jobs. docs/evaluation.md explains the method.
#
# Per-target jobs depend only on that target: key mining reads the target's own log parts
# (MAIN.log_paths(target)), and the bot specs in a job's params are only the bots that job can
# meet (EvalPlan.own_specs: the target's match players, its references, the scored agent).
# With the sparring pool (game.sparring) and the references (evaluate.references) pinned, adding
# a target adds its own jobs and re-runs only the aggregate rules (eval_similarity, report_*).

from ime.bots.registry import load_bot_specs
from ime.evaluate.workflow import EvalConfigError, EvalIndex

try:
    EVAL = EvalIndex(PLAN, load_bot_specs(GAME))
except EvalConfigError as e:
    raise WorkflowError(f"IME config error: {e}") from None

EVAL_MAIN = EVAL.for_rdir(RESULTS)
EVAL_WORKERS = int(EVAL_MAIN.e["workers"])


wildcard_constraints:
    **EVAL.constraints(),


rule eval_keys:
    input:
        logs=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).v.log_paths(wc.target),
    output:
        keyset="data/{game}/eval/{ltag}/{ktag}/keys/{target}.parquet",
        candidates="data/{game}/eval/{ltag}/{ktag}/keys/{target}.candidates.parquet",
        stats="data/{game}/eval/{ltag}/{ktag}/keys/{target}.json",
        timing="data/{game}/eval/{ltag}/{ktag}/keys/{target}.timing.json",
    params:
        spec=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).keys_spec(wc.target),
    threads: EVAL_WORKERS
    resources:
        mem_mb=2000,
    log:
        job_log("eval_keys", "{ltag}/{ktag}/{target}"),
    benchmark:
        job_benchmark("eval_keys", "{ltag}/{ktag}/{target}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_keys.py"


rule eval_score_zoo:
    input:
        keyset="data/{game}/eval/{ltag}/{ktag}/keys/{target}.parquet",
    output:
        scores="data/{game}/eval/{ltag}/{ktag}/scores/zoo/{agent}/{target}.parquet",
        timing="data/{game}/eval/{ltag}/{ktag}/scores/zoo/{agent}/{target}.timing.json",
    params:
        spec=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).score_spec(
            wc.agent, wc.target
        ),
    threads: EVAL_WORKERS
    resources:
        mem_mb=1500,
    log:
        job_log("eval_score", "{ltag}/{ktag}/zoo/{agent}/{target}"),
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_score.py"


rule eval_score_imitator:
    input:
        keyset="data/{game}/eval/{ltag}/{ktag}/keys/{target}.parquet",
        checkpoints=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).agent_inputs(wc.agent),
    output:
        scores="data/{game}/eval/{ltag}/{ktag}/scores/imit/{ttag}/{netdir}/{ens}/{agent}/{target}.parquet",
        timing="data/{game}/eval/{ltag}/{ktag}/scores/imit/{ttag}/{netdir}/{ens}/{agent}/{target}.timing.json",
    params:
        spec=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).score_spec(wc.agent, wc.target),
    threads: EVAL_WORKERS
    resources:
        mem_mb=2000,
    log:
        job_log("eval_score", "{ltag}/{ktag}/imit/{ttag}/{netdir}/{ens}/{agent}/{target}"),
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_score.py"


rule eval_score_heldout:
    input:
        unpack(
            lambda wc: EVAL.for_heldout(
                wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir
            ).heldout_inputs(wc.target)
        ),
    output:
        scores="data/{game}/eval/{ltag}/{ktag}/scores/heldout/{ttag}/{netdir}/{agent}/{target}.parquet",
        timing="data/{game}/eval/{ltag}/{ktag}/scores/heldout/{ttag}/{netdir}/{agent}/{target}.timing.json",
    params:
        spec=lambda wc: EVAL.for_heldout(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir
        ).heldout_spec(wc.target),
    threads: EVAL_WORKERS
    resources:
        mem_mb=2000,
    log:
        job_log("eval_score", "{ltag}/{ktag}/heldout/{ttag}/{netdir}/{agent}/{target}"),
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_heldout.py"


rule eval_tournament_pair:
    input:
        checkpoints=lambda wc: [
            c
            for b in (wc.pa, wc.pb)
            for c in EVAL.for_tour(wc.game, wc.ttag, wc.netdir, wc.ens, wc.otag).agent_inputs(b)
        ],
    output:
        results="data/{game}/eval/tournament/{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}.csv",
        logs="data/{game}/eval/tournament/{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}.jsonl",
        timing="data/{game}/eval/tournament/{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}.timing.json",
    params:
        spec=lambda wc: EVAL.for_tour(wc.game, wc.ttag, wc.netdir, wc.ens, wc.otag).pair_spec(
            wc.pa, wc.pb
        ),
    threads: EVAL_WORKERS
    resources:
        mem_mb=2000,
    log:
        job_log("eval_tournament", "{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}"),
    benchmark:
        job_benchmark("eval_tournament", "{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_tournament.py"


rule eval_similarity:
    input:
        keysets=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["keys"].values()),
        scores=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["scores"].values()),
        heldout=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["heldout"].values()),
    output:
        similarity=report(
            "{rdir}/similarity.csv",
            caption="../report/similarity.rst",
            category="Evaluation",
            subcategory="Similarity",
        ),
        pairwise=report(
            "{rdir}/similarity_pairs.csv",
            caption="../report/similarity_pairs.rst",
            category="Evaluation",
            subcategory="Similarity",
        ),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).similarity_spec(),
    log:
        "logs/tables/{rdir}/similarity.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/evaluate_similarity.py"
