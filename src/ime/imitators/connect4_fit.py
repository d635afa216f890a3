"""Fit Connect Four's search imitator to a target's decisions (MMTO-style) and choose its depth,
evaluation phases and tie rule on held-out decisions.

The method is Reversi's (:mod:`ime.imitators.search_fit`, docs/imitators.md): the probability
of root column ``j`` is ``softmax_j(v_j(w))`` over the searched values
(:mod:`ime.imitators.connect4_search`), the loss the cross-entropy of the target's column plus an
L2 penalty; a pass searches every fit position with the current weights, keeps each column's
principal-variation leaf features and minimises the loss with those leaves fixed
(:mod:`ime.imitators.mmto`). Depths are fitted in turn, each from the previous depth's weights.

**Finished games** are common inside a Connect Four search (a move that lets the opponent win
at once), so, unlike Reversi's fit, a position is not dropped because one of its moves' PV ends
the game: a lost move's value (below ``-TERMINAL``) carries no softmax weight and leaves the
loss; a drawn move's value is 0 whatever the weights, which is its row of zero features; only
positions where a move wins by force (the search's choice then does not depend on the weights),
or where the target's own move loses by force, leave the loss.

**Settings** (depth, phases, tie rule) are chosen by agreement on the *selection* decisions
(held-out matches, never the evaluation fold); ties of agreement go to the shallower search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from ime.games.connect4.board import Geometry
from ime.imitators.ascent import coordinate_ascent
from ime.imitators.connect4_features import PHASES, num_features
from ime.imitators.connect4_mcts import RULES, uct_moves
from ime.imitators.connect4_mcts import check as check_uct
from ime.imitators.connect4_search import TIE_RULES, search_all, tie_ranks
from ime.imitators.mmto import (
    Patience,
    Problem,
    SearchResults,
    check_loss,
    check_ties,
    depth_schedule,
    feature_scale,
    optimise,
    ranked_choices,
    subsample,
    terminal_problem,
)


@dataclass(frozen=True)
class Connect4Settings:
    """The search's own settings, chosen by the fit: ``depth`` in plies, evaluation ``phases``
    (1, or 2: tapered by the share of empty cells), ``tie`` one of :data:`TIE_RULES`.

    ``mcts_sims > 0`` turns on the Monte-Carlo mode (:mod:`ime.imitators.connect4_mcts`): UCT
    with ``mcts_sims`` simulations, exploration ``mcts_c``, the move rules ``mcts_tree`` and
    ``mcts_playout`` (:data:`ime.imitators.connect4_mcts.RULES`) and numba's generator seeded
    from the position and ``mcts_seed`` decides every position; the alpha-beta search's root
    values still give the module's soft part (:mod:`ime.imitators.connect4_family`)."""

    depth: int = 1
    phases: int = 1
    tie: str = "centre"
    mcts_sims: int = 0
    mcts_c: float = 0.707
    mcts_tree: str = "any"
    mcts_playout: str = "any"
    mcts_seed: int = 0

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, got {self.depth}")
        if self.phases not in PHASES:
            raise ValueError(f"phases must be one of {PHASES}, got {self.phases}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")
        if self.mcts_sims < 0:
            raise ValueError(f"mcts_sims must be >= 0, got {self.mcts_sims}")
        if self.mcts_sims:
            check_uct(self.mcts_sims, self.mcts_c, self.mcts_tree, self.mcts_playout)

    def uct_kwargs(self) -> dict[str, Any]:
        """The Monte-Carlo mode's settings as :func:`ime.imitators.connect4_mcts.uct_moves`
        takes them."""
        return {"sims": self.mcts_sims, "c": self.mcts_c, "tree": self.mcts_tree,
                "playout": self.mcts_playout, "seed": self.mcts_seed}

    def to_dict(self) -> dict[str, Any]:
        """Plain values (for the imitator's JSON file; without the Monte-Carlo mode's fields
        when it is off, so a model fitted before the mode keeps its bytes)."""
        d = asdict(self)
        if not self.mcts_sims:
            d = {k: v for k, v in d.items() if not k.startswith("mcts_")}
        return d


