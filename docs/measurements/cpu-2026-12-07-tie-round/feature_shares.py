import json, sys, numpy as np
from dataclasses import replace
from ime.imitators.data import load_decisions
from ime.imitators.search_fit import search_all, feature_scale, BASE_NAMES, _settings_of, FitConfig
st=json.load(open(sys.argv[1]))
cands=[(k,v['candidate']) for k,v in st['stages'].items() if k.startswith('budget')]
k,best=max(cands,key=lambda kv: kv[1]['acc'])
print(k, best['acc'], best.get('budget'), best.get('ordering'), best.get('phases'))
d=load_decisions(sys.argv[2])
rng=np.random.default_rng(0); idx=rng.permutation(len(d.P))[:400]
w=np.asarray(best['weights']['__ndarray__']); ph=best.get('phases',1)
flat=w.reshape(ph,-1).mean(axis=0)
from ime.imitators.search_fit import SearchSettings
s=SearchSettings(depth=2,budget=0,endgame=0,phases=1)
res=search_all(d.P[idx],d.O[idx],flat,s)
wt=np.abs(flat)*feature_scale(res,len(flat))
for i in np.argsort(-wt): print(f"{BASE_NAMES[i]:20s} {wt[i]/wt.max():.3f} {flat[i]:.3f}")
