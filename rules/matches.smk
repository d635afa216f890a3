# Stage 1: play the bot zoo (ime.matches.runner) into Botzone JSON-lines logs: every target has
# its own schedule, played as matches.shards parts (P.LOG; the `part` wildcard is
# "<target>/shardNNN"). The params hold only that target's settings and the specs of the bots in
# its matches: adding a target re-runs nothing here, editing a bot re-runs the parts it plays in.
# With matches.source=raw no rule runs: the raw files in matches.raw_dir are the logs.


rule matches:
    output:
        P.LOG,
    params:
        spec=lambda wc: INDEX.matches_spec(wc.game, wc.ltag, wc.part),
    threads: 1
    priority: TRAIN_PATH_PRIORITY
    resources:
        mem_mb=1000,
        runtime=240,
    log:
        P.job_log("matches", "{ltag}/{part}"),
    benchmark:
        P.job_benchmark("matches", "{ltag}/{part}")
    script:
        "../workflow_scripts/matches.py"
