"""Snakemake job: dataset (logic: ime.cli.pipeline.job_dataset)."""

from ime.cli.pipeline import job_dataset

job_dataset(snakemake)  # noqa: F821 - injected by Snakemake's script directive
