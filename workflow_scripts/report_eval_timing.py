"""Snakemake job: the evaluation's cost table (logic: ime.workflow.jobs.report.job_eval_timing)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.report import job_eval_timing

    job_eval_timing(snakemake)  # noqa: F821 - injected by Snakemake's script directive
