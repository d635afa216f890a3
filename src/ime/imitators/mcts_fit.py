"""The search imitator's Monte-Carlo stage: UCT's own settings fitted to the target's moves.

Why a stage of its own: an alpha-beta search with fitted weights takes one move per position, so
against a target that samples its move from a Monte-Carlo tree it agrees only where that tree's
favourite is the minimax move. The stage keeps the fitted evaluation and asks, on the selection
fold, whether UCT over it (:mod:`ime.imitators.reversi_mcts`) names the target's move more often,
and with which settings: simulations, exploration constant, playout length and rule, the leaves'
squashing scale, and the empties above which UCT decides (below, the alpha-beta search and its
exact endgame keep deciding). Only the logged moves decide; the grid is generic.

The search is a coordinate ascent: from the first value of every list, each setting in turn
takes the value of its list that agrees most with the others held (ties keep the current one),
for at most ``mcts_rounds`` rounds or until a round changes nothing. Every candidate is scored on
the same seeded sample of ``mcts_positions`` selection positions; UCT's moves are computed once
per candidate on the sample's positions above the lowest threshold tried, so the threshold itself
costs nothing to vary. With ``mcts_climb_evals``, the weights are then hill-climbed on UCT's own
agreement on fit positions (:func:`climb_weights`). With ``mcts_tree_iters``, before that, the
weights are fitted through UCT's own tree (:mod:`ime.imitators.mcts_tree_fit`: the values of the
root's children and their gradients in the weights) and the ascent runs again from them. The
mode, and each set of refitted weights, are kept only where they then agree more than the
search alone (and than the mode before them) on the whole selection fold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ime.imitators.ascent import coordinate_ascent
from ime.imitators.data import Decisions, empties
from ime.imitators.fit_state import FitState
from ime.imitators.mmto import subsample
from ime.imitators.reversi_mcts import PLAYOUTS, uct_moves
from ime.imitators.reversi_search import SearchSettings

KNOBS = ("sims", "c", "depth", "playout", "scale", "above")
"""The settings the stage fits, in the order the ascent visits them."""


@dataclass(frozen=True)
class MctsGrid:
    """What the stage tries: one list per setting (the first value is the ascent's start)."""

    sims: Sequence[int]
    c: Sequence[float] = (0.707, 0.35, 1.0, 1.4)
    depth: Sequence[int] = (2, 0, 1, 4, 8)
    playout: Sequence[str] = ("corners_xc", "corners", "random")
    scale: Sequence[float] = (4.0, 1.0, 2.0, 8.0, 16.0)
    above: Sequence[int] = (12, 8, 10, 14, 16, 20)
    positions: int = 1000
    rounds: int = 2
    climb_evals: int = 0
    climb_positions: int = 800
    tree_iters: int = 0
    tree_positions: int = 6000
    tree_l2: float = 0.01
    tree_repeats: int = 2

    def __post_init__(self) -> None:
        for k in KNOBS:
            if not len(getattr(self, k)):
                key = "mcts_sims" if k == "sims" else f"mcts_{k}s"
                raise ValueError(f"net.search.{key}: at least one value (to turn the "
                                 f"Monte-Carlo stage off, set mcts_sims to [])")
        bad = [p for p in self.playout if p not in PLAYOUTS]
        if bad:
            raise ValueError(f"net.search.mcts_playouts: {bad} not among {PLAYOUTS}")
        if min(self.sims) < 1 or min(self.c) < 0 or min(self.depth) < 0 \
                or min(self.scale) <= 0 or min(self.above) < 0:
            raise ValueError(f"net.search.mcts_*: sims >= 1, c >= 0, depth >= 0, scale > 0 and "
                             f"above >= 0 are required, got {self}")
        if self.positions < 1 or self.rounds < 1 or self.climb_positions < 1:
            raise ValueError(f"net.search.mcts_positions, mcts_rounds and "
                             f"mcts_climb_positions must be >= 1, got {self.positions}, "
                             f"{self.rounds} and {self.climb_positions}")
        if self.climb_evals < 0:
            raise ValueError(f"net.search.mcts_climb_evals must be >= 0, got "
                             f"{self.climb_evals}")
        if self.tree_iters < 0 or self.tree_positions < 1 or self.tree_l2 < 0 \
                or self.tree_repeats < 1:
            raise ValueError(f"net.search.mcts_tree_iters >= 0, mcts_tree_positions >= 1, "
                             f"mcts_tree_l2 >= 0 and mcts_tree_repeats >= 1 are required, got "
                             f"{self.tree_iters}, {self.tree_positions}, {self.tree_l2} and "
                             f"{self.tree_repeats}")


@dataclass
class MctsFit:
    """The stage's result: the weights and settings kept, their selection agreement (percent),
    every candidate scored, and the climb's and the tree fit's figures (None: not run; ``kept``
    says whether their weights won on the selection fold)."""

    weights: np.ndarray
    settings: SearchSettings
    acc: float
    rows: list[dict[str, Any]]
    climb: dict[str, Any] | None = None
    tree: dict[str, Any] | None = None


def fit_mcts(w: np.ndarray, base: SearchSettings, select: Decisions, grid: MctsGrid, *,
             train: Decisions | None = None, seed: int = 0,
             say: Callable[[str], None] = lambda _l: None,
             state: FitState | None = None) -> MctsFit:
    """``base`` with the Monte-Carlo mode and, with ``train``, the weights fitted through UCT's
    tree (``grid.tree_iters``; :mod:`ime.imitators.mcts_tree_fit`, then the settings' ascent
    again from them) and climbed on its agreement (``grid.climb_evals``; :func:`climb_weights`),
    or ``w`` and ``base`` themselves: whichever agrees most on the whole selection fold.

    ``state`` (:class:`ime.imitators.fit_state.FitState`) keeps each finished part as it ends:
    the ascent (``mcts ascent``), each tree run with its ascent (``mcts tree run <n>``) and the
    climb (``mcts climb``). A fit stopped in the stage resumes after the last one kept (its log
    lines end ``[fit state]``) and ends as one never stopped: a thesis-scale tree run takes
    10-15 minutes a fold on one core."""
    from ime.imitators.search_fit import predict  # the search's own decision (no cycle)

    idx = subsample(len(select), grid.positions, seed)
    P, O, A = select.P[idx], select.O[idx], select.action[idx]
    rows: list[dict[str, Any]] = []
    start = {k: getattr(grid, k)[0] for k in KNOBS}
    kept_ascent = None if state is None else state.get("mcts ascent")
    if kept_ascent is None:
        chosen = _ascent(w, base, start, grid, P, O, A, seed=seed, rows=rows, say=say)
        if state is not None:
            state.put("mcts ascent", {"knobs": list(_knobs(chosen)), "rows": list(rows)})
    else:
        chosen = _with_knobs(base, kept_ascent["knobs"], seed)
        rows.extend(kept_ascent["rows"])
        say(f"mcts: UCT's settings {dict(zip(KNOBS, kept_ascent['knobs'], strict=True))} "
            f"[fit state]")

    def agree(v: np.ndarray, s: SearchSettings) -> float:
        return 100.0 * float(np.mean(predict(v, s, select.P, select.O) == select.action))

    options = [(agree(w, base), "the search alone", w, base),
               (agree(w, chosen), "UCT", w, chosen)]
    tree = climbed = w_tree = w_from = None
    if grid.tree_iters and train is not None:
        w_tree, s_tree, tree = _tree_runs(w, chosen, options[1][0], train, grid, agree,
                                          base=base, P=P, O=O, A=A, seed=seed, rows=rows,
                                          say=say, state=state)
        if w_tree is not None:
            options.append((tree["select"], "UCT, weights fitted through its tree", w_tree,
                            s_tree))
    info = None
    if grid.climb_evals and train is not None:
        _, _, w_from, s_from = max(options[1:], key=lambda o: o[0])  # ties: the earlier
        kept_climb = None if state is None else state.get("mcts climb")
        if kept_climb is None:
            climbed, info = climb_weights(w_from, s_from, train, grid, seed=seed, say=say)
            if state is not None:
                state.put("mcts climb", {"weights": climbed, "info": info})
        else:
            climbed, info = kept_climb["weights"], kept_climb["info"]
            say("mcts climb: the climbed weights [fit state]")
        options.append((agree(climbed, s_from), "UCT, climbed weights", climbed, s_from))
    acc, name, w_kept, s_kept = max(options, key=lambda o: o[0])  # ties: the earlier
    say(f"mcts: on the whole selection fold ({len(select)} positions) "
        + ", ".join(f"{n} {a:.2f}%" for a, n, *_ in options) + f": {name} kept")
    if info is not None:
        info.update(select=options[-1][0], kept=w_kept is climbed)
    if tree is not None:  # kept: its weights won, or the climb that won started from them
        tree.update(kept=w_tree is not None and (
            w_kept is w_tree or (w_kept is climbed and w_from is w_tree)))
    return MctsFit(w_kept, s_kept, acc, rows, info, tree)


def _tree_runs(w: np.ndarray, chosen: SearchSettings, acc: float, train: Decisions,
               grid: MctsGrid, agree: Callable[[np.ndarray, SearchSettings], float], *,
               base: SearchSettings, P: np.ndarray, O: np.ndarray, A: np.ndarray, seed: int,
               rows: list[dict[str, Any]], say: Callable[[str], None],
               state: FitState | None = None,
               ) -> tuple[np.ndarray | None, SearchSettings, dict[str, Any]]:
    """The tree fit (:mod:`ime.imitators.mcts_tree_fit`) and the ascent again from its weights,
    run again from its own result at most ``grid.tree_repeats`` times in all while the whole
    selection fold agrees more than ``acc`` (the mode's) and than the run before. Why again: the
    ascent's new settings (a sharper leaf, another ``c``) change the trees the next fit reads;
    the playout lengths are screened in the first run only. Returns the best run's weights and
    settings (None: no run agreed more) and the runs' figures. ``state``: each run kept as it
    ends (:func:`fit_mcts`)."""
    from ime.imitators.mcts_tree_fit import fit_through_tree

    runs: list[dict[str, Any]] = []
    w_cur, s_cur, best = w, chosen, None
    for r in range(grid.tree_repeats):
        key = f"mcts tree run {r + 1}"
        kept = None if state is None else state.get(key)
        if kept is None:
            n_rows = len(rows)
            w_new, s_new, info = fit_through_tree(
                w_cur, s_cur, train, iters=grid.tree_iters, positions=grid.tree_positions,
                l2=grid.tree_l2, depths=grid.depth if r == 0 else (s_cur.mcts_depth,),
                seed=seed, say=say)
            moved = w_new is not w_cur
            if moved:
                start = {k: v for k, v in zip(KNOBS, _knobs(s_new), strict=True)}
                s_new = _ascent(w_new, base, start, grid, P, O, A, seed=seed, rows=rows,
                                say=say, stage="mcts_tree")
                info["select"] = agree(w_new, s_new)
            if state is not None:
                state.put(key, {"moved": moved, "info": info, "rows": rows[n_rows:],
                                **({"weights": w_new, "knobs": list(_knobs(s_new))}
                                   if moved else {})})
        else:
            moved, info = bool(kept["moved"]), kept["info"]
            rows.extend(kept["rows"])
            if moved:
                w_new, s_new = kept["weights"], _with_knobs(base, kept["knobs"], seed)
            say(f"mcts tree fit, run {r + 1}: {info['start']:.2f} -> {info['score']:.2f}% on "
                f"the fit positions [fit state]")
        runs.append(info)
        if not moved:
            break
        say(f"mcts tree fit, run {r + 1}: the whole selection fold {acc:.2f} -> "
            f"{info['select']:.2f}%")
        if info["select"] <= acc + 1e-9:
            break
        acc, w_cur, s_cur, best = info["select"], w_new, s_new, (w_new, s_new)
    out = {"runs": runs, "select": acc if best is not None else None}
    return (best[0], best[1], out) if best is not None else (None, chosen, out)


def _knobs(s: SearchSettings) -> tuple[Any, ...]:
    """The ascent's six values of a Monte-Carlo setting, in :data:`KNOBS` order."""
    return (s.mcts_sims, s.mcts_c, s.mcts_depth, s.mcts_playout, s.mcts_scale, s.mcts_above)


def _with_knobs(base: SearchSettings, knobs: Sequence[Any], seed: int) -> SearchSettings:
    """``base`` with the Monte-Carlo mode at ``knobs`` (:data:`KNOBS` order) and UCT's seed:
    the settings :func:`_ascent` returns, rebuilt from a fit state."""
    v = dict(zip(KNOBS, knobs, strict=True))
    return replace(base, mcts_sims=int(v["sims"]), mcts_c=float(v["c"]),
                   mcts_depth=int(v["depth"]), mcts_playout=str(v["playout"]),
                   mcts_scale=float(v["scale"]), mcts_above=int(v["above"]),
                   mcts_seed=int(seed))


def _ascent(w: np.ndarray, base: SearchSettings, start: dict[str, Any], grid: MctsGrid,
            P: np.ndarray, O: np.ndarray, A: np.ndarray, *, seed: int,
            rows: list[dict[str, Any]], say: Callable[[str], None],
            stage: str = "mcts") -> SearchSettings:
    """The coordinate ascent over :data:`KNOBS` from ``start``, the weights ``w`` held (module
    doc); every candidate scored is appended to ``rows``."""
    from ime.imitators.search_fit import predict

    emp = empties(P, O)
    ab = predict(w, base, P, O)
    low = np.flatnonzero(emp > min(min(grid.above), start["above"]))
    uct_cache: dict[tuple, np.ndarray] = {}
    scored: dict[tuple, float] = {}

    def score(v: dict[str, Any]) -> float:
        key = tuple(v[k] for k in KNOBS)
        if key in scored:
            return scored[key]
        ukey = key[:-1]
        if ukey not in uct_cache:
            moves = np.full(len(P), -1, dtype=np.int64)
            moves[low] = uct_moves(P[low], O[low], w, base.phases, sims=int(v["sims"]),
                                   c=float(v["c"]), depth=int(v["depth"]),
                                   playout=str(v["playout"]), scale=float(v["scale"]),
                                   seed=seed)
            uct_cache[ukey] = moves
        chosen = np.where(emp > v["above"], uct_cache[ukey], ab)
        acc = 100.0 * float(np.mean(chosen == A))
        scored[key] = acc
        rows.append({"stage": stage, **v, "acc": acc})
        return acc

    base_acc = 100.0 * float(np.mean(ab == A))
    say(f"{stage}: the search alone {base_acc:.2f}% on {len(A)} selection positions; UCT from "
        f"{dict(start)}: {score(dict(start)):.2f}%")
    cur, _ = coordinate_ascent(start, {k: getattr(grid, k) for k in KNOBS}, score,
                               rounds=grid.rounds, say=say, stage=stage)
    return _with_knobs(base, [cur[k] for k in KNOBS], seed)


def climb_weights(w: np.ndarray, settings: SearchSettings, train: Decisions, grid: MctsGrid, *,
                  seed: int = 0, say: Callable[[str], None] = lambda _l: None,
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """The weights hill-climbed on UCT's own agreement (:func:`ime.imitators.round_values.climb`,
    ``grid.climb_evals`` scorings) on a seeded sample of ``grid.climb_positions`` fit positions
    that UCT decides. Why: the surrogate fits the weights for a minimax search's leaves, and UCT
    reads them through playouts and a squashing; its agreement is what counts. Each candidate is
    scaled to the starting weights' largest magnitude before UCT reads it, so that the climb's
    rescaling moves do not change the leaves' scale (``mcts_scale`` is fitted already)."""
    from ime.imitators.round_values import climb

    mid = np.flatnonzero(settings.uct(empties(train.P, train.O)))
    idx = mid[subsample(len(mid), grid.climb_positions, seed)]
    P, O, A = train.P[idx], train.O[idx], train.action[idx]
    top = float(np.abs(w).max()) or 1.0
    kw = settings.uct_kwargs()

    def on_scale(v: np.ndarray) -> np.ndarray:
        m = float(np.abs(v).max())
        return v * (top / m) if m > 0 else v

    def score(v: np.ndarray, phases: int) -> float:
        return 100.0 * float(np.mean(uct_moves(P, O, on_scale(v), phases, **kw) == A))

    start = score(w, settings.phases)
    out = climb([(w, settings.phases)], score, grid.climb_evals, say=say)
    say(f"mcts climb: {start:.2f} -> {out['score']:.2f}% on {len(A)} fit positions, "
        f"{out['evals']} scorings, {out['seconds']:.0f}s")
    return on_scale(out["weights"]), {"start": start, "score": out["score"],
                                      "evals": out["evals"], "positions": len(A)}
