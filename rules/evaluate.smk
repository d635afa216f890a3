# Stage 4: evaluation (thesis 3.2, 4.4): key endgames per target, every agent scored on every
# target's stored key set (S1/S2), and the originals-vs-imitators round-robin.
# References (game.references: a pinned pool, or the other targets) were forked while mining:
# their scores are read from the key sets by eval_similarity, so only imitators and the other
# agents (evaluate.agents, targets outside the pool) get score jobs.
# Params come from ime.workflow.evalplan (EVAL); the jobs are ime.workflow.jobs.evaluate.
# threads: evaluate.workers (auto: --cores less one, at most 16; a pair at most its games;
# ime.core.workers), never in params: a changed worker count re-runs nothing.
# docs/evaluation.md explains the method.
#
# Per-target jobs depend only on that target: key mining reads the target's own log parts, and
# the bot specs in a job's params are only the bots that job can meet (EvalPlan.own_specs). With
# the sparring pool (game.sparring) and the references (game.references) pinned, adding a target
# adds its own jobs and re-runs only the aggregate rules (eval_similarity, report_*).


rule eval_keys:
    input:
        logs=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).v.log_paths(wc.target),
    output:
        keyset=P.KEYS,
        candidates=P.KEYS_CANDIDATES,
        stats=P.KEYS_STATS,
        timing=P.KEYS_TIMING,
    params:
        spec=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).keys_spec(wc.target),
    threads: lambda wc: WF.workers(wc.game, CORES)
    priority: KEYS_PRIORITY
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("eval_keys", "{ltag}/{ktag}/{target}"),
    benchmark:
        P.job_benchmark("eval_keys", "{ltag}/{ktag}/{target}")
    script:
        "../workflow_scripts/evaluate_keys.py"


rule eval_score_zoo:
    input:
        keyset=P.KEYS,
    output:
        scores=P.SCORES_ZOO,
        timing=P.SCORES_ZOO_TIMING,
    params:
        spec=lambda wc: EVAL.for_keys(wc.game, wc.ltag, wc.ktag).score_spec(
            wc.agent, wc.target
        ),
    threads: lambda wc: WF.workers(wc.game, CORES)
    resources:
        mem_mb=1500,
        runtime=240,
    log:
        P.job_log("eval_score", "{ltag}/{ktag}/zoo/{agent}/{target}"),
    benchmark:
        P.job_benchmark("eval_score", "{ltag}/{ktag}/zoo/{agent}/{target}")
    script:
        "../workflow_scripts/evaluate_score.py"


rule eval_score_imitator:
    input:
        keyset=P.KEYS,
        checkpoints=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).agent_inputs(wc.agent),
    output:
        scores=P.SCORES_IMIT,
        timing=P.SCORES_IMIT_TIMING,
    params:
        spec=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).score_spec(wc.agent, wc.target),
    threads: lambda wc: WF.workers(wc.game, CORES)
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("eval_score", "{ltag}/{ktag}/imit/{ttag}/{netdir}/{ens}/{agent}/{target}"),
    benchmark:
        P.job_benchmark("eval_score", "{ltag}/{ktag}/imit/{ttag}/{netdir}/{ens}/{agent}/{target}")
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
        scores=P.SCORES_HELDOUT,
        timing=P.SCORES_HELDOUT_TIMING,
    params:
        spec=lambda wc: EVAL.for_heldout(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir
        ).heldout_spec(wc.target),
    threads: lambda wc: WF.workers(wc.game, CORES)
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("eval_score", "{ltag}/{ktag}/heldout/{ttag}/{netdir}/{agent}/{target}"),
    benchmark:
        P.job_benchmark("eval_score", "{ltag}/{ktag}/heldout/{ttag}/{netdir}/{agent}/{target}")
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
        results=P.PAIR,
        logs=P.PAIR_LOGS,
        timing=P.PAIR_TIMING,
    params:
        spec=lambda wc: EVAL.for_tour(wc.game, wc.ttag, wc.netdir, wc.ens, wc.otag).pair_spec(
            wc.pa, wc.pb
        ),
    threads: lambda wc: WF.pair_threads(wc, CORES)
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("eval_tournament", "{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}"),
    benchmark:
        P.job_benchmark("eval_tournament", "{ttag}/{netdir}/{ens}/{otag}/{pa}__{pb}")
    script:
        "../workflow_scripts/evaluate_tournament.py"


rule eval_similarity:
    input:
        keysets=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["keys"].values()),
        scores=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["scores"].values()),
        heldout=lambda wc: list(EVAL.for_rdir(wc.rdir).similarity_spec()["heldout"].values()),
    output:
        similarity=report(
            P.result("similarity.csv"),
            caption="../report/similarity.rst",
            category="Evaluation",
            subcategory="Similarity",
        ),
        pairwise=report(
            P.result("similarity_pairs.csv"),
            caption="../report/similarity_pairs.rst",
            category="Evaluation",
            subcategory="Similarity",
        ),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).similarity_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        P.result_log("similarity"),
    script:
        "../workflow_scripts/evaluate_similarity.py"


