"""Snakemake job: the case study, one key endgame traced (logic: ime.report.case_study)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.report.case_study import job_case_study

    job_case_study(snakemake)  # noqa: F821 - injected by Snakemake's script directive
