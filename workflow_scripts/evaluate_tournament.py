"""Snakemake job: evaluate tournament (logic: ime.evaluate.jobs.job_tournament_pair)."""

from ime.evaluate.jobs import job_tournament_pair

job_tournament_pair(snakemake)  # noqa: F821 - injected by Snakemake's script directive
