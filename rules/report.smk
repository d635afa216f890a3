# Stage 5: the evaluation's tables and figures in the variant's results directory, under their
# generic names (s1s2_imitator.csv, ...; results.smk copies them to each game's names), each
# flagged for `snakemake --report report.html` with a caption from report/*.rst.
# Jobs: ime.workflow.jobs.report.


report: "../report/workflow.rst"


rule report_similarity_tables:
    input:
        similarity=P.result("similarity.csv"),
        pairwise=P.result("similarity_pairs.csv"),
    output:
        s1s2_imitator=report(P.result("s1s2_imitator.csv"), caption="../report/s1s2_imitator.rst",
                             category="Evaluation", subcategory="Tables"),
        s1_pairwise=report(P.result("s1_pairwise.csv"), caption="../report/s1_pairwise.rst",
                           category="Evaluation", subcategory="Tables"),
        s2_pairwise=report(P.result("s2_pairwise.csv"), caption="../report/s2_pairwise.rst",
                           category="Evaluation", subcategory="Tables"),
        difficulty_by_class=report(P.result("difficulty_by_class.csv"),
                                   caption="../report/difficulty_by_class.rst",
                                   category="Evaluation", subcategory="Tables"),
        clusters=report(P.result("clusters.csv"), caption="../report/clusters.rst",
                        category="Evaluation", subcategory="Clustering"),
        dendrogram_png=report(P.result("figures/dendrogram.png"),
                              caption="../report/dendrogram.rst",
                              category="Evaluation", subcategory="Clustering"),
        dendrogram_pdf=P.result("figures/dendrogram.pdf"),
        heatmap_png=report(P.result("figures/similarity.png"),
                           caption="../report/similarity_heatmap.rst",
                           category="Evaluation", subcategory="Similarity"),
        heatmap_pdf=P.result("figures/similarity.pdf"),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).tables_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("similarity_tables"),
    script:
        "../workflow_scripts/report_similarity_tables.py"


rule report_tournament:
    input:
        pairs=lambda wc: EVAL.for_rdir(wc.rdir).tournament_spec()["pairs"],
    output:
        table=report(P.result("tournament.csv"), caption="../report/tournament.rst",
                     category="Evaluation", subcategory="Tournament"),
        games=P.result("tournament_games.csv"),
        png=report(P.result("figures/ratings.png"), caption="../report/ratings.rst",
                   category="Evaluation", subcategory="Tournament"),
        pdf=P.result("figures/ratings.pdf"),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).tournament_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("tournament"),
    script:
        "../workflow_scripts/report_tournament.py"


rule report_moves:
    input:
        lambda wc: [INDEX.variant(wc.rdir).dataset_path(b) for b in EVAL.for_rdir(wc.rdir).targets],
    output:
        png=report(P.result("figures/move_choice_pair.png"),
                   caption="../report/move_choice_pair.rst",
                   category="Evaluation", subcategory="Move choice"),
        pdf=P.result("figures/move_choice_pair.pdf"),
        all_png=report(P.result("figures/moves.png"), caption="../report/moves.rst",
                       category="Evaluation", subcategory="Move choice"),
        all_pdf=P.result("figures/moves.pdf"),
        counts=P.result("move_counts.csv"),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).moves_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("moves"),
    script:
        "../workflow_scripts/report_moves.py"


rule report_case_study:
    input:
        unpack(lambda wc: EVAL.for_rdir(wc.rdir).case_study_inputs()),
    output:
        table=report(P.result("case_study.csv"), caption="../report/case_study.rst",
                     category="Evaluation", subcategory="Case study"),
        png=report(P.result("figures/case_study.png"), caption="../report/case_study.rst",
                   category="Evaluation", subcategory="Case study"),
        pdf=P.result("figures/case_study.pdf"),
    params:
        spec=lambda wc: EVAL.for_rdir(wc.rdir).case_study_spec(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.result_log("case_study"),
    script:
        "../workflow_scripts/report_case_study.py"


rule report_eval_timing:
    input:
        unpack(lambda wc: EVAL.for_rdir(wc.rdir).timing_inputs()),
    output:
        report(P.result("eval_timing.csv"), caption="../report/eval_timing.rst",
               category="Evaluation", subcategory="Cost"),
    threads: 1
    log:
        P.result_log("eval_timing"),
    script:
        "../workflow_scripts/report_eval_timing.py"
