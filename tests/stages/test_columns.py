"""The column dictionary (index.md's) and the percent convention at the table boundary."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from test_report_tables import BOTS, SPECS, THESIS_45, _pairs, _sims

from ime.evaluate.similarity import Similarity, pairwise_similarity
from ime.report import columns as C
from ime.workflow import artifacts as A


def test_percent_converts_the_estimate_and_its_ci_and_back() -> None:
    df = pd.DataFrame({"bot": ["x"], "S1": [0.748], "S1_lo": [0.7], "S1_hi": [0.8], "keys": [9]})
    pct = C.to_percent(df, ["S1"])
    assert pct.loc[0, ["S1", "S1_lo", "S1_hi"]].tolist() == pytest.approx([74.8, 70.0, 80.0])
    assert pct.loc[0, "keys"] == 9 and df.loc[0, "S1"] == 0.748  # a copy; counts untouched
    back = C.from_percent(pct, ["S1"])
    assert back.loc[0, ["S1", "S1_lo", "S1_hi"]].tolist() == pytest.approx([0.748, 0.7, 0.8])
    with pytest.raises(KeyError, match="S2"):
        C.to_percent(df, ["S2"])


def test_every_listed_column_has_a_meaning_and_ci_columns_follow_one_naming() -> None:
    for table, names in C.TABLES.items():
        rows = C.dictionary(table)
        assert [n for n, _ in rows] == list(names)
        assert all(col.meaning for _, col in rows), table
        for n in names:
            assert not any(bad in n for bad in ("ci_low", "ci_high", "_ci", "lower", "upper")), n
            if n.endswith(("_lo", "_hi")):
                est = n[:-3]
                assert est in names, (table, n)
                assert C.define(table, n)[1].unit == C.define(table, est)[1].unit, (table, n)


def test_similarities_are_percent_and_win_rates_are_not() -> None:
    for table, col in [("s1s2_imitator.csv", "S1"), ("s1s2_imitator.csv", "S2_hi"),
                       ("similarity.csv", "s1"), ("similarity_pairs.csv", "s2_lo"),
                       ("imitation_accuracy.csv", "val_acc_mean"),
                       ("imitation_accuracy.csv", "self_agreement_lo"),
                       ("s1_pairwise.csv", "rev3"), ("difficulty_by_class.csv", "S2"),
                       ("dataset_stats.csv", "baseline")]:
        assert C.define(table, col)[1].unit == C.PERCENT, (table, col)
    for table, col in [("seed002.csv", "score"), ("agent_strength.csv", "win_rate_hi"),
                       ("tournament.csv", "points"), ("tournament.csv", "elo_lo")]:
        assert C.define(table, col)[1].unit != C.PERCENT, (table, col)
    assert C.define("agent_strength.csv", "baseline")[1].unit == ""  # there a bot, not a rate


def test_patterns_and_placeholders() -> None:
    assert C.define("tournament_games.csv", "player3")[0] == "player<s>"
    assert C.define("tournament_games.csv", "nonsense") is None
    assert C.define("imitation_accuracy.csv", "val_acc_major_mean")[0] == "val_acc_<head>_mean"
    assert C.define("s2_pairwise.csv", "rev1")[0] == "<bot>"
    assert C.define("sweep_dataset.matches.csv", "dataset.matches")[0] == "<swept key>"
    assert C.define("sweep_dataset.matches.csv", "val_acc_unseen_std")[0] == "val_acc_unseen_std"
    assert C.define("no_such_table.csv", "bot") is None


def test_the_dictionary_lists_the_writers_columns() -> None:
    """A writer that gains a column fails here until the column is defined."""
    from ime.evaluate.clustering import ACCURACY_CLUSTER_COLUMNS
    from ime.evaluate.tournament import result_columns
    from ime.games.big2.study import SOLVER_COLUMNS, STRENGTH_COLUMNS
    from ime.games.connect4.study import COLUMNS as SEED002
    from ime.games.doudizhu.results import TABLE5_10_COLUMNS
    from ime.games.snake.results import SPLIT_COLUMNS
    from ime.report.sweep_figure import FIT_COLUMNS
    from ime.train.tables import CEILING_COLUMNS, TABLE4_4_COLUMNS

    n = len(TABLE4_4_COLUMNS) + len(CEILING_COLUMNS)
    assert list(C.TABLES["imitation_accuracy.csv"])[:n] == [*TABLE4_4_COLUMNS, *CEILING_COLUMNS]
    from ime.train.tables import MAIA_KEYS  # Maia's columns, where the metrics have them

    assert list(C.TABLES["imitation_accuracy.csv"])[n:n + len(MAIA_KEYS)] == [
        f"{k}_mean" for k in MAIA_KEYS]
    assert C.TABLES["accuracy_clusters.csv"] == tuple(ACCURACY_CLUSTER_COLUMNS)
    assert C.TABLES["similarity.csv"] == tuple(Similarity.__dataclass_fields__)
    empty = pairwise_similarity({}, {}, [])
    assert C.TABLES["similarity_pairs.csv"] == tuple(empty.columns)
    assert C.TABLES["fit_sweep_<keys>.csv"] == tuple(FIT_COLUMNS)
    assert C.TABLES["seed002.csv"] == tuple(SEED002)
    assert C.TABLES["agent_strength.csv"] == tuple(STRENGTH_COLUMNS)
    assert C.TABLES["solver_effort.csv"] == tuple(SOLVER_COLUMNS)
    assert C.TABLES["table5_10.csv"] == tuple(TABLE5_10_COLUMNS)
    assert C.TABLES["split_vs_thesis.csv"] == tuple(SPLIT_COLUMNS)
    for seats in (2, 3, 4):
        assert C.undefined("tournament_games.csv", result_columns(seats)) == []


def _metrics(bot: str, net: str, fold: int) -> dict:
    return {"bot": bot, "net": net, "fold": fold, "train_acc": 60.0 + fold, "val_acc": 50.0,
            "epochs": 3, "val_acc_unseen": 40.0, "val_seen_share": 30.0,
            "train_acc_major": 70.0, "val_acc_major": 65.0}


def test_accuracy_tables_written_by_the_builders_are_defined() -> None:
    from ime.datasets.build import table4_2
    from ime.evaluate.clustering import accuracy_clusters
    from ime.train.tables import sweep_table, table4_4

    stats = {b: {"bot": b, "pairs": 100, "baseline": 12.5} for b in ("a", "b")}
    metrics = [_metrics(b, "conv", k) for b in ("a", "b") for k in (0, 1)]
    ceilings = {"a": {"bot": "a", "self_agreement": 100.0,
                       "rows": [["m", 1, 0, 1], ["n", 1, 0, 1]]}}
    t44 = table4_4(metrics, stats, ["a", "b"], ["conv"], ceilings=ceilings, bootstrap=10)
    assert C.undefined("imitation_accuracy.csv", t44.columns) == []
    assert "val_acc_major_mean" in t44.columns and t44.loc[0, "self_agreement_hi"] == 100.0
    assert not any(c.startswith("top1_") for c in t44.columns)  # a file before the top-1 ceiling
    from ime.evaluate.ceiling import TOP1_COLUMNS

    ceilings["a"] |= {"top1_mode": 100.0, "top1_max": 100.0,
                      "top1_rows": [["m", 1, 0, 1, 1.0], ["n", 1, 0, 1, 1.0]]}
    with_top1 = table4_4(metrics, stats, ["a", "b"], ["conv"], ceilings=ceilings, bootstrap=10)
    assert C.undefined("imitation_accuracy.csv", with_top1.columns) == []
    assert list(with_top1.columns) == [*t44.columns, *TOP1_COLUMNS]  # appended, nothing moved
    assert with_top1.drop(columns=TOP1_COLUMNS).equals(t44)
    assert with_top1.loc[0, "top1_max_hi"] == 100.0 and np.isnan(with_top1.loc[1, "top1_max"])
    from ime.evaluate.ceiling import UNSEEN_CEILING_COLUMNS

    unseen = {"a": {("m", 1, 0)}, "b": set()}
    with_unseen = table4_4(metrics, stats, ["a", "b"], ["conv"], ceilings=ceilings,
                           unseen=unseen, bootstrap=10)
    assert C.undefined("imitation_accuracy.csv", with_unseen.columns) == []
    assert list(with_unseen.columns) == [*with_top1.columns, *UNSEEN_CEILING_COLUMNS]
    assert with_unseen.loc[0, "self_agreement_unseen_n"] == 1
    assert C.undefined("accuracy_clusters.csv", accuracy_clusters(t44).columns) == []
    assert C.undefined("dataset_stats.csv", table4_2(list(stats.values())).columns) == []
    sweep = sweep_table([({"dataset.matches": 50}, metrics, stats, ["conv"])],
                        ["dataset.matches"], ["a", "b"])
    assert C.undefined("sweep_dataset.matches.csv", sweep.columns) == []


@pytest.mark.slow
def test_similarity_tables_are_written_in_percent(tmp_path: Path) -> None:
    """The report job reads similarity.csv (percent), computes in fractions and writes every
    similarity table in percent, every column defined."""
    from ime.workflow.jobs.report import job_similarity_tables

    sim = C.to_percent(pd.DataFrame([s.to_row() for s in _sims()]), C.SIMILARITY_PERCENT)
    pairs = C.to_percent(_pairs(), C.SIMILARITY_PERCENT[:2])
    sim.to_csv(tmp_path / "similarity.csv", index=False)
    pairs.to_csv(tmp_path / "similarity_pairs.csv", index=False)
    names = ["s1s2_imitator", "s1_pairwise", "s2_pairwise", "difficulty_by_class", "clusters"]
    out = {n: str(tmp_path / f"{n}.csv") for n in names}
    figs = {f"{k}_{e}": str(tmp_path / f"{k}.{e}") for k in ("dendrogram", "heatmap")
            for e in ("png", "pdf")}
    smk = SimpleNamespace(
        params=SimpleNamespace(spec={"targets": BOTS, "specs": SPECS, "game": "reversi",
                                     "clusters": 2}),
        input=SimpleNamespace(similarity=str(tmp_path / "similarity.csv"),
                              pairwise=str(tmp_path / "similarity_pairs.csv")),
        output=SimpleNamespace(**out, **figs), log=[])
    job_similarity_tables(smk)
    t45 = pd.read_csv(out["s1s2_imitator"]).set_index("bot")
    for b, (s1, s2) in THESIS_45.items():  # the thesis's own numbers, in its unit
        assert t45.loc[b, "S1"] == pytest.approx(s1) and t45.loc[b, "S2"] == pytest.approx(s2)
        assert t45.loc[b, "S1_lo"] == pytest.approx(s1 - 3)
    assert t45["baseline_S1"].eq(20).all()
    s2m = pd.read_csv(out["s2_pairwise"]).set_index("bot")
    assert np.diag(s2m[BOTS].to_numpy()).tolist() == [100.0] * len(BOTS)
    assert s2m.loc["rev1", "rev2"] == pytest.approx(52.94)
    assert s2m.loc["rev3", "IMBOT"] == pytest.approx(36.6)
    t61 = pd.read_csv(out["difficulty_by_class"])
    assert t61["S2"].iloc[0] == pytest.approx(36.6)  # hardest first
    clusters = pd.read_csv(out["clusters"]).set_index("bot")  # fractions inside: 1 - S works
    assert clusters.loc["rev3", "cluster_imitation"] != clusters.loc["rev1", "cluster_imitation"]
    for n in names:
        cols = pd.read_csv(out[n]).columns
        assert C.undefined(f"{n}.csv", cols) == [], n


def test_index_md_defines_every_column_of_its_tables() -> None:
    for game in ("reversi", "doudizhu", "snake", "connect4", "big2"):
        rows = A.describe(game)
        text = A.index_markdown(game, f"results/{game}", rows, variant="", tags={"logs": "x"})
        tables = [r for r in rows if r["files"][-1].endswith(".csv")]
        assert tables and all(r["columns"] for r in tables)
        assert json.loads(json.dumps(rows)) == rows  # plain: the job's params
        for r in tables:
            heading = " = ".join(f"`{f}`" for f in r["files"])
            assert f"### {heading}" in text
        assert "| `S1_lo` | lower end of the CI of S1 | % |" in text
    snake = A.index_markdown("snake", "results/snake/sw", A.describe_sweep(
        "snake", "sweep_dataset.matches.csv", "fig_sweep_dataset.matches.png", "matches",
        "fit_sweep_dataset.matches.csv"), variant="sw", tags={})
    assert "`fit_sweep_dataset.matches.csv`" in snake and "| `<swept key>` |" in snake


def test_undefined_columns_of_a_results_directory(tmp_path: Path) -> None:
    pd.DataFrame({"bot": ["a"], "S1": [50.0], "mystery": [1]}).to_csv(
        tmp_path / "table4_5.csv", index=False)  # Reversi's name for s1s2_imitator.csv
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "notes.csv", index=False)
    pd.DataFrame({"bot": ["a"], "pairs": [1], "baseline": [3.0]}).to_csv(
        tmp_path / "dataset_stats.csv", index=False)
    assert A.undefined_columns("reversi", tmp_path) == {"table4_5.csv": ["mystery"],
                                                        "notes.csv": ["(no dictionary)"]}
