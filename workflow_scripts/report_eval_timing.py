"""Snakemake job: the evaluation's cost table (logic: ime.workflow.jobs.report.job_eval_timing)."""

from ime.workflow.jobs.report import job_eval_timing

job_eval_timing(snakemake)  # noqa: F821 - injected by Snakemake's script directive
