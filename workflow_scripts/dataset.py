"""Snakemake job: one target's Parquet dataset (logic: ime.workflow.jobs.datasets.job_dataset)."""

from ime.workflow.jobs.datasets import job_dataset

job_dataset(snakemake)  # noqa: F821 - injected by Snakemake's script directive
