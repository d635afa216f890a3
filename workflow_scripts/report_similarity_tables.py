"""Snakemake job: the similarity tables, clusters and figures.

Logic: ime.workflow.jobs.report.job_similarity_tables.
"""

from ime.workflow.jobs.report import job_similarity_tables

job_similarity_tables(snakemake)  # noqa: F821 - injected by Snakemake's script directive
