"""The files of a results directory: the generic artifacts, each game's names for them, and the
game's own results; and ``index.md``, which lists what each file is.

The rules write every result under a generic name (``s1s2_imitator.csv``). A game plug-in maps
generic names to its thesis chapter's (``GamePlugin.artifacts``: Reversi's ``s1s2_imitator.csv``
is ``table4_5.csv``), and the ``artifact`` rule copies the generic file to the game's name, so a
game's users find the names they know and the rules stay generic. A mapped figure's PDF twin is
copied too (``figures/move_choice_pair.pdf`` -> ``figures/fig4_2.pdf``). A plug-in's extra
results (``GamePlugin.results``: name -> hook) are built by the ``game_result`` rule.

``index.md`` also defines every column of every table it lists, with its unit, from the one
column dictionary :mod:`ime.report.columns`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ime.core.registry import GENERIC_ARTIFACTS, SWEEP_PREFIXES
from ime.report import columns as C
from ime.workflow.plugins import plugin_info

OTHER_RESULTS: dict[str, str] = {
    "run_report.json": "log lines, accepted / rejected / faulted matches with reasons, per-bot "
                       "counts, and the variant's tags and full config",
    "provenance.json": "the run's provenance, apart so that run_report.json keeps the same "
                       "bytes for the same config: git commit and dirty flag of the code, "
                       "versions of python, torch, numpy, numba, pandas, pyarrow, snakemake and "
                       "hydra-core, the machine (CPU, cores, memory, GPUs, OS), a UTC time, and "
                       "wall / CPU seconds and job counts per stage from benchmarks/ (the "
                       "stages done when run_report ran)",
    "similarity.csv": "S1 and S2 with CIs of every (agent, target) pair: originals, imitators, "
                      "extra agents, and each imitator held out on its own target's keys",
    "similarity_pairs.csv": "S1 and S2 between every pair of original bots (long form)",
    "clusters.csv": "the targets' clusters, by imitation similarity and by distance 100 - S",
    "tournament_games.csv": "every tournament game: round, players, scores, outcome, plies",
    "agreement.csv": "Cohen's kappa of S1 (chance: uniform play on each key's legal moves), with "
                     "CIs, for every (agent, target) pair (docs/similarity_metrics.md)",
    "agreement_pairs.csv": "Cohen's kappa between every pair of originals, pooled over both "
                           "key sets",
    "jsd_pairs.csv": "Jensen-Shannon divergence between sampled move distributions on the key "
                     "positions: originals, imitators, each stochastic bot's own floor",
    "clones.csv": "the clone test: each pair's S1 in standard deviations above the other pairs "
                  "(likely clones above evaluate.agreement.clone_sigma), imitators as controls",
    "cluster_agreement.csv": "adjusted Rand index between the clusterings each metric gives, "
                             "and with the algorithm classes (Table 6.1)",
    "cluster_purity.csv": "each clustering's purity against the algorithm classes, beside its "
                          "floor",
    "cluster_labels.csv": "each target's class and its cluster under every metric",
    "figures/dendrogram_classes.png": "the targets' dendrogram under each metric, leaves "
                                      "coloured by algorithm class",
    "tournament_cycles.csv": "the tournament's transitive and cyclic parts (Hodge "
                             "decomposition): their shares, with CIs",
    "tournament_hodge_ratings.csv": "the ratings of the tournament's transitive part",
    "move_counts.csv": "how often each target chose each action code in its dataset",
    "eval_timing.csv": "wall time and throughput of key mining, scoring and tournament jobs",
    "figures/moves.png": "every target's move-choice map",
    "figures/similarity.png": "S1 / S2 heat maps: every agent on every target's key endgames",
    "figures/dendrogram.png": "dendrograms of the targets' clusterings",
    "figures/ratings.png": "Bradley-Terry ratings of originals and imitators, with CIs",
    "identification.csv": "which bot played this: top-1 / top-3 accuracy of naming a target "
                          "from k of its held-out matches, against k and against the pool's "
                          "size, with CIs, and the open-set threshold (docs/identify.md)",
    "identification_confusion.csv": "per k, which bot the identification names for each "
                                    "target's held-out match groups",
    "figures/identification.png": "identification accuracy against k and the pool's size",
    "om_search.csv": "opponent-model search against the original bots (issue 49; a named "
                     "target, not built by rule all: snakemake results/<game>/om_search.csv): "
                     "points share with CIs of plain search at the depth cap and at equal "
                     "nodes, and of the search with the target's own, another target's and "
                     "the true model, the gain over plain search (docs/opponent_model.md)",
    "om_search_cost.csv": "what a decision of the opponent-model search's player costs in "
                          "each cell: ms, nodes, model positions and calls, depth",
    "om_search_model_accuracy.csv": "how often the opponent model names the target's move, "
                                    "with CIs: at a seeded sample of the positions the search "
                                    "asked it about and of the target's moves, per model cell",
    "figures/om_search.png": "the opponent-model search's points shares per target and cell",
}
"""Generic results that no game renames."""

INDEX = "index.md"
IDENTIFY_RESULTS = ("identification.csv", "identification_confusion.csv",
                    "figures/identification.png")
"""Which bot played this (issue 48): built for a variant whose pool holds two bots or more."""
EVAL_RESULTS = [
    "s1s2_imitator.csv", "s1_pairwise.csv", "s2_pairwise.csv", "tournament.csv",
    "difficulty_by_class.csv", "clusters.csv", "similarity.csv", "similarity_pairs.csv",
    "eval_timing.csv", "figures/move_choice_pair.png", "figures/moves.png",
    "figures/similarity.png", "figures/dendrogram.png", "figures/ratings.png",
    "case_study.csv", "figures/case_study.png",
    "agreement.csv", "agreement_pairs.csv", "jsd_pairs.csv", "clones.csv",
    "cluster_agreement.csv", "cluster_purity.csv", "cluster_labels.csv",
    "figures/dendrogram_classes.png", "tournament_cycles.csv", "tournament_hodge_ratings.csv",
    *IDENTIFY_RESULTS,
]
"""The evaluation's results rule ``all`` builds for a variant (:data:`IDENTIFY_RESULTS` only
where there are two bots to tell apart)."""
TRAIN_RESULTS = ["dataset_stats.csv", "net_architectures.csv", "imitation_accuracy.csv",
                 "accuracy_clusters.csv", "figures/accuracy.png",
                 "run_report.json"]
"""The results of the chain to the imitators."""


def game_names(game: str) -> dict[str, str]:
    """Generic name -> the game's name, for every renamed file (figures' PDF twins included)."""
    out = {}
    for generic, name in plugin_info(game).artifacts.items():
        if generic == name:
            continue
        out[generic] = name
        if generic.endswith(".png") and name.endswith(".png"):
            out[generic.removesuffix(".png") + ".pdf"] = name.removesuffix(".png") + ".pdf"
    return out


def generic_of(game: str, name: str) -> str:
    """The generic file the game's file ``name`` is a copy of."""
    inverse = {v: k for k, v in game_names(game).items()}
    if name not in inverse:
        raise KeyError(f"{game} has no result named {name!r}; its names: {sorted(inverse)}")
    return inverse[name]


