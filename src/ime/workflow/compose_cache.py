"""The composition cache: each validated composition kept on disk, keyed by what it is a pure
function of (the config directory's files, the overrides, the code that composes and validates).

Why a module of its own: :mod:`ime.workflow.compose` makes a composition; this module says where
one is kept, under which key, and whether a stored entry is still exact. Composing every game's
plans takes Hydra 5-12 s (21 compositions for the default run), which every ``snakemake`` call, a
no-op included, paid while parsing the Snakefile. Failures are never stored, so a bad override
raises the same error every time; ``IME_COMPOSE_CACHE=0`` turns the cache off. The plug-in facts
(:mod:`ime.workflow.plugins`) are kept beside it, under the same code digest.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

HYDRA_ARGS: dict[str, Any] = {"config_name": "config", "version_base": "1.3",
                              "return_hydra_config": True}
"""How :func:`_hydra` calls Hydra (part of the cache key: another call composes differently)."""

CACHE_ENV = "IME_COMPOSE_CACHE"
"""``0``/``off``/``false``/``no``: no cache; a path: the cache's directory; unset (or empty):
``$XDG_CACHE_HOME/ime/compose`` (``~/.cache/ime/compose``), beside numba's ``ime/numba``."""
CACHE_FORMAT = 1
"""Bumped when an entry's layout changes (part of the key, so old entries are never read)."""
CACHE_MAX_ENTRIES = 2048
"""Entries kept (the least recently used go first); one is 5-20 KB, a run of every game ~21,
the docs' dry runs 353, the whole test suite more than 512."""
_OFF = {"0", "off", "false", "no"}


def cache_dir() -> Path | None:
    """Where composed configs are cached, or None when ``IME_COMPOSE_CACHE`` turns it off.

    Why the user's cache directory and not ``.snakemake/`` of the working directory: compose is
    called from Snakemake, the ``ime`` command and the tests, from any directory, and what it
    caches does not depend on where it runs; the run's own directories stay as Snakemake
    leaves them, and a new checkout or a copied run reuses what another composed.
    """
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in _OFF:
        return None
    if value:
        return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "ime" / "compose"


def _file_version(module: str, relpath: str) -> str:
    """``__version__`` as written in ``module``'s file ``relpath``, read without importing it
    (importing Hydra costs 0.1 s, which a cache hit should not pay)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return "absent"
    text = (Path(spec.origin).parent / relpath).read_text(encoding="utf-8")
    m = re.search(r"^__version__\s*=\s*[\"']([^\"']+)", text, re.MULTILINE)
    return m.group(1) if m else "unknown"


def _dist_version(name: str) -> str:
    """An installed distribution's version from its metadata: importing OmegaConf and pydantic
    for their ``__version__`` cost a cache hit 0.1 s."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


@cache
def code_digest() -> str:
    """A digest of the code a composition depends on: every ``.py`` file of the ``ime`` package
    (paths and bytes: compose, the schemas, the games' plug-ins that validation builds; ime's
    version string alone does not change when that code does), the versions of Python, Hydra,
    OmegaConf, PyYAML and pydantic, and the arguments Hydra is called with. Computed once per
    process (the code a process runs is the code it loaded)."""
    import yaml

    import ime

    h = hashlib.blake2b(digest_size=16)
    package = Path(ime.__file__).resolve().parent
    for rel, path in _files_below(package, ".py"):
        _add(h, rel.encode())
        _add(h, path.read_bytes())
    versions = {"python": sys.version, "ime": ime.__version__,
                "hydra": _file_version("hydra", "__init__.py"),
                "omegaconf": _dist_version("omegaconf"), "yaml": yaml.__version__,
                "pydantic": _dist_version("pydantic"),
                "pydantic_core": _dist_version("pydantic_core"),
                "hydra_args": HYDRA_ARGS, "format": CACHE_FORMAT}
    _add(h, json.dumps(versions, sort_keys=True).encode())
    return h.hexdigest()


def _add(h: Any, data: bytes) -> None:
    """Feed ``data`` with its length, so that no two sequences of parts hash alike."""
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)


def cache_key(cdir: str | Path, overrides: Sequence[str]) -> str:
    """The digest a composition is cached under: the config directory's files (every file
    below it, hidden ones included: relative path and bytes), the overrides in order, and
    :func:`code_digest`. Any changed, added or removed file, or another override, is another
    key; the file contents are read every call (37 files, ~2 ms), never trusted to mtimes,
    except within one :func:`config_snapshot` (one setup of the workflow), which reads them
    once. Not the directory's path: a composition holds no path of it (tested), so a copy of
    the workflow or a new checkout reuses what another composed (the tests' copied workflows
    composed every config again: about 4 CPU-s a ``snakemake`` start on 2 cores)."""
    cdir = Path(cdir).resolve()
    h = hashlib.blake2b(digest_size=20)
    _add(h, code_digest().encode())
    _add(h, json.dumps(list(overrides)).encode())
    _add(h, snapshot_memo("config files", str(cdir), lambda: _dir_digest(cdir)))
    return h.hexdigest()


def _dir_digest(cdir: Path) -> bytes:
    """A digest of every file below ``cdir`` (hidden ones included): relative path and bytes."""
    h = hashlib.blake2b(digest_size=20)
    for rel, path in _files_below(cdir):
        _add(h, rel.encode())
        _add(h, path.read_bytes())
    return h.digest()