@dataclass
class Connect4FitConfig:
    """What the fit tries: ``depths`` fitted in turn; ``passes`` per depth above 1 (one number or
    one per depth); ``phases`` and ``ties`` tried; ``inner_iters`` L-BFGS iterations a pass;
    ``l2`` on the scaled weights; ``loss`` ``softmax`` or ``hinge``; ``patience``: stop deepening
    after this many depths without a better selection agreement; ``pass_patience``: the same
    for a depth's passes; ``max_fit``: at most this many fit positions (a seeded sample)."""

    depths: Sequence[int] = (1, 2, 3, 4, 5)
    passes: int | Sequence[int] = 3
    phases: Sequence[int] = (1, 2)
    ties: Sequence[str] = TIE_RULES
    inner_iters: int = 40
    l2: float = 1e-4
    loss: str = "softmax"
    hinge_margin: float = 1.0
    patience: int | None = None
    pass_patience: int | None = None
    max_fit: int | None = None
    seed: int = 0
    mcts_sims: Sequence[int] = ()
    mcts_cs: Sequence[float] = (0.707, 0.35, 1.0, 1.4)
    mcts_positions: int = 1000
    mcts_rounds: int = 2

    def __post_init__(self) -> None:
        if self.mcts_sims:
            if not self.mcts_cs:
                raise ValueError("net.search.mcts_cs: at least one value")
            for sims in self.mcts_sims:
                for c in self.mcts_cs:
                    check_uct(int(sims), float(c), RULES[0], RULES[0])
            if self.mcts_positions < 1 or self.mcts_rounds < 1:
                raise ValueError(f"net.search.mcts_positions and mcts_rounds must be >= 1, got "
                                 f"{self.mcts_positions} and {self.mcts_rounds}")


@dataclass
class Connect4Fit:
    """A fitted imitator: weights, settings and how the fit went."""

    weights: np.ndarray
    settings: Connect4Settings
    summary: dict[str, Any] = field(default_factory=dict)


def decide(w: np.ndarray, settings: Connect4Settings, me: np.ndarray, opp: np.ndarray,
           geo: Geometry) -> tuple[np.ndarray, SearchResults]:
    """The imitator's column for every position (UCT's where the Monte-Carlo mode is on, else
    the search's), and the alpha-beta search results (the root values)."""
    res = search_all(me, opp, w, settings.depth, settings.phases, geo)
    if settings.mcts_sims:
        return uct_moves(me, opp, geo, **settings.uct_kwargs()), res
    return ranked_choices(res, tie_ranks(settings.tie, geo.width)), res


def problem(res: SearchResults, action: np.ndarray, scale: np.ndarray,
            rank: np.ndarray) -> Problem:
    """One pass's fixed-leaf problem (see the module doc for which rows and positions):
    :func:`ime.imitators.mmto.terminal_problem`."""
    return terminal_problem(res, action, scale, rank)


def fit(me: np.ndarray, opp: np.ndarray, action: np.ndarray, sel_me: np.ndarray,
        sel_opp: np.ndarray, sel_action: np.ndarray, geo: Geometry,
        config: Connect4FitConfig | None = None,
        log: Callable[[str], None] | None = None) -> Connect4Fit:
    """Fit weights on (``me``, ``opp``, ``action``) and choose the settings on the selection
    decisions (``sel_*``)."""
    cfg = config or Connect4FitConfig()
    say = log or (lambda _line: None)
    check_loss(cfg.loss)
    check_ties(cfg.ties, TIE_RULES, "Connect Four's")
    t0 = time.perf_counter()
    idx = subsample(len(action), cfg.max_fit, cfg.seed)
    me, opp, action = me[idx], opp[idx], np.asarray(action, dtype=np.int64)[idx]
    sel_action = np.asarray(sel_action, dtype=np.int64)
    schedule = depth_schedule(cfg.depths, cfg.passes)
    candidates: list[dict[str, Any]] = []
    for phases in cfg.phases:
        w = np.zeros(num_features(phases))
        scale: np.ndarray | None = None
        tie = cfg.ties[0]
        deepen = Patience(cfg.patience)
        for depth, n_passes in schedule:
            if deepen.spent(deepen.best >= 0):
                say(f"phases={phases}: no better selection agreement for {deepen.stale} depths; "
                    f"depth {depth} and above not fitted")
                break
            passes = Patience(cfg.pass_patience)
            for it in range(n_passes):
                if passes.spent(it > 0):
                    break
                ts = time.perf_counter()
                res = search_all(me, opp, w, depth, phases, geo)
                t_search = time.perf_counter() - ts
                if scale is None:
                    scale = feature_scale(res, len(w))
                train_acc = float(np.mean(ranked_choices(
                    res, tie_ranks(tie, geo.width)) == action)) * 100
                prob = problem(res, action, scale, tie_ranks(tie, geo.width))
                w = optimise(prob, w * scale, cfg.l2, cfg.inner_iters, cfg.loss,
                             cfg.hinge_margin) / scale
                sel = search_all(sel_me, sel_opp, w, depth, phases, geo)
                accs = {t: float(np.mean(ranked_choices(sel, tie_ranks(t, geo.width))
                                         == sel_action)) * 100 for t in cfg.ties}
                tie = max(cfg.ties, key=lambda t: accs[t])  # first listed wins a tie
                cand = {"phases": phases, "depth": depth, "pass_": it, "tie": tie,
                        "acc": accs[tie], "train_acc_before": train_acc,
                        "kept": int(prob.kept), "weights": w.copy()}
                candidates.append(cand)
                passes.update(cand["acc"])
                say(f"phases={phases} depth={depth} pass={it}: train acc (before step) "
                    f"{train_acc:.2f}%, select acc {cand['acc']:.2f}% ({tie}), "
                    f"{prob.kept} positions in the loss, search {t_search:.1f}s, "
                    f"{res.nodes.mean():.0f} nodes/position")
            deepen.update(passes.best)
    best = max(candidates, key=lambda c: (round(c["acc"], 9), -c["depth"], -c["phases"],
                                          -c["pass_"]))
    settings = Connect4Settings(depth=best["depth"], phases=best["phases"], tie=best["tie"])
    summary = {"select_acc": best["acc"], "train_positions": int(len(idx)),
               "select_positions": int(len(sel_action)),
               "grid": [{k: c[k] for k in ("phases", "depth", "pass_", "tie", "acc",
                                           "train_acc_before", "kept")} for c in candidates]}
    if cfg.mcts_sims:
        settings, summary["mcts"] = fit_mcts(best["weights"], settings, best["acc"], sel_me,
                                             sel_opp, sel_action, geo, cfg, say=say)
        summary["select_acc"] = max(best["acc"], summary["mcts"]["select"])
    summary["fit_seconds"] = time.perf_counter() - t0
    say(f"chosen: {settings} select acc {summary['select_acc']:.2f}% in "
        f"{summary['fit_seconds']:.0f}s")
    return Connect4Fit(best["weights"], settings, summary)


