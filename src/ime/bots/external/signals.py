"""Signals: SIGTERM/SIGINT (and SIGHUP for ``ime play``) kill every bot program we started, and
everything they started, before we exit with the conventional 128 + signal number.

:func:`exit_on_signals` is for a command that plays in this process (``ime play``);
:func:`guard_pool_worker` for a multiprocessing worker (the match pool), which also gets SIGTERM
as its parent-death signal. Both use :func:`ime.bots.external.contain.kill_now`.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from ime.bots.external.contain import _PRCTL, PR_SET_PDEATHSIG, dedicate, kill_now, undedicate

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_exiting: dict[int, bool] = {}


def _exit_handler(signum: int, frame: FrameType | None) -> None:
    """First signal: kill our programs, then unwind (``finally`` blocks run) with 128 + signum.
    A second signal while unwinding exits at once."""
    kill_now()
    if _exiting.get(os.getpid()):
        os._exit(128 + signum)
    _exiting[os.getpid()] = True
    raise SystemExit(128 + signum)


@contextmanager
def exit_on_signals() -> Iterator[None]:
    """For a command that runs bots in this process (``ime play``): SIGTERM, SIGINT and SIGHUP
    kill every live program and its descendants, then exit with the conventional 128 + signal.

    Must be entered on the main thread. Pool workers forked inside inherit the handler until
    :func:`guard_pool_worker` replaces it.
    """
    previous: dict[int, Any] = {}
    dedicate()
    for sig in EXIT_SIGNALS:
        previous[sig] = signal.signal(sig, _exit_handler)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        undedicate()


def _worker_handler(signum: int, frame: FrameType | None) -> None:
    kill_now()
    os._exit(128 + signum)


def guard_pool_worker() -> None:
    """In a multiprocessing worker: die with the parent, and take the bots along.

    The worker's parent-death signal is SIGTERM (catchable, unlike SIGKILL); SIGTERM (also what
    ``Pool.terminate`` sends) and SIGINT kill every program this worker started, then exit with
    128 + signal; a normal worker exit does the same killing. No-op in a main process.
    """
    import multiprocessing as mp
    from multiprocessing.util import Finalize

    parent = mp.parent_process()
    if parent is None or os.name != "posix":
        return
    dedicate()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _worker_handler)
    Finalize(None, kill_now, exitpriority=100)
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent.pid:  # the parent died before we asked
            os.kill(os.getpid(), signal.SIGTERM)
