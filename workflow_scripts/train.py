"""Snakemake job: train one (bot, net, fold) (logic: ime.workflow.jobs.train.job_train)."""

from ime.workflow.jobs.train import job_train

job_train(snakemake)  # noqa: F821 - injected by Snakemake's script directive
