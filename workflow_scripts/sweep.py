"""Snakemake job: a sweep's table (logic: ime.workflow.jobs.train.job_sweep)."""

from ime.workflow.jobs.train import job_sweep

job_sweep(snakemake)  # noqa: F821 - injected by Snakemake's script directive
