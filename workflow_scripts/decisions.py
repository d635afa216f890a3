"""Snakemake job: one log part's decisions (logic: ime.workflow.jobs.datasets.job_decisions)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.datasets import job_decisions

    job_decisions(snakemake)  # noqa: F821 - injected by Snakemake's script directive
