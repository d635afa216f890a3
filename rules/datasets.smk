# Stage 2: replay every log part through the judge, keeping its target's decisions (a raw part:
# every target's), then one Parquet dataset per target bot from its own parts; the dataset table
# (dataset_stats.csv: pairs, random baseline) and the run report.


rule decisions:
    input:
        lambda wc: INDEX.decisions_input(wc.game, wc.ltag, wc.part),
    output:
        parquet=P.DECISIONS,
        report=P.DECISIONS_REPORT,
        rejects=P.DECISIONS_REJECTS,
    params:
        spec=lambda wc: INDEX.decisions_spec(wc.game, wc.ltag, wc.mode, wc.part),
    threads: 1
    priority: TRAIN_PATH_PRIORITY
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        P.job_log("decisions", "{ltag}/{mode}/{part}"),
    benchmark:
        P.job_benchmark("decisions", "{ltag}/{mode}/{part}")
    script:
        "../workflow_scripts/decisions.py"


rule dataset:
    input:
        unpack(lambda wc: INDEX.dataset_inputs(wc.game, wc.dtag, wc.bot)),
    output:
        parquet=P.DATASET,
        stats=P.DATASET_STATS,
    params:
        spec=lambda wc: INDEX.dataset_spec(wc.game, wc.dtag, wc.bot),
    threads: 1
    priority: TRAIN_PATH_PRIORITY
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        P.job_log("dataset", "{dtag}/{bot}"),
    benchmark:
        P.job_benchmark("dataset", "{dtag}/{bot}")
    script:
        "../workflow_scripts/dataset.py"


rule dataset_stats:
    input:
        lambda wc: INDEX.stats_paths(INDEX.variant(wc.rdir)),
    output:
        report(P.result("dataset_stats.csv"), caption="../report/dataset_stats.rst",
               category="Imitation", subcategory="Datasets"),
    threads: 1
    log:
        P.result_log("dataset_stats"),
    script:
        "../workflow_scripts/dataset_stats.py"


# run_report.json is deterministic (same config, same bytes); provenance.json (commit, package
# versions, machine, the stages' times so far) describes this run and differs between runs.
rule run_report:
    input:
        unpack(lambda wc: INDEX.run_report_inputs(wc.rdir)),
    output:
        P.result("run_report.json"),
        provenance=P.result("provenance.json"),
    params:
        spec=lambda wc: INDEX.run_report_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("run_report"),
    script:
        "../workflow_scripts/run_report.py"