MCTS_KNOBS = ("sims", "c", "tree", "playout")
"""The Monte-Carlo stage's settings, in the order its ascent visits them."""


def fit_mcts(w: np.ndarray, base: Connect4Settings, base_acc: float, sel_me: np.ndarray,
             sel_opp: np.ndarray, sel_action: np.ndarray, geo: Geometry,
             cfg: Connect4FitConfig, *, say: Callable[[str], None] = lambda _l: None,
             ) -> tuple[Connect4Settings, dict[str, Any]]:
    """The Monte-Carlo mode's settings fitted to the selection decisions, or ``base`` itself:
    whichever agrees more on the whole selection fold (``base_acc``: the search's agreement
    there, percent).

    Why: against a target that draws its column from a Monte-Carlo tree, a fitted alpha-beta
    agrees only where that tree's favourite is the minimax column (c4_uct2k's search imitator:
    64.8 % of unseen positions, 12 points under its self-agreement, at the thesis scale). The
    stage asks whether UCT names the target's column more often, and with which simulations,
    exploration constant and move rules of the tree and the playouts: a coordinate ascent
    (:func:`ime.imitators.ascent.coordinate_ascent`) from ``mcts_sims[0]``, ``mcts_cs[0]`` and
    rule ``any``, every candidate scored on the same seeded sample of ``mcts_positions``
    selection positions; the rules are always all three
    (:data:`ime.imitators.connect4_mcts.RULES`), as the tie rules are. Only the logged columns
    decide; the lists are generic. UCT's seed is the fit's."""
    t0 = time.perf_counter()
    idx = subsample(len(sel_action), cfg.mcts_positions, cfg.seed)
    me, opp, act = sel_me[idx], sel_opp[idx], sel_action[idx]
    lists = {"sims": tuple(int(x) for x in cfg.mcts_sims),
             "c": tuple(float(x) for x in cfg.mcts_cs), "tree": RULES, "playout": RULES}
    rows: list[dict[str, Any]] = []
    scored: dict[tuple, float] = {}

    def with_knobs(v: dict[str, Any]) -> Connect4Settings:
        return replace(base, mcts_sims=int(v["sims"]), mcts_c=float(v["c"]),
                       mcts_tree=str(v["tree"]), mcts_playout=str(v["playout"]),
                       mcts_seed=int(cfg.seed))

    def score(v: dict[str, Any]) -> float:
        key = tuple(v[k] for k in MCTS_KNOBS)
        if key not in scored:
            moves = uct_moves(me, opp, geo, **with_knobs(v).uct_kwargs())
            scored[key] = 100.0 * float(np.mean(moves == act))
            rows.append({**v, "acc": scored[key]})
        return scored[key]

    start = {k: lists[k][0] for k in MCTS_KNOBS}
    say(f"mcts: UCT from {start}: {score(start):.2f}% on {len(act)} selection positions")
    cur, best = coordinate_ascent(start, lists, score, rounds=cfg.mcts_rounds, say=say,
                                  stage="mcts")
    chosen = with_knobs(cur)
    acc = 100.0 * float(np.mean(uct_moves(sel_me, sel_opp, geo, **chosen.uct_kwargs())
                                == sel_action))
    kept = acc > base_acc + 1e-9
    say(f"mcts: on the whole selection fold ({len(sel_action)} positions) the search alone "
        f"{base_acc:.2f}%, UCT {acc:.2f}%: {'UCT' if kept else 'the search alone'} kept "
        f"({time.perf_counter() - t0:.0f}s)")
    info = {"select": acc, "kept": kept, "sample_acc": best, "positions": int(len(act)),
            "settings": {k: cur[k] for k in MCTS_KNOBS}, "rows": rows}
    return (chosen if kept else base), info
