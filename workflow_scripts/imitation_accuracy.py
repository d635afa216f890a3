"""Snakemake job: the imitation-accuracy table.

Logic: ime.workflow.jobs.train.job_imitation_accuracy.
"""

from ime.workflow.jobs.train import job_imitation_accuracy

job_imitation_accuracy(snakemake)  # noqa: F821 - injected by Snakemake's script directive
