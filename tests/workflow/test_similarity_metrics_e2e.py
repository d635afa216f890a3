"""Issue 48's metrics in the shared tiny run: kappa, JSD, the clone test, the tournament's
transitive/cyclic split and the cluster checks are written for Reversi (rule all) and Doudizhu
(composite, string-coded actions), with values that agree with the S1/S2 tables they extend."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.slow
LN2 = math.log(2.0)


def check_reversi(rdir: Path) -> None:
    """The assertions on one results directory (callable on any run's folder)."""
    sims = pd.read_csv(rdir / "similarity.csv")
    agree = pd.read_csv(rdir / "agreement.csv")
    m = agree.merge(sims, on=["agent", "target"], suffixes=("", "_sim"))
    assert len(m) == len(sims[~sims["agent"].str.endswith("@heldout")]) > 0
    assert np.allclose(m["s1"], m["s1_sim"]) and np.allclose(m["p_e"], m["baseline"])
    k = (m["s1"] - m["p_e"]) / (100.0 - m["p_e"])
    assert np.allclose(m["kappa"], k)
    ok = m["kappa_lo"].notna()
    assert (m.loc[ok, "kappa_lo"] <= m.loc[ok, "kappa"] + 1e-9).all()
    assert (m.loc[ok, "kappa"] <= m.loc[ok, "kappa_hi"] + 1e-9).all()

    pairs = pd.read_csv(rdir / "similarity_pairs.csv")
    kp = pd.read_csv(rdir / "agreement_pairs.csv").merge(pairs, on=["a", "b"],
                                                         suffixes=("", "_sim"))
    assert len(kp) == len(pairs) > 0 and np.allclose(kp["s1"], kp["s1_sim"])

    jsd = pd.read_csv(rdir / "jsd_pairs.csv")
    assert jsd["jsd"].between(0, LN2 + 1e-9).all()
    assert set(jsd["kind"]) >= {"originals", "imitator"}
    stochastic = set(jsd.loc[jsd["kind"] == "self", "a"])
    orig = jsd[jsd["kind"] == "originals"].merge(pairs, on=["a", "b"])
    det = orig[~orig["a"].isin(stochastic) & ~orig["b"].isin(stochastic)]
    # two deterministic bots: JSD is ln 2 on the keys where they differ, 0 elsewhere
    assert np.allclose(det["jsd"], LN2 * (1 - det["s1"] / 100.0), atol=1e-6)

    clones = pd.read_csv(rdir / "clones.csv")
    assert len(clones[clones["kind"] == "originals"]) == len(pairs)
    assert set(clones.loc[clones["kind"] == "imitator", "b"]) == {
        a for a in sims["agent"] if a.startswith("imit_") and "@" not in a}

    cyc = pd.read_csv(rdir / "tournament_cycles.csv")
    assert set(cyc["matrix"]) == {"logit", "margin"}
    assert np.allclose(cyc["transitive_share"] + cyc["cyclic_share"], 1.0)
    ratings = pd.read_csv(rdir / "tournament_hodge_ratings.csv")
    assert ratings["rating_logit"].sum() == pytest.approx(0.0, abs=1e-9)

    pur = pd.read_csv(rdir / "cluster_purity.csv")
    assert {"distance_s1", "distance_kappa", "imitation", "accuracy"} <= set(pur["clustering"])
    assert (pur["purity"] >= pur["purity_floor"] - 1e-9).all() and (pur["purity"] <= 100).all()
    ari = pd.read_csv(rdir / "cluster_agreement.csv")
    assert ari["ari"].dropna().between(-1, 1).all() and "class" in set(ari["b"])
    assert (rdir / "figures/dendrogram_classes.png").stat().st_size > 1000


def test_metrics_beside_s1_s2_in_the_tiny_run(tiny_run: Path) -> None:
    check_reversi(tiny_run / "results/reversi/tiny")
    ddz = tiny_run / "results/doudizhu/tiny"
    agree = pd.read_csv(ddz / "agreement.csv")
    assert len(agree) and agree["kappa"].between(-1, 1).all()
    jsd = pd.read_csv(ddz / "jsd_pairs.csv")
    assert len(jsd) and jsd["jsd"].between(0, LN2 + 1e-9).all()
    report = (tiny_run / "results/thesis/tiny/reproduction.md").read_text(encoding="utf-8")
    assert "## Beyond the thesis: metrics beside S1/S2" in report
