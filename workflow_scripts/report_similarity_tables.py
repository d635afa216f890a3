"""Snakemake job: the similarity tables, clusters and figures.

Logic: ime.workflow.jobs.report.job_similarity_tables.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.report import job_similarity_tables

    job_similarity_tables(snakemake)  # noqa: F821 - injected by Snakemake's script directive
