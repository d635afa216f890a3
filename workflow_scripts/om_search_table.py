"""Snakemake job: the opponent-model search table, its cost table and its figure (issue 49).
Logic: ime.workflow.jobs.om_search.job_om_table.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.om_search import job_om_table

    job_om_table(snakemake)  # noqa: F821 - injected by Snakemake's script directive
