"""What every column of every results table means, and in which unit: one dictionary, used by
each results directory's ``index.md`` (:mod:`ime.workflow.artifacts`), and the one place where
fractions become percent at the table boundary.

The convention (docs/evaluation.md, "Units and column names"):

* **Percent.** Every accuracy, agreement and similarity in a results table, and the random
  baselines they are compared with, is in percent (0-100): S1, S2, self-agreement, train / val
  accuracy, the baselines. The computations keep fractions (:mod:`ime.evaluate.similarity`);
  the writers convert with :func:`to_percent` just before a table is written, and a job that
  reads such a table back converts with :func:`from_percent`.
* **Not percent.** Counts, Elo, points (win 3 / draw 1 / loss 0), card scores and seconds are in
  their own units; the win rates of the games' own studies (Connect Four's ``score``, Big-2's
  ``win_rate``) are fractions of games (0-1), as the studies' docs quote them: they count game
  outcomes, not how alike two agents play.
* **CIs.** An estimate's interval is two columns beside it, ``<col>_lo`` and ``<col>_hi``
  (95 % unless ``evaluate.ci`` says otherwise), in the estimate's unit.

:data:`TABLES` lists each table's columns (a name in ``<angle brackets>`` stands for several
columns, e.g. one per bot), :data:`COLUMNS` says what a column means wherever it appears, and
:data:`LOCAL` what a name means in one table when that differs (``baseline`` is a bot in Big-2's
``agent_strength.csv``). ``tests/stages/test_columns.py`` checks that every column the writers
produce is defined here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the Snakefile imports this module (0.5 s for pandas)
    import pandas as pd

PERCENT = "%"
"""The unit of every accuracy, agreement, similarity and baseline in a results table."""
CI_SUFFIXES = ("_lo", "_hi")
"""An estimate ``x``'s interval: columns ``x_lo`` and ``x_hi``."""


@dataclass(frozen=True)
class Column:
    """A column's meaning and unit (empty unit: a name, label or id)."""

    meaning: str
    unit: str = ""


def _ci(col: str, what: str, unit: str) -> dict[str, Column]:
    """An estimate and its two CI columns."""
    return {col: Column(what, unit),
            f"{col}_lo": Column(f"lower end of the CI of {col}", unit),
            f"{col}_hi": Column(f"upper end of the CI of {col}", unit)}


