"""Snakemake job: one target's self-agreement, Table 4.4's ceiling column.

Logic: ime.workflow.jobs.train.job_self_agreement.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_self_agreement

    job_self_agreement(snakemake)  # noqa: F821 - injected by Snakemake's script directive
