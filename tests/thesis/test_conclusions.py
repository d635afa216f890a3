"""The conclusion checks (ime.thesis.conclusions): every stated conclusion has one, each says
"holds" on tables where the conclusion is true and "does not hold" where a change makes it
false.

The tables where they must hold are the thesis's own (ime.thesis.own: Reversi's and Doudizhu's
printed numbers as result tables); each check then gets one small change of those tables that
must flip it. Conclusions the thesis's tables cannot decide (Snake's, the clusters, Fig 4.2's
move counts, the case study) get small hand-made tables for both outcomes.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import replace

import pandas as pd
import pytest
from thesis_helpers import (
    THESIS_CASE,
    Line,
    Mutation,
    edit,
    setv,
    shift,
    snake_case,
    with_case,
)

from ime.thesis import conclusions as C
from ime.thesis.own import thesis_results
from ime.thesis.reference import conclusions
from ime.thesis.results import GameResults


@pytest.fixture(scope="module")
def thesis() -> dict[str, GameResults]:
    return thesis_results()


def s2_by_depth(results: dict[str, GameResults]) -> None:
    """S2 rising with the depth limit (bots 1-4): the shallow-is-easier conjecture fails."""
    values = {"rev1": 90.0, "rev2": 80.0, "rev3": 70.0, "rev4": 60.0}
    edit(results, "reversi", "s1s2_imitator.csv",
         lambda df: df.assign(S2=[values.get(b, s) for b, s in zip(df.bot, df.S2, strict=True)]))


def reverse_imitators(game: str, table: str) -> Mutation:
    """The imitators' points in the reverse order of their originals'."""
    def fn(df: pd.DataFrame) -> pd.DataFrame:
        imit = df["type"] == "imitator"
        orig = df[df["type"] == "original"].set_index(df.columns[0])["points"]
        order = df.loc[imit, "imitates"].map(orig).rank(ascending=False)
        df.loc[imit, "points"] = order.to_numpy() * 10.0
        return df
    return lambda results: edit(results, game, table, fn)


FLIP: dict[str, Mutation] = {
    "reversi_conv_best": shift("imitation_accuracy.csv", "reversi", {"net": "conv"},
                               "val_acc_mean", -10),
    "reversi_beats_baseline": setv("imitation_accuracy.csv", "reversi",
                                   {"net": "conv", "bot": "rev1"}, "val_acc_mean", 10.0),
    "reversi_s1_s2_not_linear": lambda r: edit(r, "reversi", "s1s2_imitator.csv",
                                               lambda df: df.assign(S2=df.S1)),
    "reversi_mcts_hardest": setv("s1s2_imitator.csv", "reversi", {"bot": "rev3"}, "S2", 99),
    "reversi_imitator_closest": setv("s2_pairwise.csv", "reversi", {"bot": "rev1"}, "IMBOT", 0),
    "reversi_nets_fit_alike": setv("imitation_accuracy.csv", "reversi",
                                   {"net": "mlp1", "bot": "rev1"}, "train_acc_mean", 80),
    "reversi_train_acc_above_98": setv("imitation_accuracy.csv", "reversi",
                                       {"net": "mlp1", "bot": "rev1"}, "train_acc_mean", 90),
    "reversi_val_above_75": setv("imitation_accuracy.csv", "reversi",
                                 {"net": "mlp1", "bot": "rev1"}, "val_acc_mean", 70),
    "reversi_val_rises_with_data": lambda r: edit(
        r, "reversi", "dataset_stats.csv",
        lambda df: df.assign(pairs=-r["reversi"].tables["imitation_accuracy.csv"]
                             .query("net == 'conv'").set_index("bot")
                             .loc[df.bot, "val_acc_mean"].to_numpy())),
    "reversi_mlp_sizes_similar": shift("imitation_accuracy.csv", "reversi", {"net": "mlp2"},
                                       "val_acc_mean", 10),
    "reversi_conv_val_about_90": setv("imitation_accuracy.csv", "reversi",
                                      {"net": "conv", "bot": "rev1"}, "val_acc_mean", 80),
    "reversi_bot2_s1_high_s2_low": setv("s1s2_imitator.csv", "reversi", {"bot": "rev2"}, "S1",
                                        0),
    "reversi_low_ranked_easier": setv("s1s2_imitator.csv", "reversi", {"bot": "rev4"}, "S2", 0),
    "reversi_conjecture_shallow_easier": s2_by_depth,
    "reversi_bot4_shallow_easier": setv("s1s2_imitator.csv", "reversi", {"bot": "rev4"}, "S2",
                                        0),
    "reversi_bots12_s2_poor": setv("s1s2_imitator.csv", "reversi", {"bot": "rev1"}, "S2", 99),
    "reversi_s1_bots123_dissimilar": setv("similarity_pairs.csv", "reversi",
                                          {"a": "rev1", "b": "rev2"}, "s1", 90),
    "reversi_s1_bots45_below_imitators": setv("similarity_pairs.csv", "reversi",
                                              {"a": "rev4", "b": "rev5"}, "s1", 99),
    "reversi_s2_bots123_close": setv("similarity_pairs.csv", "reversi",
                                     {"a": "rev1", "b": "rev2"}, "s2", 0),
    "reversi_originals_ladder_order": setv("tournament.csv", "reversi", {"bot": "rev5"},
                                           "points", 99999),
    "reversi_imitators_below_originals": setv("tournament.csv", "reversi",
                                              {"bot": "imit_rev1"}, "points", 99999),
    "reversi_random_harder": setv("s1s2_imitator.csv", "reversi", {"bot": "rev3"}, "S2", 99),
    "reversi_conv_beats_mlp_same_size": shift("imitation_accuracy.csv", "reversi",
                                              {"net": "conv"}, "val_acc_mean", -5),
    "reversi_imitation_effective": setv("tournament.csv", "reversi", {"bot": "imit_rev1"},
                                        "points", 99999),
    "ddz_params_matter": lambda r: edit(
        r, "doudizhu", "imitation_accuracy.csv",
        lambda df: df.assign(train_acc_mean=100.0)),
    "ddz_rule_bot_easiest": setv("s1s2_imitator.csv", "doudizhu", {"bot": "ddz5"}, "S2", 10),
    "ddz_imitator_closest": setv("s1_pairwise.csv", "doudizhu", {"bot": "ddz1"}, "IMBOT", 0),
    "ddz_imitators_below_originals": setv("table5_10.csv", "doudizhu", {"agent": "imit_ddz1"},
                                          "points", 99999),
    "difficulty_by_class": setv("difficulty_by_class.csv", "reversi", {"bot": "rev3"}, "S2",
                                99),
    "ddz_conv2_underfits": lambda r: edit(
        r, "doudizhu", "imitation_accuracy.csv",
        lambda df: df.assign(val_acc_mean=df.baseline + 10)),
    "ddz_similarity_above_reversi": lambda r: edit(r, "doudizhu", "s1s2_imitator.csv",
                                                   lambda df: df.assign(S1=0.0)),
    "ddz_s1_s2_not_linear": lambda r: edit(r, "doudizhu", "s1s2_imitator.csv",
                                           lambda df: df.assign(S2=df.S1)),
    "ddz_s1_bots123_similar": setv("similarity_pairs.csv", "doudizhu",
                                   {"a": "ddz1", "b": "ddz2"}, "s1", 0),
    "ddz_imitator_closest_s2": lambda r: edit(r, "doudizhu", "s2_pairwise.csv",
                                              lambda df: df.assign(IMBOT=0.0)),
    "ddz_originals_ladder_order": setv("table5_10.csv", "doudizhu", {"agent": "ddz5"},
                                       "points", 99999),
    "ddz_imitators_rank_order": reverse_imitators("doudizhu", "table5_10.csv"),
    "ddz_simpler_rules_easier": setv("difficulty_by_class.csv", "doudizhu", {"bot": "ddz5"},
                                     "S2", 0),
    "ddz_imitation_effective": setv("table5_10.csv", "doudizhu", {"agent": "imit_ddz1"},
                                    "points", 99999),
    "conv_beats_mlp": shift("imitation_accuracy.csv", "reversi", {"net": "conv"},
                            "val_acc_mean", -5),
    "params_effect_differs": shift("imitation_accuracy.csv", "reversi", {"net": "mlp2"},
                                   "val_acc_mean", 10),
    # Table 4.1's ladder (4.2 reads strength off it): bot 4 ranked above bot 3
    "reversi_bots123_similar_strength": setv("ladder.csv", "reversi", {"bot": "rev4"},
                                             "ladder_rank", 30),
    # Table 4.1 / Fig 2.4: depths rising down the ladder
    "reversi_depth_follows_rank": lambda r: edit(
        r, "reversi", "ladder.csv", lambda df: df.assign(depth=list(df.depth)[::-1])),
    "snake_depth_rank": lambda r: edit(
        r, "snake", "ladder.csv", lambda df: df.assign(depth=list(df.depth)[::-1])),
}
"""For each conclusion that holds on the thesis's tables: a change that must make it fail."""

