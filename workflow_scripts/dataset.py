"""Snakemake job: one target's Parquet dataset (logic: ime.workflow.jobs.datasets.job_dataset)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.datasets import job_dataset

    job_dataset(snakemake)  # noqa: F821 - injected by Snakemake's script directive
