"""Diagnostic (issue 46, v19 candidate): round_stage.py with one change to the climb's near
moves: a weight at 0 also tries +-5, 10 and 20 % of the largest weight (snapped), so that a
term the point lacks (rev2's parity) can enter at its size; the near moves from 0 otherwise
try only +-1 and +-2 on a scale where the largest weight is 1,000-8,000."""
import runpy, sys
import numpy as np
import ime.imitators.round_values as RV

ENTER = (0.05, 0.1, 0.2)


def _near(self):
    improved = True
    while improved:
        improved = False
        for k in np.argsort(-np.abs(self.w), kind="stable"):
            if not self.free[k]:
                continue
            cands = RV._neighbours(float(self.w[k]))
            if self.w[k] == 0:
                top = float(np.abs(self.w).max())
                cands = cands + [float(x) for x in RV.snap(np.array(
                    [s * q * top for q in ENTER for s in (1.0, -1.0)]))]
            for x in cands:
                if (yield from self._take(self._with(k, x))):
                    improved = True
                    break
        w = self.w
        for frac in RV.DROPS:
            improved |= yield from self._take(np.where(np.abs(w) < frac * np.abs(w).max(), 0.0, w))
        for keep in RV.KEEPS:
            w = self.w
            rest = np.argsort(-np.abs(w), kind="stable")[keep:]
            for fac in RV.FACTORS:
                v = w.copy()
                v[rest] = RV.snap(fac * w[rest])
                improved |= yield from self._take(v)


RV._Climb._near = _near
sys.argv = [sys.argv[0].replace("round_stage_terms", "round_stage"), *sys.argv[1:]]
runpy.run_path(sys.argv[0].replace("round_stage_terms", "round_stage"), run_name="__main__")
