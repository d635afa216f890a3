"""Snakemake job: the nets' table (logic: ime.workflow.jobs.train.job_net_architectures)."""

from ime.workflow.jobs.train import job_net_architectures

job_net_architectures(snakemake)  # noqa: F821 - injected by Snakemake's script directive
