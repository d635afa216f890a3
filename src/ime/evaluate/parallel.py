"""Ordered parallel map with early stop, shared by key mining, scoring and tournaments.

Forks and tournament games are independent, CPU-bound and seconds long, so a process pool with
``imap`` (results come back in task order) keeps every output independent of the number of
workers: the caller consumes results in order and may stop early (``should_stop``), and whatever
was computed beyond that point is discarded, never used.

Workers are forked (not spawned): the context (``setup()``: the game, the loaded matches, the
bots, with torch and numba already imported and compiled) is built *once in the parent* and every
worker inherits a copy, instead of each worker re-importing torch (seconds) and re-loading numba's
cache. Where fork is unavailable, each spawned worker calls ``setup()`` itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ime.core.pools import fork_or_spawn, process_pool

T = TypeVar("T")
R = TypeVar("R")

_STATE: dict[str, Any] = {}


def _init(setup: Callable[[], Any] | None) -> None:
    # One torch thread per worker (the pool is the parallelism). Only if torch is already loaded:
    # importing it costs seconds per worker and most forks never touch a net.
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    if setup is not None:  # spawned worker: build the context here
        _STATE["ctx"] = setup()


def _call(args: tuple[Callable[[Any, Any], Any], Any]) -> Any:
    fn, task = args
    return fn(_STATE["ctx"], task)


def ordered_map(
    fn: Callable[[Any, T], R],
    tasks: Sequence[T] | Iterable[T],
    setup: Callable[[], Any],
    *,
    workers: int = 1,
    chunksize: int = 1,
) -> Iterator[R]:
    """Yield ``fn(ctx, task)`` for every task, in task order; ``ctx = setup()`` once per worker.

    ``workers <= 1`` runs in this process (no pool): the path unit tests and debuggers take.
    Closing the generator early terminates the pool (:func:`ime.core.pools.process_pool`).
    """
    if workers <= 1:
        ctx = setup()
        for t in tasks:
            yield fn(ctx, t)
        return
    ctx = fork_or_spawn()
    if ctx.get_start_method() == "fork":
        _STATE["ctx"] = setup()  # inherited by every forked worker
        init_arg: Callable[[], Any] | None = None
    else:  # pragma: no cover - Windows / macOS spawn
        init_arg = setup
    try:
        with process_pool(ctx, workers, _init, (init_arg,)) as pool:
            yield from pool.imap(_call, ((fn, t) for t in tasks), chunksize=chunksize)
    finally:
        _STATE.pop("ctx", None)


def default_workers(requested: int | None) -> int:
    """``None``/``0`` -> every core; otherwise the request (at least 1)."""
    if not requested:
        return os.cpu_count() or 1
    return max(1, int(requested))
