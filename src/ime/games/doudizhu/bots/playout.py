"""Compiled determinized rollouts for ``ddz_mc`` (:mod:`.pimc`).

:func:`evaluate` deals the cards a seat has not seen into the two hidden hands (``n_det``
determinizations, each consistent with the hand sizes and with the public cards the landlord
still holds), and for every candidate play of the seat, in every determinization, plays the game
to its end with the default policy :func:`policy`; it returns each candidate's share of games won
by the seat's side. The same determinizations serve every candidate (common random numbers), so
candidates are compared on equal deals. numba's generator is seeded once per call from the
decision's seed: a decision is a pure function of (seat's knowledge, seed).

Default policy (rank level, with probability ``epsilon`` a uniformly random legal move instead):
a play that empties the hand if there is one; leading, the lowest main rank in the shape with
the most cards (bombs last); following the teammate, pass; following an opponent, the smallest
same-type beat, else the smallest bomb / the rocket when that opponent holds ``bomb_at`` cards or
fewer, else pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.games.doudizhu.movegen import LEAD, generate

CAPACITY = 4096
BOMB, ROCKET = 16, 17


@njit(cache=True)
def _ids():
    ids = np.full((15, 4), -1, np.int64)
    for r in range(13):
        for j in range(4):
            ids[r, j] = 4 * r + j
    ids[13, 0] = 52
    ids[14, 0] = 53
    return ids


@njit(cache=True)
def policy(h, p, lead, kind, rank, chain, last_player, ids, meta, counts, cards, epsilon,
           bomb_at):
    """Row of ``meta``/``counts`` the default policy plays for seat ``p``, or -1 to pass."""
    if lead:
        n = generate(h[p], ids, LEAD, -1, 0, meta, counts, cards)
    else:
        n = generate(h[p], ids, kind, rank, chain, meta, counts, cards)
    n = min(n, meta.shape[0])
    if epsilon > 0.0 and np.random.random() < epsilon:
        j = np.random.randint(0, n + (0 if lead else 1))
        return j if j < n else -1
    total = 0
    for r in range(15):
        total += h[p, r]
    for j in range(n):
        if meta[j, 3] == total:
            return j
    if lead:
        best = -1
        for j in range(n):
            if best < 0:
                best = j
                continue
            bj = meta[j, 0] >= BOMB
            bb = meta[best, 0] >= BOMB
            if bj != bb:
                if bb:
                    best = j
                continue
            if meta[j, 1] < meta[best, 1] or (meta[j, 1] == meta[best, 1]
                                              and meta[j, 3] > meta[best, 3]):
                best = j
        return best
    if p != 0 and last_player != 0:
        return -1
    if kind < BOMB:
        for j in range(n):
            if meta[j, 0] == kind:
                return j
    left = 0
    for r in range(15):
        left += h[last_player, r]
    if n > 0 and left <= bomb_at:
        for j in range(n):
            if meta[j, 0] >= BOMB:
                return j
    return -1


@njit(cache=True)
def rollout(h, p, last_player, kind, rank, chain, ids, meta, counts, cards, epsilon, bomb_at):
    """Play to the end from seat ``p`` to move (``h`` is modified); the winner's seat."""
    while True:
        lead = last_player == p
        j = policy(h, p, lead, kind, rank, chain, last_player, ids, meta, counts, cards,
                   epsilon, bomb_at)
        if j >= 0:
            left = 0
            for r in range(15):
                h[p, r] -= counts[j, r]
                left += h[p, r]
            kind, rank, chain = meta[j, 0], meta[j, 1], meta[j, 2]
            last_player = p
            if left == 0:
                return p
        p = (p + 1) % 3


@njit(cache=True)
def evaluate(me, mine, unseen, forced, left, cand_meta, cand_counts, last_player, kind, rank,
             chain, n_det, seed, epsilon, bomb_at, margin):
    """Share of the ``n_det`` determinized rollouts won by ``me``'s side after each candidate
    (``cand_meta[i] = (kind, rank, chain)``, kind 0 = pass; ``last_player`` -1 when leading).

    ``mine``: the seat's rank counts; ``unseen``: rank counts of the cards it has not seen;
    ``forced``: those the landlord is known to hold (its unplayed public cards; zeros for the
    landlord itself); ``left``: cards left per seat."""
    np.random.seed(seed)
    ids = _ids()
    meta = np.empty((CAPACITY, 4), np.int64)
    counts = np.empty((CAPACITY, 15), np.int8)
    cards = np.empty((CAPACITY, 20), np.int64)
    nc = cand_meta.shape[0]
    wins = np.zeros(nc, np.float64)
    first = 0 if me != 0 else 1
    second = 3 - me if me != 0 else 2
    free = unseen - forced
    pool = np.empty(free.sum(), np.int64)
    k = 0
    for r in range(15):
        for _ in range(free[r]):
            pool[k] = r
            k += 1
    base = np.zeros((3, 15), np.int64)
    h = np.zeros((3, 15), np.int64)
    my_side = 0 if me == 0 else 1
    for _ in range(n_det):
        np.random.shuffle(pool)
        base[:, :] = 0
        base[me] = mine
        base[first] = forced
        need = left[first] - forced.sum()
        for i in range(k):
            if i < need:
                base[first, pool[i]] += 1
            else:
                base[second, pool[i]] += 1
        for c in range(nc):
            h[:, :] = base
            lp, kd, rk, ch = last_player, kind, rank, chain
            if cand_meta[c, 0] != 0:
                done = True
                for r in range(15):
                    h[me, r] -= cand_counts[c, r]
                    if h[me, r] != 0:
                        done = False
                if done:
                    wins[c] += 1.0
                    continue
                lp, kd, rk, ch = me, cand_meta[c, 0], cand_meta[c, 1], cand_meta[c, 2]
            if lp < 0:
                lp = (me + 1) % 3
            w = rollout(h, (me + 1) % 3, lp, kd, rk, ch, ids, meta, counts, cards, epsilon,
                        bomb_at)
            if (0 if w == 0 else 1) == my_side:
                wins[c] += 1.0
                if margin > 0.0:
                    for q in range(3):
                        if (0 if q == 0 else 1) != my_side:
                            wins[c] += margin * h[q].sum()
            elif margin > 0.0:
                for q in range(3):
                    if (0 if q == 0 else 1) == my_side:
                        wins[c] -= margin * h[q].sum()
    return wins / n_det


__all__ = ["evaluate", "policy", "rollout"]
