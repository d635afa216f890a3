"""Fit the Snake search imitator to a target's decisions (MMTO-style) and choose its depth and
tie rule on held-out decisions.

The method is Connect Four's (docs/imitators.md): the probability of root direction ``j`` is
``softmax_j(v_j(w))`` over the searched values (:mod:`ime.imitators.snake_search`); a pass
searches every fit position with the current weights, keeps each root move's PV-leaf features
and minimises the loss with those leaves fixed (:mod:`ime.imitators.mmto`); depths are fitted in
turn, each from the previous depth's weights. Moves whose PV ends the game enter the loss as
:func:`ime.imitators.mmto.terminal_problem` says (lost moves out, draws in, a forced win or a
lost target move drops the position).

**Root moves.** The fit searches the directions onto free cells or onto a tail cell that leaves
this turn under the tail rule, plus the target's own move (a move the search counts as a loss,
e.g. into a tail it does not know leaves, takes its position out of the loss). The module
searches the encoder's legal mask instead (:mod:`ime.imitators.snake_family`).

**One-feature starts** (always): after the depths, each feature alone, either sign, is scored
on the selection decisions at every fitted depth, and that depth's passes run again from the
best of them (:func:`_unit_starts`).

**The budget stage** (``budgets`` above 0): after the fixed depths, the best weights so far and the
best one-feature start are scored under each node budget, child ordering
(:data:`ime.imitators.snake_search.ORDERS`, both always tried) and budget kind of ``budget_kinds``
(:data:`ime.imitators.snake_search.BUDGET_KINDS`: ``deepen`` up to ``budget_depth`` plies, or
``leaves``: a search that deep whose nodes past the budget are leaves); under each budget, ordering
and kind the better of the two gets ``budget_passes`` MMTO passes, each scored on the selection
decisions like a depth. Why the start too: a hand-written bot's one-term evaluation searched as the
bot searches it is what the passes' surrogate may leave (docs/imitators.md, "Snake's budgeted
search").

**The round-value climb** (``round_evals`` above 0; Reversi's stage,
:func:`ime.imitators.round_values.climb`): from the best candidate with a fixed depth, the best
one-feature start and, after a budget stage, the best budgeted candidate and the best one-feature
start under a budget, each under its own settings, the agreement itself is climbed among
round-number weights on a seeded sample of ``round_positions`` fit positions; the result is scored
on the selection decisions and kept as a candidate beside the others. The climb's weights are
divided by their largest before a search, so that no evaluation reaches a terminal value. After a
budget stage the climb's settings round (:func:`climb_neighbours`) also moves a budgeted climb's
node budget one rung along the fit's budgets and the round numbers between them (120 between 100 and
200) and its child ordering; each scoring takes the best of the tie rules. Why: a target's budget is
a number a person wrote, rarely on the fit's grid, and a two-term evaluation under a budget is what
neither the one-feature starts nor the surrogate's passes reach (a bot's reachable-area difference
at 120 nodes: docs/imitators.md, "The turn plane, the leaves budget and the climb under a
budget").

**Settings** (depth, node budget and ordering, tie rule, and the tail rule among
``tail_phases``: which of the three turns a length above 10 cells leaves open is taken; by
default only ``0``, the turn after a growth, so the tails leave on each of the next two turns,
the likelier case, 2 in 3, of each) are chosen by agreement on the *selection* decisions
(held-out matches, never the evaluation fold); ties of agreement go to a fixed depth, then the
smaller budget, then the shallower search.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from ime.imitators.ascent import coordinate_ascent
from ime.imitators.mmto import (
    Patience,
    check_loss,
    check_ties,
    depth_schedule,
    feature_scale,
    optimise,
    root_softmax,
    subsample,
    terminal_problem,
)
from ime.imitators.round_values import Agreement, Race, budget_ladder, climb, near_budgets
from ime.imitators.snake_features import SnakePosition, feature_names, num_features
from ime.imitators.snake_mcts import uct_moves
from ime.imitators.snake_search import (
    BUDGET_KINDS,
    ORDERS,
    PHASES,
    TIE_RULES,
    choices,
    legal_directions,
    search_all,
    tie_ranks,
)


@dataclass(frozen=True)
class SnakeSettings:
    """The search's own settings, chosen by the fit: ``depth`` in plies (ours, then the
    opponent's reply; with a budget the deepest iteration), ``tie`` one of :data:`TIE_RULES`,
    ``phase`` the tail rule (one of :data:`ime.imitators.snake_search.PHASES`), ``budget`` the
    node budget (0: none, a fixed depth) and ``order`` its child ordering (one of
    :data:`ime.imitators.snake_search.ORDERS`); ``mcts_sims`` above 0: the Monte-Carlo mode
    decides instead (:mod:`ime.imitators.snake_mcts`: that many simulations, UCB1's
    ``mcts_c``, leaves squashed by ``mcts_scale`` in evaluation units after ``mcts_playout``
    turns of safe-random play, draws seeded by ``mcts_seed``)."""

    depth: int = 1
    tie: str = "up"
    phase: int = 0
    budget: int = 0
    order: str = "natural"
    kind: str = "deepen"
    mcts_sims: int = 0
    mcts_c: float = 0.7
    mcts_scale: float = 1.0
    mcts_seed: int = 0
    mcts_playout: int = 0

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, got {self.depth}")
        if self.budget < 0:
            raise ValueError(f"budget must be >= 0, got {self.budget}")
        if self.order not in ORDERS:
            raise ValueError(f"order must be one of {ORDERS}, got {self.order!r}")
        if self.kind not in BUDGET_KINDS:
            raise ValueError(f"kind must be one of {BUDGET_KINDS}, got {self.kind!r}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {self.phase}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")
        if self.mcts_sims < 0 or self.mcts_c < 0 or self.mcts_scale <= 0 \
                or self.mcts_playout < 0:
            raise ValueError(f"mcts_sims >= 0, mcts_c >= 0, mcts_scale > 0 and mcts_playout >= 0 "
                             f"are required, got {self.mcts_sims}, {self.mcts_c}, "
                             f"{self.mcts_scale} and {self.mcts_playout}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SnakeFitConfig:
    """What the fit tries: ``depths`` fitted in turn; ``passes`` per depth above 1 (one number or
    one per depth); ``ties`` tried; ``inner_iters`` L-BFGS iterations a pass; ``l2`` on the
    scaled weights; ``loss`` ``softmax`` or ``hinge``; ``patience``: stop deepening after this
    many depths without a better selection agreement; ``max_fit``: at most this many fit
    positions (a seeded sample); ``tail_phases``: tail rules tried (each a whole fit);
    ``budgets``: node budgets of the budget stage (0s are skipped: none), each tried with every
    ordering and each kind of ``budget_kinds`` (:data:`ime.imitators.snake_search.BUDGET_KINDS`),
    searched up to ``budget_depth`` plies, ``budget_passes`` MMTO passes each;
    ``round_evals``: at most this many scorings of the round-value climb (0: none) on
    ``round_positions`` fit positions (module doc); ``mcts_sims`` (empty: none), ``mcts_cs``,
    ``mcts_scales`` (multiples of the evaluation's unit), ``mcts_depths`` (playout turns, 0:
    none), ``mcts_positions`` and ``mcts_rounds``: the Monte-Carlo stage (:func:`fit_mcts`)."""

    depths: Sequence[int] = (1, 2, 3, 4)
    passes: int | Sequence[int] = 3
    ties: Sequence[str] = TIE_RULES
    tail_phases: Sequence[int] = (0,)
    inner_iters: int = 40
    l2: float = 1e-4
    loss: str = "softmax"
    hinge_margin: float = 1.0
    patience: int | None = None
    max_fit: int | None = None
    budgets: Sequence[int] = (0,)
    budget_depth: int = 64
    budget_passes: int = 2
    budget_kinds: Sequence[str] = ("deepen",)
    round_evals: int = 0
    round_positions: int = 1000
    mcts_sims: Sequence[int] = ()
    mcts_cs: Sequence[float] = (0.7, 0.35, 1.4)
    mcts_scales: Sequence[float] = (1.0, 0.25, 0.5, 2.0, 4.0)
    mcts_depths: Sequence[int] = (0,)
    mcts_positions: int = 300
    mcts_rounds: int = 2
    seed: int = 0


@dataclass
class SnakeFit:
    """A fitted imitator: weights, settings and how the fit went."""

    weights: np.ndarray
    settings: SnakeSettings
    summary: dict[str, Any] = field(default_factory=dict)


def fit_roots(positions: Sequence[SnakePosition], action: np.ndarray, phase: int = -1
              ) -> list[list[int]]:
    """The fit's root moves: the free directions and the target's move (module doc)."""
    return [sorted(set(legal_directions(p, phase)) | {int(a)})
            for p, a in zip(positions, action, strict=True)]


def decide(w: np.ndarray, settings: SnakeSettings, positions: Sequence[SnakePosition],
           roots: Sequence[Sequence[int]] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The search's direction for every position, and per position a distribution over the 4
    directions: the softmax of the search's root values, or the Monte-Carlo mode's root visit
    shares (``settings.mcts_sims`` above 0)."""
    if settings.mcts_sims:
        if roots is None:
            roots = [legal_directions(p, settings.phase) for p in positions]
        chosen, visits = uct_moves(positions, w, roots, settings.mcts_sims, settings.mcts_c,
                                   settings.mcts_scale, settings.phase, settings.mcts_seed,
                                   settings.mcts_playout)
        return chosen, visits / np.maximum(visits.sum(axis=1, keepdims=True), 1)
    res = search_all(positions, w, settings.depth, roots, settings.phase, settings.budget,
                     settings.order, settings.kind, features=False)
    return choices(res, settings.tie), root_softmax(res, 4)


