"""Imitator families as plug-ins: what the train stage calls for an imitator that is not a net.

Why: the pipeline's imitators were policy nets, built by :func:`ime.nets.build_net` and trained
by :mod:`ime.train.ensemble`. A *family* (issue 46) is another way to make an imitator from the
same decisions, e.g. a search whose evaluation is fitted to the target's moves
(:mod:`ime.imitators.reversi_family`). It is selected like a net (``config/net/<name>.yaml``
with ``kind: <family>``, or the ``imitator=<family>`` config group), trained by the same rule
into the same model folders (``fold<k>.pt`` and ``fold<k>.json`` per fold, the same fold
split), and loaded back as a module with the nets' call signature
``model(planes[N, C, H, W], mask[N, A]) -> masked logits[N, A]``, so every downstream stage
(Table 4.4, S1/S2 in-sample and held-out, tournaments, the reports) uses it unchanged.

A game offers a family through its plug-in (``GamePlugin.imitators``: family name -> the
``"module:attribute"`` of an :class:`ImitatorFamily`); no stage names a game. A family learns
only from the rows it is given: never from a bot's config or code (tests/imitators/
test_no_zoo.py).
"""

from __future__ import annotations

import base64
import importlib
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from torch import nn

from ime.core.seeding import derive_seed
from ime.imitators.book import Book, attach_book, input_digest, prepare_book
from ime.imitators.fit_state import FitState, fit_key, state_path_of
from ime.imitators.mmto import subsample
from ime.train.folds import Split

log = logging.getLogger("ime.train")

TRAIN_KEYS = ("select_share", "max_select", "max_train_acc", "book")
"""Keys of ``net.search`` that the train stage reads (how a fold's training rows are split into
fit and selection rows, how many score the fold's train_acc, and whether the fitted module gets
a book of the fold's training positions, :mod:`ime.imitators.book`), not a family's fit; every
family accepts them."""
MCTS_KEYS = ("mcts_sims", "mcts_cs", "mcts_depths", "mcts_playouts", "mcts_scales",
             "mcts_aboves", "mcts_positions", "mcts_rounds", "mcts_climb_evals",
             "mcts_climb_positions", "mcts_tree_iters", "mcts_tree_positions", "mcts_tree_l2",
             "mcts_tree_repeats")
"""Keys of ``net.search`` of the Monte-Carlo stages (Reversi's :mod:`ime.imitators.mcts_fit`;
Connect Four's :func:`ime.imitators.connect4_fit.fit_mcts`, which reads four of them; Snake's
:func:`ime.imitators.snake_fit.fit_mcts`, which reads six); a family ignores the ones it does
not read, and refuses a weight climb it cannot honour."""


CHOICE_SHARE = 0.5
"""Probability a search family's module gives the search's move; the rest is the softmax of its
root values (so one model always plays its move, and folds that disagree are weighed by their
values)."""


class ImitatorFamily(Protocol):
    """What a game's family provides."""

    def fit(self, planes: np.ndarray, actions: np.ndarray, fit_rows: np.ndarray,
            select_rows: np.ndarray, config: Mapping[str, Any], *, seed: int,
            say: Callable[[str], None], threads: int = 1,
            state: FitState | None = None, encoder_version: str = "") -> nn.Module:
        """A fitted imitator module from the dataset's rows ``fit_rows`` (its evaluation) and
        ``select_rows`` (matches held out of the fit, which choose its settings); ``threads``:
        the cores this process may search on (the same module for any count); ``state``: where
        a long fit may keep its finished stages to resume from after a stop
        (:mod:`ime.imitators.fit_state`; keyed by this fit's inputs; a family may ignore it);
        ``encoder_version``: the dataset's encoder (a family whose planes have layouts reads
        which one; the others ignore it)."""

    def build(self, config: Mapping[str, Any]) -> nn.Module:
        """The module of a saved imitator from its fitted ``config`` (weights come from the
        checkpoint's state dict)."""


