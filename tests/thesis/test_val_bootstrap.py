"""Issue 47 (Deliver 2): a single model (a hold-out split, Doudizhu's 9:1) gets its accuracy's CI
from a bootstrap over its validation matches, never a zero-width one; a run whose metrics
predate the per-match counts keeps an unknown spread. Small synthetic metrics."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
import torch
from thesis_helpers import edit
from torch import nn

from ime.report import columns as COLS
from ime.thesis import conclusions as C
from ime.thesis.own import thesis_results
from ime.train.loop import TensorData, val_match_counts
from ime.train.tables import VAL_BOOTSTRAP, table4_4, val_acc_ci

STATS = {"b": {"baseline": 20.0, "pairs": 1000}}


def _matches(accs: list[float], rows: int = 40) -> dict:
    """``val_matches`` of matches with ``rows`` validation rows each, at accuracies ``accs``."""
    return {"id": [f"m{i:03d}" for i in range(len(accs))],
            "correct": [round(a * rows) for a in accs], "rows": [rows] * len(accs)}


def _metrics(fold: int, vm: dict | None, val_acc: float = 80.0) -> dict:
    m = {"bot": "b", "net": "conv", "fold": fold, "train_acc": 90.0, "val_acc": val_acc,
         "epochs": 3, "config": {"train": {"split": "holdout", "holdout": 0.1}}}
    return {**m, "val_matches": vm} if vm is not None else m


def test_one_model_gets_a_bootstrap_ci_over_its_validation_matches() -> None:
    alike = _matches([0.8] * 50)  # every match at 80 %
    mixed = _matches([0.6, 1.0] * 25)  # the same 80 %, matches far apart
    a = table4_4([_metrics(0, alike)], STATS, ["b"], ["conv"]).iloc[0]
    b = table4_4([_metrics(0, mixed)], STATS, ["b"], ["conv"]).iloc[0]
    assert a["folds"] == 1 and a["val_acc_std"] == 0.0  # no fold spread ...
    assert a["val_acc_mean_lo"] == a["val_acc_mean_hi"] == 80.0  # ... nor any between matches
    assert b["val_acc_mean_lo"] < 80.0 < b["val_acc_mean_hi"]  # spread between matches shows
    assert 2.0 < b["val_acc_mean_hi"] - b["val_acc_mean_lo"] < 20.0
    assert b["val_acc_interval"] == (f"bootstrap over 50 validation matches ({VAL_BOOTSTRAP} "
                                     "resamples, seed 0)")
    again = table4_4([_metrics(0, mixed)], STATS, ["b"], ["conv"]).iloc[0]
    assert again["val_acc_mean_lo"] == b["val_acc_mean_lo"]  # seeded: the same table twice
    assert COLS.undefined("imitation_accuracy.csv", list(b.index)) == []


def test_folds_keep_their_t_interval_and_old_metrics_their_unknown_spread() -> None:
    ms = [_metrics(k, _matches([0.8] * 5), 78.0 + 2 * k) for k in range(3)]
    ci = val_acc_ci(ms)
    assert ci["val_acc_interval"] == "t over 3 folds"
    assert ci["val_acc_mean_lo"] < 80.0 < ci["val_acc_mean_hi"]
    row = table4_4([_metrics(0, None)], STATS, ["b"], ["conv"]).iloc[0]
    assert "val_acc_mean_lo" not in row.index and "val_acc_interval" not in row.index


class _First(nn.Module):
    """Predicts the first legal action of every row."""

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return mask * -torch.arange(mask.shape[1], dtype=torch.float32)[None, :] + mask * 100


def test_a_fold_counts_its_validation_rows_per_match() -> None:
    n = 7
    none = torch.zeros(0, dtype=torch.int64)
    data = TensorData(planes=torch.zeros(n, 1), mask=torch.ones(n, 3),
                      action=torch.tensor([0, 1, 0, 0, 2, 0, 0]), train_idx=torch.tensor([5, 6]),
                      val_idx=torch.tensor([0, 1, 2, 3, 4]), val_unseen_idx=none,
                      in_shape=(1,), num_actions=3, encoder_version="x", game="x",
                      val_match_id=np.array(["b", "a", "b", "a", "c"], dtype=object))
    vm = val_match_counts(_First(), data)
    assert vm == {"id": ["a", "b", "c"], "correct": [1, 2, 0], "rows": [2, 2, 1]}
    assert val_match_counts(_First(), data.__class__(**{**data.__dict__,
                                                        "val_match_id": None})) is None


@pytest.mark.parametrize(("with_ci", "final"), [(False, C.INCONCLUSIVE), (True, C.HOLDS)])
def test_the_checks_read_a_single_models_bootstrap_ci(with_ci: bool, final: str) -> None:
    """Doudizhu's one model per bot: with no CI columns (an archived run) CONV-1 far above the
    baseline and CONV-2 is undecided; with a bootstrap CI over validation matches it holds."""
    r = copy.copy(thesis_results())

    def fn(df: pd.DataFrame) -> pd.DataFrame:
        df.loc[df["net"] == "ddz_conv1", "val_acc_mean"] = 93.0
        df["val_acc_std"], df["folds"] = 0.0, 1
        if with_ci:  # a bootstrap CI of ±1 point, as table4_4 writes for one model
            df["val_acc_mean_lo"] = df["val_acc_mean"] - 1.0
            df["val_acc_mean_hi"] = df["val_acc_mean"] + 1.0
        return df

    edit(r, "doudizhu", "imitation_accuracy.csv", fn)
    v = C.run_check("ddz_beats_baseline", r)
    assert v.status == C.HOLDS and v.final == final, v.test
    assert ("spread unknown" in v.test) == (not with_ci)
