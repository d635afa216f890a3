"""Issue 48's metrics beside S1/S2 as pipeline jobs: move distributions sampled on the keys,
kappa / JSD / the clone test, the clusters checked against the algorithm classes, and the
tournament's transitive and cyclic parts. The logic is in :mod:`ime.evaluate.agreement`,
:mod:`ime.evaluate.distributions`, :mod:`ime.evaluate.clones`, :mod:`ime.evaluate.cluster_checks`,
:mod:`ime.evaluate.hodge` and :mod:`ime.report.dendrogram`; docs/similarity_metrics.md."""

from __future__ import annotations

import logging
from typing import Any

import pandas as pd

from ime.workflow.jobs.logging import job_logging, write_csv

log = logging.getLogger("ime.evaluate")
FLOATS = "%.6g"


def job_distributions(smk: Any) -> None:
    """Every agent's draws on one target's keys (rule eval_distributions)."""
    from ime.evaluate.agents import ProviderFactory
    from ime.evaluate.distributions import sample_moves, write_dists
    from ime.evaluate.keyset import read_keyset

    p = smk.params.spec
    with job_logging(smk):
        ks = read_keyset(smk.input.keyset)
        df, info = sample_moves(ks, p["agents"], ProviderFactory(p["game"], p["bot_specs"]),
                                samples=int(p["samples"]), workers=int(smk.threads))
        write_dists(df, info, smk.output.dists, smk.output.timing)
        log.info("%s: %d keys x %s, %d draws (stochastic: %s) in %.1f s", p["target"],
                 info["keys"], p["agents"], info["decisions"], info["stochastic"],
                 info["seconds"])


def _keys_and_scores(p: dict) -> tuple[dict[str, pd.DataFrame], dict[tuple[str, str], Any]]:
    """The key sets and every (agent, target) score table, read as eval_similarity reads them."""
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import read_scores, stored_scores

    keysets = {t: read_keyset(path) for t, path in p["keys"].items()}
    scores = {}
    for key, path in p["scores"].items():
        agent, target = key.split("|")
        scores[(agent, target)] = read_scores(path)[0]
    for key in p.get("stored", []):
        agent, target = key.split("|")
        scores[(agent, target)] = stored_scores(keysets[target], agent)
    return {t: ks.df for t, ks in keysets.items()}, scores


def job_agreement(smk: Any) -> None:
    """Kappa of every (agent, target) and pair of originals, JSD between sampled move
    distributions, and the clone test (rule eval_agreement)."""
    from ime.evaluate.agreement import agreement_table, pairwise_agreement
    from ime.evaluate.clones import clone_test
    from ime.evaluate.distributions import pairwise_jsd, read_dists
    from ime.report.columns import SIMILARITY_PERCENT, from_percent, to_percent

    p = smk.params.spec
    o = smk.output
    boot = {"n_boot": int(p["bootstrap"]), "level": float(p["ci"]), "seed": int(p["seed"])}
    with job_logging(smk):
        keys, scores = _keys_and_scores(p)
        agree = agreement_table(keys, scores, **boot)
        pct = ["s1", "p_e", "p_e_marginal"]
        write_csv(to_percent(agree, pct), o.agreement, float_format=FLOATS)
        pairs = pairwise_agreement({t: k for t, k in keys.items() if len(k)}, scores,
                                   p["targets"], **boot)
        write_csv(to_percent(pairs, pct), o.pairs, float_format=FLOATS)

        dists, stochastic = {}, set()
        for target, path in p["dists"].items():
            df, info = read_dists(path)
            dists[target] = df
            stochastic |= set(info.get("stochastic", []))
        jsd = pairwise_jsd(dists, p["targets"], p["imitators"],
                           stochastic=[t for t in p["targets"] if t in stochastic], **boot)
        write_csv(jsd, o.jsd, float_format=FLOATS)

        s1_pairs = from_percent(pd.read_csv(smk.input.pairwise), SIMILARITY_PERCENT[:2])
        sims = from_percent(pd.read_csv(smk.input.similarity), SIMILARITY_PERCENT)
        imit = {t: float(sims[(sims["agent"] == a) & (sims["target"] == t)]["s1"].iloc[0])
                for t, a in p["imitators"].items()
                if ((sims["agent"] == a) & (sims["target"] == t)).any()}
        clones = clone_test(s1_pairs, imit, sigma=float(p["clone_sigma"]))
        write_csv(to_percent(clones, ["s1", "pool_mean", "pool_sd"]), o.clones,
                  float_format=FLOATS)
        log.info("kappa of %d (agent, target) pairs and %d pairs of originals; JSD of %d "
                 "pairs; %d clone(s) flagged", len(agree), len(pairs), len(jsd),
                 int(clones["clone"].sum()))


