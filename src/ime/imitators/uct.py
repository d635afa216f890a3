"""UCT's root reset, expansion link and selection step (numba), shared by the search
imitators' Monte-Carlo modes (Reversi's :mod:`ime.imitators.reversi_mcts`, Connect Four's
:mod:`ime.imitators.connect4_mcts`).

Both keep their tree in flat arrays: a node's first child ``child[node]`` and its next sibling
``sib[child]`` (``-1`` ends a list), its visits ``N`` and its results ``W`` for the side that
moved into it. Why one function: the UCB1 rule is the textbook's in both, and a decision must
be a pure function of the tree, so the same arithmetic in the same order.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, inline="always")
def reset_root(parent, child, sib, N, W, mv):
    """Node 0 as a fresh root: no parent, children or siblings, no visits, no move into it."""
    parent[0] = -1
    child[0] = -1
    sib[0] = -1
    N[0] = 0.0
    W[0] = 0.0
    mv[0] = -1


@njit(cache=True, inline="always")
def add_child(node, new, parent, child, sib, N, W):
    """Node ``new`` as ``node``'s newest child (first in its list), with no children and no
    visits yet."""
    parent[new] = node
    child[new] = -1
    sib[new] = child[node]
    child[node] = new
    N[new] = 0.0
    W[new] = 0.0


@njit(cache=True, inline="always")
def ucb_child(node, child, sib, N, W, c):
    """The child of ``node`` maximising ``W / N + c * sqrt(2 ln N_node / N)`` (UCB1; the first
    listed wins a tie). Every child must have a visit."""
    lnN = math.log(N[node])
    best = -1
    bestv = -1e300
    ch = child[node]
    while ch != -1:
        u = W[ch] / N[ch] + c * math.sqrt(2.0 * lnN / N[ch])
        if u > bestv:
            bestv = u
            best = ch
        ch = sib[ch]
    return best
