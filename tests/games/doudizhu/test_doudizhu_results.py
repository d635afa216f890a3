"""Table 5.10 under the thesis's protocol, from tournament games (no bots needed)."""

from __future__ import annotations

import pandas as pd

from ime.games.doudizhu.results import table5_10, table5_10_hook, thesis_games


def _games() -> pd.DataFrame:
    rows = []
    # one round of the pair (a, b): both lone-landlord lineups and their other rotations
    for players, landlord_wins in [(("a", "b", "b"), True), (("b", "a", "a"), False),
                                   (("b", "b", "a"), True), (("a", "b", "a"), False)]:
        out = [2 if landlord_wins else 0] + [0 if landlord_wins else 2] * 2
        rows.append({"round": 0, "match_id": "-".join(players),
                     **{f"player{s}": p for s, p in enumerate(players)},
                     **{f"score{s}": float(o) for s, o in enumerate(out)},
                     **{f"outcome{s}": o for s, o in enumerate(out)}, "plies": 30})
    return pd.DataFrame(rows)


def test_only_lone_landlord_games_count():
    assert list(thesis_games(_games()).match_id) == ["a-b-b", "b-a-a"]


def test_points_are_three_per_win():
    t = table5_10(_games(), {"a": {"type": "original", "imitates": ""}})
    a = t[t.agent == "a"].iloc[0]
    b = t[t.agent == "b"].iloc[0]
    # a: won as landlord (a,b,b) and as the farmers of (b,a,a): 2 wins; b lost both
    assert (a.points, a.wins, a.landlord_wins, a.farmer_wins) == (6, 2, 1, 1)
    assert (b.points, b.wins, b.games) == (0, 0, 2)
    assert list(t.agent) == ["a", "b"] and list(t["rank"]) == [1, 2]
    assert a.type == "original"


def test_hook_reads_the_tournament_beside_its_output(tmp_path):
    _games().to_csv(tmp_path / "tournament_games.csv", index=False)
    table5_10_hook({}, str(tmp_path / "table5_10.csv"))
    out = pd.read_csv(tmp_path / "table5_10.csv")
    assert out.points.sum() == 6 and set(out.agent) == {"a", "b"}
    assert table5_10_hook.needs == ("tournament_games.csv", "tournament.csv")