FAILS_ON_THESIS = {
    # Table 4.5: S2 > S1 for bot 4 only (the conjecture rests on Table 4.6's IMBOT values)
    "reversi_conjecture_s2_above_s1": lambda r: edit(r, "reversi", "s1s2_imitator.csv",
                                                     lambda df: df.assign(S2=df.S1 + 5)),
    # Table 4.8: imitator 3 is last (702), below imitators 4 (817) and 5 (801)
    "reversi_imitators_rank_order": setv("tournament.csv", "reversi", {"bot": "imit_rev3"},
                                         "points", 900),
    # Table 5.6: bot 4's CONV-1 (74.24 %) is below its CONV-2 (86.92 %)
    "ddz_beats_baseline": setv("imitation_accuracy.csv", "doudizhu",
                               {"net": "ddz_conv1", "bot": "ddz4"}, "val_acc_mean", 90),
}
"""Conclusions the thesis's own tables do not support, with a change that makes them hold."""

NOT_RESULTS = {"reversi_search_eval_affect_difficulty", "ddz_case_fork_turn19"}
"""Statements about the bots' source code, hedged causes or the thesis's own match: always
'cannot be tested'."""


def test_every_stated_conclusion_has_one_check() -> None:
    ids = set(conclusions()["id"])
    assert ids == set(C.CHECKS), (sorted(ids - set(C.CHECKS)), sorted(set(C.CHECKS) - ids))


