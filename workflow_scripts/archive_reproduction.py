"""Snakemake job: the reproduction's archive (logic: ime.thesis.archive.job_archive)."""

from ime.thesis.archive import job_archive

job_archive(snakemake)  # noqa: F821 - injected by Snakemake's script directive
