"""The kicker-set walk of the compiled move generators (numba): every set of ``k`` distinct
candidates out of ``m``, as ascending indices, in lexicographic order. Both games' generators
attach kickers this way (Big-2's ``_emit_kickers``, Doudizhu's ``_with_kickers``); the
candidates, and what a kicker adds, stay theirs.

Use::

    idx = first_combination(k)
    while True:
        ...  # emit the play with candidates idx[0] .. idx[k - 1]
        if not next_combination(idx, m):
            break
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def first_combination(k):
    """``int64[k]``: the indices ``0 .. k - 1`` (the lexicographically first set)."""
    idx = np.empty(k, np.int64)
    for i in range(k):
        idx[i] = i
    return idx


@njit(cache=True)
def next_combination(idx, m):
    """Advance ``idx`` (ascending indices into ``m`` candidates) to the next set in
    lexicographic order, in place; ``False`` (``idx`` unchanged) after the last one."""
    k = idx.shape[0]
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


__all__ = ["first_combination", "next_combination"]