def fit(positions: Sequence[SnakePosition], action: np.ndarray,
        sel_positions: Sequence[SnakePosition], sel_action: np.ndarray,
        config: SnakeFitConfig | None = None,
        log: Callable[[str], None] | None = None) -> SnakeFit:
    """Fit weights on (``positions``, ``action``) and choose the settings on the selection
    decisions (``sel_*``)."""
    cfg = config or SnakeFitConfig()
    say = log or (lambda _line: None)
    check_loss(cfg.loss)
    check_ties(cfg.ties, TIE_RULES, "Snake's")
    if any(int(b) < 0 for b in cfg.budgets):
        raise ValueError(f"budgets must be >= 0, got {list(cfg.budgets)}")
    budgets = [int(b) for b in cfg.budgets if int(b) > 0]
    for kind in cfg.budget_kinds:
        if kind not in BUDGET_KINDS:
            raise ValueError(f"budget_kinds: {kind!r} is not one of {list(BUDGET_KINDS)}")
    if budgets and cfg.budget_depth < 2:
        raise ValueError(f"budget_depth must be >= 2 with a budget, got {cfg.budget_depth}")
    check_mcts(cfg)
    t0 = time.perf_counter()
    action = np.asarray(action, dtype=np.int64)
    idx = subsample(len(action), cfg.max_fit, cfg.seed)
    pos = [positions[i] for i in idx]
    action = action[idx]
    sel_action = np.asarray(sel_action, dtype=np.int64)
    schedule = depth_schedule(cfg.depths, cfg.passes)
    candidates: list[dict[str, Any]] = []
    for phase in cfg.tail_phases:
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {phase}")
        roots = fit_roots(pos, action, phase)
        sel_roots = fit_roots(sel_positions, sel_action, phase)
        passer = _Passes(cfg, say, phase, pos, action, roots, sel_positions, sel_action,
                         sel_roots)
        w = np.zeros(num_features())
        tie = cfg.ties[0]
        deepen = Patience(cfg.patience)
        for depth, n_passes in schedule:
            if deepen.spent(deepen.best >= 0):
                say(f"phase {phase}: no better selection agreement for {deepen.stale} depths; "
                    f"depth {depth} and above not fitted")
                break
            passes = Patience(None)  # Snake's fit has no pass patience: every pass runs
            for it in range(n_passes):
                cand = passer.one(w, tie, depth, it)
                w, tie = cand["weights"], cand["tie"]
                candidates.append(cand)
                passes.update(cand["acc"])
            deepen.update(passes.best)
        candidates += _unit_starts(passer, schedule, candidates)
        if budgets:
            mine = [c for c in candidates if c["phase"] == phase]
            starts = [max(mine, key=_rank)]
            unit = max((c for c in mine if c.get("start")), key=_rank, default=None)
            if unit is not None and unit is not starts[0]:
                starts.append(unit)
            for kind, budget, order in itertools.product(cfg.budget_kinds, budgets, ORDERS):
                scored = [passer.score(c["weights"], cfg.budget_depth, c.get("start") or "fitted",
                                       budget=budget, order=order, kind=kind) for c in starts]
                candidates += scored
                first = max(scored, key=_rank)
                w, tie = first["weights"], first["tie"]
                for it in range(cfg.budget_passes):
                    cand = passer.one(w, tie, cfg.budget_depth, it, budget, order, kind)
                    w, tie = cand["weights"], cand["tie"]
                    candidates.append(cand)
        if cfg.round_evals > 0:
            candidates.append(_round_climb(passer, candidates, cfg, say))
    best = max(candidates, key=_rank)
    settings = SnakeSettings(depth=best["depth"], tie=best["tie"], phase=best["phase"],
                             budget=best["budget"], order=best["order"],
                             kind=best.get("kind", "deepen"))
    mcts: dict[str, Any] | None = None
    select_acc = best["acc"]
    if cfg.mcts_sims:
        settings, mcts = fit_mcts(best["weights"], settings, best["acc"], sel_positions,
                                  sel_action, cfg, say)
        select_acc = max(select_acc, mcts["select"])
    # the train agreement: on every fit position, or on a sample of mcts_positions of them
    # where the Monte-Carlo mode decides (a UCT decision costs a hundred searches')
    scored = np.arange(len(action)) if not settings.mcts_sims \
        else subsample(len(action), cfg.mcts_positions, cfg.seed + 4)
    chosen, _ = decide(best["weights"], settings, [pos[i] for i in scored],
                       fit_roots([pos[i] for i in scored], action[scored], settings.phase))
    train_final = float(np.mean(chosen == action[scored])) * 100 if len(scored) else 0.0
    summary = {"select_acc": select_acc, "train_acc": train_final,
               "train_positions": int(len(idx)), "train_acc_positions": int(len(scored)),
               "select_positions": int(len(sel_action)),
               "fit_seconds": time.perf_counter() - t0,
               "grid": [{k: c[k] for k in ("phase", "depth", "budget", "order", "kind", "pass_",
                                           "tie", "acc", "train_acc_before", "kept", "start")
                         if k in c} for c in candidates]}
    if mcts is not None:
        summary["mcts"] = mcts
    say(f"chosen: {settings} select acc {select_acc:.2f}%, train acc {train_final:.2f}% in "
        f"{summary['fit_seconds']:.0f}s")
    return SnakeFit(best["weights"], settings, summary)