class DecisionMemo:
    """Each distinct position's decision of a search imitator, searched once.

    Why: a search family is deterministic (a position and its fitted weights give one move and
    one root softmax), yet the stages ask it about the same positions again and again: a fold's
    metrics (:func:`ime.train.loop.write_fold`) score the validation rows, then their unseen,
    distinct-unseen and opening subsets and the per-match counts, each a new ``model(...)``
    call, and Reversi's openings repeat across matches. A depth-6 thesis-scale fold spent
    40+ minutes there. The memo keys a row by a digest of its planes and mask, and forgets
    everything when the module's state (its weights) changes, so a reloaded or refitted module
    never reads another's decisions. At most ``limit`` rows are kept; past that, rows are
    searched as before. A row in the module's ``book`` is answered from it and never searched."""

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self._state = b""
        self._rows: dict[bytes, tuple[int, np.ndarray]] = {}
        self.searched = 0
        """Rows passed to ``decide`` since the memo was made (a test's and a log's figure)."""
        self.book: Book | None = None
        """The module's book (:mod:`ime.imitators.book`): inputs answered with the target's
        logged move, never searched; its state does not depend on the weights."""
        self.booked = 0
        """Rows the book answered (a test's and a log's figure)."""

    def __call__(self, decide: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
                 planes: np.ndarray, mask: np.ndarray, state: bytes
                 ) -> tuple[np.ndarray, np.ndarray]:
        """``decide(planes, mask)``, searching only the rows not decided before under ``state``."""
        if state != self._state:
            self._rows.clear()
            self._state = state
        keys = input_digest(planes, mask)
        booked: dict[bytes, tuple[int, np.ndarray]] = {}
        for k in keys if self.book is not None and len(self.book) else ():
            move = self.book.get(k)  # type: ignore[union-attr]
            if move is not None:  # the target's logged move: all of the row's mass
                soft = np.zeros(mask.shape[1], dtype=np.float64)
                soft[move] = 1.0
                booked[k] = (move, soft)
                self.booked += 1
        todo: dict[bytes, int] = {}
        for i, k in enumerate(keys):
            if k not in self._rows and k not in todo and k not in booked:
                todo[k] = i
        fresh: dict[bytes, tuple[int, np.ndarray]] = {}
        if todo:
            idx = np.fromiter(todo.values(), dtype=np.int64, count=len(todo))
            chosen, soft = decide(planes[idx], mask[idx])
            self.searched += len(idx)
            fresh = {k: (int(c), s) for k, c, s in zip(todo, chosen, soft, strict=True)}
        got = [booked.get(k) or fresh.get(k) or self._rows[k] for k in keys]
        out_c = np.array([c for c, _ in got], dtype=np.int64)
        out_s = np.stack([s for _, s in got]).astype(np.float64, copy=False)
        room = self.limit - len(self._rows)
        for k, v in list(fresh.items())[:max(0, room)]:
            self._rows[k] = v
        return out_c, out_s


def search_logits(decide: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
                  planes: torch.Tensor, mask: torch.Tensor, *,
                  memo: DecisionMemo | None = None, state: bytes = b"") -> torch.Tensor:
    """A search family's ``forward``: the nets' masked log-probabilities from ``decide(planes,
    mask) -> (the search's moves, the softmax of its root values per action)``, run on the rows
    with a legal move: ``log(CHOICE_SHARE * onehot + (1 - CHOICE_SHARE) * soft)``, so the
    search's move has most of the mass (one model plays it) and an ensemble's tied vote goes to
    the moves the folds value most; ``-1e9`` where the mask is 0. A move outside the mask is an
    error (planes and mask disagree). With ``memo``, rows decided before under the module's
    ``state`` are not searched again (:class:`DecisionMemo`)."""
    legal = mask > 0
    out = torch.full(mask.shape, -1.0e9, dtype=torch.float32, device=mask.device)
    rows = torch.nonzero(legal.any(dim=1)).flatten()
    if len(rows) == 0:
        return out
    x = planes[rows].detach().cpu().numpy()
    m = mask[rows].detach().cpu().numpy()
    chosen, soft = decide(x, m) if memo is None else memo(decide, x, m, state)
    chosen_t = torch.as_tensor(chosen, device=mask.device)
    if not bool(legal[rows, chosen_t].all()):
        bad = int(rows[~legal[rows, chosen_t]][0])
        raise RuntimeError(f"search imitator: row {bad}'s move is not in the encoder's "
                           f"legal mask (planes and mask disagree)")
    p = (1.0 - CHOICE_SHARE) * soft
    p[np.arange(len(chosen)), chosen] += CHOICE_SHARE
    logp = torch.as_tensor(np.log(np.maximum(p, 1e-30)), dtype=torch.float32,
                           device=mask.device)
    out[rows] = torch.where(legal[rows], logp, torch.tensor(-1.0e9))
    return out


