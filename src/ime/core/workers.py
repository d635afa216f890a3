"""How many worker processes a job uses: a runtime setting that follows the cores it is given.

A worker count changes how fast a job runs, never what it computes (the pools yield in task
order, :mod:`ime.evaluate.parallel`), so it is kept out of every variant name, data tag and job
param (:data:`ime.workflow.tags.RUNTIME_KEYS`). ``evaluate.workers: auto`` (the default) sizes
the evaluation's jobs from Snakemake's ``--cores``; an int is an explicit override.

Why :data:`RESERVED_CORES`: Snakemake cannot start a job until its threads are free, so a
key-mining job holding every core would make the one-thread jobs on the path to training
(``decisions``, ``dataset``, the train job feeding the GPU) wait for it to finish (the issue-31
run on 16 cores: the dataset job waited 3 minutes behind key mining). Those rules also carry a
higher ``priority:`` (rules/*.smk), which orders the jobs that are ready; the reserved core is
what lets them start while a long evaluation job runs.

Why :data:`JOB_SHARE`: a job holding all but one core starves the run as soon as anything else
holds a core. On the 16-core H200 (issue 31, the whole thesis-scale Reversi run through
Snakemake with ``train.stack_bots``), the three GPU train jobs held three cores for 200 s, and
every evaluation job asked for 15: none could start, so key mining waited for training to end
with the CPUs 26 % busy, and afterwards the 6-second tournament pairs ran one at a time. So
``auto`` gives an evaluation job a third of the cores (5 of 16): two or three mining jobs side
by side, and room for the train jobs and the small jobs beside them. On the 2-core box it is
1, as before.

Why :data:`EVAL_WORKERS_CAP`: a worker costs its own bot set-up (``warm_up``: every bot built
and played once) and its share of the candidates forked past the last key wanted (the pool runs
ahead of the in-order consumer). On 16 cores thesis-scale key mining of rev5 still used 13.1 of
its 16 workers (2,603 CPU-s in 198 s wall, issue 31), so more did help up to 16; beyond that
nothing was measured, and a wider pool starves the other jobs of the run (five targets' mining
and scoring, the tournament pairs) for a gain the set-up cost eats. A tournament pair is capped
again at its number of games (:func:`job_workers`' ``items``): an idle worker would hold a core.
"""

from __future__ import annotations

import os
from typing import Any

AUTO = "auto"
"""``evaluate.workers: auto``: as many workers as the job is granted, within the caps."""

EVAL_WORKERS_CAP = 16
"""The most workers ``auto`` gives one evaluation job (see the module doc for why)."""

RESERVED_CORES = 1
"""Cores ``auto`` leaves to the rest of the run when the machine has more than this many."""


JOB_SHARE = 3
"""``auto`` gives one evaluation job ``1 / JOB_SHARE`` of the cores left after
:data:`RESERVED_CORES` (see the module doc for why)."""

CPU_COUNT_ENV = "IME_CPU_COUNT"
"""Overrides the CPUs :func:`machine_cpus` finds (a container whose CPU quota is below what it
can see; the tests, which plan a 16-core run on a 2-core box)."""


def machine_cpus() -> int:
    """The CPUs this process may run on (``IME_CPU_COUNT`` if set; else its CPU affinity, which
    a container or ``taskset`` narrows, unlike ``os.cpu_count``)."""
    env = os.environ.get(CPU_COUNT_ENV)
    if env:
        if not env.isdigit() or int(env) < 1:
            raise ValueError(f"{CPU_COUNT_ENV} must be a whole number >= 1, got {env!r}")
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_workers(value: Any, key: str = "evaluate.workers") -> int | str:
    """``value`` if it is ``"auto"`` or an int >= 1, else a ``ValueError`` naming ``key``."""
    if value == AUTO:
        return AUTO
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise ValueError(f"{key} must be >= 1 or 'auto', got {value!r}")


def job_workers(requested: int | str, cores: int | None = None, *, items: int | None = None,
                cap: int = EVAL_WORKERS_CAP, reserve: int = RESERVED_CORES,
                share: int = JOB_SHARE) -> int:
    """The worker processes of one job.

    ``requested``: ``evaluate.workers`` (``"auto"`` or an int); ``cores``: what the run may use
    (Snakemake's ``--cores``; None: this machine's CPUs); ``items``: how many independent tasks
    the job has, when known (a pool wider than that only idles).

    ``auto`` gives ``min(cap, (cores - reserve) // share)`` (at least 1; ``cores`` no more than
    this machine's CPUs, since ``snakemake -j8`` grants 8 on a 2-core box), so one job never
    takes the last core of a machine with more than ``reserve`` cores, and several evaluation
    jobs run side by side; an int is taken as asked (Snakemake still lowers a rule's threads to
    ``--cores``). Both are then capped at ``items``.
    """
    cpus = machine_cpus()
    # never more than the machine has: `snakemake -j8` on a 2-core box grants 8 "cores"
    n_cores = min(int(cores), cpus) if cores else cpus
    if requested == AUTO:
        n = min(cap, (n_cores - reserve if n_cores > reserve else n_cores) // share)
    else:
        n = int(check_workers(requested))
    if items is not None:
        n = min(n, int(items))
    return max(1, n)
