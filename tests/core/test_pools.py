"""Worker pools end cleanly: a finished block needs no signal, a failed one cannot hang."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
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
