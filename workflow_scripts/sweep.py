"""Snakemake job: sweep (logic: ime.cli.pipeline.job_sweep)."""

from ime.cli.pipeline import job_sweep

job_sweep(snakemake)  # noqa: F821 - injected by Snakemake's script directive
