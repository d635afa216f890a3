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

**Settings** (depth, tie rule, and the tail rule among ``tail_phases``: which of the three turns
a length above 10 cells leaves open is taken; by default only ``0``, the turn after a growth,
so the tails leave on each of the next two turns, the likelier case, 2 in 3, of each) are
chosen by agreement on the *selection* decisions (held-out matches, never the evaluation fold);
ties of agreement go to the shallower search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ime.imitators.mmto import (
    Patience,
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
from ime.imitators.snake_features import SnakePosition, num_features
from ime.imitators.snake_search import PHASES, TIE_RULES, legal_directions, search_all, tie_ranks


@dataclass(frozen=True)
class SnakeSettings:
    """The search's own settings, chosen by the fit: ``depth`` in plies (ours, then the
    opponent's reply), ``tie`` one of :data:`TIE_RULES`, ``phase`` the tail rule (one of
    :data:`ime.imitators.snake_search.PHASES`)."""

    depth: int = 1
    tie: str = "up"
    phase: int = 0

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, got {self.depth}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {self.phase}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SnakeFitConfig:
    """What the fit tries: ``depths`` fitted in turn; ``passes`` per depth above 1 (one number or
    one per depth); ``ties`` tried; ``inner_iters`` L-BFGS iterations a pass; ``l2`` on the
    scaled weights; ``loss`` ``softmax`` or ``hinge``; ``patience``: stop deepening after this
    many depths without a better selection agreement; ``max_fit``: at most this many fit
    positions (a seeded sample); ``tail_phases``: tail rules tried (each a whole fit)."""

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
           roots: Sequence[Sequence[int]] | None = None) -> tuple[np.ndarray, SearchResults]:
    """The search's direction for every position, and the search results it came from."""
    res = search_all(positions, w, settings.depth, roots, settings.phase)
    return ranked_choices(res, tie_ranks(settings.tie)), res


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
        w = np.zeros(num_features())
        scale: np.ndarray | None = None
        tie = cfg.ties[0]
        deepen = Patience(cfg.patience)
        for depth, n_passes in schedule:
            if deepen.spent(deepen.best >= 0):
                say(f"phase {phase}: no better selection agreement for {deepen.stale} depths; "
                    f"depth {depth} and above not fitted")
                break
            passes = Patience(None)  # Snake's fit has no pass patience: every pass runs
            for it in range(n_passes):
                res = search_all(pos, w, depth, roots, phase)
                if scale is None:
                    scale = feature_scale(res, len(w))
                rank = tie_ranks(tie)
                train_acc = float(np.mean(ranked_choices(res, rank) == action)) * 100
                prob = terminal_problem(res, action, scale, rank)
                w = optimise(prob, w * scale, cfg.l2, cfg.inner_iters, cfg.loss,
                             cfg.hinge_margin) / scale
                sel = search_all(sel_positions, w, depth, sel_roots, phase)
                accs = {t: float(np.mean(ranked_choices(sel, tie_ranks(t)) == sel_action)) * 100
                        if len(sel_action) else 0.0 for t in cfg.ties}
                tie = max(cfg.ties, key=lambda t: accs[t])  # the first listed wins a tie
                cand = {"phase": phase, "depth": depth, "pass_": it, "tie": tie,
                        "acc": accs[tie], "train_acc_before": train_acc, "kept": int(prob.kept),
                        "weights": w.copy()}
                candidates.append(cand)
                passes.update(cand["acc"])
                say(f"phase={phase} depth={depth} pass={it}: train acc (before step) "
                    f"{train_acc:.2f}%, select acc {cand['acc']:.2f}% ({tie}), {prob.kept} "
                    f"positions in the loss, {res.nodes.mean():.0f} nodes/position")
            deepen.update(passes.best)
    best = max(candidates, key=lambda c: (round(c["acc"], 9), -c["depth"], -c["pass_"]))
    settings = SnakeSettings(depth=best["depth"], tie=best["tie"], phase=best["phase"])
    chosen, _ = decide(best["weights"], settings, pos, fit_roots(pos, action, settings.phase))
    train_final = float(np.mean(chosen == action)) * 100 if len(action) else 0.0
    summary = {"select_acc": best["acc"], "train_acc": train_final,
               "train_positions": int(len(idx)),
               "select_positions": int(len(sel_action)),
               "fit_seconds": time.perf_counter() - t0,
               "grid": [{k: c[k] for k in ("phase", "depth", "pass_", "tie", "acc",
                                           "train_acc_before", "kept")} for c in candidates]}
    say(f"chosen: {settings} select acc {best['acc']:.2f}%, train acc {train_final:.2f}% in "
        f"{summary['fit_seconds']:.0f}s")
    return SnakeFit(best["weights"], settings, summary)
