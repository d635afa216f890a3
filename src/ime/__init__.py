"""IME: imitate individual game bots from their match logs and measure how alike two agents are."""

from typing import Any

__version__ = "0.1.0"

from ime import numba_cache as _numba_cache  # noqa: E402

_numba_cache.install()  # numba's cache directory, chosen when numba is first imported


def __getattr__(name: str) -> Any:
    """``ime.NUMBA_CACHE_DIR``: where numba caches IME's compiled functions
    (:mod:`ime.numba_cache`: a fresh directory whenever the compiled code or anything it imports
    changes), chosen on first use: reading it configures the cache if numba has not yet."""
    if name == "NUMBA_CACHE_DIR":
        return _numba_cache.configured()
    raise AttributeError(f"module 'ime' has no attribute {name!r}")