def to_percent(df: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """A copy of ``df`` with each of ``columns``, and its ``_lo``/``_hi`` CI columns where
    present, from fractions (0-1) to percent (0-100): the results tables' unit."""
    out = df.copy()
    for c in _with_cis(out, columns):
        out[c] = out[c].astype(float) * 100.0
    return out


def from_percent(df: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """The inverse of :func:`to_percent`: a results table read back for a computation that
    works in fractions (clustering by 1 - S, the heat maps)."""
    out = df.copy()
    for c in _with_cis(out, columns):
        out[c] = out[c].astype(float) / 100.0
    return out


def _with_cis(df: pd.DataFrame, columns: Iterable[str]) -> list[str]:
    cols = []
    for c in columns:
        if c not in df.columns:
            raise KeyError(f"no column {c!r} to convert; the table has {list(df.columns)}")
        cols += [c, *(c + s for s in CI_SUFFIXES if c + s in df.columns)]
    return cols


SIMILARITY_PERCENT = ("s1", "s2", "baseline")
"""``similarity.csv``'s and ``similarity_pairs.csv``'s percent columns (the CIs follow)."""
TABLE4_5_PERCENT = ("S1", "S2", "baseline_S1", "S1_heldout", "S2_heldout",
                    "baseline_S1_heldout")
"""``s1s2_imitator.csv``'s percent columns (the CIs follow)."""

_ACC = "accuracy of the imitator, the share of decisions on which its top action is the bot's"
_TABLE4_4 = ("bot", "baseline", "net", "train_acc_mean", "train_acc_std", "val_acc_mean",
             "val_acc_std", "folds", "split", "pairs", "epochs_mean", "val_acc_unseen_mean",
             "val_seen_share_mean", "self_agreement", "self_agreement_lo", "self_agreement_hi",
             "val_acc_unseen_distinct_mean", "val_unseen_positions_mean", "val_acc_opening_mean",
             "val_opening_rows_mean", "val_acc_mean_lo", "val_acc_mean_hi", "val_acc_interval",
             "train_acc_<head>_mean", "val_acc_<head>_mean", "top1_mode", "top1_mode_lo",
             "top1_mode_hi", "top1_max", "top1_max_lo", "top1_max_hi", "self_agreement_unseen",
             "self_agreement_unseen_lo", "self_agreement_unseen_hi", "self_agreement_unseen_n")

TABLES: dict[str, tuple[str, ...]] = {
    "dataset_stats.csv": ("bot", "pairs", "baseline"),
    "net_architectures.csv": ("net", "params", "thesis_params", "layers"),
    "imitation_accuracy.csv": _TABLE4_4,
    "accuracy_clusters.csv": ("bot", "baseline", "val_acc", "val_acc_min", "val_acc_max",
                              "above_baseline", "nets", "cluster"),
    "s1s2_imitator.csv": ("rank", "bot", "thesis_bot", "algorithm", "imitator",
                          "S1", "S1_lo", "S1_hi", "S2", "S2_lo", "S2_hi", "baseline_S1", "keys",
                          "key_matches", "S1_heldout", "S1_heldout_lo", "S1_heldout_hi",
                          "S2_heldout", "S2_heldout_lo", "S2_heldout_hi", "baseline_S1_heldout",
                          "keys_heldout", "key_matches_heldout"),
    "s1_pairwise.csv": ("bot", "<bot>", "IMBOT"),
    "s2_pairwise.csv": ("bot", "<bot>", "IMBOT"),
    "difficulty_by_class.csv": ("game", "bot", "class", "algorithm", "S2", "S2_lo", "S2_hi"),
    "clusters.csv": ("bot", "class", "cluster_imitation", "cluster_distance_s1",
                     "cluster_distance_s2"),
    "similarity.csv": ("agent", "target", "n", "n_matches", "s1", "s1_lo", "s1_hi", "s2",
                       "s2_lo", "s2_hi", "baseline"),
    "similarity_pairs.csv": ("a", "b", "s1", "s1_lo", "s1_hi", "s2", "s2_lo", "s2_hi", "n",
                             "sets"),
    "tournament.csv": ("rank", "bot", "type", "imitates", "points", "games", "wins", "draws",
                       "losses", "elo", "elo_lo", "elo_hi"),
    "tournament_games.csv": ("round", "match_id", "player<s>", "score<s>", "outcome<s>",
                             "plies"),
    "move_counts.csv": ("bot", "square", "count"),
    "eval_timing.csv": ("stage", "what", "items", "unit", "candidates", "seconds", "workers",
                        "per_s"),
    "case_study.csv": ("match_id", "agent", "role", "ply", "seat", "move", "label",
                       "same_as_target", "first_divergence_ply", "result"),
    # beside S1/S2 (issue 48; docs/similarity_metrics.md)
    "agreement.csv": ("agent", "target", "n", "s1", "p_e", "kappa", "kappa_lo", "kappa_hi",
                      "p_e_marginal", "kappa_marginal"),
    "agreement_pairs.csv": ("a", "b", "n", "s1", "p_e", "kappa", "kappa_lo", "kappa_hi",
                            "p_e_marginal", "kappa_marginal"),
    "jsd_pairs.csv": ("a", "b", "kind", "keys", "jsd", "jsd_lo", "jsd_hi"),
    "clones.csv": ("a", "b", "kind", "s1", "pool_pairs", "pool_mean", "pool_sd", "z", "clone"),
    "cluster_agreement.csv": ("a", "b", "bots", "ari"),
    "cluster_purity.csv": ("clustering", "bots", "clusters", "classes", "purity",
                           "purity_floor", "ari_classes"),
    "cluster_labels.csv": ("bot", "class", "cluster_<clustering>"),
    "tournament_cycles.csv": ("matrix", "players", "pairs", "transitive_share",
                              "transitive_share_lo", "transitive_share_hi", "cyclic_share",
                              "cyclic_share_lo", "cyclic_share_hi", "cyclic_top_share"),
    "tournament_hodge_ratings.csv": ("bot", "rating_logit", "elo_hodge", "rating_margin"),
    "sweep_<keys>.csv": ("<swept key>", *_TABLE4_4, "val_acc_unseen_std"),
    "fit_sweep_<keys>.csv": ("bot", "series", "points", "x_min", "x_max", "a", "per_doubling",
                             "r2", "target", "x_at_target"),
    "identification.csv": ("method", "curve", "k", "pool_size", "pools", "trials",
                           "moves_mean", "references", "top1", "top1_lo", "top1_hi", "top3",
                           "top3_lo", "top3_hi",
                           "chance_top1", "chance_top3", "ci", "threshold", "known_accepted",
                           "unknown_rejected", "unknown_rejected_lo", "unknown_rejected_hi"),
    "identification_confusion.csv": ("method", "k", "bot", "named", "trials", "share"),
    # opponent-model search against the originals (issue 49; docs/opponent_model.md)
    "om_search.csv": ("target", "cell", "label", "mode", "model", "depth_cap", "nodes_budget",
                      "games", "wins", "draws", "losses", "points_share", "points_share_lo",
                      "points_share_hi", "gain", "gain_lo", "gain_hi", "nodes_mean",
                      "model_positions_mean", "depth_mean", "decisions"),
    "om_search_cost.csv": ("target", "cell", "label", "decisions", "searched", "ms_mean",
                           "nodes_mean", "model_positions_mean", "model_calls_mean",
                           "depth_mean", "seconds", "workers"),
    "om_search_model_accuracy.csv": ("target", "cell", "label", "model", "mode", "sample",
                                     "search_positions", "search_n", "search_top1",
                                     "search_top1_lo", "search_top1_hi", "game_positions",
                                     "game_n", "game_top1", "game_top1_lo", "game_top1_hi",
                                     "target_deterministic"),
    # the games' own results (GamePlugin.results)
    "seed002.csv": ("comparison", "agent", "opponent", "simulations", "games", "wins", "draws",
                    "losses", "score", "score_lo", "score_hi", "score_first", "score_second"),
    "agent_strength.csv": ("agent", "baseline", "games", "wins", "losses", "win_rate",
                           "win_rate_lo", "win_rate_hi", "win_rate_seat0", "win_rate_seat1",
                           "mean_score", "mean_score_lo", "mean_score_hi"),
    "solver_effort.csv": ("cards", "positions", "solved", "nodes_median", "nodes_mean",
                          "nodes_p90", "nodes_max", "seconds_mean", "seconds_max", "nodes_per_s"),
    "table5_10.csv": ("rank", "agent", "type", "imitates", "points", "games", "wins",
                      "landlord_games", "landlord_wins", "farmer_games", "farmer_wins",
                      "points_per_game"),
    "split_vs_thesis.csv": ("bot", "thesis_bot", "family", "val_acc", "baseline", "rank",
                            "group", "thesis_group", "agrees", "cluster", "cluster_group",
                            "cluster_agrees"),
}
"""Every results table (generic name, or a game's own result) -> its columns, in order."""

COLUMNS: dict[str, Column] = {
    "bot": Column("the bot (an original: a target whose imitator is trained)"),
    "net": Column("the imitation net (`config/net/<net>.yaml`)"),
    "baseline": Column("random-choice baseline: how often a uniformly random legal action is "
                       "the bot's, the mean of 1 / #legal actions over its decisions (thesis "
                       "eq. 4-1)", PERCENT),
    "pairs": Column("(state, action) pairs in the bot's dataset", "count"),
    "params": Column("our trainable parameters of the net", "count"),
    "thesis_params": Column("the thesis's parameter count (per branch, joined by +)", "count"),
    "layers": Column("the net's layers and their sizes"),
    "train_acc_mean": Column(f"training {_ACC}; mean over folds", PERCENT),
    "train_acc_std": Column("sample std over folds of the training accuracy", PERCENT),
    "val_acc_mean": Column(f"validation {_ACC}; mean over folds", PERCENT),
    "val_acc_std": Column("sample std over folds of the validation accuracy", PERCENT),
    "val_acc_mean_lo": Column("lower end of the 95 % CI of val_acc_mean (val_acc_interval "
                              "says from what)", PERCENT),
    "val_acc_mean_hi": Column("upper end of the 95 % CI of val_acc_mean", PERCENT),
    "val_acc_interval": Column("what val_acc_mean's CI is from: the t interval over the folds, "
                               "or, for one model (a hold-out split), a seeded bootstrap over "
                               "its validation matches; blank where the models' metrics predate "
                               "the per-match counts"),
    "folds": Column("folds trained (of the k-fold split by match; 1 for a hold-out)", "count"),
    "split": Column("the training split by match (train.split): `5-fold` (k-fold "
                    "cross-validation; `folds` says how many of its folds ran) or `holdout 10%` "
                    "(one model on 90 % of the matches, validated on the other 10 %: the "
                    "thesis's 9:1 split)"),
    "epochs_mean": Column("epochs trained (early stopping); mean over folds", "count"),
    "val_acc_unseen_mean": Column("validation accuracy on positions that never occur in the "
                                  "fold's training rows; mean over folds", PERCENT),
    "val_acc_unseen_std": Column("sample std over folds of val_acc_unseen", PERCENT),
    "val_seen_share_mean": Column("share of validation rows whose position also occurs in "
                                  "training; mean over folds", PERCENT),
    "val_acc_unseen_distinct_mean": Column("Maia's protocol: validation accuracy on each "
                                           "distinct unseen position once (its first row); "
                                           "mean over folds", PERCENT),
    "val_unseen_positions_mean": Column("distinct validation positions that never occur in the "
                                        "fold's training rows; mean over folds", "count"),
    "val_acc_opening_mean": Column("validation accuracy on the opening's rows (plies under "
                                   "10), apart; mean over folds", PERCENT),
    "val_opening_rows_mean": Column("validation rows of the opening (plies under 10); mean "
                                    "over folds", "count"),
    **_ci("self_agreement", "the bot against itself: how often it replays its logged action "
                            "when asked again under another seed, the most an imitator can "
                            "reach", PERCENT),
    "train_acc_<head>_mean": Column("a multi-head net's training accuracy on its first head "
                                    "alone (Doudizhu: the major action); mean over folds",
                                    PERCENT),
    "val_acc_<head>_mean": Column("a multi-head net's validation accuracy on its first head "
                                  "alone; mean over folds", PERCENT),
    **_ci("top1_mode", "the top-1 ceiling's lower estimate: how often the most frequent of the "
                       "bot's evaluate.ceiling_repeats re-asked answers is its logged action "
                       "(a predictor one can build); equals self_agreement for a deterministic "
                       "bot", PERCENT),
    **_ci("top1_max", "the top-1 ceiling's upper estimate: the largest share of one action "
                      "among the logged action and the re-asks (biased up). Self-agreement is "
                      "sum p^2 of the bot's move distribution, the best top-1 accuracy max p, "
                      "which can be more", PERCENT),
    **_ci("self_agreement_unseen", "self_agreement on those sampled decisions whose position "
                                   "no model of the split trained on, the kind of position "
                                   "val_acc_unseen_mean counts: the ceiling beside it", PERCENT),
    "self_agreement_unseen_n": Column("sampled decisions self_agreement_unseen is measured on",
                                      "count"),
    "val_acc": Column("validation accuracy, mean over the nets (each a mean over folds)",
                      PERCENT),
    "val_acc_min": Column("the lowest net's validation accuracy", PERCENT),
    "val_acc_max": Column("the highest net's validation accuracy", PERCENT),
    "above_baseline": Column("val_acc minus baseline", "percentage points"),
    "nets": Column("nets averaged", "count"),
    "cluster": Column("the bot's cluster by imitation accuracy (1 = first cluster met)"),
    "rank": Column("the original's ladder rank (thesis Table 4.1; blank when unknown)"),
    "thesis_bot": Column("the thesis's number of the bot (blank when it has none)"),
    "algorithm": Column("the bot's algorithm (its spec's algorithm, or its description)"),
    "imitator": Column("the imitator's agent id (`imit_<bot>`)"),
    **_ci("S1", "S1, single-step action similarity of the imitator to its original on the "
                "original's key endgames (thesis eq. 3-1)", PERCENT),
    **_ci("S2", "S2, endgame win/loss similarity of the imitator to its original: finishing "
                "the key endgames in the original's seat, the same result (eq. 3-2)", PERCENT),
    "baseline_S1": Column("random-choice S1 on the same keys: the mean of 1 / #legal", PERCENT),
    "keys": Column("key endgames of the original", "count"),
    "key_matches": Column("distinct matches the keys come from (the bootstrap's clusters)",
                          "count"),
    **_ci("S1_heldout", "S1 on the keys whose match no trained fold saw, each scored by such "
                        "a fold (blank when there are none)", PERCENT),
    **_ci("S2_heldout", "S2 on those held-out keys", PERCENT),
    "baseline_S1_heldout": Column("random-choice S1 on the held-out keys", PERCENT),
    "keys_heldout": Column("held-out keys", "count"),
    "key_matches_heldout": Column("distinct matches the held-out keys come from (their "
                                  "bootstrap's clusters; under 2, no CI)", "count"),
    "<bot>": Column("similarity between the row's original and this column's (pooled over "
                    "both key sets; 100 on the diagonal)", PERCENT),
    "IMBOT": Column("the row bot's imitator against it on its own keys (s1s2_imitator's "
                    "value)", PERCENT),
    "game": Column("the game"),
    "class": Column("the bot's algorithm class (thesis Table 6.1)"),
    "cluster_imitation": Column("cluster by the imitator's (S1, S2) against the bot"),
    "cluster_distance_s1": Column("cluster by the distance 100 - S1 between originals"),
    "cluster_distance_s2": Column("cluster by the distance 100 - S2 between originals"),
    "agent": Column("the scored agent: an original, an imitator (`imit_<bot>`, `@heldout`: each "
                    "key scored by a fold that never saw its match) or an extra agent"),
    "target": Column("the bot whose key endgames were played"),
    "n": Column("key endgames scored", "count"),
    "n_matches": Column("distinct matches the keys come from", "count"),
    **_ci("s1", "S1 of agent against target (eq. 3-1)", PERCENT),
    **_ci("s2", "S2 of agent against target (eq. 3-2)", PERCENT),
    "a": Column("the first original of the pair"),
    "b": Column("the second original of the pair"),
    "sets": Column("key sets pooled (2: both bots' keys; 1: only one has keys)", "count"),
    "type": Column("original, imitator or other"),
    "imitates": Column("the original an imitator imitates (blank otherwise)"),
    "points": Column("tournament points, win 3 / draw 1 / loss 0 (evaluate.tournament.points)",
                     "points"),
    "games": Column("games played", "count"),
    "wins": Column("games won", "count"),
    "draws": Column("games drawn", "count"),
    "losses": Column("games lost", "count"),
    **_ci("elo", "Bradley-Terry rating on an Elo scale (mean 1500); CI from resampling "
                 "rounds", "Elo"),
    "round": Column("the tournament round", "count"),
    "match_id": Column("the game's match id (its logs' key)"),
    "player<s>": Column("the agent in seat s"),
    "score<s>": Column("seat s's score as the judge gives it", "game score"),
    "outcome<s>": Column("seat s's result: 2 win, 1 draw, 0 loss"),
    "plies": Column("plies played", "count"),
    "square": Column("the action code (Reversi: the square, A1 = 0 ... H8 = 63)"),
    "count": Column("decisions of the bot with that action code", "count"),
    "stage": Column("key mining, scoring or tournament"),
    "what": Column("the job (target, agent on target, or pair); TOTAL per stage"),
    "items": Column("forks or games the job played", "count"),
    "unit": Column("what items counts (forks or games)"),
    "candidates": Column("candidate positions forked while mining keys", "count"),
    "seconds": Column("the job's wall time", "s"),
    "workers": Column("worker processes", "count"),
    "per_s": Column("items per second", "1/s"),
    "<swept key>": Column("the value of a swept config key at this point (a swept net is the "
                          "net column)"),
    "series": Column("the fitted series: the net and the values of any further swept keys"),
    "x_min": Column("the smallest swept value fitted"),
    "x_max": Column("the largest swept value fitted"),
    "per_doubling": Column("the fitted slope: gain in val_acc_unseen_mean per doubling of x",
                           "percentage points"),
    "r2": Column("share of the variance the line explains (blank with two points)"),
    "x_at_target": Column("the swept value where the line reaches target (blank: never, or "
                          "too far)"),
}
"""Column name -> meaning and unit, wherever the name appears (unless :data:`LOCAL` says
otherwise for one table)."""

_PAIR_A = Column("the first agent of the pair (an original)")
_KAPPA = {"s1": Column("S1 on the keys counted (eq. 3-1)", PERCENT),
          "p_e": Column("chance agreement of two uniformly random players: the mean over the "
                        "keys of 1 / #legal moves (the thesis's random baseline)", PERCENT),
          **_ci("kappa", "Cohen's kappa, (s1 - p_e) / (100 - p_e): 0 chance, 1 complete "
                         "agreement, below 0 worse than chance; CI from resampling matches",
                ""),
          "p_e_marginal": Column("Cohen's pooled chance agreement: sum over action codes of the "
                                 "two agents' shares of keys with that code", PERCENT),
          "kappa_marginal": Column("kappa with p_e_marginal as chance (a shared style counts "
                                   "as chance)")}
_SHARE = "share of the squared Frobenius norm of the matrix"
_METRIC_LOCAL: dict[str, dict[str, Column]] = {
    "agreement.csv": {"n": Column("key endgames of the target scored", "count"), **_KAPPA},
    "agreement_pairs.csv": {"a": _PAIR_A, "b": Column("the second original of the pair"),
                            "n": Column("keys pooled: b on a's keys and a on b's", "count"),
                            **_KAPPA},
    "jsd_pairs.csv": {
        "a": Column("an original (kind originals, self) or the imitated original"),
        "b": Column("the other original, the imitator (`imit_<a>`), or a again (self)"),
        "kind": Column("originals (pooled over both key sets), imitator (on a's keys) or self "
                       "(a's two halves of its draws on its own keys: the estimator's floor)"),
        "keys": Column("keys averaged over", "count"),
        **_ci("jsd", "mean over keys of the Jensen-Shannon divergence between the two agents' "
                     "sampled move distributions (0 identical, ln 2 disjoint); CI from "
                     "resampling matches", "nats")},
    "clones.csv": {
        "a": _PAIR_A,
        "b": Column("the second original, or a's imitator"),
        "kind": Column("originals (scored against the other pairs) or imitator (against every "
                       "pair of originals)"),
        "s1": Column("S1 of the pair (similarity_pairs.csv) or of the imitator on a's keys",
                     PERCENT),
        "pool_pairs": Column("pairs of originals in the pool compared with", "count"),
        "pool_mean": Column("the pool's mean S1", PERCENT),
        "pool_sd": Column("the pool's sample standard deviation of S1", PERCENT),
        "z": Column("(s1 - pool_mean) / pool_sd (blank: fewer than 3 pairs or no spread)",
                    "sd"),
        "clone": Column("z above evaluate.agreement.clone_sigma (a likely clone)")},
    "cluster_agreement.csv": {
        "a": Column("a clustering (cluster_purity.csv's names) or class"),
        "b": Column("another clustering, or class: the algorithm classes of Table 6.1"),
        "bots": Column("targets both label", "count"),
        "ari": Column("adjusted Rand index: 1 the same partition, about 0 chance, can be "
                      "below 0")},
    "cluster_purity.csv": {
        "clustering": Column("distance_s1, distance_s2, distance_kappa, distance_jsd (1 - S, "
                             "1 - kappa, JSD between originals), imitation (the imitator's S1, "
                             "S2), accuracy (imitation accuracy)"),
        "bots": Column("targets clustered", "count"),
        "clusters": Column("clusters cut (evaluate.clusters, fewer when bots tie)", "count"),
        "classes": Column("algorithm classes among the targets", "count"),
        "purity": Column("share of targets in their cluster's most common class", PERCENT),
        "purity_floor": Column("the purity of one cluster holding every target (the largest "
                               "class's share): a purity at the floor says nothing", PERCENT),
        "ari_classes": Column("adjusted Rand index of the clustering with the classes")},
    "cluster_labels.csv": {
        "cluster_<clustering>": Column("the target's cluster under that clustering (1 = first "
                                       "cluster met in the targets' order)")},
    "tournament_cycles.csv": {
        "matrix": Column("logit (log-odds of the win share, shrunk by half a game each way) or "
                         "margin (mean win margin, -1..1) between every two players"),
        "players": Column("originals and imitators in the round-robin", "count"),
        "pairs": Column("pairs that played", "count"),
        **_ci("transitive_share", f"{_SHARE} that one rating per player explains (grad r); "
                                  "CI from resampling rounds", "fraction"),
        **_ci("cyclic_share", f"{_SHARE} left over (rock-paper-scissors; 1 - "
                              "transitive_share)", "fraction"),
        "cyclic_top_share": Column("share of the cyclic part in its largest 2-D rotation "
                                   "(blank: no cyclic part)", "fraction")},
    "tournament_hodge_ratings.csv": {
        "bot": Column("a player: an original or an imitator (`imit_<bot>`)"),
        "rating_logit": Column("the transitive part's rating on the logit matrix (mean 0)",
                               "log-odds"),
        "elo_hodge": Column("rating_logit on the Elo scale: 1500 + 400 / ln 10 * rating_logit",
                            "Elo"),
        "rating_margin": Column("the transitive part's rating on the win-margin matrix (mean "
                                "0)", "win margin")},
}
"""The columns of issue 48's tables (merged into :data:`LOCAL`)."""

_OM_SEARCH = {
    "target": Column("the original bot played against (om_search.targets)"),
    "cell": Column("our player: `plain_depth` (a: plain alpha-beta to the depth cap), "
                   "`plain_nodes` (b: plain alpha-beta at the nodes per decision that om used, "
                   "or om_search.equal_nodes), `om` (c: opponent-model search, the target's own "
                   "imitator as the model), `om_wrong` (d: another target's imitator), "
                   "`om_true` (the target itself as the model)"),
    "label": Column("the issue's letter of the cell (t: the true model)"),
    "mode": Column("how our player uses the model: `none` (no model; plain alpha-beta's "
                   "minimum), `policy` (M*: the model's most probable reply), `search` (the "
                   "model's decision; the true model), `prom` (PrOM); a player template "
                   "(Doudizhu's pimc_om) its `model_play`: `sample` (the imitator's play drawn "
                   "in the rollouts) or `argmax`"),
    "model": Column("the opponent model: `bot:net:fold` (an imitator), `bot:zoo` (the bot "
                    "itself), blank for plain search"),
    "depth_cap": Column("our search's depth cap (plies; Snake: turns)", "count"),
    "nodes_budget": Column("our search's node budget per decision", "count"),
    "games": Column("games against the target (half the openings, each in both seats)",
                    "count"),
    "wins": Column("games our player won", "count"),
    "draws": Column("games drawn", "count"),
    "losses": Column("games our player lost", "count"),
    **_ci("points_share", "our points share: (wins + draws / 2) / games (Wilson CI)",
          "fraction"),
    **_ci("gain", "points_share minus cell (a)'s against the same target (Newcombe's CI; "
                  "blank for (a))", "fraction"),
    "nodes_mean": Column("nodes (positions created) per searched decision, mean", "count"),
    "model_positions_mean": Column("positions the model evaluated per searched decision, mean",
                                   "count"),
    "depth_mean": Column("deepest completed iteration per searched decision, mean", "count"),
    "decisions": Column("our player's searched decisions (more than one legal move)", "count"),
}
"""``om_search.csv``'s columns (:mod:`ime.evaluate.om_experiment`)."""

LOCAL: dict[str, dict[str, Column]] = {
    **_METRIC_LOCAL,
    "similarity.csv": {
        "baseline": Column("random-choice S1 on the target's keys: the mean of 1 / #legal",
                           PERCENT)},
    "similarity_pairs.csv": {
        **_ci("s1", "S1 between a and b, pooled: b on a's keys and a on b's", PERCENT),
        **_ci("s2", "S2 between a and b, pooled over both key sets", PERCENT),
        "n": Column("keys pooled", "count")},
    "s1_pairwise.csv": {
        "bot": Column("the row's original"),
        "<bot>": Column("S1 between the row's original and this column's (pooled over both "
                        "key sets; 100 on the diagonal; thesis Table 4.6)", PERCENT),
        "IMBOT": Column("S1 of the row bot's imitator against it (s1s2_imitator's S1)",
                        PERCENT)},
    "s2_pairwise.csv": {
        "bot": Column("the row's original"),
        "<bot>": Column("S2 between the row's original and this column's (pooled over both "
                        "key sets; 100 on the diagonal; thesis Table 4.7)", PERCENT),
        "IMBOT": Column("S2 of the row bot's imitator against it (s1s2_imitator's S2)",
                        PERCENT)},
    "tournament.csv": {
        "rank": Column("standing by points (ties share the better rank)"),
        "bot": Column("the agent: an original, an imitator (`imit_<bot>`) or an extra agent")},
    "fit_sweep_<keys>.csv": {
        "points": Column("sweep points fitted", "count"),
        "a": Column("the fitted line's intercept: val_acc_unseen_mean at x = 1", PERCENT),
        "target": Column("the accuracy the line is extended to (blank: none)", PERCENT)},
    "seed002.csv": {
        "comparison": Column("graded (against graded opponents) or rollouts (plain against "
                             "heuristic rollouts)"),
        "agent": Column("the UCT agent (and its rollout kind)"),
        "opponent": Column("the opponent"),
        "simulations": Column("the agent's simulations per move", "count"),
        **_ci("score", "the agent's win rate, a draw counted as half a win; 95% Wilson "
                       "interval", "fraction of games"),
        "score_first": Column("score as the first player", "fraction of games"),
        "score_second": Column("score as the second player", "fraction of games")},
    "agent_strength.csv": {
        "agent": Column("the agent (study.agent)"),
        "baseline": Column("the opponent bot"),
        **_ci("win_rate", "the agent's win rate; 95% Wilson interval", "fraction of games"),
        "win_rate_seat0": Column("win rate in seat 0", "fraction of games"),
        "win_rate_seat1": Column("win rate in seat 1", "fraction of games"),
        **_ci("mean_score", "the agent's mean score per game (cards; t-interval)", "cards")},
    "solver_effort.csv": {
        "cards": Column("cards in each hand (a+b)"),
        "positions": Column("deals tried", "count"),
        "solved": Column("deals solved within max_nodes", "count"),
        "nodes_median": Column("median nodes of the solved deals", "count"),
        "nodes_mean": Column("mean nodes", "count"),
        "nodes_p90": Column("90th percentile of nodes", "count"),
        "nodes_max": Column("most nodes", "count"),
        "seconds_mean": Column("mean solve time", "s"),
        "seconds_max": Column("longest solve time", "s"),
        "nodes_per_s": Column("nodes searched per second", "1/s")},
    "table5_10.csv": {
        "rank": Column("standing by points (ties share the better rank)"),
        "agent": Column("the agent: an original or an imitator"),
        "points": Column("win 3 / loss 0 over the thesis-protocol games", "points"),
        "landlord_games": Column("games as the landlord", "count"),
        "landlord_wins": Column("games won as the landlord", "count"),
        "farmer_games": Column("games in both farmer seats", "count"),
        "farmer_wins": Column("games won as the farmers", "count"),
        "points_per_game": Column("points / games", "points")},
    "case_study.csv": {
        "match_id": Column("the key endgame's match (its logs' key); the key is this match at "
                           "the first ply of the target's rows"),
        "agent": Column("the agent finishing the key endgame in the target's seat"),
        "role": Column("target (the original), reference, imitator (`imit_<target>`) or agent"),
        "ply": Column("the turn of the match (a pass is a turn), from the key ply on"),
        "seat": Column("the seat that moved"),
        "move": Column("the move as the game's codec writes it (its simple-interaction line, "
                       "else the Botzone response as JSON)"),
        "label": Column("a readable name of the move (the play, or the action code's name)"),
        "same_as_target": Column("the target's own continuation has this move at this ply and "
                                 "seat (true / false)"),
        "first_divergence_ply": Column("the first ply where the agent's continuation leaves "
                                       "the target's (blank: never)"),
        "result": Column("the key seat's result for this agent: win, draw or loss, as S2 "
                         "counts it (its stored S2 verdict on this key)")},
    "split_vs_thesis.csv": {
        "family": Column("the thesis's family of the bot (Fig 2.4)"),
        "rank": Column("rank by mean validation accuracy over the nets, 1 = least accurately "
                       "imitated (ties: the lower bot id first)"),
        "group": Column("our group by the thesis's rule: the n // 2 bots of lowest rank are "
                        "harder, the rest (the middle one of an odd n too) easier"),
        "thesis_group": Column("the thesis's group (harder: its bots 1-7, 10, 13, 15, 16)"),
        "agrees": Column("our group is the thesis's (blank: no thesis number)"),
        "cluster_group": Column("the accuracy cluster's group: of two clusters, the one of "
                                "lower mean accuracy is harder (blank: not two clusters)"),
        "cluster_agrees": Column("the cluster's group is the thesis's (blank: no thesis number "
                                 "or no cluster group)")},
    "identification.csv": {
        "method": Column("how the bot is named: `likelihood` (method (a): the summed "
                         "log-likelihood of the moves under each pool bot's imitator) or "
                         "`embedding` (method (b): few-shot, the cosine of the matches' GE2E "
                         "embedding to each bot's centroid of reference matches, by an encoder "
                         "that never saw the player's bot; docs/identify.md)"),
        "references": Column("embedding: reference matches per pool bot (its centroid); blank "
                             "for the likelihood", "count"),
        "curve": Column("which curve the row is on: `k` (the whole pool, against the number of "
                        "matches) or `pool_size` (random sub-pools of that size, at one k)"),
        "k": Column("matches of the player per identification", "count"),
        "pool_size": Column("bots the player is identified among", "count"),
        "pools": Column("sub-pools drawn of that size (1: the whole pool)", "count"),
        "trials": Column("disjoint groups of k held-out matches identified (each target's "
                         "matches shuffled, seeded, and cut into groups)", "count"),
        "moves_mean": Column("the player's decisions per group, mean", "count"),
        **_ci("top1", "groups whose true bot scores highest, by likelihood or by cosine to its "
                      "centroid (a tie counts as a "
                      "miss)", PERCENT),
        **_ci("top3", "groups whose true bot is among the three most likely", PERCENT),
        "chance_top1": Column("top-1 by chance: 1 / pool_size", PERCENT),
        "chance_top3": Column("top-3 by chance: min(3, pool_size) / pool_size", PERCENT),
        "ci": Column("how the CIs were made: `wilson` (score interval over the independent "
                     "groups) or `bootstrap` (percentile, resampling groups; evaluate.bootstrap "
                     "replicates)"),
        "threshold": Column("the open-set threshold at this k: identify.open_set_quantile of the "
                            "true bot's mean log-likelihood per move over the groups; below "
                            "it, the player is none of the pool", "nats per move"),
        "known_accepted": Column("groups of pool bots whose best mean log-likelihood per move "
                                 "reaches the threshold (called one of the pool)", PERCENT),
        **_ci("unknown_rejected", "groups of a bot left out of the pool (each in turn, the "
                                  "threshold set again without it) called none of them",
              PERCENT)},
    "identification_confusion.csv": {
        "method": Column("`likelihood` (method (a)) or `embedding` (method (b), few-shot)"),
        "k": Column("matches of the player per identification", "count"),
        "bot": Column("the target whose held-out matches were identified"),
        "named": Column("the bot named (the most likely; ties: the first in the pool's order)"),
        "trials": Column("the target's groups of k matches that named this bot", "count"),
        "share": Column("those groups' share of the target's groups at this k", PERCENT)},
    "om_search.csv": _OM_SEARCH,
    "om_search_cost.csv": {
        **{k: _OM_SEARCH[k] for k in ("target", "cell", "label", "nodes_mean",
                                      "model_positions_mean", "depth_mean")},
        "decisions": Column("our player's decisions in the cell's games", "count"),
        "searched": Column("those with more than one legal move (the ones that search)",
                           "count"),
        "ms_mean": Column("our player's wall time per searched decision, mean (the machine's "
                          "load counts too: not byte-stable)", "ms"),
        "model_calls_mean": Column("calls of the model per searched decision, mean (an "
                                   "imitator is asked in batches, a bot one position a call)",
                                   "count"),
        "seconds": Column("the cell job's wall time", "s")},
    "om_search_model_accuracy.csv": {
        **{k: _OM_SEARCH[k] for k in ("target", "model", "mode")},
        "cell": Column("the model cell: `om` (c: the target's own imitator) or `om_wrong` (d: "
                       "another target's)"),
        "label": Column("the issue's letter of the cell"),
        "sample": Column("om_search.accuracy_sample: positions of each kind sampled (seeded)",
                         "count"),
        "search_positions": Column("positions the search asked the model about in the cell's "
                                   "games (more than one legal move)", "count"),
        "search_n": Column("those sampled, at which the target itself was asked", "count"),
        **_ci("search_top1", "share of the sampled search positions where the model's top "
                             "move (the one the search follows) is the target's decision "
                             "(Wilson CI)", "fraction"),
        "game_positions": Column("positions where the target moved in the cell's games (more "
                                 "than one legal move)", "count"),
        "game_n": Column("those sampled", "count"),
        **_ci("game_top1", "share of the sampled target's moves that the model's top move "
                           "names (Wilson CI)", "fraction"),
        "target_deterministic": Column("the target is deterministic, so its decision is the "
                                       "truth (else one draw of it)")},
}
"""Per table, the names whose meaning there differs from :data:`COLUMNS`."""


def _pattern(name: str) -> re.Pattern[str]:
    """``player<s>`` -> ``player(.+)``; a bare ``<bot>`` matches any name."""
    return re.compile("".join("(.+)" if p.startswith("<") else re.escape(p)
                              for p in re.split(r"(<[^>]+>)", name) if p))


def table_key(name: str) -> str | None:
    """The :data:`TABLES` key of a results file name (a sweep's ``sweep_<keys>.csv`` is one)."""
    if name in TABLES:
        return name
    return next((k for k in TABLES if "<" in k and _pattern(k).fullmatch(name)), None)


def define(table: str, column: str) -> tuple[str, Column] | None:
    """The entry of :data:`TABLES` that ``column`` of ``table`` is (itself, or a pattern such as
    ``player<s>``), with its meaning; None when the table or the column is not defined."""
    key = table_key(table)
    if key is None:
        return None
    names = TABLES[key]
    if column in names:
        entry = column
    else:
        patterned = [n for n in names if "<" in n and not n.startswith("<")]
        entry = next((n for n in patterned if _pattern(n).fullmatch(column)), None)
        if entry is None:  # a whole-name placeholder (<bot>, <swept key>): any other name
            entry = next((n for n in names if n.startswith("<")), None)
        if entry is None:
            return None
    col = LOCAL.get(key, {}).get(entry) or COLUMNS.get(entry)
    return (entry, col) if col is not None else None


def undefined(table: str, columns: Iterable[str]) -> list[str]:
    """The columns of ``table`` that have no definition here."""
    return [c for c in columns if define(table, c) is None]


def dictionary(table: str) -> list[tuple[str, Column]]:
    """Every column of ``table`` with its meaning, in the table's order (``index.md``)."""
    key = table_key(table)
    if key is None:
        raise KeyError(f"no column dictionary for {table!r}; tables: {sorted(TABLES)}")
    out = []
    for name in TABLES[key]:
        col = LOCAL.get(key, {}).get(name) or COLUMNS.get(name)
        if col is None:
            raise KeyError(f"{key}: column {name!r} has no meaning in ime.report.columns")
        out.append((name, col))
    return out


def plain(table: str) -> list[list[str]]:
    """:func:`dictionary` as ``[name, meaning, unit]`` lists: part of the ``results_index``
    job's params, so that ``index.md`` is rebuilt when a meaning changes."""
    return [[n, c.meaning, c.unit] for n, c in dictionary(table)]


def markdown(sections: Mapping[str, Sequence[Sequence[str]]]) -> list[str]:
    """``index.md``'s column section: per heading (the table's file names), one row per column
    (``[name, meaning, unit]``, :func:`plain`)."""
    if not sections:
        return []
    lines = ["## Columns", "",
             "Accuracies, agreements, similarities and their baselines are in percent (0-100); "
             "an estimate's CI is `<col>_lo` / `<col>_hi`, in the estimate's unit. A name in "
             "`<...>` stands for several columns.", ""]
    for heading, cols in sections.items():
        lines += [f"### {heading}", "", "| column | meaning | unit |", "|---|---|---|"]
        lines += [f"| `{n}` | {m} | {u} |" for n, m, u in cols]
        lines.append("")
    return lines