class _Passes:
    """One tail rule's MMTO passes over the fit positions, each scored on the selection rows
    (the feature scale is fixed by the first pass's search)."""

    def __init__(self, cfg: SnakeFitConfig, say: Callable[[str], None], phase: int,
                 pos: Sequence[SnakePosition], action: np.ndarray, roots: list[list[int]],
                 sel_positions: Sequence[SnakePosition], sel_action: np.ndarray,
                 sel_roots: list[list[int]]):
        self.cfg, self.say, self.phase = cfg, say, phase
        self.pos, self.action, self.roots = pos, action, roots
        self.sel_positions, self.sel_action, self.sel_roots = sel_positions, sel_action, sel_roots
        self.scale: np.ndarray | None = None

    def one(self, w: np.ndarray, tie: str, depth: int, it: int, budget: int = 0,
            order: str = "natural", kind: str = "deepen") -> dict[str, Any]:
        """One MMTO pass from ``w`` under these settings: the candidate it gives."""
        cfg, phase = self.cfg, self.phase
        res = search_all(self.pos, w, depth, self.roots, phase, budget, order, kind)
        if self.scale is None:
            self.scale = feature_scale(res, len(w))
        scale = self.scale
        train_acc = float(np.mean(choices(res, tie) == self.action)) * 100
        prob = terminal_problem(res, self.action, scale, tie_ranks(tie))
        w = optimise(prob, w * scale, cfg.l2, cfg.inner_iters, cfg.loss,
                     cfg.hinge_margin) / scale
        tie, acc = self.select(w, depth, cfg.ties, budget, order, kind)
        where = (f"budget={budget} ({kind}) order={order} depth<={depth}" if budget
                 else f"depth={depth}")
        self.say(f"phase={phase} {where} pass={it}: train acc (before step) {train_acc:.2f}%, "
                 f"select acc {acc:.2f}% ({tie}), {prob.kept} positions in the loss, "
                 f"{res.nodes.mean():.0f} nodes/position, depth {res.depths.mean():.1f}")
        return {"phase": phase, "depth": depth, "budget": budget, "order": order,
                "kind": kind, "pass_": it, "tie": tie, "acc": acc,
                "train_acc_before": train_acc,
                "kept": int(prob.kept), "weights": w.copy()}

    def select(self, w: np.ndarray, depth: int, ties: Sequence[str], budget: int = 0,
               order: str = "natural", kind: str = "deepen") -> tuple[str, float]:
        """The tie rule of ``ties`` under which ``w``'s search agrees most with the selection
        decisions (the first listed wins a tie), and that agreement in %."""
        sel = search_all(self.sel_positions, w, depth, self.sel_roots, self.phase, budget, order,
                         kind, features=False)
        accs = {t: float(np.mean(choices(sel, t) == self.sel_action)) * 100
                if len(self.sel_action) else 0.0 for t in ties}
        tie = max(ties, key=lambda t: accs[t])
        return tie, accs[tie]

    def score(self, w: np.ndarray, depth: int, start: str, tie: str | None = None,
              budget: int = 0, order: str = "natural", kind: str = "deepen") -> dict[str, Any]:
        """``w`` as it is, scored on the selection rows at ``depth`` (no pass: a start), with
        the best of the tie rules or with ``tie``, under ``budget``, ``order`` and ``kind``."""
        tie, acc = self.select(w, depth, self.cfg.ties if tie is None else (tie,), budget,
                               order, kind)
        return {"phase": self.phase, "depth": depth, "budget": budget, "order": order,
                "kind": kind, "pass_": -1, "tie": tie, "acc": acc, "train_acc_before": None,
                "kept": 0, "weights": w.copy(), "start": start}


