"""Worker pools that end without a signal race: finished work closes, only an error terminates.

``with multiprocessing.Pool(...)`` calls ``Pool.terminate()`` on the way out even when every task
is done: the parent takes the task queue's read lock and sends SIGTERM to each worker, then
joins it. If a worker misses that one SIGTERM (seen in full test runs: a worker left idle on
the queue lock, with no signal pending, and the parent blocked in ``waitpid`` on it for the rest
of CI's 90 minutes), the run hangs forever. A finished pool needs no signal at all: ``close()``
queues one sentinel per worker, each worker exits by itself, and ``join()`` reaps them.

So :func:`process_pool` closes and joins when its block finishes, and only on an exception (or a
generator closed early, ``GeneratorExit``) terminates: workers get SIGTERM (ours kill their bot
programs on it, see :func:`ime.bots.external.signals.guard_pool_worker`), and any still alive
after ``grace`` seconds get SIGKILL, so even a lost SIGTERM cannot hang the caller.

**Ctrl-C reaches the caller's thread.** A Pool starts three helper threads in the calling
process. The kernel hands a process-wide SIGINT to any thread that does not block it, and
Python only runs its handler when the main thread next wakes; a main thread waiting on a
result (``pool.apply``, ``imap``) sleeps on a lock that only a signal *to that thread* wakes.
So when the SIGINT lands on a helper thread while the worker dies of its own copy (and the pool
quietly starts a new worker for a task that is gone), the job waits forever: 2 of 54 Ctrl-Cs
on a loaded 2-core machine, none of 80 with what follows (CI saw it once). So
:func:`process_pool` creates the pool with SIGINT blocked in the calling thread: its helper
threads inherit a mask that leaves SIGINT to the main thread, and each worker restores the
caller's mask before its initializer runs, so workers still end on Ctrl-C as before
(:mod:`ime.core.interrupt`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from multiprocessing.pool import Pool
from typing import Any


def fork_or_spawn() -> BaseContext:
    """The ``fork`` context where the platform has one, else ``spawn``. Fork, because a spawned
    worker re-runs the parent's ``__main__``, which under Snakemake's script directive is the job
    script (it has no ``snakemake`` object there), and a forked one starts without re-importing."""
    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")


@contextmanager
def process_pool(ctx: BaseContext, workers: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = (), *, grace: float = 5.0) -> Iterator[Pool]:
    """A ``ctx.Pool(workers, initializer, initargs)`` that is closed and joined after a block that
    finished, and terminated (SIGTERM, then SIGKILL after ``grace`` s) after one that raised."""
    pool = _pool_with_quiet_threads(ctx, workers, initializer, initargs)
    finished = False
    try:
        yield pool
        finished = True
    finally:
        if finished:
            pool.close()
            pool.join()
        else:
            terminate(pool, grace=grace)


class _RestoredMask:
    """A worker initializer that first sets the signal mask its pool's creator had (the pool
    was created with SIGINT blocked, and a forked or spawned worker inherits that), then runs
    the caller's initializer. A class, not a closure, so that a spawned worker can unpickle it."""

    def __init__(self, mask: set[signal.Signals], initializer: Callable[..., Any] | None) -> None:
        self.mask = mask
        self.initializer = initializer

    def __call__(self, *args: Any) -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        if self.initializer is not None:
            self.initializer(*args)


def _pool_with_quiet_threads(ctx: BaseContext, workers: int,
                             initializer: Callable[..., Any] | None,
                             initargs: tuple[Any, ...]) -> Pool:
    """``ctx.Pool`` whose helper threads block SIGINT, so that it reaches the calling thread
    (the module doc); a plain ``ctx.Pool`` where the platform has no ``pthread_sigmask``."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        return ctx.Pool(workers, initializer=initializer, initargs=initargs)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return ctx.Pool(workers, initializer=_RestoredMask(set(mask), initializer),
                        initargs=initargs)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def terminate(pool: Pool, *, grace: float = 5.0) -> None:
    """``pool.terminate()`` and ``join()``, with a SIGKILL for every worker still alive after
    ``grace`` seconds (``Pool.terminate`` itself waits on each worker without a limit)."""
    stop = threading.Event()

    def reaper() -> None:  # every ``grace`` s until terminate returns: SIGKILL the live workers
        while not stop.wait(grace):
            for p in list(pool._pool):  # the workers; a private but stable attribute
                if p.exitcode is None and p.pid is not None:
                    _kill(p.pid)

    watchdog = threading.Thread(target=reaper, name="pool-reaper", daemon=True)
    watchdog.start()
    try:
        pool.terminate()
        pool.join()
    finally:
        stop.set()
        watchdog.join()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


__all__ = ["fork_or_spawn", "process_pool", "terminate"]
