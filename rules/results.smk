# The results directory as each game names it: the game's names for the generic artifacts
# (copies, e.g. Reversi's table4_5.csv of s1s2_imitator.csv; ime.workflow.artifacts), the game
# plug-in's own results (GamePlugin.results), and index.md listing what every file is. A target
# of a game whose config failed to compose raises that game's config error here, and a file
# under results/<game>/ that this composition does not write says where its results are; any
# other path under results/ that no rule writes (a mistyped game or file name) names the games,
# the composed results directory and the nearest file names (rule unknown_result, kept last).


rule artifact:
    input:
        lambda wc: WF.artifact_source(wc.rdir, wc.artifact),
    output:
        P.result("{artifact}"),
    threads: 1
    log:
        P.result_log("artifact/{artifact}"),
    shell:
        "cp {input:q} {output:q} > {log:q} 2>&1"


rule game_result:
    input:
        lambda wc: WF.checked(WF.result_inputs, wc.rdir, wc.result),
    output:
        P.result("{result}"),
    params:
        spec=lambda wc: WF.checked(WF.result_spec, wc.rdir, wc.result),
    threads: lambda wc: WF.result_threads(wc.rdir, CORES)
    resources:
        mem_mb=2000,
        runtime=120,
    log:
        P.result_log("game_result/{result}"),
    benchmark:
        P.result_benchmark("game_result/{result}")
    script:
        "../workflow_scripts/game_result.py"


rule results_index:
    output:
        P.result("index.md"),
    params:
        spec=lambda wc: WF.index_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("index"),
    script:
        "../workflow_scripts/results_index.py"


if WF.errors:

    rule config_error:
        input:
            lambda wc: WF.checked(WF.plan, wc.failed),
        output:
            P.FAILED_RESULT,
        wildcard_constraints:
            failed="|".join(WF.errors),
            anything=".+",
        threads: 1
        log:
            P.FAILED_LOG,
        shell:
            "exit 1"


rule misplaced_result:
    input:
        lambda wc: WF.checked(WF.misplaced, wc.misplaced, wc.anything),
    output:
        P.MISPLACED_RESULT,
    wildcard_constraints:
        **WF.misplaced_constraints(),
    threads: 1
    log:
        P.MISPLACED_LOG,
    shell:
        "exit 1"


# The catch-all: a path under results/ that no rule above writes (its regex excludes every other
# rule's outputs, so it never competes with one; Workflow.unknown_constraint). It must stay the
# last rule defined: a rule added after it is not excluded.
rule unknown_result:
    input:
        lambda wc: WF.checked(WF.unknown_result, wc.unknown_result),
    output:
        P.UNKNOWN_RESULT,
    wildcard_constraints:
        unknown_result=WF.unknown_constraint(str(o) for r in workflow.rules for o in r.output),
    localrule: True
    threads: 1
    log:
        P.UNKNOWN_LOG,
    run:
        # never reached: the input function raises first (a run block, not a shell command, so
        # the catch-all needs no software environment)
        raise WorkflowError(f"IME config error: {output[0]} is no file of this workflow")
