"""Snakemake job: which bot played this, on held-out matches (issue 48).

Logic: ime.workflow.jobs.identify.job_identify.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.identify import job_identify

    job_identify(snakemake)  # noqa: F821 - injected by Snakemake's script directive
