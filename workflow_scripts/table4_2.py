"""Snakemake job: table4_2 (logic: ime.cli.pipeline.job_table4_2)."""

from ime.cli.pipeline import job_table4_2

job_table4_2(snakemake)  # noqa: F821 - injected by Snakemake's script directive
