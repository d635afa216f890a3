"""Where numba keeps IME's compiled functions: a directory named after the compiled code's source.

Why: numba's ``cache=True`` checks only the source file of the function it loads. A compiled
function that calls (or reads constants from) another module keeps the old machine code when
only that other module changes, so after a ``git pull`` a kernel can silently run the previous
version of its callee. IME's kernels call across modules (the shedding engine under Doudizhu and
Big-2, the Reversi bitboard under its bots), so :func:`configure` points numba's cache at
``<cache>/ime/numba/<digest>``, where the digest covers every module that uses numba and every
IME module those import: any change to that code starts a fresh cache, and a checkout with the
same code (another clone, CI) reuses the compiled functions.

``NUMBA_CACHE_DIR``, when the user sets it, wins; ``IME_NUMBA_CACHE`` sets the parent directory.

**When.** :func:`install` (called by ``import ime``) configures the cache at once when numba is
loaded already, and otherwise just before numba's first import (:class:`_BeforeNumba`, an
import hook that removes itself). Why not at ``import ime``: the digest reads ~140 source files
(0.09 s), which every process paid, numba or not: the ``snakemake`` process itself, a no-op
rerun, a job that only writes a table (issue 31). numba reads ``NUMBA_CACHE_DIR`` when it is
imported, so every compiled kernel still lands in the chosen directory.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from importlib.abc import MetaPathFinder
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent


def _module_path(root: Path, name: str) -> Path | None:
    """The file of module ``name`` (``pkg.sub.mod``) under ``root`` (the package's parent)."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
                     rb"|import[ \t]+([\w.]+))", re.MULTILINE)
"""An import statement (a regex rather than ``ast``: 40x faster over the 140 files it reads)."""


def _imports(path: Path, root: Path, package: str) -> set[Path]:
    """The files of the ``package`` modules that ``path`` imports (absolute or relative)."""
    here = path.relative_to(root).with_suffix("").parts[:-1]  # the package ``.`` refers to
    out: set[Path] = set()
    for dots, module, names, plain in _IMPORT.findall(path.read_bytes()):
        if plain:
            candidates = [plain.decode()]
        else:
            level = len(dots)
            parent = list(here[:len(here) - level + 1]) if level else []
            base = ".".join([*parent, *([module.decode()] if module else [])])
            listed = re.findall(rb"\w+", names.split(b" as ")[0] if b"(" not in names
                                else names)
            candidates = [base] + [f"{base}.{n.decode()}" for n in listed]
        for name in candidates:
            if name.split(".")[0] != package:
                continue
            found = _module_path(root, name)
            if found is not None:
                out.add(found)
    return out


def source_digest(package_dir: Path = PACKAGE) -> str:
    """A digest of the compiled code's sources: the modules of ``package_dir`` that mention
    numba, and every module of the package they import, transitively (paths and bytes)."""
    root, package = package_dir.parent, package_dir.name
    todo = [p for p in sorted(package_dir.rglob("*.py")) if b"numba" in p.read_bytes()]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imports(path, root, package) - seen)
    h = hashlib.blake2b(digest_size=8)
    for path in sorted(seen):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_dir(package_dir: Path = PACKAGE) -> Path:
    """``$IME_NUMBA_CACHE`` (default ``$XDG_CACHE_HOME/ime/numba`` or ``~/.cache/ime/numba``)
    plus the source digest."""
    parent = os.environ.get("IME_NUMBA_CACHE")
    if not parent:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        parent = str(Path(xdg) / "ime" / "numba")
    return Path(parent) / source_digest(package_dir)


_CHOSEN: list[str] = []
"""The directory the last :func:`configure` call chose in this process (empty until then)."""

AUTO = "IME_NUMBA_CACHE_AUTO"
"""Set beside ``NUMBA_CACHE_DIR`` when IME chose it, so that a child process (a Snakemake job)
chooses again for its own code instead of taking it for the user's setting."""
KEEP_DAYS = 14
"""Other digests' directories unused this long are removed when a new one is made (~25 MB each)."""


def _prune(current: Path) -> None:
    import shutil
    import time

    if current.exists() or not current.parent.is_dir():
        return
    cutoff = time.time() - KEEP_DAYS * 86400
    for old in current.parent.iterdir():
        try:
            if old.is_dir() and old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue


def configure(package_dir: Path = PACKAGE) -> str:
    """Point numba's cache at :func:`cache_dir` unless ``NUMBA_CACHE_DIR`` is set; return the
    directory in use. Works before or after numba is imported (numba reads the setting when a
    cached function is first compiled)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if not chosen or chosen == os.environ.get(AUTO):  # unset, or set by IME (a parent process)
        path = cache_dir(package_dir)
        _prune(path)
        chosen = str(path)
        os.environ["NUMBA_CACHE_DIR"] = os.environ[AUTO] = chosen
    config = getattr(sys.modules.get("numba"), "config", None)
    if config is not None:
        config.CACHE_DIR = chosen
    _CHOSEN[:] = [chosen]  # configured: numba's first import keeps this choice
    return chosen


def configured() -> str:
    """The numba cache directory of this process: the last :func:`configure` call's, else
    :func:`configure` for the ``ime`` package, now (later calls read no sources)."""
    return _CHOSEN[0] if _CHOSEN else configure()


class _BeforeNumba(MetaPathFinder):
    """Configures the cache when ``numba`` is about to be imported unless a :func:`configure`
    call did already; it finds nothing itself, so the import goes on as usual. It stays in
    ``sys.meta_path`` (removing it while the import system walks that list would skip the next
    finder), inert once the cache is configured."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "numba" and not _CHOSEN:
            configure()
        return None


def install() -> None:
    """Configure now if numba is loaded, else just before its first import (module doc)."""
    if "numba" in sys.modules:
        configured()
    elif not any(isinstance(f, _BeforeNumba) for f in sys.meta_path):
        sys.meta_path.insert(0, _BeforeNumba())
