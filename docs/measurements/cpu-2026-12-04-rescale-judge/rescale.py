import time
exec(open('h3.py').read())
from ime.imitators import round_values as rv
v = np.zeros(26); v[:10] = w_fit[:10] - 2; v[-1] = 2
print("v", v[:10], v[-1]); t=time.time()
print("stopped", score(v), time.time()-t, "sel", sel_acc(with_disc(v, 1)), flush=True)
vt = np.zeros(26); vt[:10] = w_true[:10]; 
print("true", score(vt), flush=True)
for top in rv.TOPS:
    u = rv.to_ladder(v, top)
    print(top, u[:10], u[-1], score(u), flush=True)
