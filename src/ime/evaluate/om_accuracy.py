"""How often the opponent model names the target's move where opponent-model search asks it
(issue 49: "the note says why, measured: model accuracy on the positions that the search
reaches").

Why: M* keeps only the model's reply at each opponent node, so its result hangs on the model's
accuracy *at the positions its own tree reaches*, most of them after moves nobody played, not
on the imitator's validation accuracy on the target's training games. A model cell of the
experiment (:mod:`ime.evaluate.om_experiment`, cells ``om`` and ``om_wrong``) therefore records,
while it plays its games,

* every position the model is asked about (the imitator's batched calls; positions with one
  legal move left out: nothing to predict there), with its plies below the search's root, and
* every position where the target really moved (more than one legal move), with its move, in
  every seat it sits in,

and keeps a seeded sample of each (:class:`BottomK`). After the games, :func:`measure` asks the
model for its top move there (the move the search follows: in ``policy`` and ``prom`` the most
probable legal move, ties the first in ``legal_actions`` order; in ``search`` the model's own
decision) and compares it with the truth: at the search's positions the target's decision,
asked now (the targets are deterministic searches, so their move *is* the truth; a stochastic
target gives one draw, and the record says so), at the games' positions the move it played.

**A rollout player** (a game's ``om_search.player`` template, Doudizhu's ``pimc_om``, three
seats) asks its model to *play* (``plays(states, players, uniforms)``) at every modelled seat's
turn of its rollouts: those are its search's positions (determinized states: the hidden cards
dealt at random, so the target is asked what it would play holding them), and the target is
watched in both seats it holds. The top move there is the model's argmax (``uniforms`` None,
the imitator's own decision), whatever the rollouts draw (``model_play: sample``).

**Determinism, any worker count.** Each position gets a key, a hash of the seed, its game's
match id, the kind and its index in that game; the sample is the ``k`` smallest keys. That is
a uniform sample without replacement of all positions, and the same whichever process played
which game, so the record keeps the same bytes for the same config (and the games' file is
untouched: recording only watches the model's calls).

**Cost, bounded.** Each game keeps at most ``k`` candidates of each kind; the measurement asks
the target ``k`` decisions and the model ``2 k`` positions (``om_search.accuracy_sample``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, State

if TYPE_CHECKING:  # pandas is imported where a table is made (the Snakefile imports the caller)
    import pandas as pd

ACCURACY_COLUMNS = ["target", "cell", "label", "model", "mode", "sample", "search_positions",
                    "search_n", "search_top1", "search_top1_lo", "search_top1_hi",
                    "game_positions", "game_n", "game_top1", "game_top1_lo", "game_top1_hi",
                    "target_deterministic"]
"""``om_search_model_accuracy.csv``'s columns (:mod:`ime.report.columns` defines them)."""