def game_results(game: str) -> list[str]:
    """The plug-in's own result files (``GamePlugin.results``)."""
    return sorted(plugin_info(game).results)


def variant_results(game: str, identify: bool = True) -> list[str]:
    """Every result file rule ``all`` builds for a variant of ``game``, by the game's names;
    ``identify=False`` (a pool of one bot: nothing to tell apart) leaves out
    :data:`IDENTIFY_RESULTS`."""
    names = game_names(game)
    files = [f for f in [*TRAIN_RESULTS, *EVAL_RESULTS] if identify or f not in IDENTIFY_RESULTS]
    out = [names.get(f, f) for f in files]
    out += [n for g, n in names.items() if g not in files and not g.startswith(SWEEP_PREFIXES)]
    out += game_results(game)
    return [*out, INDEX]


def sweep_results(game: str, files: Sequence[str]) -> list[str]:
    """What rule ``all`` builds for a sweep: its generic ``files`` (table, figure and the
    figure's PDF), the game's names for any of them (Snake's ``fig2_6.png``), ``index.md``."""
    names = game_names(game)
    return [*files, *(names[f] for f in files if f in names), INDEX]


def _row(files: list[str], what: str) -> dict[str, Any]:
    """One file's row of ``index.md``; a table's row carries its columns' meanings (from its
    generic name, the last of ``files``: :mod:`ime.report.columns`)."""
    row: dict[str, Any] = {"files": files, "what": what}
    if files[-1].endswith(".csv"):
        row["columns"] = C.plain(files[-1])
    return row


