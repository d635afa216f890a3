"""Snakemake job: the tournament's transitive and cyclic parts.

Logic: ime.workflow.jobs.agreement.job_tournament_cycles.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.agreement import job_tournament_cycles

    job_tournament_cycles(snakemake)  # noqa: F821 - injected by Snakemake's script directive
