"""One pending re-evaluation in Snakemake's job scheduler, not one per finished job.

Snakemake (9.x, and its main branch as of 2026-11) re-runs its scheduling loop after the job
rate limit's timespan (``--max-jobs-per-timespan``, default ``100/1s``) by starting a
``threading.Timer`` at the end of *every* pass of the loop
(``JobScheduler._schedule_reevalutation``). A pass started by such a timer starts the next
timer, and every finished job starts one more pass, so each finished job leaves one more
timer chain behind: after N jobs the loop runs about N times a second, each pass selecting
jobs and checking every ready job's input files. Measured on the thesis-scale Reversi run on
2 cores (BENCHMARKS.md, "Snakemake's own CPU"): 156 timer threads after 148 jobs, and the
Snakemake process itself at a third of a core while two training jobs ran (0.5 % with
this patch). Snakemake's pull request #3744 (open) reports the same loop re-running before the
timespan, from the job-finished wake-ups.

:func:`single_reevaluation` replaces that method by one that keeps at most one timer pending:
the loop still wakes within the timespan after any pass (which is all the rate limiter and
the "waiting for queue input" path need: a pass looks at the whole state), and finished jobs
still wake it at once as before. The timer is a daemon, so an ended run never waits on it.
Nothing else of Snakemake changes; the job selection and its order are the same.
"""

from __future__ import annotations

import threading
from typing import Any

_MARK = "_ime_single_reevaluation"


def single_reevaluation(scheduler_cls: type | None = None) -> bool:
    """Patch ``scheduler_cls`` (Snakemake's ``JobScheduler`` by default) so that it keeps at
    most one re-evaluation timer pending. Idempotent; returns whether it patched (False when
    Snakemake has no such method, e.g. a future version that fixed it differently)."""
    if scheduler_cls is None:
        try:
            from snakemake.scheduling.job_scheduler import JobScheduler as scheduler_cls
        except ImportError:
            return False
    original = getattr(scheduler_cls, "_schedule_reevalutation", None)
    if original is None or getattr(original, _MARK, False):
        return False

    def _schedule_reevalutation(self: Any, delay: float) -> None:
        release = getattr(getattr(self, "_open_jobs", None), "release", None)
        if release is None:  # not the scheduler this was written against
            original(self, delay)
            return
        state = self.__dict__.setdefault(_MARK, {"lock": threading.Lock(), "pending": False})
        with state["lock"]:
            if state["pending"]:
                return
            state["pending"] = True

        def wake() -> None:
            with state["lock"]:
                state["pending"] = False  # the pass this starts may arm the next one
            release()

        timer = threading.Timer(delay, wake)
        timer.daemon = True
        timer.start()

    setattr(_schedule_reevalutation, _MARK, True)
    scheduler_cls._schedule_reevalutation = _schedule_reevalutation
    return True
