# Stage 1: play the bot zoo (ime.matches.runner) into Botzone JSON-lines logs, one file per shard.
# With matches.source=raw no rule runs here: the raw files in matches.raw_dir are the logs.


rule matches:
    output:
        "data/{game}/logs/{ltag}/{part}.jsonl",
    params:
        spec=lambda wc: INDEX.matches_spec(wc.game, wc.ltag, wc.part),
    threads: 1
    resources:
        mem_mb=1000,
    log:
        job_log("matches", "{ltag}/{part}"),
    benchmark:
        job_benchmark("matches", "{ltag}/{part}")
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/matches.py"
