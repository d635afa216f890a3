"""Bots clustered by imitation accuracy (Fig 2.7's split) and the accuracy figure."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ime.evaluate.clustering import accuracy_clusters
from ime.report.accuracy_figure import plot_accuracy


def _table() -> pd.DataFrame:
    rows = []
    for bot, base, accs in (("a", 40.0, (90.0, 94.0)), ("b", 45.0, (61.0, 59.0)),
                            ("c", 41.0, (95.0, 97.0)), ("d", 44.0, (58.0, 66.0))):
        for net, acc in zip(("mlp", "conv"), accs, strict=True):
            rows.append({"bot": bot, "baseline": base, "net": net, "val_acc_mean": acc})
    return pd.DataFrame(rows)


def test_bots_split_by_mean_accuracy_over_nets() -> None:
    out = accuracy_clusters(_table(), ["a", "b", "c", "d"], k=2)
    assert list(out.bot) == ["a", "b", "c", "d"]
    assert list(out.val_acc) == [92.0, 60.0, 96.0, 62.0]
    assert list(out.above_baseline) == [52.0, 15.0, 55.0, 18.0]
    assert list(out.val_acc_min) == [90.0, 59.0, 95.0, 58.0]
    assert list(out.cluster) == [1, 2, 1, 2]  # numbered by first appearance
    assert list(accuracy_clusters(_table(), ["b", "a", "c", "d"]).cluster) == [1, 2, 2, 1]
    assert set(accuracy_clusters(_table(), k=4).cluster) == {1, 2, 3, 4}


def test_a_bot_without_accuracy_is_named() -> None:
    with pytest.raises(ValueError, match=r"no imitation accuracy for bots \['zz'\]"):
        accuracy_clusters(_table(), ["a", "zz"])


def test_the_figure_draws_and_is_reproducible(tmp_path: Path) -> None:
    t = _table()
    c = accuracy_clusters(t, k=2)
    plot_accuracy(c, t, "demo", tmp_path / "a.png", tmp_path / "a.pdf")
    plot_accuracy(c, t, "demo", tmp_path / "b.png", tmp_path / "b.pdf")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a.pdf").stat().st_size > 1000