def describe(game: str) -> list[dict[str, Any]]:
    """``index.md``'s rows for a variant: the file(s) (the game's name first, then the generic
    one it copies), what they hold and, for a table, its columns."""
    names = game_names(game)
    rows = []
    for generic, text in [*GENERIC_ARTIFACTS.items(), *OTHER_RESULTS.items()]:
        rows.append(_row([names[generic], generic] if generic in names else [generic], text))
    for name, (_, doc) in sorted(plugin_info(game).results.items()):
        rows.append(_row([name], doc or f"{game}'s own result"))
    return rows


def describe_sweep(game: str, table: str, figure: str, axes: str, fit: str | None = None
                   ) -> list[dict[str, Any]]:
    """``index.md``'s rows for a sweep's results directory."""
    names = game_names(game)

    def files(generic: str) -> list[str]:
        return [names[generic], generic] if generic in names else [generic]

    return [
        _row(files(table), f"Table 4.4's columns for every point of {axes}"),
        _row(files(figure), "validation accuracy (and on unseen positions) per point, mean +- "
                            "std over folds, beside the random baseline; one panel per bot "
                            "(also as PDF)"),
    ] + ([_row([fit], "the figure's fitted lines: val_acc_unseen against log2 of a numeric "
                      "swept value, per bot and series (no rows for a categorical one)")]
         if fit else [])


def index_markdown(game: str, rdir: str, rows: list[Mapping[str, Any]], *,
                   variant: str, tags: Mapping[str, str]) -> str:
    """The text of ``<rdir>/index.md``."""
    lines = [f"# {rdir}: what each file is", "",
             f"Game `{game}`, variant `{variant or '(default)'}`; data tags: "
             + ", ".join(f"{k} `{v}`" for k, v in tags.items()) + ".", "",
             "Figures come as PNG and PDF. Where a row names two files, the first is the game's "
             "name (its thesis chapter's) for the second, generic one: the same bytes.", "",
             "| file | what it holds |", "|---|---|"]
    for r in rows:
        lines.append(f"| {' = '.join(f'`{f}`' for f in r['files'])} | {r['what']} |")
    sections = {" = ".join(f"`{f}`" for f in r["files"]): r["columns"]
                for r in rows if r.get("columns")}
    lines += ["", *C.markdown(sections)] if sections else []
    return "\n".join(lines).rstrip("\n") + "\n"


def undefined_columns(game: str, rdir: str | Path) -> dict[str, list[str]]:
    """Every table (``*.csv``) of a written results directory whose columns the column
    dictionary (:mod:`ime.report.columns`) does not define: file -> those columns (all of them,
    or ``["(no dictionary)"]``, for a table it does not know). Empty when ``index.md`` defines
    every column; the workflow tests check a pipeline's results with it."""
    import csv

    generic = {v: k for k, v in game_names(game).items()}
    out: dict[str, list[str]] = {}
    for path in sorted(Path(rdir).glob("*.csv")):
        table = generic.get(path.name, path.name)
        with open(path, encoding="utf-8", newline="") as fh:
            header = next(csv.reader(fh), [])
        if C.table_key(table) is None:
            out[path.name] = ["(no dictionary)"]
        elif missing := C.undefined(table, header):
            out[path.name] = missing
    return out