# Metrics beside S1/S2 (issue 48; docs/similarity_metrics.md): every agent's moves sampled on a
# target's keys (evaluate.agreement.samples draws of a stochastic agent, one of a deterministic
# one), then kappa, the Jensen-Shannon divergence between the sampled move distributions and
# the clone test in the results directory. Jobs: ime.workflow.jobs.agreement.
rule eval_distributions:
    input:
        keyset=P.KEYS,
        checkpoints=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).dists_inputs(wc.target),
    output:
        dists=P.DISTS,
        timing=P.DISTS_TIMING,
    params:
        spec=lambda wc: EVAL.for_imitator(
            wc.game, wc.ltag, wc.ktag, wc.ttag, wc.netdir, wc.ens
        ).dists_spec(wc.target),
    wildcard_constraints:
        samples=r"\d+",
    threads: lambda wc: WF.workers(wc.game, CORES)
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("eval_distributions", "{ltag}/{ktag}/{ttag}/{netdir}/{ens}/r{samples}/{target}"),
    benchmark:
        P.job_benchmark(
            "eval_distributions", "{ltag}/{ktag}/{ttag}/{netdir}/{ens}/r{samples}/{target}"
        )
    script:
        "../workflow_scripts/evaluate_distributions.py"


rule eval_agreement:
    input:
        keysets=lambda wc: list(EVAL.for_rdir(wc.rdir).agreement_spec()["keys"].values()),
        scores=lambda wc: list(EVAL.for_rdir(wc.rdir).agreement_spec()["scores"].values()),
        dists=lambda wc: list(EVAL.for_rdir(wc.rdir).agreement_spec()["dists"].values()),
        similarity=P.result("similarity.csv"),
        pairwise=P.result("similarity_pairs.csv"),
    output:
        agreement=report(
            P.result("agreement.csv"),
            caption="../report/agreement.rst",
            category="Evaluation",
            subcategory="Beyond S1/S2",
        ),
        pairs=report(
            P.result("agreement_pairs.csv"),
            caption="../report/agreement.rst",
            category="Evaluation",
            subcategory="Beyond S1/S2",
        ),
        jsd=report(
            P.result("jsd_pairs.csv"),
            caption="../report/jsd_pairs.rst",
            category="Evaluation",
            subcategory="Beyond S1/S2",
        ),
        clones=report(
            P.result("clones.csv"),
            caption="../report/clones.rst",
            category="Evaluation",
            subcategory="Beyond S1/S2",
        ),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).agreement_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        P.result_log("agreement"),
    benchmark:
        P.result_benchmark("agreement")
    script:
        "../workflow_scripts/evaluate_agreement.py"


rule report_cluster_checks:
    input:
        pairwise=P.result("similarity_pairs.csv"),
        kappa=P.result("agreement_pairs.csv"),
        jsd=P.result("jsd_pairs.csv"),
        clusters=P.result("clusters.csv"),
        accuracy=P.result("accuracy_clusters.csv"),
    output:
        ari=report(
            P.result("cluster_agreement.csv"),
            caption="../report/cluster_checks.rst",
            category="Evaluation",
            subcategory="Clustering",
        ),
        purity=report(
            P.result("cluster_purity.csv"),
            caption="../report/cluster_checks.rst",
            category="Evaluation",
            subcategory="Clustering",
        ),
        labels=P.result("cluster_labels.csv"),
        png=report(
            P.result("figures/dendrogram_classes.png"),
            caption="../report/cluster_checks.rst",
            category="Evaluation",
            subcategory="Clustering",
        ),
        pdf=P.result("figures/dendrogram_classes.pdf"),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).tables_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("cluster_checks"),
    benchmark:
        P.result_benchmark("cluster_checks")
    script:
        "../workflow_scripts/evaluate_cluster_checks.py"


rule report_tournament_cycles:
    input:
        games=P.result("tournament_games.csv"),
    output:
        shares=report(
            P.result("tournament_cycles.csv"),
            caption="../report/tournament_cycles.rst",
            category="Evaluation",
            subcategory="Tournament",
        ),
        ratings=P.result("tournament_hodge_ratings.csv"),
    params:
        spec=lambda wc: {
            k: v
            for k, v in EVAL.for_rdir(wc.rdir).tournament_spec().items()
            if k != "pairs"
        },
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("tournament_cycles"),
    benchmark:
        P.result_benchmark("tournament_cycles")
    script:
        "../workflow_scripts/evaluate_tournament_cycles.py"
