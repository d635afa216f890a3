"""Snakemake job: the results directory's index.md.

Logic: ime.workflow.jobs.results.job_results_index.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.results import job_results_index

    job_results_index(snakemake)  # noqa: F821 - injected by Snakemake's script directive
