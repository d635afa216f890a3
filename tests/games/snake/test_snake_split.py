"""Snake's split table: the zoo bisected by count on mean validation accuracy (the thesis's cut
after Fig 2.7), beside the thesis's groups and our accuracy clusters."""

from __future__ import annotations

import pandas as pd
import pytest

from ime.bots.registry import load_bot_specs
from ime.games.snake.results import (
    SPLIT_COLUMNS,
    THESIS_HARDER,
    accuracy_ranks,
    bisect_by_count,
    split_vs_thesis,
)


def _clusters(accs: dict[str, float], threshold: float = 70.0) -> pd.DataFrame:
    """An ``accuracy_clusters.csv``-shaped table; the clusters cut at ``threshold`` (so they
    can differ from the by-count split)."""
    return pd.DataFrame({"bot": list(accs), "val_acc": list(accs.values()),
                         "baseline": 45.0,
                         "cluster": [1 if a < threshold else 2 for a in accs.values()]})


def test_every_zoo_bot_has_its_thesis_number() -> None:
    specs = load_bot_specs("snake")
    nums = [specs[f"snk{i:02d}"]["thesis"]["bot"] for i in range(1, 23)]
    assert nums == list(range(1, 23))
    assert THESIS_HARDER == {1, 2, 3, 4, 5, 6, 7, 10, 13, 15, 16}


def test_even_count_splits_in_halves_lowest_accuracy_harder() -> None:
    bots = ["a", "b", "c", "d", "e", "f"]
    accs = [70.0, 60.0, 90.0, 65.0, 80.0, 75.0]
    assert accuracy_ranks(bots, accs) == [3, 1, 6, 2, 5, 4]
    assert bisect_by_count(bots, accs) == ["harder", "harder", "easier", "harder", "easier",
                                           "easier"]


def test_odd_count_puts_the_middle_bot_with_the_easier() -> None:
    bots = ["a", "b", "c", "d", "e"]
    accs = [50.0, 60.0, 70.0, 80.0, 90.0]  # c is the median
    assert bisect_by_count(bots, accs) == ["harder", "harder", "easier", "easier", "easier"]
    assert bisect_by_count(["only"], [55.0]) == ["easier"]
    assert bisect_by_count([], []) == []


def test_ties_go_to_the_lower_bot_id_whatever_the_row_order() -> None:
    # b and c tie at the cut: the lower id (b) is ranked lower, so it is the harder one
    bots, accs = ["c", "a", "b", "d"], [65.0, 60.0, 65.0, 90.0]
    assert accuracy_ranks(bots, accs) == [3, 1, 2, 4]
    assert bisect_by_count(bots, accs) == ["easier", "harder", "harder", "easier"]
    rev = bisect_by_count(bots[::-1], accs[::-1])
    assert rev[::-1] == ["easier", "harder", "harder", "easier"]


def test_rank_inputs_are_checked() -> None:
    with pytest.raises(ValueError, match="2 bots but 1"):
        accuracy_ranks(["a", "b"], [1.0])
    with pytest.raises(ValueError, match="appears twice"):
        accuracy_ranks(["a", "a"], [1.0, 2.0])


def test_the_thesis_scale_table_gives_20_of_22() -> None:
    """Hand-made from the thesis-scale run's mean of five nets (docs/games/snake.md): the 11
    lowest are the thesis's harder bots except that snk09 (71.0) falls below snk13 (74.9);
    the clusters cut between 78.6 and 84.6 (15 / 7, 18 agree)."""
    acc = [64.8, 69.0, 61.2, 69.7, 62.2, 64.5, 70.7, 71.5, 71.0, 62.7, 78.0, 78.6, 74.9, 95.2,
           64.6, 63.6, 84.6, 87.2, 95.7, 85.8, 89.0, 94.2]
    accs = {f"snk{i:02d}": a for i, a in enumerate(acc, start=1)}
    out = split_vs_thesis(_clusters(accs, threshold=80.0),
                          load_bot_specs("snake")).set_index("bot")
    assert list(out.columns) == SPLIT_COLUMNS[1:]
    assert (out.group == "harder").sum() == 11
    assert sorted(out.index[~out.agrees.astype(bool)]) == ["snk09", "snk13"]
    assert out.loc["snk09", "group"] == "harder" and out.loc["snk13", "group"] == "easier"
    assert int(out.agrees.sum()) == 20 and int(out.cluster_agrees.sum()) == 18
    assert (out.cluster_group == "harder").sum() == 15
    assert out.loc["snk03", "rank"] == 1 and out.loc["snk19", "rank"] == 22
    assert out.loc["snk01", "family"] == "MCTS"


def test_a_split_that_matches_the_thesis_agrees_everywhere() -> None:
    accs = {f"snk{i:02d}": (60.0 + i / 10 if i in THESIS_HARDER else 90.0 - i / 10)
            for i in range(1, 23)}
    out = split_vs_thesis(_clusters(accs), load_bot_specs("snake"))
    assert out.agrees.all() and out.cluster_agrees.all() and len(out) == 22


def test_extra_bots_count_in_the_bisection_but_have_no_thesis_group() -> None:
    accs = {"snk01": 95.0, "snk08": 50.0, "snk10": 55.0, "greedy": 99.0}
    out = split_vs_thesis(_clusters(accs), load_bot_specs("snake")).set_index("bot")
    assert list(out.group) == ["easier", "harder", "harder", "easier"]
    assert list(out.thesis_group) == ["harder", "easier", "harder", ""]
    assert not out.loc["snk01", "agrees"] and out.loc["snk10", "agrees"]
    assert pd.isna(out.loc["greedy", "agrees"]) and pd.isna(out.loc["greedy", "thesis_bot"])


def test_clusters_other_than_two_leave_only_the_cluster_group_blank() -> None:
    one = _clusters({"snk01": 50.0, "snk02": 55.0}, threshold=100.0)
    out = split_vs_thesis(one, load_bot_specs("snake")).set_index("bot")
    assert list(out.group) == ["harder", "easier"]
    assert list(out.cluster_group) == ["", ""] and out.cluster_agrees.isna().all()
