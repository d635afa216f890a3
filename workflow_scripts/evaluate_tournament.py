"""Snakemake job: one tournament pair (logic: ime.workflow.jobs.evaluate.job_tournament_pair)."""

from ime.workflow.jobs.evaluate import job_tournament_pair

job_tournament_pair(snakemake)  # noqa: F821 - injected by Snakemake's script directive
