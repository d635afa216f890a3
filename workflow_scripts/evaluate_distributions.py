"""Snakemake job: every agent's sampled moves on one target's key positions.

Logic: ime.workflow.jobs.agreement.job_distributions.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.agreement import job_distributions

    job_distributions(snakemake)  # noqa: F821 - injected by Snakemake's script directive
