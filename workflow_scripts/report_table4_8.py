"""Snakemake job: report table4_8 (logic: ime.report.jobs.job_table4_8)."""

from ime.report.jobs import job_table4_8

job_table4_8(snakemake)  # noqa: F821 - injected by Snakemake's script directive
