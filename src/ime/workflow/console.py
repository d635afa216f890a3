"""What the Snakefile says on the terminal when a run cannot start or is stopped.

**The wrong directory.** Snakemake writes ``data/``, ``results/``, ``logs/`` and ``.snakemake/``
into its working directory, which is wherever it was started: ``snakemake -s ../Snakefile`` from
``results/`` planned all 148 jobs into ``results/data/`` without a word. :func:`check_directory`
stops such a run before anything is planned, names the command to type (``cd <root> &&
snakemake ...``) and removes the log file Snakemake has already opened there. A working
directory chosen on purpose with ``-d``/``--directory`` (the tests' throw-away copies, a run
kept elsewhere) is left alone, as are the job processes Snakemake spawns (cluster jobs).

**Ctrl-C.** A terminal sends SIGINT to ``snakemake`` and its jobs alike. Snakemake stops
scheduling, waits for the jobs (which end on the same SIGINT: :mod:`ime.core.interrupt`) and
removes their incomplete outputs; what it prints meanwhile is a block per stopped job
("RuleException: CalledProcessError ... died with <Signals.SIGINT: 2>", "Error in rule ...") and
"At least one job did not complete successfully", which reads as a failure. :func:`on_interrupt`
lets Snakemake do all of that unchanged and only mutes its terminal output from the first
Ctrl-C on (its log file under ``.snakemake/log`` keeps every line); at exit one line says what
happened and what to type next.
"""

from __future__ import annotations

import atexit
import logging
import os
import shlex
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from ime.workflow.errors import ConfigExit, wrap

SNAKEMAKE_LOGGER = "snakemake.logging"
"""The logger every Snakemake message goes through (``snakemake.logging.logger``)."""

INTERRUPTED = ("Interrupted: nothing is lost (finished jobs keep their files; Snakemake removed "
               "the unfinished jobs' partial files). Rerun the same command to continue.")
INTERRUPTED_INCOMPLETE = ("Interrupted: finished jobs keep their files, but some stopped jobs "
                          "left files marked incomplete. Rerun the same command with "
                          "--rerun-incomplete to continue.")


def snakemake_args(argv: Sequence[str]) -> list[str] | None:
    """The user's ``snakemake`` arguments without ``-s``/``--snakefile`` (from the repository's
    root the default Snakefile is the one), or None when ``argv`` is no snakemake command line
    (Snakemake run through its API from another program)."""
    if not argv or Path(argv[0]).name not in ("snakemake", "__main__.py"):
        return None
    out: list[str] = []
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
        elif arg in ("-s", "--snakefile"):
            skip = True
        elif not arg.startswith("--snakefile=") and not (arg.startswith("-s") and
                                                           not arg.startswith("--")
                                                           and len(arg) > 2):
            out.append(arg)
    return out


def wrong_directory_message(cwd: str | Path, root: str | Path,
                            argv: Sequence[str] | None = None) -> str | None:
    """Why Snakemake must not run in ``cwd`` with the Snakefile of ``root``, naming the command
    to type instead; None when ``cwd`` is ``root``."""
    cwd, root = Path(os.path.realpath(cwd)), Path(os.path.realpath(root))
    if cwd == root:
        return None
    args = snakemake_args(sys.argv if argv is None else argv)
    cmd = shlex.join(["snakemake", *args]) if args is not None else "snakemake ..."
    return (f"IME: run snakemake from the repository's root, {root}, not from {cwd}: "
            "Snakemake writes data/, results/, logs/ and .snakemake/ into the folder it starts "
            f"in, and nothing was planned or written here. Type:\n    cd {shlex.quote(str(root))}"
            f" && {cmd}\n(to keep a run's files in another folder on purpose, name it with "
            "--directory DIR)")


def check_directory(workflow: Any) -> None:
    """Stop (:class:`ConfigExit`) a Snakemake run whose working directory is not the
    Snakefile's folder and was not chosen with ``-d``/``--directory`` (the module doc)."""
    if not workflow.is_main_process or workflow.overwrite_workdir is not None:
        return
    message = wrong_directory_message(os.getcwd(), workflow.basedir)
    if message is None:
        return
    _remove_own_log(workflow, Path.cwd())
    raise ConfigExit(message)


