"""Snakemake job: held-out imitator scores (logic: ime.evaluate.jobs.job_heldout)."""

from ime.evaluate.jobs import job_heldout

job_heldout(snakemake)  # noqa: F821 - injected by Snakemake's script directive
