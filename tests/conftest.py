"""Opt-in tests: ``python3 -m pytest -q`` installs nothing and starts no daemon.

A test marked ``slurm`` (``tests/workflow/test_slurm.py``: it apt-installs SLURM, MariaDB and
munge and starts their daemons) runs only when the ``-m`` expression asks for it, e.g.
``python3 -m pytest -q -m slurm``; otherwise it is skipped with the reason.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# The composition cache (ime.workflow.compose_cache) writes to the user's cache by default; the
# tests (and the Snakemake runs they start, which inherit the environment) use a throw-away one, so
# the test command leaves nothing behind in ~/.cache. The process that makes it (pytest's main
# process; xdist's workers inherit the variable) removes it at exit, so nothing is left in /tmp
# either (tests/test_conftest_cleanup.py).
if "IME_COMPOSE_CACHE" not in os.environ:
    _COMPOSE_CACHE = tempfile.mkdtemp(prefix="ime-compose-tests-")
    os.environ["IME_COMPOSE_CACHE"] = _COMPOSE_CACHE
    atexit.register(shutil.rmtree, _COMPOSE_CACHE, ignore_errors=True)

OPT_IN = ("slurm",)


def asks_for(markexpr: str, marker: str) -> bool:
    """True when ``-m markexpr`` selects ``marker`` by naming it: the expression holds for an
    item with only that marker and not for an item with none (``-m slurm``, ``-m "slurm or
    slow"``; not ``-m slow`` nor ``-m "not gpu"``)."""
    if not markexpr.strip():
        return False
    from _pytest.mark.expression import Expression

    expr = Expression.compile(markexpr)
    return (expr.evaluate(lambda name, **_: name == marker)
            and not expr.evaluate(lambda name, **_: False))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    markexpr = config.getoption("markexpr", "") or ""
    for marker in OPT_IN:
        if asks_for(markexpr, marker):
            continue
        skip = pytest.mark.skip(reason=f"opt-in: run with -m {marker}")
        for item in items:
            if item.get_closest_marker(marker) is not None:
                item.add_marker(skip)


# With pytest-xdist the summary line never says how many tests `-m` left out ("deselected" is
# counted in the workers), so a subset that selects more or fewer tests than a reader expects
# goes unnoticed (issue 45: `-m "not slow"` had grown from 1,617 to 2,198 tests). The controller
# hears each worker's collected ids; the summary then names the expression and the count.
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids) -> None:  # noqa: ANN001 (xdist's types)
    node.config._ime_selected = len(ids)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:  # noqa: ANN001
    markexpr = config.getoption("markexpr", "") or ""
    selected = getattr(config, "_ime_selected", None)
    if markexpr and selected is not None:
        terminalreporter.write_line(
            f'-m "{markexpr}" selected {selected} tests (the fast subset, -m "not slow", and its '
            "measured count and time: docs/development.md#running-the-tests)")
