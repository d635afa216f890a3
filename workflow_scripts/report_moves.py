"""Snakemake job: report moves (logic: ime.report.jobs.job_moves)."""

from ime.report.jobs import job_moves

job_moves(snakemake)  # noqa: F821 - injected by Snakemake's script directive
