"""IME: imitate individual game bots from their match logs and measure how alike two agents are."""

__version__ = "0.1.0"

from ime.numba_cache import configure as _configure_numba_cache  # noqa: E402

NUMBA_CACHE_DIR = _configure_numba_cache()
"""Where numba caches IME's compiled functions (:mod:`ime.numba_cache`: a fresh directory
whenever the compiled code or anything it imports changes)."""
