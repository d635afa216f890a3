# ruff: noqa: E501, E401, E402, E701, E702
"""DIAGNOSTIC (a scratch tool kept with its output, not the pipeline's): a full-width search of
Snake's simultaneous turns, built on the imitator's own searcher (its grid, tails and node
count), whose joint turns are matrix games: each backed up by its value (Nash: a saddle point
where there is one, else an LP) or by the pure maximin, dead-end moves of either snake pruned
at every node, deepened 1..4 turns within a budget of leaves; leaves valued by the territory
or by a tail-aware territory written here in Python (a body cell enters the race from the step
its tail has left it, a head waiting in its room until then), as a difference or as our share.
Hand-set weights (the one term), on a seeded sample of a bot's quick dataset with the head,
turn and order planes. It printed `nash_diag.log`:

    python nash_diag.py <snk02.parquet> 200
"""
import sys, time
import numpy as np, torch
from scipy.optimize import linprog
from ime.imitators.snake_features import FREE, BODY, feature_names, planes_to_positions
from ime.imitators.snake_fit import fit_roots
from ime.imitators.snake_search import _Searcher, _opps, _OutOfNodes, TERMINAL, search_all, choices
from ime.train.loop import load_dataset


def game(M):
    """Value of the zero-sum matrix game M (rows maximise) and the row player's strategy."""
    lo = M.min(axis=1).max(); hi = M.max(axis=0).min()
    m, n = M.shape
    if hi - lo <= 1e-9 * max(1.0, abs(lo)):
        sec = M.min(axis=1)
        return lo, (sec >= lo - 1e-9 * max(1.0, abs(lo))).astype(float)
    s = max(1.0, float(np.abs(M).max())); A = M / s
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-A.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    return -res.fun * s, res.x[:m]


class Nash(_Searcher):
    prune = True
    tail_aware = False
    share = False
    leaf_budget = 0
    leaf_count = 0
    abort_ok = False
    maximin = False
    now = 0

    def taware(self, me, opp, tail, otail, turn):
        """Tail-aware Voronoi with waiting: a body cell may be entered from the turn its
        snake's tail has left it; a head may wait in its region until then. Cells reached
        first by one head count for it (Dial's buckets; ties neutral)."""
        times = [j + 1 for j in range(len(self.pop) - turn - 1) if self.pop[turn + 1 + j]]
        free_at = {}
        for tl in (tail, otail):
            for k, c in enumerate(tl):
                free_at[c] = times[k] if k < len(times) else 10**6
        cells, deltas = self.cells, self.deltas
        owner = {me: 0, opp: 1}
        buckets = {}
        def push(c, t, who):
            for dd in deltas:
                x = c + dd
                if x in owner: continue
                if cells[x] == FREE: tt = t + 1
                elif x in free_at: tt = max(t + 1, free_at[x])
                else: continue
                buckets.setdefault(tt, []).append((x, who))
        push(me, 0, 0); push(opp, 0, 1)
        counts = [0, 0]
        while buckets:
            t = min(buckets)
            claims = {}
            for x, who in buckets.pop(t):
                if x in owner: continue
                claims[x] = who if claims.get(x, who) == who else -1
            for x, who in claims.items():
                owner[x] = who
                if who >= 0:
                    counts[who] += 1
                    push(x, t, who)
        if self.share:
            tot = counts[0] + counts[1]
            return counts[0] / tot if tot else 0.5
        return counts[0] - counts[1]

    def leaf(self, me, opps):
        if not self.tail_aware:
            return _Searcher.leaf(self, me, opps, self._tail, self._turn)
        return float(self.taware(me, opps[0][0], self._tail, opps[0][1], self._turn)), None

    def joint(self, me, tail, opps, turns, turn, root=False):
        tail, opps, done, freed = self.begin(turn, tail, opps)
        assert len(opps) == 1, "one opponent head (the head plane)"
        o, t = opps[0]
        rows = list(self.dirs(me)); cols = list(self.dirs(o))
        to_me = [me + self.deltas[d] for d in rows]; to_o = [o + self.deltas[d] for d in cols]
        dead_me = [self.cells[c] != FREE for c in to_me]; dead_o = [self.cells[c] != FREE for c in to_o]
        R = [i for i in range(len(rows)) if not dead_me[i]] if self.prune and not all(dead_me) else list(range(len(rows)))
        C = [j for j in range(len(cols)) if not dead_o[j]] if self.prune and not all(dead_o) else list(range(len(cols)))
        M = np.zeros((len(R), len(C)))
        for a, i in enumerate(R):
            for b, j in enumerate(C):
                W = 1.0 if self.share else TERMINAL + turns
                D = 0.5 if self.share else 0.0
                L = 0.0 if self.share else -(TERMINAL + turns)
                if to_me[i] == to_o[j] or (dead_me[i] and dead_o[j]):
                    v = D
                elif dead_me[i]: v = L
                elif dead_o[j]: v = W
                else:
                    cut = False
                    if turns == 1:
                        if self.abort_ok and self.leaf_count + 1 > self.leaf_budget:
                            raise _OutOfNodes
                        self.leaf_count += 1
                    self.cells[to_me[i]] = BODY; self.cells[to_o[j]] = BODY
                    nxt = [(to_o[j], t)]
                    if turns == 1 or cut:
                        self._tail, self._turn = tail, turn
                        v, _ = self.leaf(to_me[i], nxt)
                    else: v = self.joint(to_me[i], tail, nxt, turns - 1, turn + 1)
                    self.cells[to_me[i]] = FREE; self.cells[to_o[j]] = FREE
                M[a, b] = v
        self.restore(freed)
        if self.maximin:
            sec = M.min(axis=1); value = sec.max(); p = (sec >= value - 1e-12).astype(float)
        else:
            value, p = game(M)
        if root:
            return {rows[i]: (p[a], M[a].min()) for a, i in enumerate(R)}
        return value


