"""Snakemake job: one tournament pair (logic: ime.workflow.jobs.evaluate.job_tournament_pair)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.evaluate import job_tournament_pair

    job_tournament_pair(snakemake)  # noqa: F821 - injected by Snakemake's script directive