def get_family(game: str, kind: str) -> ImitatorFamily:
    """The game's implementation of family ``kind``; a clear error when it has none."""
    from ime.core.registry import get_plugin

    plugin = get_plugin(game)
    where = dict(plugin.imitators).get(kind)
    if where is None:
        offered = sorted(plugin.imitators) or ["none"]
        raise ValueError(f"game {game!r} has no {kind!r} imitator family (its families: "
                         f"{', '.join(offered)}; the policy nets work for every game); "
                         f"choose imitator=policy or a net")
    module, _, attr = where.partition(":")
    return getattr(importlib.import_module(module), attr)


def build_imitator(config: Mapping[str, Any]) -> nn.Module:
    """A saved family imitator's module (:func:`ime.nets.build_net` for ``kind: <family>``);
    its fitted config names its game."""
    game = config.get("game")
    if not game:
        raise ValueError(f"a {config.get('kind')!r} imitator's config names no game: it is "
                         f"built by fitting (the train stage), not from config/net/")
    module = get_family(str(game), str(config["kind"])).build(config)
    prepare_book(module, dict(config))
    return module


def select_split(match_ids: np.ndarray, train_rows: np.ndarray, share: float,
                 seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The fold's training rows split again by match into (fit rows, selection rows): about
    ``share`` of its matches choose the settings (at least one match; none with one match)."""
    ids = np.asarray(match_ids)[train_rows]
    k = max(2, int(round(1.0 / share))) if share > 0 else 0
    if k == 0 or len(set(ids.tolist())) < 2:
        return train_rows, train_rows[:0]
    fit_local, sel_local = Split("kfold", k, 0.0, seed).indices(ids, 0)
    return train_rows[np.sort(fit_local)], train_rows[np.sort(sel_local)]


def cap_rows(rows: np.ndarray, cap: int | None, seed: int) -> np.ndarray:
    """``rows``, or with ``cap`` below their count a seeded sample of ``cap`` of them (in their
    order). Why: every candidate setting of a fit is scored by searching every selection
    position, so at the thesis scale (28k selection rows a Reversi fold) the selection, not the
    fit, is most of the cost; a few thousand positions already tell settings apart to a point."""
    if cap is None or len(rows) <= int(cap):
        return rows
    return rows[subsample(len(rows), int(cap), derive_seed("max_select", seed))]


FitTask = tuple[str | Path, Mapping[str, Any], int, str | Path, str | Path, Mapping[str, Any], str]
"""One family member's fit: (dataset, net config, fold, checkpoint path, metrics path, train
config, bot), the arguments of :func:`fit_member`."""


def fit_members(tasks: Sequence[FitTask], *, workers: int = 1) -> list[dict[str, Any]]:
    """:func:`fit_member` for every task, ``workers`` at a time (one process each, forked), the
    metrics in task order.

    Why: a family's fit is one core's work (the searches are compiled loops), and the train job
    fits every fold of a target, so on a machine with cores to spare the folds wait on each other:
    at the thesis scale a Reversi target's five folds took 13-22 minutes one after another
    (reproduction/imitators-thesis-reversi/book/). The job's ``threads`` (``train.threads``, a
    runtime key) is the number of folds fitted at once; cores beyond the folds are shared out
    among them as search threads (16 cores, 5 folds: 3 each), for a family that splits its
    searches (Reversi's). Each fit reads only its own seeded split and writes only its own files,
    so the worker count changes no byte of any checkpoint or metrics file, only how long the job
    takes."""
    from ime.evaluate.parallel import ordered_map

    cores = max(1, int(workers))
    n = min(cores, len(tasks))
    each = max(1, cores // max(1, n))
    metrics = list(ordered_map(_fit_task, [(*t, each) for t in tasks], _no_context, workers=n))
    for t in tasks:  # every fold written: no stage is left to resume (ime.imitators.fit_state)
        state_path_of(t[3]).unlink(missing_ok=True)
    return metrics


def _no_context() -> None:
    """A fit needs nothing shared: each task loads its own dataset."""
    return None


def _fit_task(_ctx: None, task: tuple[Any, ...]) -> dict[str, Any]:
    dataset, net_config, fold, ckpt, metrics, train_cfg, bot, threads = task
    return fit_member(dataset, net_config, fold, ckpt, metrics, train_cfg, bot=bot,
                      threads=threads)


def fit_member(dataset_path: str | Path, net_config: Mapping[str, Any], fold: int,
               checkpoint_path: str | Path, metrics_path: str | Path,
               train_cfg: Mapping[str, Any], *, bot: str, threads: int = 1) -> dict[str, Any]:
    """Fit fold ``fold`` of a family imitator and write its checkpoint and metrics JSON with the
    nets' own code (:func:`ime.train.loop.write_fold`: the same split, the same accuracy
    columns), so Table 4.4 and every later stage read it as they read a net's; ``threads``: the
    cores its searches may use (the same files for any count)."""
    from ime.train.loop import load_dataset, split_fold, write_fold

    name = str(net_config.get("name", net_config["kind"]))

    def say(line: str) -> None:
        log.info("%s %s fold %d: %s", bot, name, fold, line)

    state = FitState(state_path_of(checkpoint_path), fit_key(
        {"net": net_config, "train": train_cfg, "fold": fold, "bot": bot}, [dataset_path]), say)
    written = state.get("outputs")
    if written is not None:  # this fold was written before the job stopped: write it again
        Path(checkpoint_path).parent.mkdir(parents=True, exist_ok=True)
        Path(checkpoint_path).write_bytes(base64.b64decode(written["checkpoint"]))
        Path(metrics_path).parent.mkdir(parents=True, exist_ok=True)
        Path(metrics_path).write_text(written["metrics"])
        say(f"written from its fit state: {checkpoint_path}, {metrics_path}")
        return json.loads(written["metrics"])
    split = Split.of(train_cfg)
    device = torch.device("cpu")  # the searches run on the CPU (numba)
    data, arr = load_dataset(dataset_path, device)
    data = split_fold(data, arr, fold, split)
    family = get_family(data.game, str(net_config["kind"]))
    settings = dict(net_config.get("search") or {})
    run_seed = derive_seed("train", split.seed, bot, name, fold)
    train_rows = data.train_idx.cpu().numpy()
    fit_rows, select_rows = select_split(arr.match_id, train_rows,
                                         float(settings.get("select_share", 0.2)), run_seed)
    select_rows = cap_rows(select_rows, settings.get("max_select"), run_seed)
    planes = data.planes.cpu().numpy()
    actions = data.action.cpu().numpy()
    say(f"fitting on {len(fit_rows)} rows, choosing settings on {len(select_rows)} rows of "
        f"held-out training matches")
    t0 = time.perf_counter()
    model = family.fit(planes, actions, fit_rows, select_rows, {**settings, "name": name},
                       seed=run_seed, say=say, threads=threads, state=state,
                       encoder_version=data.encoder_version)
    fit_s = time.perf_counter() - t0
    if settings.get("book"):  # after the fit: the settings are chosen by the search alone
        n_book = attach_book(model, planes, data.mask.cpu().numpy(), actions, train_rows)
        say(f"book of {n_book} distinct training positions (the target's most frequent move)")
    timing = {"device": "cpu", "threads": int(threads), "train_seconds": fit_s,
              "samples": int(len(fit_rows))}
    # a deep search decides every validation row here, which can take longer than the fit
    # (depth 6 and an endgame solve on 35,000 thesis-scale rows): say so before and after
    # train_acc searches every training row (140,000 at the thesis scale), more than all
    # validation rows together: ``max_train_acc`` scores it on a seeded sample instead
    acc_rows = cap_rows(train_rows, settings.get("max_train_acc"), derive_seed("train_acc",
                                                                              run_seed))
    say(f"fitted in {fit_s:.0f}s; scoring the fold's {len(data.val_idx)} validation rows and "
        f"{len(acc_rows)} of its {len(train_rows)} training rows")
    t1 = time.perf_counter()
    metrics = write_fold(model, data, bot=bot, net_config=net_config, train_cfg=train_cfg,
                         fold=fold, history=[], best_epoch=0, timing=timing,
                         checkpoint_path=checkpoint_path, metrics_path=metrics_path,
                         train_acc_idx=(torch.as_tensor(acc_rows, dtype=data.train_idx.dtype)
                                        if len(acc_rows) < len(train_rows) else None))
    memo = getattr(model, "memo", None)
    searched = f", {memo.searched} distinct positions searched" if memo is not None else ""
    say(f"validation agreement {metrics.get('val_acc', float('nan')):.2f}% in "
        f"{time.perf_counter() - t1:.0f}s{searched}")
    state.put("outputs", {
        "checkpoint": base64.b64encode(Path(checkpoint_path).read_bytes()).decode(),
        "metrics": Path(metrics_path).read_text()})
    return metrics