def nash_choice(pos, w, max_turns, budget, order="natural", tie=(0, 1, 2, 3), prune=True, tail_aware=False, share=False, maximin=False):
    nodes, kept = 0, None
    for turns in range(1, max_turns + 1):
        s = Nash(pos, w, 0, 2 * max_turns, order)
        s.prune = prune
        s.tail_aware = tail_aware
        s.share = share
        s.maximin = maximin
        s.leaf_budget, s.leaf_count, s.abort_ok = budget, nodes, kept is not None
        from ime.imitators.snake_search import pops
        s.pop = pops(pos.length, 0, 300, pos.turn)
        try:
            out = s.joint(pos.me, pos.my_tail, _opps(pos), turns, 0, root=True)
        except _OutOfNodes:
            break
        nodes, kept = s.leaf_count, out
    best = max(kept.values())
    cands = [d for d in kept if kept[d] == best] or list(kept)
    # ties: the tie order
    return min(cands, key=tie.index)


if __name__ == "__main__":
    path = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    data0, _ = load_dataset(path, torch.device("cpu"))
    planes = data0.planes.numpy(); act = np.asarray(data0.action.numpy())
    idx = np.sort(np.random.default_rng(0).choice(len(act), min(n, len(act)), replace=False))
    pos = planes_to_positions(planes[idx], opponent_head=True, turn_plane=True, order_plane=True); a = act[idx]
    w = np.zeros(len(feature_names())); w[0] = 1
    roots = fit_roots(pos, a, 0)
    for budget, kind in ():
        res = search_all(pos, w, 64, roots, 0, budget, "natural", kind)
        print("paranoid", budget, kind, round(np.mean(choices(res, "up") == a) * 100, 2), flush=True)
    for ta, sh, mm in ((True, False, True), (False, False, False), (True, False, False)):
      for budget in (1000, 2500, 5000):
        for turns in (4,):
            t0 = time.perf_counter()
            got = np.array([nash_choice(p, w, turns, budget, tail_aware=ta, share=sh, maximin=mm) for p in pos])
            print("maximin" if mm else "nash", "tail-aware" if ta else "territory", "share" if sh else "diff", turns, budget, round(np.mean(got == a) * 100, 2), f"{(time.perf_counter() - t0) / len(pos) * 1000:.1f} ms", flush=True)
