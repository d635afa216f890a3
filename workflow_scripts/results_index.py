"""Snakemake job: the results directory's index.md.

Logic: ime.workflow.jobs.results.job_results_index.
"""

from ime.workflow.jobs.results import job_results_index

job_results_index(snakemake)  # noqa: F821 - injected by Snakemake's script directive
