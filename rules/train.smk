# Stage 3: one job per (bot, net) -> every fold's checkpoint + metrics JSON; the nets' table
# (net_architectures.csv), the accuracies (imitation_accuracy.csv) and the bots clustered by them
# (accuracy_clusters.csv, figures/accuracy.png), and a sweep's table and
# figure (in the sweep's own results directory; ime.workflow.sweeps).


# One job trains every fold of one (bot, net) together (ime.train.ensemble): one rule per (game,
# number of folds), since a rule's outputs are fixed patterns (INDEX.train_groups). The files are
# the same as one job per fold would write (P.CHECKPOINT, P.METRICS for fold 0..k-1). The rule is
# `train_<game>` at every scale (profiles set its resources by that name); only a sweep that
# changes the folds adds `train_<game>_<k>folds` for its other fold counts.
for _name, (_game, _folds, _ttags) in INDEX.train_groups().items():

    rule:
        name:
            _name
        input:
            lambda wc: INDEX.train_input(wc.game, wc.ttag, wc.bot),
        output:
            ckpts=[P.CHECKPOINT.replace("{fold}", str(k)) for k in range(_folds)],
            metrics=[P.METRICS.replace("{fold}", str(k)) for k in range(_folds)],
        wildcard_constraints:
            game=_game,
            ttag=alternatives(_ttags),
        params:
            spec=lambda wc: INDEX.train_spec(wc.game, wc.ttag, wc.netdir, wc.bot),
        threads: lambda wc: WF.train_threads(wc.game)
        priority: TRAIN_PATH_PRIORITY
        resources:
            mem_mb=2000,
            runtime=480,
            gpu=lambda wc: WF.train_gpus(wc.game),
        log:
            P.job_log("train", "{ttag}/{netdir}/{bot}"),
        benchmark:
            P.job_benchmark("train", "{ttag}/{netdir}/{bot}")
        script:
            "../workflow_scripts/train.py"


# train.stack_bots=true: one job per (train tag, net) trains every bot's folds at once
# (ime.train.ensemble.train_bots; Snake's 22 bots x 5 folds are one stack on a GPU). One rule per
# (game, folds, bots), since its outputs name every bot; the files are the per-bot rule's. The
# rule is `train_<game>_stacked` at every scale (INDEX.train_stacks).
for _name, (_game, _folds, _bots, _ttags) in INDEX.train_stacks().items():

    rule:
        name:
            _name
        input:
            lambda wc, _g=_game: INDEX.train_stack_inputs(_g, wc.ttag),
        output:
            ckpts=[P.fill(P.CHECKPOINT, game=_game, ttag="{ttag}", netdir="{netdir}", bot=b,
                          fold=k)
                   for b in _bots for k in range(_folds)],
            metrics=[P.fill(P.METRICS, game=_game, ttag="{ttag}", netdir="{netdir}", bot=b,
                            fold=k)
                     for b in _bots for k in range(_folds)],
        wildcard_constraints:
            ttag=alternatives(_ttags),
            netdir=alternatives(INDEX.train_stack_nets(_game, _ttags)),
        params:
            spec=lambda wc, _g=_game: INDEX.train_stack_spec(_g, wc.ttag, wc.netdir),
        threads: WF.train_threads(_game)
        priority: TRAIN_PATH_PRIORITY
        resources:
            mem_mb=2000 + 200 * len(_bots),
            runtime=480 * len(_bots),
            gpu=WF.train_gpus(_game),
        log:
            P.fill(P.job_log("train", "{ttag}/{netdir}/_stacked"), game=_game, ttag="{ttag}",
                   netdir="{netdir}"),
        benchmark:
            P.fill(P.job_benchmark("train", "{ttag}/{netdir}/_stacked"), game=_game,
                   ttag="{ttag}", netdir="{netdir}")
        script:
            "../workflow_scripts/train.py"


rule net_architectures:
    output:
        report(P.result("net_architectures.csv"), caption="../report/net_architectures.rst",
               category="Imitation", subcategory="Nets"),
    params:
        spec=lambda wc: INDEX.table4_3_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("net_architectures"),
    script:
        "../workflow_scripts/net_architectures.py"


# Table 4.4's ceiling column: a sample of each target's dataset re-asked of the bot itself
# (another seed; ime.evaluate.ceiling), evaluate.self_agreement decisions (0: none); a stochastic
# bot evaluate.ceiling_repeats times (the top-1 ceiling, top1_mode / top1_max; ctag's _r<n>).
rule self_agreement:
    input:
        unpack(lambda wc: INDEX.ceiling_inputs(wc.game, wc.dtag, wc.bot)),
    output:
        P.CEILING,
    params:
        spec=lambda wc: INDEX.ceiling_spec(wc.game, wc.dtag, wc.ctag, wc.bot),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=120,
    log:
        P.job_log("self_agreement", "{dtag}/{ctag}/{bot}"),
    benchmark:
        P.job_benchmark("self_agreement", "{dtag}/{ctag}/{bot}")
    script:
        "../workflow_scripts/self_agreement.py"


rule imitation_accuracy:
    input:
        metrics=lambda wc: INDEX.metrics_paths(INDEX.variant(wc.rdir)),
        stats=lambda wc: INDEX.stats_paths(INDEX.variant(wc.rdir)),
        ceilings=lambda wc: INDEX.ceiling_paths(INDEX.variant(wc.rdir)),
        datasets=lambda wc: INDEX.unseen_ceiling_datasets(INDEX.variant(wc.rdir)),
    output:
        report(P.result("imitation_accuracy.csv"), caption="../report/imitation_accuracy.rst",
               category="Imitation", subcategory="Accuracy"),
    params:
        spec=lambda wc: INDEX.table4_4_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("imitation_accuracy"),
    script:
        "../workflow_scripts/imitation_accuracy.py"


rule accuracy_clusters:
    input:
        P.result("imitation_accuracy.csv"),
    output:
        csv=report(P.result("accuracy_clusters.csv"), caption="../report/accuracy_clusters.rst",
                   category="Imitation", subcategory="Accuracy"),
        png=report(P.result("figures/accuracy.png"), caption="../report/accuracy_figure.rst",
                   category="Imitation", subcategory="Accuracy"),
        pdf=P.result("figures/accuracy.pdf"),
    params:
        spec=lambda wc: INDEX.accuracy_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("accuracy_clusters"),
    script:
        "../workflow_scripts/accuracy_clusters.py"


rule sweep:
    input:
        unpack(lambda wc: INDEX.sweep_inputs(wc.rdir)),
    output:
        report(P.result("sweep_{swkey}.csv"), caption="../report/sweep_table.rst",
               category="Sweeps", subcategory="{swkey}"),
    params:
        spec=lambda wc: INDEX.sweep_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("sweep_{swkey}"),
    script:
        "../workflow_scripts/sweep.py"


rule sweep_figure:
    input:
        P.result("sweep_{swkey}.csv"),
    output:
        png=report(P.result("fig_sweep_{swkey}.png"), caption="../report/sweep_figure.rst",
                   category="Sweeps", subcategory="{swkey}"),
        pdf=P.result("fig_sweep_{swkey}.pdf"),
        fit=P.result("fit_sweep_{swkey}.csv"),
    params:
        spec=lambda wc: INDEX.sweep_figure_spec(wc.rdir),
    threads: 1
    log:
        P.result_log("fig_sweep_{swkey}"),
    script:
        "../workflow_scripts/sweep_figure.py"
