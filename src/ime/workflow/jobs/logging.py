"""One logging set-up for every Snakemake job (as pypsa-eur's ``configure_logging``).

A job's stdout and stderr go to the rule's ``log:`` file at the file-descriptor level, so that
numba's, torch's and worker processes' messages land there too, and ``logging`` writes one
timestamped line per step. Progress bars refresh every 5 s in a log file, not ten times a second
(tqdm reads ``TQDM_MININTERVAL`` when it is imported, so this module sets it on import, before any
job module imports tqdm).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ime.core.interrupt import Interrupted

if not sys.stderr.isatty():
    os.environ.setdefault("TQDM_MININTERVAL", "5")

FORMAT = "%(asctime)s %(name)s: %(message)s"


def log_path(smk: Any) -> str | None:
    """The job's ``log:`` file (None when the rule has none)."""
    return str(smk.log[0]) if len(smk.log) else None


@contextlib.contextmanager
def job_logging(smk: Any) -> Iterator[None]:
    """Run the body with fds 1 and 2 and ``logging`` sent to the job's log file (appending).

    ``smk`` is the ``snakemake`` object of a script job (or a log path, or None: log to the
    terminal). A failure is logged with its traceback before it propagates; a Ctrl-C
    (:class:`ime.core.interrupt.Interrupted`) as one line.
    """
    path = smk if isinstance(smk, str | type(None)) else log_path(smk)
    if not path:
        logging.basicConfig(level=logging.INFO, format=FORMAT)
        yield
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(path, "a", encoding="utf-8") as fh:
        os.dup2(fh.fileno(), 1)
        os.dup2(fh.fileno(), 2)
        root = logging.getLogger()
        handler = logging.StreamHandler(fh)
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        try:
            yield
        except Interrupted:  # Ctrl-C (ime.core.interrupt): no failure of the job's
            logging.getLogger("ime.workflow").info("interrupted (Ctrl-C)")
            raise
        except BaseException:
            logging.getLogger("ime.workflow").exception("job failed")
            raise
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            root.removeHandler(handler)
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def write_csv(df: Any, path: str, *, float_format: str | None = None, echo: bool = False) -> None:
    """Write a result table (parent folders made); ``echo`` also logs it."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if float_format is None:
        df.to_csv(path, index=False, lineterminator="\n")
    else:
        df.to_csv(path, index=False, float_format=float_format)
    if echo:
        logging.getLogger("ime.workflow").info("wrote %s (%d rows)\n%s", path, len(df),
                                               df.to_string(index=False))
