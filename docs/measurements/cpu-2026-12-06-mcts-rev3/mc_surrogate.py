"""Experiment: weights fitted for UCT by a Monte-Carlo surrogate, then the Monte-Carlo mode.

Each root move's value is the mean over K short playouts (the mode's playout rule and length) of
the squashed evaluation at the playout's end, sigma(+-w.f / scale), as UCT's leaves read it; the
target's move gets probability softmax(v / tau). The leaves are sampled once (seeded), then w and
tau are fitted by L-BFGS on the cross-entropy (torch). Run from the repository root:
    python docs/measurements/cpu-2026-12-06-mcts-rev3/mc_surrogate.py [positions] [K]
"""
import json
import sys
import time

import numpy as np
import torch
from numba import njit

from ime.core.bits import ctpop, cttz
from ime.games.reversi.bitboard import flips_inline, legal_moves_inline
from ime.imitators.data import empties, fold_indices, load_decisions, unseen_positions
from ime.imitators.mmto import subsample
from ime.imitators.reversi_features import features_into, num_features
from ime.imitators.reversi_mcts import _kth_bit, _playout_moves
from ime.imitators.search_fit import SearchImitator, predict
from ime.train.folds import Split

U64 = np.uint64
ONE = U64(1)
HERE = "docs/measurements/cpu-2026-12-06-mcts-rev3"
MAXM = 24


@njit(cache=True)
def leaves(Ps, Os, K, depth, playout, phases, nf, seed, F, S, T, mv, nm):
    """For position i, legal move j (< MAXM), playout k: the leaf's features F[i,j,k], the sign
    S (+1: the root player is to move at the leaf), T: a finished game's value for the root
    player (or -1 when the game goes on)."""
    np.random.seed(seed)
    buf = np.zeros(nf)
    for i in range(len(Ps)):
        m = legal_moves_inline(Ps[i], Os[i])
        j = 0
        while m != U64(0) and j < MAXM:
            sq = cttz(m)
            m &= m - ONE
            mv[i, j] = sq
            f0 = flips_inline(Ps[i], Os[i], sq)
            for k in range(K):
                P, O = Os[i] ^ f0, Ps[i] | f0 | (ONE << U64(sq))  # opponent to move
                root = False
                steps = 0
                T[i, j, k] = -1.0
                while True:
                    moves = legal_moves_inline(P, O)
                    if moves == U64(0):
                        if legal_moves_inline(O, P) == U64(0):
                            d = ctpop(P) - ctpop(O)
                            r = 1.0 if d > 0 else (0.0 if d < 0 else 0.5)
                            T[i, j, k] = r if root else 1.0 - r
                            break
                        P, O = O, P
                        root = not root
                        continue
                    if steps >= depth:
                        break
                    allowed = _playout_moves(P, O, moves, playout)
                    s2 = _kth_bit(allowed, np.random.randint(0, ctpop(allowed)))
                    f = flips_inline(P, O, s2)
                    P, O = O ^ f, P | f | (ONE << U64(s2))
                    root = not root
                    steps += 1
                features_into(P, O, phases, buf)
                for q in range(nf):
                    F[i, j, k, q] = buf[q]
                S[i, j, k] = 1.0 if root else -1.0
            j += 1
        nm[i] = j


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    K = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    base = SearchImitator.load(f"{HERE}/imitator_mcts_fold0.json")
    s = base.settings
    d = load_decisions("data/reversi/datasets/quick/rev3.parquet")
    tr, va = fold_indices(d, 0, 5, 0)
    train, val = d.subset(tr), d.subset(va)
    inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
    fit_rows, sel_rows = train.subset(inner[0]), train.subset(inner[1])
    mid = np.flatnonzero(s.uct(empties(fit_rows.P, fit_rows.O)))
    idx = mid[subsample(len(mid), n, 0)]
    P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
    nf = num_features(s.phases)
    F = np.zeros((len(P), MAXM, K, nf))
    S = np.zeros((len(P), MAXM, K))
    T = np.zeros((len(P), MAXM, K))
    mv = np.full((len(P), MAXM), -1, dtype=np.int64)
    nm = np.zeros(len(P), dtype=np.int64)
    t0 = time.perf_counter()
    leaves(P, O, K, s.mcts_depth, 2 if s.mcts_playout == "corners_xc" else
           (1 if s.mcts_playout == "corners" else 0), s.phases, nf, 7, F, S, T, mv, nm)
    target = np.array([int(np.flatnonzero(mv[i] == A[i])[0]) if (mv[i] == A[i]).any() else -1
                       for i in range(len(A))])
    ok = target >= 0
    print(f"{len(A)} positions, K={K}: leaves in {time.perf_counter() - t0:.1f}s; "
          f"{int(ok.sum())} with the move among the first {MAXM}", flush=True)
    Ft, St, Tt = (torch.tensor(x[ok]) for x in (F, S, T))
    legal = torch.tensor(np.arange(MAXM)[None, :] < nm[ok][:, None])
    y = torch.tensor(target[ok])
    sd = Ft.reshape(-1, nf).std(0)
    sd[sd < 1e-9] = 1.0
    w0 = torch.tensor(base.weights / s.mcts_scale) * sd  # standardised, the mode's scale folded
    wt = w0.clone().requires_grad_(True)
    log_tau = torch.tensor(np.log(0.05), requires_grad=True)
    opt = torch.optim.LBFGS([wt, log_tau], max_iter=200, line_search_fn="strong_wolfe")

    def loss_fn():
        z = (Ft / sd) @ wt * St
        v = torch.where(Tt >= 0, Tt, torch.sigmoid(z)).mean(-1)
        logits = (v / log_tau.exp()).masked_fill(~legal, -1e9)
        return torch.nn.functional.cross_entropy(logits, y) + 1e-4 * (wt ** 2).sum()

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    print("loss before", float(loss_fn()), flush=True)
    for _ in range(3):
        opt.step(closure)
        print("loss", float(loss_fn()), "tau", float(log_tau.exp()), flush=True)
    w = (wt.detach() / sd).numpy() * s.mcts_scale
    fitted = SearchImitator(w, s, {})

    def acc(im, dd):
        return 100.0 * float(np.mean(predict(im.weights, im.settings, dd.P, dd.O) == dd.action))

    test = val.subset(unseen_positions(train, val).rows)
    res = {"positions": int(ok.sum()), "K": K, "select_before": acc(base, sel_rows),
           "select_after": acc(fitted, sel_rows), "unseen_before": acc(base, test),
           "unseen_after": acc(fitted, test), "tau": float(log_tau.exp()),
           "seconds": time.perf_counter() - t0}
    print(json.dumps(res), flush=True)
    fitted.save("/tmp/rev3_mc_surrogate_fold0.json")


if __name__ == "__main__":
    main()
