"""Worker pools end cleanly: a finished block needs no signal, a failed one cannot hang."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time

import pytest

from ime.core.pools import process_pool

FORK = mp.get_context("fork")


def _square(x: int) -> int:
    return x * x


def _stuck(_: int) -> None:
    time.sleep(600)


def _deaf() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a worker that misses its SIGTERM


@pytest.mark.skipif(os.name != "posix", reason="fork start method")
def test_a_finished_pool_is_closed_and_its_workers_exit_by_themselves() -> None:
    with process_pool(FORK, 2, _deaf) as pool:
        workers = list(pool._pool)
        assert list(pool.imap(_square, range(20))) == [x * x for x in range(20)]
    # SIGTERM is ignored in these workers: they can only have left on their sentinel
    assert [w.exitcode for w in workers] == [0, 0]


@pytest.mark.skipif(os.name != "posix", reason="fork start method")
def test_a_failed_block_kills_workers_that_ignore_sigterm() -> None:
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="boom"):
        with process_pool(FORK, 2, _deaf, grace=0.5) as pool:
            workers = list(pool._pool)
            assert pool.apply(_square, (3,)) == 9
            for i in range(2):
                pool.apply_async(_stuck, (i,))  # both workers busy, deaf to SIGTERM
            time.sleep(0.5)
            raise RuntimeError("boom")
    assert time.monotonic() - t0 < 30
    assert [w.exitcode for w in workers] == [-signal.SIGKILL, -signal.SIGKILL]


def _blocks_sigint(status: str) -> bool:
    """Whether a /proc ``status`` text's ``SigBlk`` mask holds SIGINT."""
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:"))
    return bool(int(mask, 16) >> (signal.SIGINT - 1) & 1)


def _threads_blocking_sigint() -> dict[int, bool]:
    """This process's threads (by id) and whether each blocks SIGINT."""
    out = {}
    for task in os.scandir("/proc/self/task"):
        try:
            out[int(task.name)] = _blocks_sigint(open(f"{task.path}/status").read())
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return out


def _worker_blocks_sigint(_: int) -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux /proc")
def test_ctrl_c_can_only_land_on_the_callers_thread_and_the_workers() -> None:
    caller = threading.get_native_id()
    before = _threads_blocking_sigint()
    assert not before[caller]
    with process_pool(FORK, 2) as pool:
        during = _threads_blocking_sigint()
        helpers = {tid: blocked for tid, blocked in during.items() if tid not in before}
        # a Pool's three helper threads: a SIGINT landing on one would not wake the caller
        assert len(helpers) >= 3 and all(helpers.values()), helpers
        assert not during[caller]  # the caller still takes Ctrl-C
        # the workers restored the caller's mask: they still end on Ctrl-C themselves
        assert pool.map(_worker_blocks_sigint, range(4)) == [False] * 4
