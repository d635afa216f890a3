"""Snakemake job: play one shard of a target's match schedule.

Logic: ime.workflow.jobs.matches.job_matches.
"""

from ime.workflow.jobs.matches import job_matches

job_matches(snakemake)  # noqa: F821 - injected by Snakemake's script directive
