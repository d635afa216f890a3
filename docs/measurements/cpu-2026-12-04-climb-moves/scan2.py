exec(open('harness2.py').read())
v = np.zeros(26); v[:10] = [5000,400,600,500,-300,0,0,50,40,12]; v[-1] = 1
vt = np.zeros(26); vt[:10] = [5000,400,600,500,-300,20,20,50,30,10]; vt[-1] = 10
for t in np.linspace(0, 1, 11):
    u = np.round(v + t * (vt - v))
    print('path', round(t, 1), u[5:10], u[-1], score(u), flush=True)
best = (score(v), None)
for d in [1, 3, 5, 10, 15]:
    for x in [0, 5, 10, 20, 30]:
        u = v.copy(); u[-1] = d; u[5] = x; u[6] = x
        a = score(u); print('d,sq56', d, x, a, flush=True)
