"""Snakemake job: evaluate score (logic: ime.evaluate.jobs.job_score)."""

from ime.evaluate.jobs import job_score

job_score(snakemake)  # noqa: F821 - injected by Snakemake's script directive
