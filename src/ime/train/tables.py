"""Tables 4.3 (the nets) and 4.4 (imitation accuracy, mean and std over the k folds, or the
one model of a hold-out split; its ``split`` column says which ran)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ime.imitators.kinds import is_fitted

TABLE4_4_COLUMNS = ["bot", "baseline", "net", "train_acc_mean", "train_acc_std",
                    "val_acc_mean", "val_acc_std", "folds", "split", "pairs", "epochs_mean",
                    "val_acc_unseen_mean", "val_seen_share_mean"]
CEILING_COLUMNS = ["self_agreement", "self_agreement_lo", "self_agreement_hi"]
"""Table 4.4's ceiling (per bot, repeated on each net's row), when measured."""


def table4_3(nets: Mapping[str, Mapping[str, Any]], in_shape: Sequence[int],
             num_actions: int | Sequence[int]) -> pd.DataFrame:
    """Per net: our exact trainable-parameter count, the thesis's count, and the layers.

    A net of several branches (Doudizhu's major + minor) lists the thesis's count per branch
    (``399219+33720``) and its layers per branch, each with our count.

    ``in_shape`` and ``num_actions`` (one size, or every head's) are the game encoder's.
    """
    from ime.nets import build_net, count_params, describe  # torch: only this table builds nets

    rows = []
    for name, cfg in nets.items():
        if is_fitted(cfg):  # fitted per target, not built from its config: no fixed size
            rows.append({"net": name, "params": None, "thesis_params": None,
                         "layers": f"{cfg['kind']} imitator (fitted evaluation; "
                                   f"docs/imitators.md)"})
            continue
        model = build_net(cfg, in_shape, num_actions, seed=0)
        thesis = cfg.get("thesis_params")
        if isinstance(thesis, list | tuple):  # one per branch (Table 5.5: major + minor)
            thesis = "+".join(str(x) for x in thesis)
        rows.append({"net": name, "params": count_params(model),
                     "thesis_params": thesis,
                     "layers": describe(cfg, in_shape, num_actions)})
    return pd.DataFrame(rows, columns=["net", "params", "thesis_params", "layers"])


def _std(x: list[float]) -> float:
    """Sample standard deviation over folds (0 for a single fold)."""
    return float(np.std(x, ddof=1)) if len(x) > 1 else 0.0


def _mean_of(ms: Sequence[Mapping[str, Any]], key: str) -> float:
    """Mean of ``key`` over folds, rounded; NaN when a fold's metrics predate the field."""
    vals = [m.get(key) for m in ms]
    if any(v is None for v in vals):
        return float("nan")
    return round(float(np.mean([float(v) for v in vals])), 2)


MAIA_KEYS = ("val_acc_unseen_distinct", "val_unseen_positions", "val_acc_opening",
             "val_opening_rows")
"""Maia's protocol in a fold's metrics (issue 46): accuracy on each distinct unseen validation
position once, how many there are, and the opening's validation rows apart
(:data:`ime.train.loop.OPENING_PLIES`); Table 4.4 adds their means over folds."""


VAL_BOOTSTRAP = 2000
"""Resamples of a single model's bootstrap over its validation matches (:func:`val_acc_ci`)."""
VAL_CI_COLUMNS = ("val_acc_mean_lo", "val_acc_mean_hi", "val_acc_interval")
"""The 95 % CI of ``val_acc_mean`` and what it is from, where the models' metrics count their
validation matches (``val_matches``, :func:`ime.train.loop.val_match_counts`)."""


def val_acc_ci(ms: Sequence[Mapping[str, Any]], ci: float = 0.95,
               seed: int = 0) -> dict[str, Any]:
    """The CI of the models' mean validation accuracy (:data:`VAL_CI_COLUMNS`), or nothing
    where a model's metrics predate the per-match counts (an archived run: its spread stays
    unknown rather than invented).

    Several models (a k-fold): the t interval over the folds, as the thesis checks compute it.
    One model (a hold-out split, the thesis's 9:1): no fold spread, so a seeded bootstrap over
    its validation matches (:data:`VAL_BOOTSTRAP` resamples; the match, not the row, is the
    unit, since a match's rows are not independent): the percentile interval of the pooled
    accuracy. ``val_acc_interval`` says which."""
    if not ms or any("val_matches" not in m for m in ms):
        return {}
    va = [float(m["val_acc"]) for m in ms]
    if len(ms) > 1:
        from scipy import stats

        half = float(stats.t.ppf(0.5 + ci / 2, len(va) - 1) * _std(va) / np.sqrt(len(va)))
        mean = float(np.mean(va))
        return {"val_acc_mean_lo": round(max(mean - half, 0.0), 2),
                "val_acc_mean_hi": round(min(mean + half, 100.0), 2),
                "val_acc_interval": f"t over {len(va)} folds"}
    vm = ms[0]["val_matches"]
    correct = np.asarray(vm["correct"], dtype=float)
    rows = np.asarray(vm["rows"], dtype=float)
    if len(rows) < 2:
        return {}
    pick = np.random.default_rng(seed).integers(0, len(rows), size=(VAL_BOOTSTRAP, len(rows)))
    acc = 100.0 * correct[pick].sum(axis=1) / np.maximum(rows[pick].sum(axis=1), 1.0)
    lo, hi = np.quantile(acc, [(1 - ci) / 2, (1 + ci) / 2])
    return {"val_acc_mean_lo": round(float(lo), 2), "val_acc_mean_hi": round(float(hi), 2),
            "val_acc_interval": (f"bootstrap over {len(rows)} validation matches "
                                 f"({VAL_BOOTSTRAP} resamples, seed {seed})")}


def table4_4(metrics: Sequence[Mapping[str, Any]],
             dataset_stats: Mapping[str, Mapping[str, Any]],
             bots: Sequence[str], nets: Sequence[str], *,
             ceilings: Mapping[str, Mapping[str, Any]] | None = None,
             unseen: Mapping[str, set[tuple[str, int, int]]] | None = None,
             bootstrap: int = 1000, ci: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """One row per (bot, net): accuracies in % as mean and sample std over the folds.

    Beyond the thesis's columns: ``val_acc_unseen_mean`` is the validation accuracy on positions
    that never occur in the fold's training rows, and ``val_seen_share_mean`` the share of
    validation rows whose position does (both means over folds, in %). A repeated game against a
    deterministic opponent is answered from memory; these two columns show how much of
    ``val_acc_mean`` that is. A multi-head net adds its first head's own accuracies
    (``train_acc_major_mean``, ``val_acc_major_mean``: Doudizhu's major-only accuracy beside the
    one that needs every kicker right).

    Models whose metrics hold Maia's columns (:data:`MAIA_KEYS`) add their means:
    ``val_acc_unseen_distinct_mean`` (each distinct unseen position once),
    ``val_unseen_positions_mean``, ``val_acc_opening_mean`` and ``val_opening_rows_mean``.

    Models whose metrics count their validation matches add the CI of ``val_acc_mean``
    (:func:`val_acc_ci`: the t interval over k folds, or one model's bootstrap over its
    validation matches) and ``val_acc_interval``, which says which.

    ``ceilings`` (the self-agreement files, :mod:`ime.evaluate.ceiling`) add
    ``self_agreement`` and its CI per bot: how often the bot itself replays its logged action.
    Files that hold the top-1 ceiling (every file written since ``evaluate.ceiling_repeats``)
    add :data:`~ime.evaluate.ceiling.TOP1_COLUMNS` last (``top1_mode``, ``top1_max`` and their
    CIs: the lower and upper estimate of the best achievable top-1 accuracy, which for a
    stochastic bot can exceed its self-agreement); older files leave the table as it was.

    ``unseen`` (per bot, the decisions whose position no model of the split trained on:
    :func:`ime.evaluate.ceiling.unseen_decisions`) adds
    :data:`~ime.evaluate.ceiling.UNSEEN_CEILING_COLUMNS` last: self-agreement on
    the sampled decisions among them, the ceiling beside ``val_acc_unseen_mean`` on positions of
    the same kind.
    """
    from ime.evaluate.ceiling import (
        TOP1_COLUMNS,
        UNSEEN_CEILING_COLUMNS,
        ceiling_columns,
        top1_columns,
        unseen_ceiling_columns,
    )

    by: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for m in metrics:
        by.setdefault((m["bot"], m["net"]), []).append(m)
    top1 = ceilings is not None and any(c.get("top1_rows") for c in ceilings.values())
    rows = []
    for bot in bots:
        st = dataset_stats[bot]
        ceiling = (ceiling_columns(ceilings.get(bot), bootstrap=bootstrap, ci=ci, seed=seed)
                   if ceilings is not None else {})
        if top1:
            ceiling |= top1_columns(ceilings.get(bot), bootstrap=bootstrap, ci=ci, seed=seed)
        if ceilings is not None and unseen is not None:
            ceiling |= unseen_ceiling_columns(ceilings.get(bot), unseen.get(bot),
                                              bootstrap=bootstrap, ci=ci, seed=seed)
        for net in nets:
            ms = sorted(by.get((bot, net), []), key=lambda m: m["fold"])
            if not ms:
                raise ValueError(f"no metrics for bot {bot!r} net {net!r}")
            tr = [float(m["train_acc"]) for m in ms]
            va = [float(m["val_acc"]) for m in ms]
            rows.append({
                "bot": bot, "baseline": round(float(st["baseline"]), 2), "net": net,
                "train_acc_mean": round(float(np.mean(tr)), 2), "train_acc_std": round(_std(tr), 2),
                "val_acc_mean": round(float(np.mean(va)), 2), "val_acc_std": round(_std(va), 2),
                "folds": len(ms), "split": _split_of(ms, bot, net), "pairs": int(st["pairs"]),
                "epochs_mean": round(float(np.mean([m["epochs"] for m in ms])), 1),
                "val_acc_unseen_mean": _mean_of(ms, "val_acc_unseen"),
                "val_seen_share_mean": _mean_of(ms, "val_seen_share"),
                **{f"{k}_mean": _mean_of(ms, k) for k in _first_head_keys(ms)},
                **{f"{k}_mean": _mean_of(ms, k) for k in MAIA_KEYS
                   if all(k in m for m in ms)},
                **val_acc_ci(ms, ci=ci, seed=seed),
                **ceiling,
            })
    ceiling_cols = [c for c in CEILING_COLUMNS if ceilings is not None]
    top1_cols = TOP1_COLUMNS if top1 else []
    unseen_cols = UNSEEN_CEILING_COLUMNS if ceilings is not None and unseen is not None else []
    extra = sorted({c for r in rows for c in r} - set(TABLE4_4_COLUMNS) - set(ceiling_cols)
                   - set(top1_cols) - set(unseen_cols))
    return pd.DataFrame(rows, columns=[*TABLE4_4_COLUMNS, *ceiling_cols, *extra, *top1_cols,
                                       *unseen_cols])


def _split_of(ms: Sequence[Mapping[str, Any]], bot: str, net: str) -> str:
    """The ``split`` column: what the models' own metrics say they were trained with (their
    ``config.train``, which training always writes; else the k-fold of their ``folds``, else
    empty: unknown)."""
    from ime.train.folds import split_label

    def label(m: Mapping[str, Any]) -> str:
        t = (m.get("config") or {}).get("train")
        if t is None:
            return split_label({"folds": m["folds"]}) if "folds" in m else ""
        return split_label(t)

    labels = {label(m) for m in ms}
    if len(labels) != 1:
        raise ValueError(f"bot {bot!r} net {net!r}: models of different splits {sorted(labels)}")
    return labels.pop()


def _first_head_keys(ms: Sequence[Mapping[str, Any]]) -> list[str]:
    """A multi-head net's first-head accuracies (``train_acc_major``, ``val_acc_major``), which
    the metrics hold beside the whole-action ones (Doudizhu's "major only")."""
    plain = {"train_acc", "val_acc", "val_acc_unseen", "train_acc_running", *MAIA_KEYS}
    return sorted(k for k in ms[0] if k.startswith(("train_acc_", "val_acc_")) and k not in plain)


SWEEP_EXTRA_COLUMNS = ["val_acc_unseen_std"]
"""Beyond Table 4.4's columns, what the sweep's error bars need."""


def sweep_table(points: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]],
                                       Mapping[str, Mapping[str, Any]], Sequence[str]]],
                keys: Sequence[str], bots: Sequence[str]) -> pd.DataFrame:
    """Table 4.4's columns for every point of a sweep, the swept keys' values first.

    ``points``: per point its labels (``{key: value}``), its folds' metrics, its dataset stats
    by bot and the nets trained there. A swept ``net`` is the ``net`` column; every other key is
    a column of its own. ``val_acc_unseen_std`` (sample std over folds) is added
    for the learning curve's error bars.
    """
    frames = []
    for labels, metrics, stats, nets in points:
        df = table4_4(metrics, stats, bots, nets)
        df["val_acc_unseen_std"] = [_unseen_std(metrics, b, n)
                                    for b, n in zip(df.bot, df.net, strict=True)]
        for i, k in enumerate([k for k in keys if k not in df.columns]):
            v = labels[k]  # (a swept ``net`` is the table's own net column)
            df.insert(i, k, v if not isinstance(v, list | dict) else str(v))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _unseen_std(metrics: Sequence[Mapping[str, Any]], bot: str, net: str) -> float:
    vals = [m.get("val_acc_unseen") for m in metrics if m["bot"] == bot and m["net"] == net]
    if not vals or any(v is None for v in vals):
        return float("nan")
    return round(_std([float(v) for v in vals]), 2)
