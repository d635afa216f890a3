"""Snakemake job: table4_4 (logic: ime.cli.pipeline.job_table4_4)."""

from ime.cli.pipeline import job_table4_4

job_table4_4(snakemake)  # noqa: F821 - injected by Snakemake's script directive
