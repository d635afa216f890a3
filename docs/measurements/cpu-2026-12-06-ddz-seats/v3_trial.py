import runpy, sys
import ime.games.doudizhu.features as F
orig = F._absorb
def absorb(singles, pairs, groups, trios, _o=orig):
    return _o(singles, pairs, groups, trios)
# v3: a four stays a bomb (no kickers): drop the fours' groups
def rest(counts, airplanes, forced):
    singles = pairs = trios = fixed = 0
    for c in counts[:13]:
        if c == 4: fixed += 1
        elif c == 3: trios += 1
        elif c == 2: pairs += 1
        elif c == 1: singles += 1
    jokers = counts[13] + counts[14]
    if jokers == 2: fixed += 1
    else: singles += jokers
    k, size = forced
    taken = min(k, singles if size == 1 else pairs)
    if size == 1: singles -= taken
    else: pairs -= taken
    return fixed + trios + singles + pairs - F._absorb(singles, pairs, tuple(airplanes), trios)
F._rest = rest
sys.argv = ["seats_trial.py", *sys.argv[1:]]
runpy.run_path("/work/main/docs/measurements/cpu-2026-12-06-ddz-seats/seats_trial.py", run_name="__main__")
