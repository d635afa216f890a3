"""Snakemake job: the nets' table (logic: ime.workflow.jobs.train.job_net_architectures)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_net_architectures

    job_net_architectures(snakemake)  # noqa: F821 - injected by Snakemake's script directive