def _remove_own_log(workflow: Any, cwd: Path) -> None:
    """Remove the log file this Snakemake run opened under ``cwd/.snakemake/log`` (a run that
    is not a dry run opens it before reading the Snakefile), and the folders it made if they
    are empty now: the wrong directory is left as it was."""
    manager = getattr(workflow, "logger_manager", None)
    logs = manager.get_logfile() if manager is not None else []
    for log in logs:
        path = Path(log)
        if path.parent != cwd / ".snakemake" / "log":
            continue
        try:
            path.unlink()
            path.parent.rmdir()
            path.parent.parent.rmdir()
        except OSError:
            pass  # a folder that holds more than this run's log was there before: kept


def mute_terminal(logger_name: str = SNAKEMAKE_LOGGER) -> None:
    """Drop every later record of ``logger_name`` on the terminal; its file handlers (the run's
    ``.snakemake/log``) keep writing."""
    for handler in logging.getLogger(logger_name).handlers:
        if isinstance(handler, logging.StreamHandler) and \
                not isinstance(handler, logging.FileHandler):
            handler.addFilter(lambda record: False)


def interrupted_line(workdir: str | Path) -> str:
    """The one line printed after a Ctrl-C: :data:`INTERRUPTED`, or
    :data:`INTERRUPTED_INCOMPLETE` when ``workdir/.snakemake/incomplete`` still marks files
    (a second Ctrl-C can stop Snakemake before it cleans up; its next run then refuses them
    without ``--rerun-incomplete``)."""
    marks = Path(workdir) / ".snakemake" / "incomplete"
    left = marks.is_dir() and any(p.is_file() for p in marks.rglob("*"))
    return INTERRUPTED_INCOMPLETE if left else INTERRUPTED


_INTERRUPTS: list[int] = []
"""The SIGINTs this process has had (:func:`on_interrupt`'s handler appends)."""


def on_interrupt(workflow: Any) -> None:
    """From the first Ctrl-C on, mute Snakemake's terminal output and print
    :func:`interrupted_line` at exit; Snakemake still gets its ``KeyboardInterrupt`` (the
    module doc). Only in the main Snakemake process, on the main thread, and where SIGINT has
    Python's default handler (not ignored, not taken by another handler)."""
    if not workflow.is_main_process or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    workdir = Path.cwd()

    def handler(signum: int, frame: FrameType | None) -> None:
        if not _INTERRUPTS:
            mute_terminal()
            _quiet_excepthook()
            atexit.register(lambda: print(wrap(interrupted_line(workdir)), file=sys.stderr))
        _INTERRUPTS.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)


def _quiet_excepthook() -> None:
    """A ``KeyboardInterrupt`` that leaves Snakemake uncaught (one raised in an ``onstart``
    hook, such as the numba warm-up, passes Snakemake's ``except Exception``) ends the process
    without Python's traceback; Python still exits as killed by SIGINT."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        if not issubclass(kind, KeyboardInterrupt):
            previous(kind, value, tb)

    sys.excepthook = hook


def finish_interrupted(workflow: Any) -> None:
    """In the Snakefile's ``onerror`` hook: after a Ctrl-C, do for the stopped jobs what
    Snakemake does for any failed job and skips on an interrupt.

    Snakemake 9 leaves its scheduling loop on the ``KeyboardInterrupt`` and waits for the jobs,
    but never handles their ends: a stopped job's partial outputs stay, marked incomplete under
    ``.snakemake/incomplete``, and a job that finished meanwhile keeps its mark too, so that the
    same command then stops with ``IncompleteFilesException`` (seen on a tiny run stopped during
    its tournament). Handling the ends it queued (the scheduler's ``_finish_jobs`` and
    ``_error_jobs``, as its loop would have) removes the partial files and the marks and records
    the finished jobs. Those are Snakemake's private methods: if they change, nothing is done
    here and the exit line says to rerun with ``--rerun-incomplete`` (:func:`interrupted_line`).
    """
    if not _INTERRUPTS:
        return
    scheduler = getattr(workflow, "_scheduler", None)
    try:
        with scheduler._lock:
            scheduler._finish_jobs()
            scheduler._error_jobs()
    except Exception as e:  # noqa: BLE001 - the exit line reports what is left
        logging.getLogger(SNAKEMAKE_LOGGER).debug(f"IME: interrupted jobs not cleaned up: {e!r}")
