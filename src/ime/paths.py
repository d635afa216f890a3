"""Where the project's files live, so that no module hard-codes a path.

``config_dir()`` is resolved in this order: the ``IME_CONFIG_DIR`` environment variable (tests and
deployments point it elsewhere), the ``config`` folder of the repository this package was
installed from in editable mode (``src/ime/__init__.py`` -> three levels up), else ``./config``.
"""

from __future__ import annotations

import os
from pathlib import Path

import ime


def repo_root() -> Path:
    """The repository root of an editable (src layout) install."""
    return Path(ime.__file__).resolve().parents[2]


def config_dir() -> Path:
    """The folder holding ``bots/<game>.yaml`` and the other configuration files."""
    env = os.environ.get("IME_CONFIG_DIR")
    if env:
        return Path(env)
    candidate = repo_root() / "config"
    if candidate.is_dir():
        return candidate
    return Path.cwd() / "config"
