"""Snakemake job: mine one target's key endgames (logic: ime.workflow.jobs.evaluate.job_keys)."""

from ime.workflow.jobs.evaluate import job_keys

job_keys(snakemake)  # noqa: F821 - injected by Snakemake's script directive
