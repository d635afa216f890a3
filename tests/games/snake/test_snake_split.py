"""Snake's split table: our two accuracy clusters beside the thesis's Fig 2.7 split."""

from __future__ import annotations

import pandas as pd
import pytest

from ime.bots.registry import load_bot_specs
from ime.games.snake.results import THESIS_HARDER, split_vs_thesis


def _clusters(accs: dict[str, float]) -> pd.DataFrame:
    labels = {b: (1 if a < 70 else 2) for b, a in accs.items()}
    return pd.DataFrame({"bot": list(accs), "val_acc": list(accs.values()),
                         "baseline": 45.0, "cluster": [labels[b] for b in accs]})


def test_every_zoo_bot_has_its_thesis_number() -> None:
    specs = load_bot_specs("snake")
    nums = [specs[f"snk{i:02d}"]["thesis"]["bot"] for i in range(1, 23)]
    assert nums == list(range(1, 23))
    assert THESIS_HARDER == {1, 2, 3, 4, 5, 6, 7, 10, 13, 15, 16}


def test_a_split_that_matches_the_thesis_agrees_everywhere() -> None:
    specs = load_bot_specs("snake")
    accs = {f"snk{i:02d}": (60.0 if i in THESIS_HARDER else 90.0) for i in range(1, 23)}
    out = split_vs_thesis(_clusters(accs), specs)
    assert out.agrees.all() and len(out) == 22
    assert out.set_index("bot").loc["snk01", "family"] == "MCTS"


def test_disagreements_are_marked_and_extra_bots_have_no_thesis_group() -> None:
    specs = load_bot_specs("snake")
    accs = {"snk01": 95.0, "snk08": 50.0, "snk10": 55.0, "greedy": 99.0}
    out = split_vs_thesis(_clusters(accs), specs).set_index("bot")
    assert list(out.group) == ["easier", "harder", "harder", "easier"]
    assert list(out.thesis_group) == ["harder", "easier", "harder", ""]
    assert out.loc["snk01", "agrees"] is False or not out.loc["snk01", "agrees"]
    assert bool(out.loc["snk10", "agrees"])
    assert pd.isna(out.loc["greedy", "agrees"]) and pd.isna(out.loc["greedy", "thesis_bot"])


def test_it_needs_two_clusters() -> None:
    one = _clusters({"snk01": 50.0, "snk02": 55.0})
    with pytest.raises(ValueError, match="evaluate.clusters=2"):
        split_vs_thesis(one, load_bot_specs("snake"))
