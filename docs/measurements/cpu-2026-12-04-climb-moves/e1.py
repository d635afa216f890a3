exec(open('harness.py').read())
import ime.imitators.round_values as rv
mode = sys.argv[2]; budget = int(sys.argv[3])
WIDE = (-1.0, 0.25, 0.5, 0.67, 1.5, 2.0, 3.0, 4.0)
SMALL = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
def wide(x, top):
    c = {float(rv.snap(np.array([x * f]))[0]) for f in WIDE}
    c |= {float(rv.snap(np.array([s * top * sg]))[0]) for s in SMALL for sg in (1, -1)}
    c.discard(float(x)); return sorted(c, key=lambda y: abs(y - x))
orig = rv._Climb._moves
def moves(self):
    while True:
        yield from orig(self)          # climb to a local optimum
        if mode != "wide":
            return
        moved = False
        top = float(np.abs(self.w).max())
        for k in np.argsort(-np.abs(self.w), kind="stable"):
            if not self.free[k]: continue
            base = self.w.copy(); bestv, besta = None, self.score
            for x in wide(float(base[k]), top):
                v = base.copy(); v[k] = x
                while (self.setting, v.tobytes()) not in self.cache and len(self.cache) >= self.budget:
                    yield False
                a = self.f(v, self.setting)
                if a > besta + 1e-9: bestv, besta = v, a
            if bestv is not None:
                self.w, self.score = bestv, besta; moved = True
        if not moved:
            return
rv._Climb._moves = moves
v = np.zeros(26); v[:10] = [5000,400,600,500,-300,0,0,50,40,12]; v[-1] = 1
free = np.zeros(26, bool); free[:10] = True; free[-1] = True
t = time.time()
out = rv.climb([(v, 1, free)], score, budget, print)
w = with_disc(out["weights"], 1)
print(mode, budget, "fit", out["score"], "evals", out["evals"], "unseen", unseen_acc(w), "w", out["weights"][:10], out["weights"][-1], time.time() - t)
