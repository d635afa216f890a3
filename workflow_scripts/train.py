"""Snakemake job: train every fold of one (bot, net), or of every bot with ``train.stack_bots``
(logic: ime.workflow.jobs.train.job_train)."""

from ime.workflow.jobs.train import job_train

job_train(snakemake)  # noqa: F821 - injected by Snakemake's script directive
