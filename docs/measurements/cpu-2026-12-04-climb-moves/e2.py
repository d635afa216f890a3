exec(open('harness2.py').read())
import itertools
import ime.imitators.round_values as rv
PAIR = (0.002, 0.005, 0.01, 0.02)
def pair_round(self):
    top = float(np.abs(self.w).max())
    free = [k for k in np.argsort(np.abs(self.w), kind="stable") if self.free[k]]
    pairs = sorted(itertools.combinations(free, 2), key=lambda p: abs(self.w[p[0]]) + abs(self.w[p[1]]))
    for i, j in pairs:
        for q in PAIR:
            for sg in (1.0, -1.0):
                v = self.w.copy()
                v[[i, j]] = rv.snap(self.w[[i, j]] + sg * q * top)
                if (yield from self._take(v)):
                    print("pair", i, j, sg * q * top, self.score, len(self.cache), flush=True)
                    return True
    return False
def moves(self):
    while True:
        yield from self._near()
        if (yield from self._wide_round()):
            continue
        if not (yield from pair_round(self)):
            return
rv._Climb._moves = moves
v = np.zeros(26); v[:10] = [5000,400,600,500,-300,0,0,50,40,12]; v[-1] = 1
free = np.zeros(26, bool); free[:10] = True; free[-1] = True
t = time.time()
out = rv.climb([(v, 1, free)], score, int(sys.argv[2]), print)
w = with_disc(out["weights"], 1)
print("fit", out["score"], "evals", out["evals"], "sel", sel_acc(w), "w", out["weights"][:10], out["weights"][-1], time.time() - t)
