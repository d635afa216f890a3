"""Snakemake job: the reproduction report (logic: ime.thesis.report.job_thesis_report)."""

from ime.thesis.report import job_thesis_report

job_thesis_report(snakemake)  # noqa: F821 - injected by Snakemake's script directive
