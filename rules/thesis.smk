# The thesis reproduced as a whole: every number of the thesis beside ours, each stated
# conclusion checked by code, the protocol beside ours, Table 6.1 across games and the run's
# provenance, from the results of Reversi, Doudizhu and Snake at the composed scale (or of the
# subset that --config thesis_games names: a partial report, ime.workflow.thesis).
#
#   snakemake -j8 results/thesis/reproduction.md                                  # scale=quick
#   snakemake -j8 results/thesis/thesis/reproduction.md --config overrides='[scale=thesis]'
#   snakemake -j2 results/thesis/tiny/reproduction.md --config overrides='[scale=tiny]'
#   snakemake -j2 reproduction --config overrides='[scale=thesis]' thesis_games='[reversi]'
#       # a partial report, Reversi only: results/thesis/thesis+reversi/ (docs/thesis.md)
#
# Jobs: ime.thesis.report (ime.workflow.thesis says where and what it reads).


rule thesis_report:
    input:
        unpack(lambda wc: WF.checked(THESIS.inputs, wc.trdir)),
    output:
        md=report(P.thesis_file("reproduction.md"), caption="../report/reproduction.rst",
                  category="Thesis", subcategory="Reproduction"),
        numbers=report(P.thesis_file("numbers.csv"), caption="../report/reproduction.rst",
                       category="Thesis", subcategory="Reproduction"),
        conclusions=report(P.thesis_file("conclusions.csv"),
                           caption="../report/reproduction.rst", category="Thesis",
                           subcategory="Reproduction"),
        protocol=report(P.thesis_file("protocol.csv"), caption="../report/reproduction.rst",
                        category="Thesis", subcategory="Reproduction"),
        table6_1=report(P.thesis_file("table6_1.csv"), caption="../report/reproduction.rst",
                        category="Thesis", subcategory="Table 6.1"),
        by_class=P.thesis_file("table6_1_by_class.csv"),
        png=report(P.thesis_file("figures/table6_1.png"), caption="../report/reproduction.rst",
                   category="Thesis", subcategory="Table 6.1"),
        pdf=P.thesis_file("figures/table6_1.pdf"),
        provenance=P.thesis_file("provenance.json"),
    params:
        spec=lambda wc: WF.checked(THESIS.spec, wc.trdir),
    wildcard_constraints:
        trdir=THESIS.constraint(),
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    log:
        P.THESIS_LOG,
    script:
        "../workflow_scripts/thesis_report.py"


# reproduction/<name>/: the report, every game's tables and figures and the provenance, small
# enough to commit (ime.thesis.archive; MANIFEST.md lists each file and what was left out).
#   snakemake -j8 archive_reproduction --config overrides='[scale=thesis]'   # reproduction/thesis/
rule archive_report:
    input:
        lambda wc: WF.checked(THESIS.archive_inputs),
    output:
        P.ARCHIVE_MANIFEST,
    params:
        spec=lambda wc: WF.checked(THESIS.archive_spec),
    wildcard_constraints:
        aname=THESIS.archive_constraint(),
    threads: 1
    log:
        P.ARCHIVE_LOG,
    script:
        "../workflow_scripts/archive_reproduction.py"
