"""Snakemake job: held-out imitator scores (logic: ime.workflow.jobs.evaluate.job_heldout)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.evaluate import job_heldout

    job_heldout(snakemake)  # noqa: F821 - injected by Snakemake's script directive
