"""A search imitator's book: the target's logged move at each position it was trained on.

Why: a search family generalises from about 50 fitted weights, so it agrees with a deterministic
target on a position it was trained on no more often than on a new one (Reversi's thesis-scale
rev1: 76.6 % of held-out keys whose position a training fold holds, 72.8 % of the others).
A policy net remembers its training positions; between 60 and 90 % of Reversi's held-out keys
are such positions, which is why CONV's held-out S1 was higher than the search imitators' on
rev1-rev3. The book gives the search family that memory: a position whose exact input (planes
and legal mask) occurs in the fold's training rows is answered with the move the target played
there most often (the lowest square among equally frequent moves), the rest by the search.

It is learned only from the target's logged decisions, as the fit is, and it changes no
figure on unseen positions: those are by definition not in the book
(:func:`ime.datasets.build.seen_states` compares the same position planes), so Table 4.4's
unseen columns measure the search alone while the plain and held-out agreement gain what the
book remembers. ``net.search.book`` switches it (docs/imitators.md, "The book").

The book travels in the checkpoint as two buffers (``book_keys``: a 16-byte digest of each
position's input; ``book_moves``: its move) and its size in the net config (``book``), so a
loaded imitator answers as the fitted one did.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import torch
from torch import nn

DIGEST_BYTES = 16


def input_digest(planes: np.ndarray, mask: np.ndarray) -> list[bytes]:
    """One digest per row of an imitator's input: its planes as float32 and its legal mask as
    0/1 bytes, so the train stage's tensors and a player's (float or bool masks) agree."""
    x = np.ascontiguousarray(np.asarray(planes, dtype=np.float32).reshape(len(planes), -1))
    m = np.ascontiguousarray((np.asarray(mask).reshape(len(mask), -1) > 0).astype(np.uint8))
    return [hashlib.blake2b(a.tobytes() + b.tobytes(), digest_size=DIGEST_BYTES).digest()
            for a, b in zip(x, m, strict=True)]


def book_entries(planes: np.ndarray, mask: np.ndarray, actions: np.ndarray,
                 rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The book of ``rows``: each distinct input's digest (``uint8[n, 16]``, sorted) and the move
    the target played there most often (the lowest among equally frequent ones)."""
    rows = np.asarray(rows, dtype=np.int64)
    if not len(rows):
        return np.zeros((0, DIGEST_BYTES), dtype=np.uint8), np.zeros(0, dtype=np.int64)
    keys = np.frombuffer(b"".join(input_digest(planes[rows], mask[rows])),
                         dtype=np.uint8).reshape(len(rows), DIGEST_BYTES)
    acts = np.asarray(actions, dtype=np.int64)[rows]
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.ravel()
    pairs, counts = np.unique(np.stack([inv, acts], axis=1), axis=0, return_counts=True)
    # per input: the most frequent move, then the lowest square (pairs are sorted by move)
    order = np.lexsort((pairs[:, 1], -counts, pairs[:, 0]))
    first = np.unique(pairs[order, 0], return_index=True)[1]
    moves = pairs[order[first], 1]
    return uniq.astype(np.uint8), moves.astype(np.int64)


class Book:
    """Lookup of a module's book buffers (rebuilt when a state dict is loaded into it)."""

    def __init__(self, keys: torch.Tensor, moves: torch.Tensor) -> None:
        k = keys.detach().cpu().numpy()
        self.moves = {bytes(row): int(m) for row, m in zip(k, moves.detach().cpu().numpy(),
                                                             strict=True)}

    def __len__(self) -> int:
        return len(self.moves)

    def get(self, digest: bytes) -> int | None:
        return self.moves.get(digest)


def _register(module: nn.Module, keys: torch.Tensor, moves: torch.Tensor) -> None:
    module.register_buffer("book_keys", keys)
    module.register_buffer("book_moves", moves)
    module.config["book"] = int(len(moves))  # type: ignore[index]
    module.memo.book = Book(keys, moves)  # type: ignore[union-attr]


def attach_book(module: nn.Module, planes: np.ndarray, mask: np.ndarray, actions: np.ndarray,
                rows: np.ndarray) -> int:
    """Give a fitted search module the book of its training ``rows``; the entries' count."""
    keys, moves = book_entries(planes, mask, actions, rows)
    _register(module, torch.as_tensor(keys), torch.as_tensor(moves))
    return len(moves)


def prepare_book(module: nn.Module, config: dict[str, Any]) -> None:
    """Make a module built from a saved config ready for its checkpoint's book buffers (the
    config's ``book`` entries), which a state-dict load then fills and turns into a lookup."""
    n = int(config.get("book") or 0)
    if not n:
        return
    _register(module, torch.zeros((n, DIGEST_BYTES), dtype=torch.uint8),
              torch.zeros(n, dtype=torch.int64))

    def reload(mod: nn.Module, _incompatible: Any) -> None:
        mod.memo.book = Book(mod.book_keys, mod.book_moves)  # type: ignore[union-attr]

    module.register_load_state_dict_post_hook(reload)