def sample_key(seed: int, match_id: str, kind: str, index: int) -> int:
    """The sampling key of the ``index``-th position of ``kind`` in game ``match_id``: 64 bits
    of a hash, so the smallest ``k`` keys are a seeded uniform sample that does not depend on
    the order (or the process) in which the positions were seen."""
    h = hashlib.blake2b(f"{seed}/{match_id}/{kind}/{index}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


class BottomK:
    """The ``k`` offered items with the smallest keys (see :func:`sample_key`).

    Items are only built (a state cloned) when their key can still enter the sample
    (:meth:`wants`), so a long game costs about ``k * (1 + ln(n / k))`` clones, not ``n``."""

    def __init__(self, k: int):
        self.k = int(k)
        self._items: list[tuple[int, Any]] = []
        self._bound: int | None = None  # the k-th smallest key once pruned

    def wants(self, key: int) -> bool:
        return self.k > 0 and (self._bound is None or key < self._bound)

    def add(self, key: int, item: Any) -> None:
        self._items.append((key, item))
        if len(self._items) >= 2 * self.k:
            self._prune()

    def _prune(self) -> None:
        self._items.sort(key=lambda t: t[0])
        del self._items[self.k:]
        if len(self._items) == self.k:
            self._bound = self._items[-1][0]

    def extend(self, pairs: Sequence[tuple[int, Any]]) -> None:
        for key, item in pairs:
            if self.wants(key):
                self.add(key, item)

    def pairs(self) -> list[tuple[int, Any]]:
        """The sample as ``(key, item)``, smallest key first."""
        self._prune()
        return list(self._items)


@dataclass
class Asked:
    """A position the model was asked about."""

    state: State
    player: int
    below_root: int
    match_id: str


@dataclass
class Moved:
    """A position where the target moved, and its move."""

    state: State
    player: int
    move: Action
    match_id: str


def _multi(state: State, player: int) -> bool:
    return len(state.legal_actions(player)) > 1


class _RecordingModel:
    """The search's model, recording the positions it is asked about (everything else is the
    model's own: the search sees no difference)."""

    def __init__(self, inner: Any, game: GameSample):
        self._inner, self._game = inner, game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def distributions(self, states: Sequence[State], players: Sequence[int]) -> list[np.ndarray]:
        self._game.asked(states, players)
        return self._inner.distributions(states, players)

    def replies(self, states: Sequence[State], players: Sequence[int],
                ctxs: Sequence[DecisionContext]) -> list[Action]:
        self._game.asked(states, players)
        return self._inner.replies(states, players, ctxs)


class _RecordingPlays:
    """A rollout player's play model (``plays``, :mod:`ime.games.doudizhu.bots.om_pimc`),
    recording the positions it is asked to play; the rollouts see no difference (``heads``,
    ``bind`` and the rest are the model's own)."""

    def __init__(self, inner: Any, game: GameSample):
        self._inner, self._game = inner, game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        self._game.asked(states, players)
        return self._inner.plays(states, players, uniforms)


_RECORDERS = (_RecordingModel, _RecordingPlays)


def _unwrapped(model: Any) -> Any:
    """``model`` without its recording wrapper (a provider keeps its bots between games)."""
    return model._inner if isinstance(model, _RECORDERS) else model


def _recording(model: Any, game: GameSample) -> Any:
    """``model`` wrapped to record into ``game``: an ``om_search`` imitator model
    (``distributions``/``replies``) or a rollout player's imitator (``plays``). Why only
    imitators: the record measures a learnt model against its target; the true model (a zoo
    bot) is the target itself, 100 % by construction."""
    from ime.bots.imitator import ImitatorBot
    from ime.bots.om_search import ImitatorModel

    if isinstance(model, ImitatorModel):
        return _RecordingModel(model, game)
    if hasattr(model, "plays") and isinstance(getattr(model, "imitator", None), ImitatorBot):
        return _RecordingPlays(model, game)
    raise TypeError(f"model accuracy is recorded for an imitator model (om_search's, or a "
                    f"rollout player's plays); our player's model is {type(model).__name__}: "
                    f"set om_search.accuracy_sample=0 for this cell")


class _WatchedTarget(Bot):
    """The target, recording where it moved and what, with the seat it moved in (one watcher
    sits in every seat the target holds: two in Doudizhu)."""

    def __init__(self, bot: Bot, game: GameSample):
        self.bot, self.game = bot, game
        self.bot_id = getattr(bot, "bot_id", "target")
        self.deterministic = getattr(bot, "deterministic", True)

    def act(self, state: State, ctx: DecisionContext) -> Action:
        move = self.bot.act(state, ctx)
        self.game.moved(state, ctx.player, move)
        return move

    def end_match(self, match_id: str) -> None:
        self.bot.end_match(match_id)


@dataclass
class GameSample:
    """One game's candidates: the model's positions and the target's (each a :class:`BottomK`
    of ``k``), and how many of each there were."""

    k: int
    seed: int
    match_id: str
    root_ply: int = 0
    n_asked: int = 0
    n_moved: int = 0
    asked_k: BottomK = field(init=False)
    moved_k: BottomK = field(init=False)

    def __post_init__(self) -> None:
        self.asked_k, self.moved_k = BottomK(self.k), BottomK(self.k)

    def asked(self, states: Sequence[State], players: Sequence[int]) -> None:
        for s, p in zip(states, players, strict=True):
            if not _multi(s, p):
                continue
            key = sample_key(self.seed, self.match_id, "asked", self.n_asked)
            self.n_asked += 1
            if self.asked_k.wants(key):
                self.asked_k.add(key, Asked(s.clone(), int(p), int(s.ply - self.root_ply),
                                            self.match_id))

    def moved(self, state: State, player: int, move: Action) -> None:
        if not _multi(state, player):
            return
        key = sample_key(self.seed, self.match_id, "moved", self.n_moved)
        self.n_moved += 1
        if self.moved_k.wants(key):
            self.moved_k.add(key, Moved(state.clone(), int(player), move, self.match_id))

    def at_root(self, state: State) -> None:
        """Our player is about to search from ``state`` (the plies below its root count from
        here)."""
        self.root_ply = int(state.ply)

    def attach(self, ours: Bot, target: Bot) -> tuple[Bot, Callable[[], None]]:
        """Watch ``ours``'s model (an imitator: :func:`_recording`) and ``target``; returns the
        target to play (in every seat it holds: one watcher records each of its moves with its
        seat) and a function that takes the recording model off ``ours`` again (a provider
        keeps its bots between games)."""
        inner = _unwrapped(getattr(ours, "model", None))
        ours.model = _recording(inner, self)  # type: ignore[attr-defined]

        def detach() -> None:
            ours.model = inner  # type: ignore[attr-defined]

        return _WatchedTarget(target, self), detach

    def result(self) -> dict[str, Any]:
        """What a worker hands back: the counts and the candidates (picklable)."""
        return {"n_asked": self.n_asked, "n_moved": self.n_moved,
                "asked": self.asked_k.pairs(), "moved": self.moved_k.pairs()}


class AccuracySample:
    """The cell's sample, merged from its games' :meth:`GameSample.result` (in any order)."""

    def __init__(self, k: int, seed: int):
        self.k, self.seed = int(k), int(seed)
        self.n_asked = self.n_moved = 0
        self._asked, self._moved = BottomK(self.k), BottomK(self.k)

    def game(self, match_id: str) -> GameSample:
        return GameSample(self.k, self.seed, match_id)

    def merge(self, result: Mapping[str, Any]) -> None:
        self.n_asked += int(result["n_asked"])
        self.n_moved += int(result["n_moved"])
        self._asked.extend(result["asked"])
        self._moved.extend(result["moved"])

    def asked(self) -> list[Asked]:
        return [a for _, a in self._asked.pairs()]

    def moved(self) -> list[Moved]:
        return [m for _, m in self._moved.pairs()]


# --- the measurement ---------------------------------------------------------------------------
def _ctx(seed: int, match_id: str, state: State, player: int) -> DecisionContext:
    """The context a decision at ``state`` gets: the game's seed and match, the position's ply
    and the seat (as the search's true model decides at an inner node)."""
    return DecisionContext(seed=int(seed), match_id=match_id, ply=int(state.ply),
                           player=int(player))


def top_moves(model: Any, mode: str, states: Sequence[State], players: Sequence[int],
              ctxs: Sequence[DecisionContext], batch: int = 64) -> list[Action]:
    """The move the search follows at each position: ``mode`` ``search``: the model's decision
    (``replies``); otherwise the most probable legal move of its distribution, ties the first
    in ``legal_actions`` order (``policy``; ``prom``'s most probable reply). A rollout model
    (``plays``, any ``mode``): its argmax play (``uniforms`` None). Asked in batches of
    ``batch``."""
    out: list[Action] = []
    batch = max(1, int(batch))
    for i in range(0, len(states), batch):
        s, p, c = states[i:i + batch], players[i:i + batch], ctxs[i:i + batch]
        if hasattr(model, "plays"):
            out += list(model.plays(s, p, None))
            continue
        if mode == "search":
            out += list(model.replies(s, p, c))
            continue
        for st, pl, q in zip(s, p, model.distributions(s, p), strict=True):
            out.append(st.legal_actions(pl)[int(np.argmax(np.asarray(q)))])
    return out


def measure(sample: AccuracySample, model_predict: Callable[[Sequence[State], Sequence[int],
                                                                Sequence[DecisionContext]],
                                                               list[Action]],
            target: Bot) -> dict[str, Any]:
    """The model's top-1 agreement with ``target`` on the sample: at the search's positions
    (the truth: ``target``'s decision, asked now) and where the target moved (the truth: its
    move). ``model_predict(states, players, ctxs)``: the model's move at each position (e.g.
    :func:`top_moves`). Returns counts (the CIs are the table's: :func:`accuracy_table`)."""
    seed = sample.seed
    asked, moved = sample.asked(), sample.moved()
    a_ctx = [_ctx(seed, a.match_id, a.state, a.player) for a in asked]
    m_ctx = [_ctx(seed, m.match_id, m.state, m.player) for m in moved]
    pred_a = model_predict([a.state for a in asked], [a.player for a in asked], a_ctx)
    truth_a = [target.act(a.state.clone(), c) for a, c in zip(asked, a_ctx, strict=True)]
    pred_m = model_predict([m.state for m in moved], [m.player for m in moved], m_ctx)
    ok_a = [x == y for x, y in zip(pred_a, truth_a, strict=True)]
    ok_m = [x == m.move for x, m in zip(pred_m, moved, strict=True)]
    by: dict[int, list[int]] = {}
    for a, ok in zip(asked, ok_a, strict=True):
        n_ok = by.setdefault(a.below_root, [0, 0])
        n_ok[0] += 1
        n_ok[1] += int(ok)
    return {"sample": sample.k,
            "target_deterministic": bool(getattr(target, "deterministic", True)),
            "search": {"positions": sample.n_asked, "n": len(ok_a), "agree": int(sum(ok_a)),
                       "by_plies_below_root": {str(d): by[d] for d in sorted(by)}},
            "games": {"positions": sample.n_moved, "n": len(ok_m), "agree": int(sum(ok_m))}}


def measure_cell(sample: AccuracySample, provider: Any, player: str, target: str,
                 spec: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`measure` for a cell: our player ``player``'s model (from ``provider``, the cell's
    bots) in its spec's ``mode`` (a rollout player's: its argmax play), against the target
    ``target``."""
    params = dict(spec.get("params") or {})
    model = _unwrapped(provider(player).model)
    mode, batch = str(params.get("mode", "policy")), int(params.get("batch", 64))
    return measure(sample, lambda s, p, c: top_moves(model, mode, s, p, c, batch),
                   provider(target))


def accuracy_table(cells: Sequence[Mapping[str, Any]], level: float = 0.95) -> pd.DataFrame:
    """``om_search_model_accuracy.csv``: per model cell that recorded it, the model's top-1
    at the search's sampled positions and at the target's sampled moves, with Wilson
    intervals. ``cells``: per cell, ``target``, ``cell``, ``label``, ``model``, ``mode`` and
    ``accuracy`` (the cell's :func:`measure` record, None when not recorded)."""
    import pandas as pd

    from ime.core.intervals import wilson

    rows = []
    for c in cells:
        acc = c.get("accuracy")
        if not acc:
            continue
        row: dict[str, Any] = {"target": c["target"], "cell": c["cell"], "label": c["label"],
                               "model": c["model"], "mode": c["mode"], "sample": acc["sample"]}
        for part, name in (("search", "search"), ("games", "game")):
            r = acc[part]
            n, agree = int(r["n"]), int(r["agree"])
            lo, hi = wilson(agree, n, level)
            row.update({f"{name}_positions": int(r["positions"]), f"{name}_n": n,
                        f"{name}_top1": agree / n if n else np.nan, f"{name}_top1_lo": lo,
                        f"{name}_top1_hi": hi})
        row["target_deterministic"] = bool(acc["target_deterministic"])
        rows.append(row)
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)
