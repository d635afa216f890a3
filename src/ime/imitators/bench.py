"""``ime bench reversi --only search_imitator``: what a search imitator costs on this machine.

Why a benchmark of its own: the search imitator's fit and its decisions are searches, whose cost
grows about 3-4x per ply, so the depth the fit chooses sets both the train job's time and every
later stage's (S1/S2 forks, tournaments). This measures, on seeded positions from random games
and a synthetic target (a depth-3 search with seeded weights, so no bot is involved), the fit's
seconds per pass per 1,000 positions at each depth and the milliseconds per decision of the
fitted module at several depths, one core; and how the searches scale over threads (one against
every core the process may use: ``train.threads`` beyond a job's folds, docs/imitators.md).
"""

from __future__ import annotations

import time

import numpy as np

from ime.games.reversi.bitboard import BLACK_START, WHITE_START, flips, legal_moves
from ime.imitators.data import Decisions
from ime.imitators.reversi_features import num_features
from ime.imitators.reversi_search import DECIDE, SearchSettings
from ime.imitators.search_fit import FitConfig, choices, fit, search_all


def random_positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` positions with a legal move, from seeded random games (plies 4-50)."""
    rng = np.random.default_rng(seed)
    Ps: list[int] = []
    Os: list[int] = []
    while len(Ps) < n:
        P, O = int(BLACK_START), int(WHITE_START)
        for _ in range(int(rng.integers(4, 50))):
            m = int(legal_moves(np.uint64(P), np.uint64(O)))
            if not m:
                if not int(legal_moves(np.uint64(O), np.uint64(P))):
                    break
                P, O = O, P
                continue
            sq = [s for s in range(64) if (m >> s) & 1][int(rng.integers(bin(m).count("1")))]
            f = int(flips(np.uint64(P), np.uint64(O), sq))
            P, O = O ^ f, P | f | (1 << sq)
        if int(legal_moves(np.uint64(P), np.uint64(O))):
            Ps.append(P)
            Os.append(O)
    return np.array(Ps, dtype=np.uint64), np.array(Os, dtype=np.uint64)


def bench_search_imitator(quick: bool) -> dict:
    """Fit seconds per pass per 1,000 positions by depth, and ms per decision by depth."""
    n = 300 if quick else 1500
    P, O = random_positions(n + 200, seed=46)
    w = np.random.default_rng(46).normal(size=num_features(2)) * 0.1
    target = SearchSettings(depth=3, phases=2)
    moves = choices(search_all(P, O, w, target, margin=DECIDE), "first")
    rows = np.zeros(len(P), dtype=object)
    train = Decisions(P[:n], O[:n], moves[:n], rows[:n])
    select = Decisions(P[n:], O[n:], moves[n:], rows[n:])
    depths = (1, 2, 3, 4) if quick else (1, 2, 3, 4, 5, 6)
    fit_s = {}
    for d in depths:
        t = time.perf_counter()
        fit(train, select, FitConfig(depths=(d,), passes=1, phases=(2,), ties=("first",),
                                     endgames=(0,), endgame_modes=("exact",)))
        fit_s[d] = (time.perf_counter() - t) / n * 1000
    decide_ms = {}
    for d in ((4, 6) if quick else (4, 6, 8)):
        s = SearchSettings(depth=d, phases=2)
        search_all(P[:5], O[:5], w, s, margin=12.0)  # compiled before the clock
        t = time.perf_counter()
        search_all(P[:200], O[:200], w, s, margin=12.0)
        decide_ms[d] = (time.perf_counter() - t) / 200 * 1000
    threads = _thread_scaling(P, O, w, SearchSettings(depth=5 if quick else 6, phases=2))
    agreement = float(np.mean(fit(train, select, FitConfig(
        depths=(1, 2, 3), passes=2, phases=(2,), ties=("first",), endgames=(0,),
        endgame_modes=("exact",))).choose_many(select) == select.action)) * 100
    return {"positions": n, "fit_s_per_1000_positions_by_depth": fit_s,
            "decision_ms_by_depth": decide_ms, **threads,
            "synthetic_target_agreement_pct": agreement}


def _thread_scaling(P: np.ndarray, O: np.ndarray, w: np.ndarray,
                    settings: SearchSettings) -> dict:
    """Seconds to search every position on one thread and on every core this process may use
    (:func:`ime.imitators.search_fit.set_search_threads`), and whether the moves are the same
    (they must be: the threads search disjoint slices)."""
    from ime.core.workers import machine_cpus
    from ime.imitators.search_fit import set_search_threads

    cores = machine_cpus()
    secs, moves = {}, {}
    old = set_search_threads(1)
    try:
        for n in sorted({1, cores}):
            set_search_threads(n)
            t = time.perf_counter()
            moves[n] = choices(search_all(P, O, w, settings, margin=DECIDE), "first")
            secs[n] = time.perf_counter() - t
    finally:
        set_search_threads(old)
    return {"threads_positions": int(len(P)), "threads_depth": settings.depth,
            "threads_seconds": secs, "threads_speedup": secs[1] / secs[cores],
            "threads_same_moves": bool(np.array_equal(moves[1], moves[cores]))}
