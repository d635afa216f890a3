"""Experiment: fit the evaluation's weights to the target's moves through UCT's own tree
(MMTO for UCT): each root child's mean leaf value Q_k and its gradient in the weights, from one
UCT run a position; a softmax over beta*(Q + G.delta) fitted to the logged move; step; repeat."""
import json, math, os, sys, time
import numpy as np
import torch
from ime.imitators.reversi_mcts import MAX_MOVES, tree_values, uct_moves
from ime.imitators.data import load_decisions, fold_indices, unseen_positions, empties
from ime.imitators.search_fit import SearchImitator, predict
from ime.imitators.mmto import subsample
from ime.train.folds import Split

def tree_stats(P, O, w, phases, kw, seed=0):
    """The root children's squares, visits, values and gradients (the package's kernel since
    21d156d; the logs beside this file came from this prototype's own copy of it, with the same
    draws and sums, whose tree agreement broke equal visits by the first child listed)."""
    tv = tree_values(P, O, w, phases, **kw, seed=seed)
    return tv.square, tv.visits, tv.value, tv.grad, tv.count


if __name__ == "__main__":
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    npos = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    lam = float(os.environ.get("LAM", "1e-3"))
    im = SearchImitator.load(os.environ.get('START', 'docs/measurements/cpu-2026-12-06-mcts-rev3/imitator_mcts_fold0.json'))
    s = im.settings
    d = load_decisions('data/reversi/datasets/quick/rev3.parquet')
    tr, va = fold_indices(d, 0, 5, 0)
    train, val = d.subset(tr), d.subset(va)
    inner = Split("kfold", 5, 0.0, 1).indices(train.match_id, 0)
    fit_rows, sel_rows = train.subset(inner[0]), train.subset(inner[1])
    kw = s.uct_kwargs()
    kw.pop("seed", None)
    for key, typ in (("depth", int), ("c", float), ("scale", float), ("playout", str), ("sims", int)):
        if os.environ.get(key.upper()):
            kw[key] = typ(os.environ[key.upper()])
    from dataclasses import replace as _r
    s = _r(s, mcts_depth=kw["depth"], mcts_c=kw["c"], mcts_scale=kw["scale"], mcts_playout=kw["playout"], mcts_sims=kw["sims"])
    im = SearchImitator(im.weights, s, {**im.summary})
    mid = np.flatnonzero(empties(fit_rows.P, fit_rows.O) > s.mcts_above)
    legal_n = np.array([bin(int(x)).count("1") for x in [0]])
    idx = mid[subsample(len(mid), npos, 0)]
    P, O, A = fit_rows.P[idx], fit_rows.O[idx], fit_rows.action[idx]
    print("settings", kw, "positions", len(P), flush=True)
    w = im.weights.copy(); ph = s.phases
    def agree(v, PP, OO, AA):
        return 100.0 * float(np.mean(uct_moves(PP, OO, v, ph, **kw) == AA))
    best_w, best_acc = w.copy(), None
    t0 = time.perf_counter()
    for it in range(iters):
        SQ, NV, Q, GR, K = tree_stats(P, O, w, ph, kw)
        mostv = SQ[np.arange(len(P)), NV.argmax(1)]
        acc = 100.0 * float(np.mean(mostv == A))
        tgt = np.array([np.flatnonzero(SQ[i, :K[i]] == A[i])[0] if (SQ[i, :K[i]] == A[i]).any() else -1 for i in range(len(P))])
        ok = tgt >= 0
        print(f"iter {it}: tree agreement {acc:.2f} (target among children {ok.mean()*100:.1f} %) {time.perf_counter()-t0:.0f} s", flush=True)
        if best_acc is None or acc > best_acc:
            best_acc, best_w = acc, w.copy()
        mask = torch.tensor(np.arange(MAX_MOVES)[None, :] < K[:, None])[ok]
        Qt = torch.tensor(Q[ok]); Gt = torch.tensor(GR[ok]); T = torch.tensor(tgt[ok])
        # feature scale: std of the gradient entries, so that one lambda suits every feature
        gs = Gt[mask].std(0) + 1e-12
        delta = torch.zeros(len(w), dtype=torch.float64, requires_grad=True)
        logb = torch.tensor(math.log(30.0), dtype=torch.float64, requires_grad=True)
        opt = torch.optim.LBFGS([delta, logb], max_iter=200, line_search_fn="strong_wolfe")
        def loss_fn():
            opt.zero_grad()
            z = torch.exp(logb) * (Qt + (Gt * (delta / gs)).sum(-1))
            z = z.masked_fill(~mask, -1e9)
            loss = torch.nn.functional.cross_entropy(z, T) + lam * (delta ** 2).sum()
            loss.backward()
            return loss
        l0 = float(loss_fn())
        opt.step(loss_fn)
        l1 = float(loss_fn())
        step = (delta / gs).detach().numpy()
        print(f"   surrogate {l0:.4f} -> {l1:.4f}, beta {math.exp(float(logb)):.1f}, |step|/|w| {np.linalg.norm(step)/np.linalg.norm(w):.3f}", flush=True)
        cands = {t: agree(w + t * step, P, O, A) for t in (0.25, 0.5, 1.0)}
        print("   line", {t: round(a, 2) for t, a in cands.items()}, flush=True)
        t = max(cands, key=cands.get)
        w = w + t * step
    SQ, NV, Q, GR, K = tree_stats(P, O, w, ph, kw)
    acc = 100.0 * float(np.mean(SQ[np.arange(len(P)), NV.argmax(1)] == A))
    print(f"final tree agreement {acc:.2f}", flush=True)
    if acc > best_acc:
        best_acc, best_w = acc, w.copy()
    new = SearchImitator(best_w, s, {**im.summary})
    if os.environ.get("ASCENT"):
        from ime.imitators.mcts_fit import fit_mcts, MctsGrid
        t1 = time.perf_counter()
        f = fit_mcts(best_w, _r(s, mcts_sims=0), sel_rows, MctsGrid(sims=(5000,), c=(kw["c"], 0.35, 0.707, 1.0, 1.4), depth=(kw["depth"], 2, 4, 8),
                     playout=(kw["playout"], "corners", "random"), scale=(kw["scale"], kw["scale"] / 2, kw["scale"] * 2), above=(14, 12, 10, 16)), seed=0,
                     say=lambda l: print("  ascent", l, flush=True))
        print("ascent", f.settings.uct_kwargs(), f.settings.mcts_above, f.acc, time.perf_counter() - t1, flush=True)
        new = SearchImitator(f.weights, f.settings, {**im.summary})
    def acc_all(imt, dd): return 100.0 * float(np.mean(predict(imt.weights, imt.settings, dd.P, dd.O) == dd.action))
    test = val.subset(unseen_positions(train, val).rows)
    res = {"fit_best": best_acc, "select_before": acc_all(im, sel_rows), "select_after": acc_all(new, sel_rows),
           "unseen_before": acc_all(im, test), "unseen_after": acc_all(new, test), "seconds": time.perf_counter() - t0}
    print(json.dumps(res), flush=True)
    new.save(os.environ.get('SAVE', '/tmp/rev3_treegrad_fold0.json'))
