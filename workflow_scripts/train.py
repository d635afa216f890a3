"""Snakemake job: train (logic: ime.cli.pipeline.job_train)."""

from ime.cli.pipeline import job_train

job_train(snakemake)  # noqa: F821 - injected by Snakemake's script directive
