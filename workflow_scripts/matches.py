"""Snakemake job: play one shard of the match schedule (logic: ime.cli.pipeline.job_matches)."""

from ime.cli.pipeline import job_matches

job_matches(snakemake)  # noqa: F821 - injected by Snakemake's script directive
