"""Ctrl-C in a process of ours: end quietly with the conventional exit status 130.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group: ``snakemake -j8`` and
each of its job processes, with their worker pools. Python's default turns it into a
``KeyboardInterrupt`` that each process prints as a traceback (742 lines for one Ctrl-C of a
busy run, most from jobs interrupted while importing torch), although the interrupt is no error
of theirs and Snakemake removes the unfinished jobs' outputs. :func:`quiet_interrupt` turns it
into :class:`Interrupted`, a :class:`SystemExit`: ``finally`` blocks and ``with`` exits run as
for ``KeyboardInterrupt`` (files closed, pools terminated, bot programs killed), an ``except
Exception`` does not swallow it, and Python prints nothing for it. Pool workers forked inside
inherit the handler, and multiprocessing ends a worker on a ``SystemExit`` without a traceback.

What the ``snakemake`` process itself prints on Ctrl-C is :mod:`ime.workflow.console`'s.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

EXIT_INTERRUPTED = 130
"""128 + SIGINT: what a shell reports for a command ended by Ctrl-C."""


class Interrupted(SystemExit):
    """Ctrl-C (SIGINT) in a process under :func:`quiet_interrupt`; exits with status 130."""

    def __init__(self) -> None:
        super().__init__(EXIT_INTERRUPTED)


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    raise Interrupted()


@contextmanager
def quiet_interrupt(*, then_ignore: bool = False) -> Iterator[None]:
    """SIGINT raises :class:`Interrupted` (no traceback, exit status 130) inside the block.

    For a job script's whole body and the ``ime`` command. After the block the previous handler
    is back, or with ``then_ignore`` (a job script, whose process only exits after it) SIGINT is
    ignored: a Ctrl-C while the interpreter shuts down would otherwise fail a job whose outputs
    are written. A no-op off the main thread (only it can set a signal handler) and where SIGINT
    is ignored already (a job started with ``nohup`` keeps ignoring it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    previous: Any = signal.signal(signal.SIGINT, _raise_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN if then_ignore else previous)
