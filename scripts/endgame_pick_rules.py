"""Among a target's win/draw/loss-best endgame moves, which simple rule picks the one it plays?

A diagnostic for issue 46's gap explanations: a target that solves for the outcome (it plays a
win/draw/loss-best move nearly always, an exact-best one far less often) still chooses among
its winning moves somehow, and a search imitator that solves for the outcome too loses every
position where it chooses otherwise. On positions with ``--min-empties`` to ``--max-empties``
empty squares and at least two win/draw/loss-best moves, one of which the target played, this
scores: each tie rule's square order (the first move in it), each move-effect rule (fewest or
most opponent moves after it, fewest or most discs flipped; a tie counts as a hit, and apart
split evenly among the tied moves), and a
square-class preference learned on the first half of the sample (how often a class was chosen
when it was among the best), scored on the second half; beside chance (the mean of
1 / number of best moves). Reads only the dataset (the target's logged decisions).

    python scripts/endgame_pick_rules.py data/reversi/datasets/thesis/rev2.parquet --out r.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from ime.imitators.data import empties, load_decisions
from ime.imitators.reversi_features import SQUARE_CLASS
from ime.imitators.reversi_search import U64, endgame_moves, flips, legal_moves, order_of

TIES = ("first", "last", "first_col", "last_col")


def _after(P: int, O: int, sq: int) -> tuple[int, int, int]:
    f = int(flips(U64(P), U64(O), sq))
    return O ^ f, P | f | (1 << sq), bin(f).count("1")


def _opp_moves(P: int, O: int, sq: int) -> int:
    opp, me, _ = _after(P, O, sq)
    return bin(int(legal_moves(U64(opp), U64(me)))).count("1")


EFFECTS = {
    "fewest_opponent_moves": _opp_moves,
    "most_opponent_moves": lambda P, O, s: -_opp_moves(P, O, s),
    "fewest_flips": lambda P, O, s: _after(P, O, s)[2],
    "most_flips": lambda P, O, s: -_after(P, O, s)[2],
}


def _split(values: list[int], mine: int) -> float:
    """1 / (number of moves at the rule's best) when move ``mine`` is one of them, else 0."""
    top = min(values)
    return 1.0 / values.count(top) if values[mine] == top else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("--min-empties", type=int, default=1)
    ap.add_argument("--max-empties", type=int, default=12)
    ap.add_argument("--sample", type=int, default=700, help="positions drawn (seeded)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="a JSON file for the figures")
    a = ap.parse_args(argv)
    dec = load_decisions(a.dataset)
    E = empties(dec.P, dec.O)
    rows = np.flatnonzero((E >= a.min_empties) & (E <= a.max_empties))
    rows = np.random.default_rng(a.seed).permutation(rows)[:a.sample]
    cases = []
    for i in rows:
        P, O, act = int(dec.P[i]), int(dec.O[i]), int(dec.action[i])
        best = endgame_moves(P, O, "wld")
        if act in best and len(best) >= 2:
            cases.append((P, O, act, sorted(best)))
    half = len(cases) // 2
    won: Counter[int] = Counter()
    seen: Counter[int] = Counter()
    for _, _, act, best in cases[:half]:
        seen.update(int(SQUARE_CLASS[s]) for s in best)
        won[int(SQUARE_CLASS[act])] += 1
    rate = {c: won[c] / seen[c] for c in seen}
    test = cases[half:]

    def share(rule, among) -> float:
        return round(100.0 * sum(rule(*c) for c in among) / max(len(among), 1), 1)

    out = {
        "dataset": a.dataset, "empties": [a.min_empties, a.max_empties], "drawn": len(rows),
        "positions": len(cases),
        "chance": round(100.0 * float(np.mean([1 / len(c[3]) for c in cases])), 1)
        if cases else None,
        "tie_rules": {t: share(lambda P, O, act, best, t=t: min(
            best, key=lambda s: order_of(s, t)) == act, cases) for t in TIES},
        "move_effects": {k: share(lambda P, O, act, best, f=f: f(P, O, act) == min(
            f(P, O, s) for s in best), cases) for k, f in EFFECTS.items()},
        # the same with a tie among the rule's best moves split evenly (what a rule that
        # broke its ties at random would score)
        "move_effects_ties_split": {k: share(lambda P, O, act, best, f=f: _split(
            [f(P, O, s) for s in best], best.index(act)), cases) for k, f in EFFECTS.items()},
        "learned_square_class": {
            "learned_on": half, "scored_on": len(test),
            **{t: share(lambda P, O, act, best, t=t: min(best, key=lambda s: (
                -rate.get(int(SQUARE_CLASS[s]), 0.0), order_of(s, t))) == act, test)
               for t in ("first", "last")}},
    }
    print(json.dumps(out, indent=1))
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
