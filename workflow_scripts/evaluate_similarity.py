"""Snakemake job: S1/S2 of every (agent, target) pair.

Logic: ime.workflow.jobs.evaluate.job_similarity.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.evaluate import job_similarity

    job_similarity(snakemake)  # noqa: F821 - injected by Snakemake's script directive
