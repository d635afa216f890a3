"""Snakemake job: the clusters checked against the algorithm classes.

Logic: ime.workflow.jobs.agreement.job_cluster_checks.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.agreement import job_cluster_checks

    job_cluster_checks(snakemake)  # noqa: F821 - injected by Snakemake's script directive
