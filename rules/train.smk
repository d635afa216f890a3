# Stage 3: one job per (bot, net, fold) -> checkpoint + metrics JSON; Tables 4.3 and 4.4.


rule train:
    input:
        lambda wc: INDEX.train_input(wc.game, wc.ttag, wc.bot),
    output:
        ckpt="data/{game}/models/{ttag}/{netdir}/{bot}/fold{fold}.pt",
        metrics="data/{game}/models/{ttag}/{netdir}/{bot}/fold{fold}.json",
    params:
        spec=lambda wc: INDEX.train_spec(wc.game, wc.ttag, wc.netdir, wc.bot, wc.fold),
    threads: TRAIN_CFG["threads"]
    resources:
        **TRAIN_RESOURCES,
    log:
        job_log("train", "{ttag}/{netdir}/{bot}/fold{fold}"),
    benchmark:
        job_benchmark("train", "{ttag}/{netdir}/{bot}/fold{fold}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/train.py"


rule table4_3:
    output:
        "{rdir}/table4_3.csv",
    params:
        spec=lambda wc: INDEX.table4_3_spec(wc.rdir),
    log:
        "logs/tables/{rdir}/table4_3.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/table4_3.py"


rule table4_4:
    input:
        metrics=lambda wc: INDEX.metrics_paths(INDEX.variant(wc.rdir)),
        stats=lambda wc: INDEX.stats_paths(INDEX.variant(wc.rdir)),
    output:
        "{rdir}/table4_4.csv",
    params:
        spec=lambda wc: INDEX.table4_4_spec(wc.rdir),
    log:
        "logs/tables/{rdir}/table4_4.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/table4_4.py"


if INDEX.sweep_path():

    rule sweep:
        input:
            metrics=[m for p in INDEX.sweep_spec()["points"] for m in p["metrics"]],
            stats=[s for p in INDEX.sweep_spec()["points"] for s in p["stats"]],
        output:
            INDEX.sweep_path(),
        params:
            spec=INDEX.sweep_spec(),
        log:
            "logs/tables/sweep.log",
        conda:
            "../envs/ime.yaml"
        script:
            "../workflow_scripts/sweep.py"