def test_every_check_quotes_its_sentence() -> None:
    """A check's docstring holds the thesis's words it tests (conclusions.csv's quote, spaces
    and line breaks aside), so that what it decides can be read against the sentence."""
    quotes = dict(zip(conclusions()["id"], conclusions()["quote"], strict=True))
    bare = {cid: re.sub(r"\s+", "", C.CHECKS[cid].__doc__ or "") for cid in quotes}
    missing = [cid for cid, q in quotes.items() if re.sub(r"\s+", "", q) not in bare[cid]]
    assert not missing, missing


def test_the_plan_covers_every_check() -> None:
    covered = set(FLIP) | set(FAILS_ON_THESIS) | NOT_RESULTS | set(HANDMADE)
    assert covered == set(C.CHECKS), sorted(set(C.CHECKS) ^ covered)


@pytest.mark.parametrize("cid", sorted(FLIP))
def test_holds_on_the_thesis_and_fails_when_changed(cid: str,
                                                    thesis: dict[str, GameResults]) -> None:
    v = C.run_check(cid, thesis)
    assert v.status == C.HOLDS, (cid, v)
    assert v.numbers
    changed = copy.copy(thesis)
    FLIP[cid](changed)
    w = C.run_check(cid, changed)
    assert w.status == C.FAILS, (cid, w)


@pytest.mark.parametrize("cid", sorted(FAILS_ON_THESIS))
def test_fails_on_the_thesis_and_holds_when_changed(cid: str,
                                                    thesis: dict[str, GameResults]) -> None:
    assert C.run_check(cid, thesis).status == C.FAILS
    changed = copy.copy(thesis)
    FAILS_ON_THESIS[cid](changed)
    assert C.run_check(cid, changed).status == C.HOLDS


@pytest.mark.parametrize("cid", sorted(NOT_RESULTS))
def test_statements_that_are_not_results(cid: str, thesis: dict[str, GameResults]) -> None:
    v = C.run_check(cid, thesis)
    assert v.status == C.UNTESTABLE and "not" in v.numbers


@pytest.mark.parametrize("cid,game,n,p", [("reversi_depth_follows_rank", "reversi", 4, 1 / 12),
                                         ("snake_depth_rank", "snake", 21, None)])
def test_depths_by_rank_on_the_printed_ladder_with_a_rank_test(
        cid: str, game: str, n: int, p: float | None, thesis: dict[str, GameResults]) -> None:
    """Table 4.1's and Fig 2.4's ladders decide the depth claims by Kendall's tau with its n
    (four Reversi bots cannot reach p < 0.05: exact p 2/24); a run of ours has no ladder, so
    there the claim stays a reading of the code."""
    from ime.thesis.checks.core import printed_numbers

    with printed_numbers():
        v = C.run_check(cid, thesis)
    assert v.status == C.HOLDS and v.n == n and "Kendall" in v.test
    if p is not None:
        assert v.p == pytest.approx(p) and v.final == C.INCONCLUSIVE
    else:
        assert v.p < 0.05 and v.final == C.HOLDS
    ours = dict(thesis)
    edit(ours, game, "ladder.csv", lambda df: df.iloc[:0])
    u = C.run_check(cid, ours)
    assert u.status == C.UNTESTABLE and "not" in u.numbers


def test_a_missing_game_or_table_is_untestable_not_an_error() -> None:
    for cid in C.CHECKS:
        assert C.run_check(cid, {}).status == C.UNTESTABLE, cid


def test_order_irrelevant_needs_an_agent_with_s2_above_s1(
        thesis: dict[str, GameResults]) -> None:
    cid = "ddz_conjecture_order_irrelevant"
    assert C.run_check(cid, thesis).status == C.HOLDS
    changed = copy.copy(thesis)
    edit(changed, "doudizhu", "similarity.csv", lambda df: df.assign(s2=df.s1 - 1))
    # an existence claim: aggregate S1/S2 can show such keys, never rule them out
    assert C.run_check(cid, changed).status == C.UNTESTABLE


