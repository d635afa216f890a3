"""Snakemake job: evaluate similarity (logic: ime.evaluate.jobs.job_similarity)."""

from ime.evaluate.jobs import job_similarity

job_similarity(snakemake)  # noqa: F821 - injected by Snakemake's script directive
