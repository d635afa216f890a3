"""Snakemake job: run_report (logic: ime.cli.pipeline.job_run_report)."""

from ime.cli.pipeline import job_run_report

job_run_report(snakemake)  # noqa: F821 - injected by Snakemake's script directive
