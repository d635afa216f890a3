import time
exec(open('h3.py').read())
from ime.imitators import round_values as rv
v = np.zeros(26); v[:10] = w_fit[:10] - 2; v[-1] = 2
top = float(sys.argv[2]); budget = int(sys.argv[3])
u = rv.to_ladder(v, top)
free = np.zeros(26, bool); free[:10] = True; free[-1] = True
t = time.time()
out = rv.climb([(u, 1, free)], score, budget, print)
w = with_disc(out["weights"], 1)
print("fit", out["score"], "evals", out["evals"], "sel", sel_acc(w), "w", out["weights"][:10], out["weights"][-1], time.time() - t)
