"""Snakemake job: a sweep's figure (logic: ime.workflow.jobs.train.job_sweep_figure)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_sweep_figure

    job_sweep_figure(snakemake)  # noqa: F821 - injected by Snakemake's script directive
