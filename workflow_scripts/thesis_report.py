"""Snakemake job: the reproduction report (logic: ime.thesis.report.job_thesis_report)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.thesis.report import job_thesis_report

    job_thesis_report(snakemake)  # noqa: F821 - injected by Snakemake's script directive
