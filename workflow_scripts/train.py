"""Snakemake job: train every fold of one (bot, net), or of every bot with ``train.stack_bots``
(logic: ime.workflow.jobs.train.job_train)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.workflow.jobs.train import job_train

    job_train(snakemake)  # noqa: F821 - injected by Snakemake's script directive
