"""Snakemake job: the tournament table and ratings.

Logic: ime.workflow.jobs.report.job_tournament.
"""

from ime.workflow.jobs.report import job_tournament

job_tournament(snakemake)  # noqa: F821 - injected by Snakemake's script directive
