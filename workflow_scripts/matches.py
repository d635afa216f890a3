"""Snakemake job: play one shard of a target's match schedule.

Logic: ime.workflow.jobs.matches.job_matches.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.matches import job_matches

    job_matches(snakemake)  # noqa: F821 - injected by Snakemake's script directive
