"""Compile a game's numba kernels once, before Snakemake starts the jobs that need them.

Why: numba compiles a kernel in the first process that calls it and caches it on disk
(:mod:`ime.numba_cache`, one directory per version of the code). On a fresh clone, or after a
change to the engine, the first wave of jobs (``snakemake -j8`` starts eight match shards at
once) would each compile the same kernels side by side: about 26 CPU-s each for Reversi's bots
on the 2-core box, so 8 x 26 CPU-s spent on one compilation. The Snakefile's ``onstart`` hook
(which runs only when there are jobs to run, never on a no-op or a dry run) calls
:func:`warm_numba_cache` for the run's game: one process makes every zoo bot decide once
(``ime bench <game> --quick --only bots``), and the jobs then load the compiled code.

A marker file in the cache's directory says the game was warmed for this code, so later runs pay
only a ``stat``. The warm-up changes no result (it only fills the cache), and a failure is logged
and ignored: the jobs then compile as before.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("ime.workflow")

__all__ = ["marker_path", "warm_numba_cache"]


def marker_path(game: str, cache_dir: str | Path | None = None) -> Path:
    """The file that says ``game``'s kernels are in the numba cache of this code."""
    if cache_dir is None:
        import ime

        cache_dir = ime.NUMBA_CACHE_DIR
    return Path(cache_dir) / f".warm-{game}"


def warm_numba_cache(game: str, *, cache_dir: str | Path | None = None,
                     run: Callable[..., Any] = subprocess.run) -> float | None:
    """Compile ``game``'s bots' kernels into the numba cache unless already done; returns the
    seconds it took, or None when nothing was done (warm already, or the warm-up failed)."""
    marker = marker_path(game, cache_dir)
    if marker.exists():
        return None
    cmd = [sys.executable, "-m", "ime", "bench", game, "--quick", "--only", "bots"]
    print(f"[ime] compiling {game}'s numba kernels once for this code (about half a minute), "
          f"before the jobs start: {' '.join(cmd[1:])}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    res = run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if res.returncode != 0:
        tail = (res.stderr or "").strip().splitlines()[-1:] or [""]
        log.warning("numba warm-up for %s failed (rc %s: %s); the jobs compile their kernels "
                    "themselves", game, res.returncode, tail[0])
        return None
    print(f"[ime] {game}'s kernels compiled in {seconds:.0f} s", file=sys.stderr, flush=True)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(f"{' '.join(cmd[1:])}: {seconds:.1f} s\n")
    except OSError as e:  # an unwritable cache: warm again next time, nothing else changes
        log.warning("numba warm-up for %s: cannot write %s (%s)", game, marker, e)
    return seconds
