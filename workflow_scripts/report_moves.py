"""Snakemake job: the move-choice figures (logic: ime.workflow.jobs.report.job_moves)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.report import job_moves

    job_moves(snakemake)  # noqa: F821 - injected by Snakemake's script directive
