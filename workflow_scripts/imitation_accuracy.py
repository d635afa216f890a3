"""Snakemake job: the imitation-accuracy table.

Logic: ime.workflow.jobs.train.job_imitation_accuracy.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_imitation_accuracy

    job_imitation_accuracy(snakemake)  # noqa: F821 - injected by Snakemake's script directive
