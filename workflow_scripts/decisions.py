"""Snakemake job: decisions (logic: ime.cli.pipeline.job_decisions)."""

from ime.cli.pipeline import job_decisions

job_decisions(snakemake)  # noqa: F821 - injected by Snakemake's script directive
