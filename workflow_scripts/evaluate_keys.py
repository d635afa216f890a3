"""Snakemake job: evaluate keys (logic: ime.evaluate.jobs.job_keys)."""

from ime.evaluate.jobs import job_keys

job_keys(snakemake)  # noqa: F821 - injected by Snakemake's script directive
