"""Snakemake job: kappa, JSD and the clone test.

Logic: ime.workflow.jobs.agreement.job_agreement.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.agreement import job_agreement

    job_agreement(snakemake)  # noqa: F821 - injected by Snakemake's script directive
