"""Stable seeds derived from names, so that every random draw can be keyed by what it is for."""

from __future__ import annotations

import hashlib
from typing import Any


def derive_seed(*parts: Any) -> int:
    """A stable 63-bit seed from any printable parts (same on every platform and Python)."""
    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "little") >> 1
