"""Snake's training protocol per scale, as the composed config gives it (thesis 2.1.3, Table 2.2;
docs/games/snake.md, "The protocol at each scale"): every scale composes and validates, and the
thesis scale carries the thesis's budget (1000 matches, 5 folds, at most 300 epochs)."""

from __future__ import annotations

import pytest

from ime.workflow import compose, make_plan, to_plain


@pytest.mark.parametrize("scale", ["tiny", "quick", "thesis"])
def test_every_snake_scale_composes_with_table_2_2s_setup(scale: str) -> None:
    c = to_plain(compose(["game=snake", f"scale={scale}"]))
    t = c["train"]
    assert t["nets"] == ["snake_mlp1", "snake_mlp2", "snake_conv1", "snake_conv2",
                         "snake_conv3"]
    assert (t["batch_size"], t["lr"], t["lr_decay"]) == (32, 0.02, 0.9)
    assert t["folds"] == (2 if scale == "tiny" else 5) and t["patience"] == 3
    assert c["game"]["params"] == {"width": 11, "height": 10}  # the thesis's 10 x 11 board
    make_plan(["game=snake", f"scale={scale}"])  # plans (schemas checked) without error


def test_thesis_scale_has_the_thesis_budget() -> None:
    thesis = to_plain(compose(["game=snake", "scale=thesis"]))
    assert thesis["matches"]["per_target"] == 1000
    assert thesis["train"]["max_epochs"] == 300 and thesis["train"]["run_folds"] is None
    quick = to_plain(compose(["game=snake", "scale=quick"]))
    assert quick["train"]["max_epochs"] == 30 and quick["matches"]["per_target"] == 100


def test_thesis_scale_trains_all_22_and_evaluates_the_six_at_thesis_counts() -> None:
    """S1/S2 and the tournament are ours for Snake (the thesis has none): six bots, one or two
    per family of Fig 2.4, at the thesis's 1000 keys and 50 rounds; every bot is trained."""
    thesis = to_plain(compose(["game=snake", "scale=thesis"]))
    quick = to_plain(compose(["game=snake", "scale=quick"]))
    assert len(thesis["game"]["targets"]) == 22
    six = ["snk01", "snk02", "snk04", "snk10", "snk11", "snk18"]
    assert thesis["evaluate"]["targets"] == quick["evaluate"]["targets"] == six
    assert (thesis["evaluate"]["n_keys"], thesis["evaluate"]["tournament"]["rounds"]) == (1000, 50)
