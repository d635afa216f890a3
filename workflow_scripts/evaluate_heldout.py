"""Snakemake job: held-out imitator scores (logic: ime.workflow.jobs.evaluate.job_heldout)."""

from ime.workflow.jobs.evaluate import job_heldout

job_heldout(snakemake)  # noqa: F821 - injected by Snakemake's script directive
