"""Snakemake job: the reproduction's archive (logic: ime.thesis.archive.job_archive)."""

from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):  # Ctrl-C: exit 130, no traceback
    from ime.thesis.archive import job_archive

    job_archive(snakemake)  # noqa: F821 - injected by Snakemake's script directive