def _unit_starts(passer: _Passes, schedule: list[tuple[int, int]],
                 candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The one-feature starts: each feature alone, either sign, at every depth the depth stage
    fitted, scored on the selection rows; then that depth's passes from the best of them.

    Why: the softmax surrogate's optimum is not the agreement's, and a one-feature evaluation
    (the territory, say) is what many hand-written Snake bots use: on the quick scale's
    deterministic alpha-beta targets the starts gained 2-8 points on unseen positions
    (docs/imitators.md, "One-feature starts and the budget stage"). Reversi's round-value stage
    answers the same gap with a climb on the agreement; here the starts are cheap."""
    assert passer.scale is not None  # the depth stage's first pass set it
    passes, phase = dict(schedule), passer.phase
    depths = sorted({c["depth"] for c in candidates if c["phase"] == phase and not c["budget"]})
    names = feature_names()
    out = []
    for depth in depths:
        for k, name in enumerate(names):
            for sign in (1.0, -1.0):
                w = np.zeros(len(names))
                w[k] = sign / passer.scale[k]
                out.append(passer.score(w, depth, f"{'+' if sign > 0 else '-'}{name}"))
    best = max(out, key=_rank)
    passer.say(f"phase={phase} one-feature starts: the best {best['start']} at depth "
               f"{best['depth']}: select acc {best['acc']:.2f}% ({best['tie']}); {len(out)} "
               "starts")
    w, tie = best["weights"], best["tie"]
    for it in range(passes[best["depth"]]):
        cand = passer.one(w, tie, best["depth"], it)
        w, tie = cand["weights"], cand["tie"]
        out.append(cand)
    return out


def _unit(w: np.ndarray) -> np.ndarray:
    """``w`` divided by its largest magnitude (leaf values stay far below a terminal's)."""
    top = float(np.max(np.abs(w))) if len(w) else 0.0
    return w / top if top > 0 else w


class ClimbSetting(NamedTuple):
    """A climb's search setting: fixed ``depth`` (``budget`` 0) or the budgeted search of
    ``kind`` to ``depth`` plies under ``budget`` nodes and child ``order``. No tie rule: each
    scoring takes the best of the fit's (they only read the search's values)."""

    depth: int
    budget: int
    order: str
    kind: str = "deepen"

    def __str__(self) -> str:
        """What the climb's log says of it."""
        return (f"{self.budget} nodes ({self.kind}), {self.order} ordering" if self.budget
                else f"depth {self.depth}")


def climb_neighbours(budgets: Sequence[int]) -> Callable[[ClimbSetting], list[ClimbSetting]]:
    """A setting's neighbours in the climb's settings round: a budgeted setting's own budget
    and one rung either side on :func:`ime.imitators.round_values.budget_ladder` of the fit's
    ``budgets`` (a budget not on it stays), each in both child orderings, less itself. A fixed
    depth has none."""
    ladder = budget_ladder(budgets)

    def neighbours(s: ClimbSetting) -> list[ClimbSetting]:
        if not s.budget:
            return []
        return [s._replace(budget=b, order=o) for b in near_budgets(ladder, s.budget)
                for o in ORDERS
                if (b, o) != (s.budget, s.order)]

    return neighbours


def _round_climb(passer: _Passes, candidates: list[dict[str, Any]], cfg: SnakeFitConfig,
                 say: Callable[[str], None]) -> dict[str, Any]:
    """The round-value climb (module doc) from this tail rule's best fixed-depth candidate,
    its best one-feature start and, after a budget stage, its best budgeted candidate and best
    one-feature start under a budget: the candidate it ends at, scored on the selection rows
    with the best of the tie rules. A scoring is one search read under every tie rule of the
    fit, the best taken (why: a tie rule is right only with the right weights, so a settings
    round that moves it one step at a time finds it late or never). With a budget stage the
    climb's settings round moves the budget and the ordering (:func:`climb_neighbours`)."""
    mine = [c for c in candidates if c["phase"] == passer.phase and not c["budget"]]
    fitted = max((c for c in mine if not c.get("start")), key=_rank)
    unit = max((c for c in mine if c.get("start")), key=_rank, default=None)
    under = [c for c in candidates if c["phase"] == passer.phase and c["budget"]]
    budgeted = max(under, key=_rank, default=None)
    budgeted_unit = max((c for c in under if c.get("start") not in (None, "fitted")),
                        key=_rank, default=None)
    rows = subsample(len(passer.pos), cfg.round_positions, cfg.seed + 2)
    pos = [passer.pos[i] for i in rows]
    act = passer.action[rows]
    roots = [passer.roots[i] for i in rows]

    race = Race(len(rows))

    def score(w: np.ndarray, setting: Any, bar: float | None) -> Agreement:
        s, u = ClimbSetting(*setting), _unit(w)

        def wrong(r: np.ndarray) -> np.ndarray:
            res = search_all([pos[i] for i in r], u, s.depth, [roots[i] for i in r],
                             passer.phase, s.budget, s.order, s.kind, features=False)
            return np.array([choices(res, t) != act[r] for t in cfg.ties])

        return race(wrong, bar)

    def start(c: dict[str, Any]) -> tuple[np.ndarray, ClimbSetting]:
        return c["weights"], ClimbSetting(c["depth"], c["budget"], c["order"],
                                          c.get("kind", "deepen"))

    picked = [fitted, unit, budgeted, budgeted_unit]
    starts = [start(c) for k, c in enumerate(picked) if c is not None and c not in picked[:k]]
    moves = climb_neighbours(cfg.budgets) if budgeted is not None else None
    out = climb(starts, score, cfg.round_evals, say, per_weight=100.0 / max(len(rows), 1),
                setting_moves=moves, raced=True)
    s = ClimbSetting(*out["setting"])
    cand = passer.score(_unit(out["weights"]), s.depth, "round", None, s.budget, s.order,
                        s.kind)
    say(f"phase={passer.phase} round values: select acc {cand['acc']:.2f}% at {s}, ties "
        f"{cand['tie']}, {out['evals']} scorings on {len(rows)} fit positions in "
        f"{out['seconds']:.0f}s (raced: {race.searched} positions searched, "
        f"{race.searched / max(out['evals'] * len(rows), 1):.0%} of the full scorings)")
    return cand


def check_mcts(cfg: SnakeFitConfig) -> None:
    """A clear error for a Monte-Carlo stage that cannot run (before any fitting)."""
    if not cfg.mcts_sims:
        return
    if not cfg.mcts_cs or not cfg.mcts_scales or not cfg.mcts_depths:
        raise ValueError("net.search.mcts_cs, mcts_scales and mcts_depths: at least one value "
                         "each (to turn the Monte-Carlo stage off, set mcts_sims to [])")
    if min(cfg.mcts_sims) < 1 or min(cfg.mcts_cs) < 0 or min(cfg.mcts_scales) <= 0 \
            or min(cfg.mcts_depths) < 0:
        raise ValueError(f"net.search.mcts_*: sims >= 1, c >= 0, scale > 0 and depth >= 0 are "
                         f"required, got {list(cfg.mcts_sims)}, {list(cfg.mcts_cs)}, "
                         f"{list(cfg.mcts_scales)}, {list(cfg.mcts_depths)}")
    if cfg.mcts_positions < 1 or cfg.mcts_rounds < 1:
        raise ValueError(f"net.search.mcts_positions and mcts_rounds must be >= 1, got "
                         f"{cfg.mcts_positions} and {cfg.mcts_rounds}")


def value_unit(w: np.ndarray, positions: Sequence[SnakePosition], roots: Sequence[Sequence[int]],
               phase: int) -> float:
    """The spread (standard deviation) of ``w``'s values a whole turn after each root move,
    over the moves that do not end the game: the unit of the Monte-Carlo mode's leaf scale, so
    that a scale means the same whatever the weights' own scale (1 where nothing varies)."""
    res = search_all(positions, w, 2, roots, phase, features=False)
    v = res.values[~res.terminal]
    spread = float(np.std(v)) if len(v) > 1 else 0.0
    return spread if spread > 0 else 1.0


def fit_mcts(w: np.ndarray, base: SnakeSettings, base_acc: float,
             sel_positions: Sequence[SnakePosition], sel_action: np.ndarray,
             cfg: SnakeFitConfig, say: Callable[[str], None]
             ) -> tuple[SnakeSettings, dict[str, Any]]:
    """The Monte-Carlo mode's settings fitted to the selection decisions, or ``base`` itself:
    whichever agrees more on the whole selection fold (``base_acc``: the search's agreement
    there, percent; the same root moves, :func:`fit_roots`).

    Why: against a target that draws its move from a simultaneous-move Monte-Carlo tree, a
    fitted maximin search agrees only where that tree's favourite is the maximin move (a
    decoupled-UCT target's search imitator: 63.1 % of unseen positions against its
    self-agreement of 86.3 %, quick scale; docs/imitators.md, "Snake's Monte-Carlo mode"). The
    stage keeps the fitted evaluation and asks whether decoupled UCT over it
    (:mod:`ime.imitators.snake_mcts`) names the target's move more often, and with which
    simulations, exploration constant, leaf scale and playout turns: a coordinate ascent
    (:func:`ime.imitators.ascent.coordinate_ascent`) from the lists' first values, every
    candidate scored on the same seeded sample of ``mcts_positions`` selection positions. The
    scales are multiples of :func:`value_unit`. Only the logged moves decide; the lists are
    generic. UCT's seed is the fit's."""
    t0 = time.perf_counter()
    roots = fit_roots(sel_positions, sel_action, base.phase)
    idx = subsample(len(sel_action), cfg.mcts_positions, cfg.seed + 3)
    pos, act, rts = [sel_positions[i] for i in idx], sel_action[idx], [roots[i] for i in idx]
    unit = value_unit(w, pos, rts, base.phase)
    lists = {"sims": tuple(int(x) for x in cfg.mcts_sims),
             "c": tuple(float(x) for x in cfg.mcts_cs),
             "scale": tuple(float(x) for x in cfg.mcts_scales),
             "playout": tuple(int(x) for x in cfg.mcts_depths)}
    rows: list[dict[str, Any]] = []
    scored: dict[tuple[Any, ...], float] = {}

    def with_knobs(v: dict[str, Any]) -> SnakeSettings:
        return replace(base, mcts_sims=int(v["sims"]), mcts_c=float(v["c"]),
                       mcts_scale=float(v["scale"]) * unit, mcts_seed=int(cfg.seed),
                       mcts_playout=int(v["playout"]))

    def score(v: dict[str, Any]) -> float:
        key = tuple(v[k] for k in lists)
        if key not in scored:
            s = with_knobs(v)
            moves, _ = uct_moves(pos, w, rts, s.mcts_sims, s.mcts_c, s.mcts_scale, s.phase,
                                 s.mcts_seed, s.mcts_playout)
            scored[key] = 100.0 * float(np.mean(moves == act)) if len(act) else 0.0
            rows.append({**v, "acc": scored[key]})
        return scored[key]

    start = {k: vals[0] for k, vals in lists.items()}
    say(f"mcts: the evaluation's unit {unit:.4g}; UCT from {start}: {score(start):.2f}% on "
        f"{len(act)} selection positions")
    cur, best = coordinate_ascent(start, lists, score, rounds=cfg.mcts_rounds, say=say,
                                  stage="mcts")
    chosen = with_knobs(cur)
    moves, _ = uct_moves(sel_positions, w, roots, chosen.mcts_sims, chosen.mcts_c,
                         chosen.mcts_scale, chosen.phase, chosen.mcts_seed, chosen.mcts_playout)
    acc = 100.0 * float(np.mean(moves == sel_action)) if len(sel_action) else 0.0
    kept = acc > base_acc + 1e-9
    say(f"mcts: on the whole selection fold ({len(sel_action)} positions) the search alone "
        f"{base_acc:.2f}%, UCT {acc:.2f}%: {'UCT' if kept else 'the search alone'} kept "
        f"({time.perf_counter() - t0:.0f}s)")
    info = {"select": acc, "kept": kept, "sample_acc": best, "positions": int(len(act)),
            "unit": unit, "settings": cur, "rows": rows}
    return (chosen if kept else base), info


def _rank(c: dict[str, Any]) -> tuple[float, int, int, int]:
    """Best selection agreement; ties to a fixed depth, then the smaller budget, the shallower
    search and the earlier pass."""
    return (round(c["acc"], 9), -c["budget"], -c["depth"], -c["pass_"])