def job_cluster_checks(smk: Any) -> None:
    """Each metric's clustering of the targets against the others and the algorithm classes,
    and the class-coloured dendrograms (rule report_cluster_checks)."""
    from ime.evaluate.cluster_checks import cluster_checks
    from ime.evaluate.clustering import algorithm_class, cluster_matrix
    from ime.evaluate.distributions import LN2
    from ime.evaluate.similarity import to_matrix
    from ime.report.columns import SIMILARITY_PERCENT, from_percent, to_percent
    from ime.report.dendrogram import plot_class_dendrograms

    p = smk.params.spec
    o = smk.output
    with job_logging(smk):
        targets: list[str] = p["targets"]
        k = int(p["clusters"])
        classes = {b: algorithm_class(p["specs"].get(b, {})) for b in targets}
        s_pairs = from_percent(pd.read_csv(smk.input.pairwise), SIMILARITY_PERCENT[:2])
        kappa = pd.read_csv(smk.input.kappa)
        jsd = pd.read_csv(smk.input.jsd)
        jsd = jsd[jsd["kind"] == "originals"].assign(sim=lambda d: 1.0 - d["jsd"] / LN2)
        views = [("s1", s_pairs, "s1", "1 - S1"), ("s2", s_pairs, "s2", "1 - S2"),
                 ("kappa", kappa, "kappa", "1 - kappa"), ("jsd", jsd, "sim", "JSD / ln 2")]
        labels: dict[str, dict[str, int]] = {}
        trees = []
        for name, table, col, axis in views:
            mat = to_matrix(table, targets, col)
            if mat.isna().to_numpy().any():
                log.warning("%s has missing pairs: no clustering by it", name)
                continue
            lab, z = cluster_matrix(mat, k)
            labels[f"distance_{name}"] = dict(zip(lab["bot"], lab["cluster"], strict=True))
            trees.append((f"by {axis} between originals", z, targets))
        for name, path, col in (("imitation", smk.input.clusters, "cluster_imitation"),
                                ("accuracy", smk.input.accuracy, "cluster")):
            t = pd.read_csv(path)
            if col in t.columns:
                t = t[t["bot"].isin(targets)].dropna(subset=[col])
                labels[name] = dict(zip(t["bot"], t[col].astype(int), strict=True))
        ari, purity = cluster_checks(labels, classes)
        write_csv(ari, o.ari, float_format=FLOATS)
        write_csv(to_percent(purity, ["purity", "purity_floor"]), o.purity,
                  float_format=FLOATS)
        lab = pd.DataFrame({"bot": targets, "class": [classes[b] for b in targets]})
        for name, lb in labels.items():
            lab[f"cluster_{name}"] = [lb.get(b) for b in targets]
        write_csv(lab, o.labels, float_format=FLOATS)
        plot_class_dendrograms(trees, classes, o.png, o.pdf,
                               title=f"{p['game']}: the targets clustered by each metric "
                                     "(average linkage), leaves coloured by algorithm class")
        log.info("cluster checks of %s against %d classes", list(labels),
                 len(set(classes.values())))


def job_tournament_cycles(smk: Any) -> None:
    """The tournament's transitive and cyclic parts (rule report_tournament_cycles)."""
    from ime.evaluate.hodge import tournament_decomposition

    p = smk.params.spec
    with job_logging(smk):
        games = pd.read_csv(smk.input.games)
        shares, ratings = tournament_decomposition(games, p["players"],
                                                   n_boot=int(p["bootstrap"]),
                                                   level=float(p["ci"]), seed=int(p["seed"]))
        write_csv(shares, smk.output.shares, float_format=FLOATS)
        write_csv(ratings, smk.output.ratings, float_format=FLOATS)
        log.info("tournament of %d players: transitive share %s", len(ratings),
                 dict(zip(shares["matrix"], shares["transitive_share"].round(3), strict=True)))
