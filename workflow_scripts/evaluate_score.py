"""Snakemake job: score one agent on one target's key set.

Logic: ime.workflow.jobs.evaluate.job_score.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.evaluate import job_score

    job_score(snakemake)  # noqa: F821 - injected by Snakemake's script directive
