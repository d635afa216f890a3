"""Report tables, clustering and figures on hand-made inputs (no pipeline run needed)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ime.evaluate.clustering import cluster_matrix, cluster_points, clusters_table
from ime.evaluate.similarity import Similarity
from ime.report import figures, tables

# Thesis Table 4.5 (S1, S2 in %) and Table 4.6/4.7 (pairwise, %)
THESIS_45 = {"rev1": (74.80, 69.90), "rev2": (80.40, 58.90), "rev3": (59.90, 36.60),
             "rev4": (69.70, 87.20), "rev5": (79.90, 73.90)}
THESIS_S2 = {("rev1", "rev2"): 52.94, ("rev1", "rev3"): 55.73, ("rev1", "rev4"): 21.97,
             ("rev1", "rev5"): 35.52, ("rev2", "rev3"): 58.43, ("rev2", "rev4"): 30.65,
             ("rev2", "rev5"): 45.09, ("rev3", "rev4"): 29.69, ("rev3", "rev5"): 41.48,
             ("rev4", "rev5"): 38.05}
SPECS = {
    "rev1": {"kind": "alphabeta", "description": "NegaMax + alpha-beta, deep",
             "thesis": {"bot": 1, "ladder_rank": 17}},
    "rev2": {"kind": "alphabeta", "algorithm": "NegaMax + alpha-beta (ID 20)",
             "thesis": {"bot": 2, "ladder_rank": 28}},
    "rev3": {"kind": "mcts", "description": "UCT; alpha-beta endgame",
             "thesis": {"bot": 3, "ladder_rank": 36}},
    "rev4": {"kind": "alphabeta", "thesis": {"bot": 4, "ladder_rank": 94}},
    "rev5": {"kind": "alphabeta", "thesis": {"bot": 5, "ladder_rank": 206}},
}
BOTS = list(THESIS_45)


def _sims():
    out = []
    for b, (a1, a2) in THESIS_45.items():
        s1, s2 = a1 / 100, a2 / 100
        out.append(Similarity(f"imit_{b}", b, 1000, 900, s1, s1 - .03, s1 + .03, s2, s2 - .03,
                              s2 + .03, 0.2))
    out.append(Similarity("rev2", "rev1", 1000, 900, 0.07, 0.05, 0.09, 0.5, 0.47, 0.53, 0.2))
    return out


def _pairs():
    return pd.DataFrame([{"a": a, "b": b, "s1": 0.1, "s1_lo": 0.08, "s1_hi": 0.12,
                          "s2": v / 100, "s2_lo": v / 100 - .02, "s2_hi": v / 100 + .02,
                          "n": 2000, "sets": 2} for (a, b), v in THESIS_S2.items()])


def test_table4_5_rows_ranks_and_ci_columns():
    t = tables.table4_5(_sims(), SPECS, BOTS)
    assert list(t["bot"]) == BOTS
    assert list(t["rank"]) == [17, 28, 36, 94, 206]
    assert t.loc[0, "algorithm"] == "NegaMax + alpha-beta"          # first clause of description
    assert t.loc[1, "algorithm"] == "NegaMax + alpha-beta (ID 20)"  # explicit algorithm key
    assert t.loc[3, "algorithm"] == "alphabeta"                      # kind as a last resort
    assert {"S1", "S1_lo", "S1_hi", "S2", "S2_lo", "S2_hi", "baseline_S1"} <= set(t.columns)
    assert (t["S1_lo"] <= t["S1"]).all() and (t["S1"] <= t["S1_hi"]).all()
    assert len(t) == 5  # the rev2-on-rev1 row is not an imitator row


def test_pairwise_tables_are_symmetric_with_imbot():
    t = tables.pairwise_table(_pairs(), BOTS, "s2", tables.imbot_values(_sims(), "s2"))
    m = t.set_index("bot")[BOTS].to_numpy()
    assert np.allclose(m, m.T) and np.allclose(np.diag(m), 1.0)
    assert t.set_index("bot").loc["rev3", "IMBOT"] == pytest.approx(0.366)
    assert t.set_index("bot").loc["rev1", "rev2"] == pytest.approx(0.5294)


def test_thesis_clustering_by_imitation_similarity_isolates_the_mcts_bot():
    # thesis 4.5.1: {1, 2, 4, 5} (deterministic search) vs {3} (MCTS)
    pts = pd.DataFrame(THESIS_45, index=["S1", "S2"]).T / 100
    labels, z = cluster_points(pts, k=2)
    got = dict(zip(labels["bot"], labels["cluster"], strict=True))
    assert got == {"rev1": 1, "rev2": 1, "rev3": 2, "rev4": 1, "rev5": 1}
    assert z.shape == (4, 4)


def test_distance_clustering_and_clusters_table():
    from ime.evaluate.similarity import to_matrix

    mat = to_matrix(_pairs(), BOTS, "s2")
    labels, z = cluster_matrix(mat, k=2)
    assert sorted(labels["cluster"].unique()) == [1, 2] and labels["cluster"].iloc[0] == 1
    with pytest.raises(ValueError, match="symmetric"):
        bad = mat.copy()
        bad.iloc[0, 1] = 0.0
        cluster_matrix(bad)
    imit, _ = cluster_points(pd.DataFrame(THESIS_45, index=["S1", "S2"]).T / 100)
    ct = clusters_table(imit, {"distance_s2": labels}, {"rev3": "statistical sampling search"})
    assert list(ct.columns) == ["bot", "class", "cluster_imitation", "cluster_distance_s2"]
    assert ct.set_index("bot").loc["rev3", "class"] == "statistical sampling search"


def test_single_bot_clusters_without_error():
    labels, z = cluster_points(pd.DataFrame({"S1": [0.5], "S2": [0.5]}, index=["x"]))
    assert list(labels["cluster"]) == [1] and len(z) == 0


def test_table6_1_orders_by_s2_and_names_classes():
    t = tables.table6_1(tables.table4_5(_sims(), SPECS, BOTS), SPECS, game="reversi")
    assert list(t["bot"]) == ["rev3", "rev2", "rev1", "rev5", "rev4"]  # thesis Table 6.1 order
    assert t.loc[0, "class"] == "statistical sampling search"
    assert set(t.loc[1:, "class"]) == {"deterministic search"}


def test_table4_8_joins_standings_and_ratings():
    st = pd.DataFrame({"bot": ["rev1", "imit_rev1"], "games": [2, 2], "wins": [2, 0],
                       "draws": [0, 0], "losses": [0, 2], "points": [6, 0], "rank": [1, 2]})
    bt = pd.DataFrame({"bot": ["rev1", "imit_rev1"], "elo": [1600.0, 1400.0],
                       "elo_lo": [1550.0, 1350.0], "elo_hi": [1650.0, 1450.0]})
    t = tables.table4_8(st, bt, ["rev1"])
    assert list(t["type"]) == ["original", "imitator"] and list(t["imitates"]) == ["", "rev1"]
    assert list(t.columns[:5]) == ["rank", "bot", "type", "imitates", "points"]


@pytest.mark.slow
def test_figures_are_written_as_png_and_pdf(tmp_path):
    rng = np.random.default_rng(0)
    counts = {b: rng.integers(0, 100, 64) for b in BOTS}
    for c in counts.values():
        c[[27, 28, 35, 36]] = 0
    figures.plot_move_heatmaps(counts, tmp_path / "m.png", tmp_path / "m.pdf", game="reversi")
    figures.plot_fig4_2(counts, "rev1", "rev5", tmp_path / "f.png", tmp_path / "f.pdf",
                        game="reversi")
    mat = pd.DataFrame(rng.random((4, 3)), index=list("abcd"), columns=list("xyz"))
    figures.plot_similarity_panels([mat, mat], ["S1", "S2"], tmp_path / "s.png",
                                   tmp_path / "s.pdf", xlabel="target", ylabel="agent")
    pts = pd.DataFrame(THESIS_45, index=["S1", "S2"]).T / 100
    _, z = cluster_points(pts)
    figures.plot_dendrograms([("imitation", z, BOTS), ("one", np.zeros((0, 4)), ["x"])],
                             tmp_path / "d.png", tmp_path / "d.pdf")
    t48 = pd.DataFrame({"bot": ["a", "b"], "type": ["original", "imitator"], "points": [3, 0],
                        "elo": [1600.0, 1400.0], "elo_lo": [1500.0, 1300.0],
                        "elo_hi": [1700.0, 1500.0]})
    figures.plot_ratings(t48, tmp_path / "r.png", tmp_path / "r.pdf")
    for name in "mfsdr":
        for ext in ("png", "pdf"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 1000
    assert figures.shares(np.zeros(64)).sum() == 0.0
