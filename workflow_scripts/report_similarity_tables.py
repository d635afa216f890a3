"""Snakemake job: report similarity_tables (logic: ime.report.jobs.job_similarity_tables)."""

from ime.report.jobs import job_similarity_tables

job_similarity_tables(snakemake)  # noqa: F821 - injected by Snakemake's script directive
