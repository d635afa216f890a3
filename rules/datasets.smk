# Stage 2: replay every log part through the judge, keeping its target's decisions (a raw part:
# every target's), then one Parquet dataset per target bot from its own parts, Table 4.2 (pairs,
# random baseline) and the run report.


rule decisions:
    input:
        lambda wc: INDEX.decisions_input(wc.game, wc.ltag, wc.part),
    output:
        parquet="data/{game}/decisions/{ltag}/{mode}/{part}.parquet",
        report="data/{game}/decisions/{ltag}/{mode}/{part}.json",
        rejects="data/{game}/decisions/{ltag}/{mode}/{part}.rejects.jsonl",
    params:
        spec=lambda wc: INDEX.decisions_spec(wc.game, wc.ltag, wc.mode, wc.part),
    threads: 1
    resources:
        mem_mb=2000,
    log:
        job_log("decisions", "{ltag}/{mode}/{part}"),
    benchmark:
        job_benchmark("decisions", "{ltag}/{mode}/{part}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/decisions.py"


rule dataset:
    input:
        unpack(lambda wc: INDEX.dataset_inputs(wc.game, wc.dtag, wc.bot)),
    output:
        parquet="data/{game}/datasets/{dtag}/{bot}.parquet",
        stats="data/{game}/datasets/{dtag}/{bot}.json",
    params:
        spec=lambda wc: INDEX.dataset_spec(wc.game, wc.dtag, wc.bot),
    threads: 1
    resources:
        mem_mb=2000,
    log:
        job_log("dataset", "{dtag}/{bot}"),
    benchmark:
        job_benchmark("dataset", "{dtag}/{bot}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/dataset.py"


rule table4_2:
    input:
        lambda wc: INDEX.stats_paths(INDEX.variant(wc.rdir)),
    output:
        "{rdir}/table4_2.csv",
    log:
        "logs/tables/{rdir}/table4_2.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/table4_2.py"


rule run_report:
    input:
        unpack(lambda wc: INDEX.run_report_inputs(wc.rdir)),
    output:
        "{rdir}/run_report.json",
    params:
        spec=lambda wc: INDEX.run_report_spec(wc.rdir),
    log:
        "logs/tables/{rdir}/run_report.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/run_report.py"
