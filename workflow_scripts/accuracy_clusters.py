"""Snakemake job: bots clustered by imitation accuracy, and the accuracy-vs-baseline figure.

Logic: ime.workflow.jobs.train.job_accuracy_clusters.
"""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_accuracy_clusters

    job_accuracy_clusters(snakemake)  # noqa: F821 - injected by Snakemake's script directive
