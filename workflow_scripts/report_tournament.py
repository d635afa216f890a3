"""Snakemake job: the tournament table and ratings.

Logic: ime.workflow.jobs.report.job_tournament.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.report import job_tournament

    job_tournament(snakemake)  # noqa: F821 - injected by Snakemake's script directive
