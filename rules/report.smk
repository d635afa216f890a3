# Stage 5: the evaluation's tables and figures (Tables 4.5-4.8, 6.1, Fig 4.2, clustering) in the
# variant's results directory, each flagged for `snakemake --report report.html` with a caption
# from report/*.rst. Logic: ime.report.jobs.


report: "../report/workflow.rst"


def _eval_outputs(ep):
    """The evaluation files `snakemake` (rule all) builds for one variant."""
    names = ["table4_5.csv", "table4_6.csv", "table4_7.csv", "table4_8.csv", "table6_1.csv",
             "clusters.csv", "similarity.csv", "similarity_pairs.csv", "eval_timing.csv",
             "figures/fig4_2.png", "figures/moves.png", "figures/similarity.png",
             "figures/dendrogram.png", "figures/ratings.png"]
    return [ep.result(n) for n in names]


ALL_TARGETS.extend(_eval_outputs(EVAL_MAIN))


rule report_similarity_tables:
    input:
        similarity="{rdir}/similarity.csv",
        pairwise="{rdir}/similarity_pairs.csv",
    output:
        table4_5=report("{rdir}/table4_5.csv", caption="../report/table4_5.rst",
                        category="Evaluation", subcategory="Tables"),
        table4_6=report("{rdir}/table4_6.csv", caption="../report/table4_6.rst",
                        category="Evaluation", subcategory="Tables"),
        table4_7=report("{rdir}/table4_7.csv", caption="../report/table4_7.rst",
                        category="Evaluation", subcategory="Tables"),
        table6_1=report("{rdir}/table6_1.csv", caption="../report/table6_1.rst",
                        category="Evaluation", subcategory="Tables"),
        clusters=report("{rdir}/clusters.csv", caption="../report/clusters.rst",
                        category="Evaluation", subcategory="Clustering"),
        dendrogram_png=report("{rdir}/figures/dendrogram.png",
                              caption="../report/dendrogram.rst",
                              category="Evaluation", subcategory="Clustering"),
        dendrogram_pdf="{rdir}/figures/dendrogram.pdf",
        heatmap_png=report("{rdir}/figures/similarity.png",
                           caption="../report/similarity_heatmap.rst",
                           category="Evaluation", subcategory="Similarity"),
        heatmap_pdf="{rdir}/figures/similarity.pdf",
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).tables_spec(),
    log:
        "logs/tables/{rdir}/similarity_tables.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/report_similarity_tables.py"


rule report_table4_8:
    input:
        pairs=lambda wc: EVAL.for_rdir(wc.rdir).tournament_spec()["pairs"],
    output:
        table=report("{rdir}/table4_8.csv", caption="../report/table4_8.rst",
                     category="Evaluation", subcategory="Tournament"),
        games="{rdir}/tournament_games.csv",
        png=report("{rdir}/figures/ratings.png", caption="../report/ratings.rst",
                   category="Evaluation", subcategory="Tournament"),
        pdf="{rdir}/figures/ratings.pdf",
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).tournament_spec(),
    log:
        "logs/tables/{rdir}/table4_8.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/report_table4_8.py"


rule report_moves:
    input:
        lambda wc: [INDEX.variant(wc.rdir).dataset_path(b) for b in EVAL.for_rdir(wc.rdir).targets],
    output:
        png=report("{rdir}/figures/fig4_2.png", caption="../report/fig4_2.rst",
                   category="Evaluation", subcategory="Move choice"),
        pdf="{rdir}/figures/fig4_2.pdf",
        all_png=report("{rdir}/figures/moves.png", caption="../report/moves.rst",
                       category="Evaluation", subcategory="Move choice"),
        all_pdf="{rdir}/figures/moves.pdf",
        counts="{rdir}/move_counts.csv",
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).moves_spec(),
    log:
        "logs/tables/{rdir}/moves.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/report_moves.py"


rule report_eval_timing:
    input:
        keysets=lambda wc: [EVAL.for_rdir(wc.rdir).keys_path(t, ".timing.json")
                         for t in EVAL.for_rdir(wc.rdir).targets],
        scores=lambda wc: [p.removesuffix(".parquet") + ".timing.json"
                           for p in [*EVAL.for_rdir(wc.rdir).score_paths(),
                                     *EVAL.for_rdir(wc.rdir).similarity_spec()["heldout"].values()]],
        pairs=lambda wc: [p.removesuffix(".csv") + ".timing.json"
                          for p in EVAL.for_rdir(wc.rdir).tournament_spec()["pairs"]],
    output:
        report("{rdir}/eval_timing.csv", caption="../report/eval_timing.rst",
               category="Evaluation", subcategory="Cost"),
    log:
        "logs/tables/{rdir}/eval_timing.log",
    conda:
        "../envs/ime.yaml"
    script:
        "../workflow_scripts/report_eval_timing.py"
