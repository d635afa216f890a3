"""Snakemake job: mine one target's key endgames (logic: ime.workflow.jobs.evaluate.job_keys)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.evaluate import job_keys

    job_keys(snakemake)  # noqa: F821 - injected by Snakemake's script directive