# --- hand-made tables for what the thesis's tables cannot decide --------------------------------
def sweep(plateau: bool) -> dict[str, GameResults]:
    sizes = [100, 400, 700, 1000, 1300, 1600]
    curve = [60, 70, 75, 78, 78.5, 78.6] if plateau else [60, 64, 68, 72, 76, 80]
    r = snake_case(True)
    g = r["snake"]
    tables = dict(g.tables)
    tables["sweep_dataset.matches.csv"] = pd.DataFrame(
        [{"bot": "s1", "dataset.matches": x, "val_acc_mean": y}
         for x, y in zip(sizes, curve, strict=True)])
    return {"snake": replace(g, tables=tables)}


def with_clusters(thesis: dict[str, GameResults], apart: bool) -> dict[str, GameResults]:
    """The thesis's tables plus clusters: bot 3 (Reversi) and bot 5 (Doudizhu) alone, as
    4.5.1/5.5.1 and their classes say, or a split that cuts across the classes."""
    out = copy.copy(thesis)
    for game, odd in (("reversi", "rev3"), ("doudizhu", "ddz5")):
        g = out[game]
        bots = list(g.tables["s1s2_imitator.csv"]["bot"])
        if apart:
            cl = [2 if b == odd else 1 for b in bots]
        else:
            cl = [1 if i % 2 else 2 for i in range(len(bots))]
        tables = dict(g.tables)
        tables["clusters.csv"] = pd.DataFrame({"bot": bots, "class": [g.bots[b].cls for b in bots],
                                               "cluster_imitation": cl})
        out[game] = replace(g, tables=tables)
    return out


def with_moves(thesis: dict[str, GameResults], bot5_rim: bool) -> dict[str, GameResults]:
    out = copy.copy(thesis)
    g = out["reversi"]
    rim, inner = 0, 27  # a corner and a centre square

    def counts(bot: str, rim_share: float) -> list[dict]:
        return [{"bot": bot, "square": rim, "count": int(100 * rim_share)},
                {"bot": bot, "square": inner, "count": int(100 * (1 - rim_share))}]

    rows = counts("rev1", 0.3) + counts("rev5", 0.6 if bot5_rim else 0.1)
    tables = dict(g.tables)
    tables["move_counts.csv"] = pd.DataFrame(rows)
    out["reversi"] = replace(g, tables=tables)
    return out


def case(**lines: Line) -> Callable[[dict[str, GameResults], bool], dict[str, GameResults]]:
    """5.5.2's case-study pattern (True) or the pattern with ``lines`` changed (False)."""
    return lambda t, ok: with_case(t, None if ok else {**THESIS_CASE, **lines})


HANDMADE: dict[str, Callable[[dict[str, GameResults], bool], dict[str, GameResults]]] = {
    "snake_plateau_1000": lambda t, ok: sweep(ok),
    "snake_rank_harder": lambda t, ok: snake_case(ok),
    "snake_split_families": lambda t, ok: snake_case(ok),
    "snake_split_membership": lambda t, ok: snake_case(ok),
    "snake_expert_bots_weak": lambda t, ok: snake_case(ok),
    "snake_alphabeta_beats_dfs": lambda t, ok: snake_case(ok),
    "snake_mcts_beats_mc": lambda t, ok: snake_case(ok),
    "snake_baseline_range": lambda t, ok: snake_case(ok),
    "reversi_cluster_mcts_apart": with_clusters,
    "ddz_cluster_rule_apart": with_clusters,
    "personality_follows_algorithm": with_clusters,
    "reversi_bot5_corners": with_moves,
    "ddz_key_endgame_example": case(imit_ddz1=("imitator", "loss", ["a", "x", "y", "z"])),
    "ddz_case_imitator_bot5_follow_bot1": case(ddz5=("reference", "loss", ["a", "x", "v"])),
    "ddz_case_bots23_same_sequence": case(ddz3=("reference", "loss", ["a", "x", "q"])),
    "ddz_case_bot5_leaves_late": case(ddz5=("reference", "loss", ["a", "p", "v"])),
    "ddz_conjecture_order_irrelevant": lambda t, ok: t,  # its own test above
}


@pytest.mark.parametrize("cid", sorted(set(HANDMADE) - {"ddz_conjecture_order_irrelevant"}))
def test_handmade_tables(cid: str, thesis: dict[str, GameResults]) -> None:
    assert C.run_check(cid, HANDMADE[cid](thesis, True)).status == C.HOLDS, cid
    assert C.run_check(cid, HANDMADE[cid](thesis, False)).status == C.FAILS, cid


def test_a_verdict_has_a_known_status() -> None:
    with pytest.raises(ValueError, match="unknown verdict status"):
        C.Verdict("maybe", "")
