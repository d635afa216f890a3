"""A share of 0 or 100 % gets an exact CI, not an unknown spread (ime.thesis.boundary): the
archived Doudizhu lookahead run's ddz5 imitator matched all 128 held-out keys, whose
bootstrap CI collapsed to [100, 100] and left "bot 5 is easiest" undecided."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ime.bots.registry import load_bot_specs
from ime.thesis import conclusions as C
from ime.thesis.boundary import exact_boundary_cis
from ime.thesis.heldout import heldout_view
from ime.thesis.names import TABLES
from ime.thesis.results import results_from_paths
from ime.workflow.artifacts import game_names

ARCHIVE = Path(__file__).resolve().parents[2] / "reproduction" / "thesis_lookahead+doudizhu"


def _s1s2(**held: float) -> pd.DataFrame:
    return pd.DataFrame({"bot": ["a", "b"], "imitator": ["imit_a", "imit_b"],
                         "S1": [90.0, 100.0], "S1_lo": [88.0, 100.0], "S1_hi": [92.0, 100.0],
                         "S2": [90.0, 100.0], "S2_lo": [88.0, 100.0], "S2_hi": [92.0, 100.0],
                         "key_matches": [50, 40], **{k: [v, v] for k, v in held.items()}})


def test_a_collapsed_ci_at_0_or_100_percent_becomes_clopper_pearson_over_the_key_matches():
    t = exact_boundary_cis({"s1s2_imitator.csv": _s1s2()})["s1s2_imitator.csv"]
    assert list(t["S1_lo"]) == [88.0, pytest.approx(100 * 0.025 ** (1 / 40))]  # 91.2
    assert list(t["S2_hi"]) == [92.0, 100.0]
    # held-out figures over their own matches; a table without that column: similarity.csv's
    sim = pd.DataFrame({"agent": ["imit_b@heldout"], "target": ["b"], "n": [9],
                        "n_matches": [3], "s1": [100.0], "s1_lo": [100.0], "s1_hi": [100.0],
                        "s2": [0.0], "s2_lo": [0.0], "s2_hi": [0.0]})
    held = _s1s2(S1_heldout=100.0, S1_heldout_lo=100.0, S1_heldout_hi=100.0)
    out = exact_boundary_cis({"s1s2_imitator.csv": held, "similarity.csv": sim})
    assert out["s1s2_imitator.csv"]["S1_heldout_lo"].iloc[1] == pytest.approx(
        100 * 0.025 ** (1 / 3))
    # imit_a has no row to count its matches: left as it was (an unknown spread)
    assert out["s1s2_imitator.csv"]["S1_heldout_lo"].iloc[0] == 100.0
    assert out["similarity.csv"]["s2_hi"].iloc[0] == pytest.approx(100 * (1 - 0.025 ** (1 / 3)))
    # a share over one match stays without a CI: one match is one observation
    one = exact_boundary_cis({"similarity.csv": sim.assign(n_matches=1)})["similarity.csv"]
    assert one["s1_lo"].iloc[0] == 100.0 == one["s1_hi"].iloc[0]


@pytest.mark.skipif(not ARCHIVE.is_dir(), reason="the archived run is not in this checkout")
def test_the_archived_run_decides_bot_5_easiest_on_its_128_held_out_keys():
    names = game_names("doudizhu")
    paths = {n: ARCHIVE / "doudizhu" / names.get(n, n) for n in TABLES}
    g = results_from_paths("doudizhu", paths, load_bot_specs("doudizhu"), "lookahead")
    t = g.get("s1s2_imitator.csv").set_index("bot")
    assert t.at["ddz5", "S2_heldout"] == 100.0 and t.at["ddz5", "key_matches_heldout"] == 119
    assert 96.9 < t.at["ddz5", "S2_heldout_lo"] < 97.0  # was [100, 100]
    v = C.run_check("ddz_rule_bot_easiest", heldout_view({"doudizhu": g}))
    assert v.status == C.HOLDS and v.final == C.HOLDS and v.p is not None and v.p < 0.05
