"""Snakemake job: score one agent on one target's key set.

Logic: ime.workflow.jobs.evaluate.job_score.
"""

from ime.workflow.jobs.evaluate import job_score

job_score(snakemake)  # noqa: F821 - injected by Snakemake's script directive
