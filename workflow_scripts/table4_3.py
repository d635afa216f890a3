"""Snakemake job: table4_3 (logic: ime.cli.pipeline.job_table4_3)."""

from ime.cli.pipeline import job_table4_3

job_table4_3(snakemake)  # noqa: F821 - injected by Snakemake's script directive
