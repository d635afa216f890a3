# Opponent-model search against the original bots (issue 49, Deliver 3): per target of
# om_search.targets and cell (ime.evaluate.om_experiment: (a) plain search to the depth cap,
# (b) plain at equal nodes, (c) the target's own imitator as the model, (d) another target's,
# the true model), one job plays the cell's games against the original bot, both seats of
# seeded balanced openings (a model cell also records its model's accuracy against the target,
# ime.evaluate.om_accuracy); one job per variant writes the table, the cost table, the model
# accuracy table and the figure.
# Not part of rule `all`: snakemake -j8 results/reversi/om_search.csv (docs/opponent_model.md).
# Inputs and params: ime.workflow.om_search (OM); the jobs: ime.workflow.jobs.om_search. A model
# cell's inputs are its imitator's checkpoints, so a retrained imitator re-plays its cells.
# threads: evaluate.workers (as the tournament's pairs, at most the cell's games), never in
# params: the games and their counts are the same bytes for any worker count.

from ime.workflow.om_search import OmIndex

OM = OmIndex(WF.index.variants(), WF.index.bot_specs)


rule om_search_cell:
    input:
        unpack(lambda wc: OM.for_cell(wc.game, wc.ptag, wc.omdir).cell_inputs(wc.opp, wc.cell)),
    output:
        games=P.OM_GAMES,
        cell=P.OM_CELL,
        timing=P.OM_TIMING,
    params:
        spec=lambda wc: OM.for_cell(wc.game, wc.ptag, wc.omdir).cell_spec(wc.opp, wc.cell),
    wildcard_constraints:
        **OM.constraints(),
    threads: lambda wc: WF.workers(wc.game, CORES, items=OM.games(wc))
    resources:
        mem_mb=2000,
        runtime=240,
    log:
        P.job_log("om_search", "{ptag}/{omdir}/{opp}/{cell}"),
    benchmark:
        P.job_benchmark("om_search", "{ptag}/{omdir}/{opp}/{cell}")
    script:
        "../workflow_scripts/om_search_cell.py"


rule om_search_table:
    input:
        unpack(lambda wc: WF.checked(OM.for_rdir(wc.rdir).table_inputs)),
    output:
        table=report(P.result("om_search.csv"), caption="../report/om_search.rst",
                     category="Beyond the thesis", subcategory="Opponent-model search"),
        cost=P.result("om_search_cost.csv"),
        accuracy=P.result("om_search_model_accuracy.csv"),
        png=report(P.result("figures/om_search.png"), caption="../report/om_search.rst",
                   category="Beyond the thesis", subcategory="Opponent-model search"),
        pdf=P.result("figures/om_search.pdf"),
    params:
        spec=lambda wc: WF.checked(OM.for_rdir(wc.rdir).table_spec),
    threads: 1
    resources:
        mem_mb=1500,
        runtime=30,
    log:
        P.result_log("om_search"),
    benchmark:
        P.result_benchmark("om_search")
    script:
        "../workflow_scripts/om_search_table.py"
