"""Snakemake job: the run report (logic: ime.workflow.jobs.datasets.job_run_report)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.datasets import job_run_report

    job_run_report(snakemake)  # noqa: F821 - injected by Snakemake's script directive
