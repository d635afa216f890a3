"""Snakemake job: a game plug-in's own result (logic: ime.workflow.jobs.results.job_game_result)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.results import job_game_result

    job_game_result(snakemake)  # noqa: F821 - injected by Snakemake's script directive
