"""Snakemake job: one cell of the opponent-model search experiment against one original bot
(issue 49). Logic: ime.workflow.jobs.om_search.job_om_cell.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.om_search import job_om_cell

    job_om_cell(snakemake)  # noqa: F821 - injected by Snakemake's script directive