def _files_below(top: Path, suffix: str = "") -> list[tuple[str, Path]]:
    """``(relative posix path, path)`` of every file below ``top`` whose name ends with
    ``suffix``, hidden ones included, in the order of their path parts (as sorting ``Path``
    objects gives). ``os.walk`` rather than ``Path.rglob``: a fifth of the CPU, which every
    workflow setup pays for 270 source files (issue 31); like ``rglob``, it does not descend
    into symlinked directories."""
    out = []
    for where, dirs, names in os.walk(top):
        dirs.sort()
        rel_dir = os.path.relpath(where, top)
        parts = () if rel_dir == "." else tuple(rel_dir.split(os.sep))
        for name in names:
            path = os.path.join(where, name)
            if name.endswith(suffix) and os.path.isfile(path):
                out.append(((*parts, name), Path(path)))
    out.sort(key=lambda item: item[0])
    return [("/".join(parts), path) for parts, path in out]


_SNAPSHOT: dict[tuple[str, str], Any] | None = None
"""Facts of the config directories read once in the current :func:`config_snapshot`."""


@contextmanager
def config_snapshot() -> Iterator[None]:
    """Within it, the config directory's files are read once (for :func:`cache_key` and the
    variants' memo): one setup of the workflow composes 13 configs and made 13 digests of the
    same 37 files, and listed them 24 times more (issue 31). A setup is one moment: a file
    changed while it runs is read by the next setup (Snakemake's next call), as before."""
    global _SNAPSHOT
    outer = _SNAPSHOT
    if outer is None:
        _SNAPSHOT = {}
    try:
        yield
    finally:
        if outer is None:
            _SNAPSHOT = None


def config_stamp(cdir: str) -> tuple:
    """The config files' mtimes (the in-process memos' key); listed once per
    :func:`config_snapshot`."""
    return snapshot_memo("stamp", cdir, lambda: tuple(sorted(
        (str(p), p.stat().st_mtime_ns) for p in Path(cdir).rglob("*.yaml"))))


def snapshot_memo(kind: str, cdir: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, once per ``(kind, cdir)`` within a :func:`config_snapshot` (every call
    outside one)."""
    if _SNAPSHOT is None:
        return compute()
    key = (kind, cdir)
    if key not in _SNAPSHOT:
        _SNAPSHOT[key] = compute()
    return _SNAPSHOT[key]


def read_entry(path: Path) -> dict[str, Any] | None:
    """The cache entry at ``path`` (``config``: the container, ``plain``: its resolved values
    or None), or None: absent, unreadable, or not an entry of this format."""
    return read_cached_json(path, lambda e: e.get("format") == CACHE_FORMAT
                            and isinstance(e.get("config"), dict))


def read_cached_json(path: Path, accept: Callable[[dict[str, Any]], bool]
                     ) -> dict[str, Any] | None:
    """The JSON object at ``path`` if ``accept`` takes it, touched (recently used: kept by the
    pruning, which drops the least recently used); None when absent, unreadable, not an object
    or not accepted. The composition cache's and the plug-in facts' (:mod:`ime.workflow.plugins`)
    reads."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or not accept(entry):
        return None
    try:
        os.utime(path)
    except OSError:
        pass
    return entry


_SELF_REFERENCE = re.compile(r"\$\{[\w.\[\]-]*\}")
"""An interpolation of another key of the config (``${seed}``, ``${game.name}``): resolving it
needs nothing but the config, so its resolved value can be stored."""


def _self_contained(node: Any) -> bool:
    """Whether every interpolation in ``node`` refers to the config's own keys (no resolver,
    no escaped or nested interpolation)."""
    if isinstance(node, dict):
        return all(_self_contained(v) for v in node.values())
    if isinstance(node, list):
        return all(_self_contained(v) for v in node)
    if isinstance(node, str) and ("$" in node or "\\" in node):
        return "\\" not in node and "$" not in _SELF_REFERENCE.sub("", node)
    return True


def write_entry(path: Path, overrides: list[str], container: dict[str, Any],
                resolve: Callable[[], dict[str, Any]]) -> None:
    """Store a composition's ``container`` with its interpolations (so a resolver such as
    ``oc.env`` still resolves when the entry is used) and, when the container is self-contained
    (:func:`_self_contained`), its resolved values (``resolve()``, called only then);
    atomically, and only when JSON holds both exactly (no non-string key, NaN or object). A
    cache that cannot be written (a read-only home) is skipped."""
    plain = resolve() if _self_contained(container) else None
    try:
        text = json.dumps({"format": CACHE_FORMAT, "overrides": overrides, "config": container,
                           "plain": plain}, allow_nan=False)
    except (TypeError, ValueError):
        return
    back = json.loads(text)
    if not (same_values(back["config"], container) and same_values(back["plain"], plain)):
        return
    from ime.matches.rawlog import atomic_write_text

    try:
        atomic_write_text(path, text)
        prune(path.parent, CACHE_MAX_ENTRIES)
    except OSError:
        return


def same_values(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (``==`` alone takes 1 for 1.0 and True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_values(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def prune(where: Path, keep: int) -> None:
    """Keep the ``keep`` most recently used ``*.json`` entries of ``where`` (a hit touches its
    file: :func:`read_cached_json`); the composition cache's and the plug-in facts'."""
    entries = list(where.glob("*.json"))
    if len(entries) <= keep:
        return
    for old in sorted(entries, key=_mtime)[:len(entries) - keep]:
        old.unlink(missing_ok=True)


def _mtime(path: Path) -> int:
    """``path``'s modification time (0 when another process removed it meanwhile)."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
