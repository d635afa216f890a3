"""Snakemake job: report eval_timing (logic: ime.report.jobs.job_eval_timing)."""

from ime.report.jobs import job_eval_timing

job_eval_timing(snakemake)  # noqa: F821 - injected by Snakemake's script directive
