"""numba's cache follows a change in a callee's module (``ime.numba_cache``).

numba checks only the source file of the function it loads from its cache, so a kernel whose
callee lives in another module keeps the callee's old machine code when only that module
changes. IME keys the cache directory by the compiled code's sources and their imports.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ime
from ime import numba_cache
from ime.numba_cache import configure, source_digest

SRC = Path(ime.__file__).resolve().parents[1]

CALLEE = """\
from numba import njit


@njit(cache=True)
def f():
    return {value}
"""
CALLER = """\
from numba import njit

from pkgx.b import f


@njit(cache=True)
def g():
    return f() + 1
"""


def _package(tmp: Path, value: int) -> Path:
    pkg = tmp / "pkgx"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(CALLER)
    (pkg / "b.py").write_text(CALLEE.format(value=value))
    (pkg / "unrelated.py").write_text("X = 1\n")
    return pkg


def _run_g(tmp: Path, pkg: Path) -> tuple[int, str]:
    """``g()`` in a fresh interpreter whose numba cache is :func:`configure`'s for ``pkg``."""
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(tmp)!r})
        from ime.numba_cache import configure
        where = configure(Path({str(pkg)!r}))
        from pkgx.a import g
        print(g(), where)
    """)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "IME_NUMBA_CACHE_AUTO")}
    env["IME_NUMBA_CACHE"] = str(tmp / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=300)
    value, where = out.stdout.split()
    return int(value), where


@pytest.mark.slow
def test_a_changed_callee_module_is_compiled_again(tmp_path: Path) -> None:
    pkg = _package(tmp_path, 1)
    assert _run_g(tmp_path, pkg)[0] == 2
    first, where = _run_g(tmp_path, pkg)  # loaded from the cache
    assert first == 2 and any(Path(where).rglob("*.nbi"))
    (pkg / "b.py").write_text(CALLEE.format(value=10))  # only the callee's module changes
    second, where2 = _run_g(tmp_path, pkg)
    assert second == 11 and where2 != where


def test_the_digest_covers_numba_modules_and_their_imports_only(tmp_path: Path) -> None:
    pkg = _package(tmp_path, 1)
    (pkg / "consts.py").write_text("K = 3\n")
    (pkg / "b.py").write_text(CALLEE.format(value=1) + "from .consts import K\n")
    before = source_digest(pkg)
    (pkg / "unrelated.py").write_text("X = 2\n")  # imported by no numba module
    assert source_digest(pkg) == before
    (pkg / "consts.py").write_text("K = 4\n")  # imported (relatively) by one
    assert source_digest(pkg) != before


def test_numba_cache_dir_set_by_the_user_wins(tmp_path: Path, monkeypatch) -> None:
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    monkeypatch.setattr(numba_cache, "_CHOSEN", list(numba_cache._CHOSEN))  # this process's
    for key in ("NUMBA_CACHE_DIR", "IME_NUMBA_CACHE_AUTO", "IME_NUMBA_CACHE"):
        monkeypatch.setenv(key, os.environ.get(key, ""))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("IME_NUMBA_CACHE_AUTO", "")
    assert configure() == str(tmp_path / "mine") == numba.config.CACHE_DIR
    monkeypatch.setenv("IME_NUMBA_CACHE_AUTO", str(tmp_path / "mine"))  # IME's own choice
    monkeypatch.setenv("IME_NUMBA_CACHE", str(tmp_path / "parent"))
    chosen = configure()
    assert Path(chosen).parent == tmp_path / "parent" and Path(chosen).name == source_digest()


LAZY = """
import os, sys
{before}
import ime
from ime.numba_cache import cache_dir
before = {{"env": os.environ.get("NUMBA_CACHE_DIR"), "numba": "numba" in sys.modules}}
import numpy as np
from ime.games.reversi.bitboard import popcount  # compiled with cache=True
assert popcount(np.uint64(7)) == 3
import numba
print(before["env"], before["numba"], numba.config.CACHE_DIR, ime.NUMBA_CACHE_DIR, cache_dir())
"""


@pytest.mark.parametrize("numba_first", [False, True])
@pytest.mark.slow
def test_the_cache_is_configured_when_numba_is_first_needed(tmp_path: Path,
                                                           numba_first: bool) -> None:
    """``import ime`` digests no sources; numba's first import (or ``import ime`` after numba)
    configures the cache, and a compiled kernel lands in the configured directory."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "IME_NUMBA_CACHE_AUTO")}
    env["IME_NUMBA_CACHE"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    code = LAZY.format(before="import numba" if numba_first else "")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=300)
    env_before, numba_before, numba_dir, ime_dir, expected = out.stdout.split()
    expected_dir = tmp_path / "cache" / source_digest()
    assert expected == str(expected_dir) == numba_dir == ime_dir
    if numba_first:  # configured by ``import ime`` at once
        assert (env_before, numba_before) == (str(expected_dir), "True")
    else:  # nothing digested before numba was needed
        assert (env_before, numba_before) == ("None", "False")
    assert any(p.name.startswith("bitboard.popcount") for p in expected_dir.rglob("*.nbi"))
