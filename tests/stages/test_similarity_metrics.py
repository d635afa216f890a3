"""Issue 48's metrics beside S1/S2: kappa, JSD, the tournament's transitive/cyclic split, the
clone test, and the clusters checked against the algorithm classes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ime.evaluate.agreement import (
    agreement_table,
    chance_uniform,
    kappa_estimate,
    kappa_of,
    marginal_chance,
    pairwise_agreement,
)
from ime.evaluate.clones import clone_test
from ime.evaluate.cluster_checks import adjusted_rand, cluster_checks, purity
from ime.evaluate.distributions import LN2, jsd, pairwise_jsd
from ime.evaluate.hodge import antisymmetric, decompose, tournament_decomposition


def _keys(n_legal: np.ndarray, actions: np.ndarray, matches: int = 50) -> pd.DataFrame:
    n = len(n_legal)
    return pd.DataFrame({"match_id": [f"m{i % matches}" for i in range(n)], "ply": np.arange(n),
                         "seat": 0, "action": actions, "n_legal": n_legal,
                         "target_outcome": 2})


def _scores(keys: pd.DataFrame, actions: np.ndarray) -> pd.DataFrame:
    return keys[["match_id", "ply", "seat"]].assign(action=actions, outcome=2)


# --- kappa ---------------------------------------------------------------------------------------
def test_kappa_is_one_for_identical_agents_and_zero_for_independent_uniform_ones() -> None:
    rng = np.random.default_rng(1)
    n = 20_000
    legal = rng.integers(2, 12, n)
    target = rng.integers(0, legal)
    keys = _keys(legal, target, matches=2000)
    same = agreement_table({"t": keys}, {("t", "t"): _scores(keys, target)}, n_boot=50)
    assert same.loc[0, "kappa"] == pytest.approx(1.0)
    assert same.loc[0, "s1"] == pytest.approx(1.0)
    uniform = rng.integers(0, legal)  # an independent uniform player on the same keys
    ind = agreement_table({"t": keys}, {("u", "t"): _scores(keys, uniform)}, n_boot=200)
    r = ind.iloc[0]
    assert r["p_e"] == pytest.approx(float((1.0 / legal).mean()))
    assert abs(r["kappa"]) < 0.02  # 0 in expectation; sd ~ 0.004 at this n
    assert r["kappa_lo"] < 0 < r["kappa_hi"]
    # an agent that agrees more than chance has a positive kappa with a CI above 0
    better = np.where(rng.random(n) < 0.5, target, uniform)
    r = agreement_table({"t": keys}, {("b", "t"): _scores(keys, better)}, n_boot=200).iloc[0]
    assert r["kappa"] == pytest.approx(kappa_of(r["s1"], r["p_e"]))
    assert 0.4 < r["kappa_lo"] < r["kappa"] < r["kappa_hi"] < 0.6


def test_kappa_formula_chance_and_errors() -> None:
    assert kappa_of(0.75, 0.5) == pytest.approx(0.5)
    assert np.isnan(kappa_of(1.0, 1.0))  # every key forced: undefined, not 1
    assert chance_uniform([2, 4]).tolist() == [0.5, 0.25]
    with pytest.raises(ValueError, match="legal moves"):
        chance_uniform([0, 3])
    # the same seed gives the same CI; another seed another
    same = (np.random.default_rng(0).random(120) < 0.6).astype(float)
    ch = np.full(len(same), 0.25)
    cl = np.repeat(np.arange(40), 3)
    a = kappa_estimate(same, ch, cl, n_boot=300, seed=3)
    assert a == kappa_estimate(same, ch, cl, n_boot=300, seed=3)
    assert a["kappa_lo"] != kappa_estimate(same, ch, cl, n_boot=300, seed=4)["kappa_lo"]
    with pytest.raises(ValueError, match="aligned"):
        kappa_estimate(same[:3], ch, cl)


def test_marginal_kappa_removes_a_shared_style() -> None:
    # both always play code 0: S1 = 1, but pooled marginals call all of it chance
    assert marginal_chance([0, 0, 0], [0, 0, 0]) == pytest.approx(1.0)
    assert marginal_chance([0, 1], [1, 2]) == pytest.approx(0.25)


def test_pairwise_kappa_pools_both_key_sets_and_matches_s1() -> None:
    from ime.evaluate.similarity import pairwise_similarity

    rng = np.random.default_rng(2)
    keys = {t: _keys(rng.integers(2, 8, 60), rng.integers(0, 2, 60)) for t in ("a", "b")}
    scores = {("b", "a"): _scores(keys["a"], rng.integers(0, 2, 60)),
              ("a", "b"): _scores(keys["b"], rng.integers(0, 2, 60))}
    k = pairwise_agreement(keys, scores, ["a", "b"], n_boot=100)
    s = pairwise_similarity(keys, scores, ["a", "b"], n_boot=10)
    assert k.loc[0, "n"] == 120
    assert k.loc[0, "s1"] == pytest.approx(s.loc[0, "s1"])


# --- JSD -----------------------------------------------------------------------------------------
def test_jsd_is_zero_for_identical_and_ln2_for_disjoint_distributions() -> None:
    assert jsd({1: 3, 2: 1}, {1: 6, 2: 2}) == pytest.approx(0.0, abs=1e-12)
    assert jsd({1: 1.0}, {2: 1.0}) == pytest.approx(LN2)
    assert jsd({1: 1, 2: 1}, {2: 1, 3: 1}) == pytest.approx(0.5 * LN2)
    with pytest.raises(ValueError, match="empty"):
        jsd({}, {1: 1})


def _draws(target: str, agents: dict[str, list[list[int]]]) -> pd.DataFrame:
    rows = []
    for agent, per_key in agents.items():
        for k, draws in enumerate(per_key):
            rows += [(f"{target}m{k}", k, 0, agent, d, a) for d, a in enumerate(draws)]
    return pd.DataFrame(rows, columns=["match_id", "ply", "seat", "agent", "draw", "action"])


def test_pairwise_jsd_originals_imitator_and_self_floor() -> None:
    det = [[0] * 4, [1] * 4]  # a deterministic bot: one move a key
    coin = [[0, 1, 0, 1], [1, 0, 1, 0]]  # half and half on every key
    dists = {"x": _draws("x", {"x": det, "y": coin, "imit_x": det}),
             "y": _draws("y", {"x": det, "y": coin})}
    out = pairwise_jsd(dists, ["x", "y"], {"x": "imit_x"}, stochastic=["y"], n_boot=50)
    by = {(r.a, r.b, r.kind): r for r in out.itertuples()}
    # a point mass against a fair coin over it and one other move: H(3/4,1/4) - ln2/2
    h = -(0.75 * np.log(0.75) + 0.25 * np.log(0.25))
    assert by[("x", "y", "originals")].jsd == pytest.approx(h - LN2 / 2)
    assert by[("x", "y", "originals")].keys == 4
    assert by[("x", "imit_x", "imitator")].jsd == pytest.approx(0.0)
    assert by[("y", "y", "self")].jsd == pytest.approx(0.0)  # both halves are {0, 1}


# --- the tournament's transitive and cyclic parts ------------------------------------------------
def test_decomposition_recovers_a_planted_transitive_matrix_exactly() -> None:
    r = np.array([1.5, 0.5, -0.25, -1.75])
    a = r[:, None] - r[None, :]
    d = decompose(a)
    assert np.allclose(d["ratings"], r - r.mean())
    assert d["transitive_share"] == pytest.approx(1.0)
    assert d["cyclic_share"] == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(d["cyclic"], 0.0)


def test_rock_paper_scissors_is_pure_cyclic_and_a_mix_splits_orthogonally() -> None:
    rps = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    d = decompose(rps)
    assert d["cyclic_share"] == pytest.approx(1.0)
    assert d["transitive_share"] == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(d["ratings"], 0.0)
    assert d["cyclic_top_share"] == pytest.approx(1.0)  # one 2-D rotation
    r = np.array([2.0, 0.0, -2.0])
    mix = decompose((r[:, None] - r[None, :]) + rps)
    assert np.allclose(mix["ratings"], r)
    assert mix["transitive_share"] + mix["cyclic_share"] == pytest.approx(1.0)
    # grad r: entries +-2, +-4, +-2 (sum of squares 48); the cycle six entries of +-1 (6)
    assert mix["transitive_share"] == pytest.approx(48 / 54)
    with pytest.raises(ValueError, match="antisymmetric"):
        decompose(np.ones((3, 3)))


def test_decomposition_with_unplayed_pairs_and_from_games() -> None:
    r = np.array([1.0, 0.0, -1.0, 0.5])
    a = r[:, None] - r[None, :]
    played = ~np.eye(4, dtype=bool)
    played[0, 2] = played[2, 0] = False
    d = decompose(np.where(played, a, 0.0), played)
    assert np.allclose(d["ratings"], r - r.mean())  # least squares on the pairs that met
    # games: A beats B beats C beats A, every round -> all cyclic
    rows = []
    for rnd in range(4):
        for w, lo in (("A", "B"), ("B", "C"), ("C", "A")):
            rows.append({"round": rnd, "match_id": f"{rnd}{w}", "player0": w, "player1": lo,
                         "outcome0": 2, "outcome1": 0})
    shares, ratings = tournament_decomposition(pd.DataFrame(rows), ["A", "B", "C"], n_boot=50)
    assert shares["cyclic_share"].tolist() == pytest.approx([1.0, 1.0])
    assert np.allclose(ratings["rating_margin"], 0.0)
    w, _ = antisymmetric(np.array([[0, 4], [0, 0]]), "logit")
    assert w[0, 1] == pytest.approx(np.log(4.5 / 0.5))  # shrunk: finite for 4-0
    with pytest.raises(ValueError, match="unknown matrix"):
        antisymmetric(np.zeros((2, 2)), "elo")


# --- the clone test ------------------------------------------------------------------------------
def test_clone_test_flags_a_planted_clone_and_scores_imitators() -> None:
    bots = [f"b{i}" for i in range(6)]
    rng = np.random.default_rng(0)
    rows = [{"a": a, "b": b, "s1": 0.30 + rng.normal(0, 0.02)}
            for i, a in enumerate(bots) for b in bots[i + 1:]]
    rows[3]["s1"] = 0.95  # b0-b4: a clone
    out = clone_test(pd.DataFrame(rows), sigma=5)
    flagged = out[out["clone"]]
    assert list(zip(flagged["a"], flagged["b"], strict=True)) == [("b0", "b4")]
    assert out.loc[3, "pool_pairs"] == 14  # the pair itself is left out of its pool
    # with the clone inside its own pool it could never reach 5 sigma with 15 pairs
    s = np.array([r["s1"] for r in rows])
    assert (s[3] - s.mean()) / s.std(ddof=1) < 5
    # imitators against the pool (without the planted clone): a close copy is flagged
    rows[3]["s1"] = 0.30
    out = clone_test(pd.DataFrame(rows), {"b1": 0.9, "b2": 0.31}, sigma=5)
    imit = out[out["kind"] == "imitator"].set_index("b")
    assert imit["clone"].to_dict() == {"imit_b1": True, "imit_b2": False}
    assert not out[out["kind"] == "originals"]["clone"].any()
    with pytest.raises(ValueError, match="sigma"):
        clone_test(pd.DataFrame(rows), sigma=0)


# --- clusters against classes --------------------------------------------------------------------
def test_ari_and_purity_on_hand_checked_labels() -> None:
    assert adjusted_rand([1, 1, 2, 2], [5, 5, 7, 7]) == pytest.approx(1.0)  # same partition
    assert adjusted_rand([1, 1, 2, 2], [1, 2, 1, 2]) == pytest.approx(-0.5)
    # by hand: sum C(n_ij,2) = 2, rows 1 + 3 = 4, columns 1 + 1 = 2, E = 4 * 2 / C(5,2) = 0.8:
    # (2 - 0.8) / ((4 + 2) / 2 - 0.8) = 6 / 11
    assert adjusted_rand([0, 0, 1, 1, 1], [0, 0, 1, 1, 2]) == pytest.approx(6 / 11)
    assert adjusted_rand([1, 1, 1], [2, 2, 2]) == 1.0
    assert purity([1, 1, 2, 2, 2], ["s", "s", "d", "d", "s"]) == pytest.approx(0.8)
    clusters = {"by_s1": {"r1": 1, "r2": 1, "r3": 2, "r4": 1},
                "by_acc": {"r1": 1, "r2": 2, "r3": 2, "r4": 2}}
    classes = {"r1": "det", "r2": "det", "r3": "mcts", "r4": "det"}
    ari, pur = cluster_checks(clusters, classes)
    p = pur.set_index("clustering")
    assert p.loc["by_s1", "purity"] == 1.0 and p.loc["by_s1", "ari_classes"] == 1.0
    assert p.loc["by_acc", "purity"] == pytest.approx(0.75)
    assert p.loc["by_acc", "purity_floor"] == pytest.approx(0.75)
    assert set(zip(ari["a"], ari["b"], strict=True)) == {("by_s1", "by_acc"),
                                                         ("by_s1", "class"),
                                                         ("by_acc", "class")}


def test_the_reports_part_beyond_the_thesis() -> None:
    from ime.thesis.beyond import metrics_section
    from ime.thesis.results import GameResults

    assert metrics_section({"reversi": GameResults("reversi", {})}) == []
    tables = {
        "agreement.csv": pd.DataFrame({"agent": ["imit_r1", "r2"], "target": ["r1", "r1"],
                                       "kappa": [0.5, 0.1], "kappa_lo": [0.4, 0.0],
                                       "kappa_hi": [0.6, 0.2]}),
        "clones.csv": pd.DataFrame({"a": ["r1", "r1"], "b": ["r2", "imit_r1"],
                                    "kind": ["originals", "imitator"], "clone": [False, True]}),
    }
    text = "\n".join(metrics_section({"reversi": GameResults("reversi", tables)}))
    assert "r1 0.50 [0.40, 0.60]" in text and "r2 0.10" not in text
    assert "none of 1 pairs; imitators flagged 1 of 1" in text


def test_sampled_move_distributions_on_toy_keys(tmp_path) -> None:
    """Real key mining and sampling on Reversi with toy bots: a deterministic bot's draws are
    all its logged move, a seeded random bot's vary and stay legal, the same with 2 workers,
    and the files keep the same bytes for the same inputs."""
    from ime.core.registry import get_game
    from ime.evaluate.distributions import read_dists, sample_moves, write_dists
    from ime.evaluate.keys import mine_keys, read_keyset, write_keyset
    from ime.evaluate.toy import ToyProvider, ToyProviderFactory
    from ime.matches.judge import run_match
    from ime.matches.logs import write_matches

    game = get_game("reversi")
    prov = ToyProvider()
    ms = [run_match(game, [prov("toy_first"), prov("toy_random")][:: 1 if k % 2 else -1],
                    match_id=f"m-{k}", seed=7) for k in range(8)]
    write_matches(tmp_path / "m.jsonl", ms)
    res = mine_keys(game, "toy_first", ["toy_last", "toy_random"], [tmp_path / "m.jsonl"],
                    ToyProviderFactory(), n_keys=6, seed=3, match_seed=7, workers=1,
                    progress=False)
    write_keyset(res, *(tmp_path / f"k{i}" for i in range(4)))
    ks = read_keyset(tmp_path / "k0")
    agents = ["toy_first", "toy_random"]
    df, info = sample_moves(ks, agents, ToyProviderFactory(), samples=6)
    assert info["stochastic"] == ["toy_random"] and len(df) == len(ks.df) * 2 * 6
    first = df[df["agent"] == "toy_first"].groupby("match_id", sort=False)["action"]
    assert (first.nunique() == 1).all()
    logged = dict(zip(ks.df["match_id"], ks.df["action"], strict=True))
    assert all(g.iloc[0] == logged[m] for m, g in first)  # its draw is its logged move
    rnd = df[df["agent"] == "toy_random"].groupby(["match_id", "ply"])["action"].nunique()
    assert rnd.max() > 1  # a stochastic bot's draws differ
    par, _ = sample_moves(ks, agents, ToyProviderFactory(), samples=6, workers=2)
    pd.testing.assert_frame_equal(df, par)
    write_dists(df, info, tmp_path / "a.parquet")
    write_dists(par, info, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    back, meta = read_dists(tmp_path / "a.parquet")
    assert meta["stochastic"] == ["toy_random"] and len(back) == len(df)
    with pytest.raises(ValueError, match="at least 2"):
        sample_moves(ks, agents, ToyProviderFactory(), samples=1)
