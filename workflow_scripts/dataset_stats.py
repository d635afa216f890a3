"""Snakemake job: the dataset table (logic: ime.workflow.jobs.datasets.job_dataset_stats)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.datasets import job_dataset_stats

    job_dataset_stats(snakemake)  # noqa: F821 - injected by Snakemake's script directive
