"""The thesis's numbers and conclusions as data (config/thesis/, ime.thesis.reference).

The numbers are checked against what the thesis itself implies: the shape of each table, the
totals its tournament rules force, the ranges of percentages and baselines, and every number the
thesis prints twice (typed once per printing here, so a mistyped copy shows up as a mismatch).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from ime.thesis import reference as ref

BOTS = ("1", "2", "3", "4", "5")


@pytest.fixture(scope="module")
def nums() -> pd.DataFrame:
    return ref.numbers()


def cells(df: pd.DataFrame, table: str, metric: str, net: str = "") -> dict[str, float]:
    """subject -> value for one metric of one table (several games: Table 6.1 asks per game)."""
    t = df[(df["table"] == table) & (df["metric"] == metric) & (df["net"] == net)]
    assert t["subject"].is_unique, (table, metric, net)
    return dict(zip(t["subject"], t["value"], strict=True))


def game_cells(df: pd.DataFrame, table: str, game: str, metric: str) -> dict[str, float]:
    return cells(df[df["game"] == game], table, metric)


# ----------------------------------------------------------------------------------------------
# Shape: row counts per table follow from the table's layout in the thesis.

EXPECTED_ROWS = {
    "Table 2.2": 5,                  # 5 nets x params
    "Fig 2.4": 22 + 8,               # 22 ladder ranks + the 8 numeric search depths
    "Fig 2.6": 4 + 6 + 2,            # swept bots, sweep sizes, plateau + matches used
    "Fig 2.7": 22 + 2,               # group per bot + baseline range
    "Table 4.1": 5 + 3,              # ladder ranks + depth limits of bots 2, 3, 4
    "Table 4.2": 5 * 2,              # pairs, baseline
    "Table 4.3": 3,                  # params of MLP-1, MLP-2, CONV
    "Table 4.4": 5 * 3 * 2 + 5,      # 5 bots x 3 nets x (train, val) + 5 baselines
    "Table 4.5": 5 * 3,              # ladder rank, S1, S2
    "Table 4.6": 5 + 20 + 5,         # ladder ranks + both halves of 10 pairs + IMBOT
    "Table 4.7": 20 + 5,             # both halves of 10 pairs + IMBOT
    "Table 4.8": 10 * 2 + 5 + 2,     # points and rank of 10 agents + originals' ladder ranks
    "Table 5.1": 5,
    "Table 5.4": 5 * 2,
    "Table 5.5": 2 * 2,              # major and minor params of 2 groups
    "Table 5.6": 5 * 2 * 2 + 5,      # 5 bots x 2 groups x (train, val) + 5 baselines
    "Table 5.7": 5 * 3,
    "Table 5.8": 5 + 20 + 5,
    "Table 5.9": 5 + 20 + 5,
    "Table 5.10": 10 * 2 + 5 + 2,
    "Table 6.1": 10 * 3,             # ladder rank, S2, class of 10 bots
}


@pytest.mark.parametrize("table_id,n", sorted(EXPECTED_ROWS.items()))
def test_row_counts(nums, table_id, n):
    assert len(ref.table(table_id)) == n


def test_every_table_has_a_count(nums):
    # a table added to numbers.csv must get its shape checked here too
    tables = {t for t in set(nums["table"]) if not t.startswith("Sec ")}
    assert tables == set(EXPECTED_ROWS)


def test_per_net_cells(nums):
    for table_id, nets in (("Table 4.4", ("MLP-1", "MLP-2", "CONV")),
                           ("Table 5.6", ("CONV-1", "CONV-2"))):
        for net in nets:
            for metric in ("train_acc", "val_acc"):
                assert set(cells(nums, table_id, metric, net)) == set(BOTS)
        assert set(cells(nums, table_id, "baseline")) == set(BOTS)
    assert set(nums.loc[nums["net"] != "", "table"]) == {"Table 4.4", "Table 5.6"}


# ----------------------------------------------------------------------------------------------
# Totals the thesis implies.

def test_reversi_tournament_points(nums):
    # 50 double round-robins of 10 agents: 50 x 10 x 9 matches; win 3, draw 1 each, loss 0, so
    # the points sum to 3 x decisive + 2 x drawn = 3 x matches - draws
    matches = ref.value("Table 4.8", "reversi", "all", "matches")
    assert matches == ref.value("Table 4.8", "reversi", "all", "round_robins") * 10 * 9 == 4500
    points = cells(nums, "Table 4.8", "points")
    assert len(points) == 10
    total = sum(points.values())
    assert 2 * matches <= total <= 3 * matches
    assert total == 13430  # 70 drawn matches


def test_doudizhu_tournament_points(nums):
    # no draws in Doudizhu: every match gives exactly 3 points
    matches = ref.value("Table 5.10", "doudizhu", "all", "matches")
    assert matches == ref.value("Table 5.10", "doudizhu", "all", "round_robins") * 10 * 9
    assert sum(cells(nums, "Table 5.10", "points").values()) == 3 * matches == 54000


@pytest.mark.parametrize("table_id", ["Table 4.8", "Table 5.10"])
def test_tournament_rank_follows_points(nums, table_id):
    points = cells(nums, table_id, "points")
    ranks = cells(nums, table_id, "rank")
    assert set(points) == set(ranks) == {*BOTS, *(f"imit{b}" for b in BOTS)}
    dense = pd.Series(points).rank(method="dense", ascending=False)
    assert {k: int(v) for k, v in dense.items()} == {k: int(v) for k, v in ranks.items()}


@pytest.mark.parametrize("game,table_id,sec", [("reversi", "Table 4.2", "Sec 4.3.1"),
                                               ("doudizhu", "Table 5.4", "Sec 5.3.1")])
def test_pairs_match_the_stated_dataset_size(nums, game, table_id, sec):
    pairs = cells(nums, table_id, "pairs")
    matches = ref.value(sec, game, "all", "matches")
    per_match = ref.value(sec, game, "all", "pairs_per_match")
    # the thesis's "about N pairs" is its matches x average pairs per match ...
    assert ref.value(sec, game, "all", "pairs_approx") == matches * per_match
    # ... and the average it states is the tables' mean, rounded
    assert round(sum(pairs.values()) / len(pairs) / matches) == per_match


# ----------------------------------------------------------------------------------------------
# Ranges.

def test_percent_range(nums):
    pct = nums.loc[nums["unit"] == "percent", "value"]
    assert len(pct) > 200 and pct.between(0, 100).all()


def test_known_units_and_codes(nums):
    assert set(nums["unit"]) <= set(ref.UNITS)
    codes = nums[nums["unit"] == "code"]
    assert set(codes["metric"]) == {"group", "swept", "class"}
    assert set(codes["value"]) <= {1.0, 2.0, 3.0}


def test_reversi_every_net_beats_its_baseline(nums):
    base = cells(nums, "Table 4.4", "baseline")
    for net in ("MLP-1", "MLP-2", "CONV"):
        val = cells(nums, "Table 4.4", "val_acc", net)
        train = cells(nums, "Table 4.4", "train_acc", net)
        for b in BOTS:
            assert base[b] < val[b] <= train[b]


def test_doudizhu_conv1_beats_baseline_conv2_mostly_below(nums):
    base = cells(nums, "Table 5.6", "baseline")
    conv1 = cells(nums, "Table 5.6", "val_acc", "CONV-1")
    conv2 = cells(nums, "Table 5.6", "val_acc", "CONV-2")
    assert all(conv1[b] > base[b] for b in BOTS)
    # "CONV-2 is even below the baseline" holds for bots 2, 3, 5 only (bot 1: 58.57 > 52.65,
    # bot 4: 86.92 > 59.46); kept as printed, see config/thesis/README.md
    assert [b for b in BOTS if conv2[b] < base[b]] == ["2", "3", "5"]


def test_snake_baseline_range_and_split(nums):
    lo = ref.value("Fig 2.7", "snake", "all", "baseline_min")
    hi = ref.value("Fig 2.7", "snake", "all", "baseline_max")
    assert (lo, hi) == (40.0, 47.3)
    # 4 legal moves at most: a random choice is right at least 25% of the time
    assert 25.0 <= lo < hi <= 100.0
    group = game_cells(nums, "Fig 2.7", "snake", "group")
    assert set(group) == {str(b) for b in range(1, 23)}
    assert sorted(int(b) for b, g in group.items() if g == 1) == [1, 2, 3, 4, 5, 6, 7, 10, 13, 15,
                                                                  16]


def test_snake_split_by_family(nums):
    # 2.1.3: MCTS and NE bots in the first group, DFS and expert bots in the second, Alpha-Beta
    # and MC bots in both; the family is Fig 2.4's algorithm column (kept in the note)
    fig = ref.table("Fig 2.4")
    algo = {r.subject: re.match(r"algo=(\S+)", r.note).group(1)
            for r in fig[fig["metric"] == "ladder_rank"].itertuples()}
    group = game_cells(nums, "Fig 2.7", "snake", "group")
    by_algo: dict[str, set[float]] = {}
    for b, a in algo.items():
        by_algo.setdefault(a, set()).add(group[b])
    assert by_algo == {"MCTS": {1}, "NE": {1}, "DFS": {2}, "ES": {2}, "Alpha-Beta": {1, 2},
                       "MC": {1, 2}}


def test_snake_sweep(nums):
    sizes = [ref.value("Fig 2.6", "snake", "all", f"sweep_size_{i}") for i in range(1, 7)]
    assert sizes == [100, 400, 700, 1000, 1300, 1600]
    assert ref.value("Fig 2.6", "snake", "all", "plateau_matches") in sizes
    assert set(game_cells(nums, "Fig 2.6", "snake", "swept")) == {"1", "2", "4", "6"}


@pytest.mark.parametrize("table_id,game", [("Fig 2.4", "snake"), ("Table 4.1", "reversi"),
                                           ("Table 5.1", "doudizhu")])
def test_bots_numbered_by_ladder_rank(nums, table_id, game):
    ranks = game_cells(nums, table_id, game, "ladder_rank")
    ordered = [ranks[b] for b in sorted(ranks, key=int)]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered)


# ----------------------------------------------------------------------------------------------
# Numbers the thesis prints more than once must agree.

def _pairs(df: pd.DataFrame, table_id: str, metric: str) -> dict[tuple[str, str], float]:
    out = {}
    for subject, v in cells(df, table_id, metric).items():
        a, b = subject.split("-")
        if not b.startswith("imit"):
            out[(a, b)] = v
    return out


@pytest.mark.parametrize("table_id,metric", [("Table 4.6", "S1"), ("Table 4.7", "S2"),
                                             ("Table 5.8", "S1"), ("Table 5.9", "S2")])
def test_pair_matrices_symmetric(nums, table_id, metric):
    pairs = _pairs(nums, table_id, metric)
    assert len(pairs) == 20
    assert len({frozenset(k) for k in pairs}) == 10
    for (a, b), v in pairs.items():
        assert a != b and pairs[(b, a)] == v
    imbot = {s for s in cells(nums, table_id, metric) if "imit" in s}
    assert imbot == {f"{b}-imit{b}" for b in BOTS}


@pytest.mark.parametrize("game,t_eval,t_s1,t_s2", [("reversi", "Table 4.5", None, "Table 4.7"),
                                                   ("doudizhu", "Table 5.7", "Table 5.8",
                                                    "Table 5.9")])
def test_imitator_similarity_repeated(nums, game, t_eval, t_s1, t_s2):
    s2 = game_cells(nums, t_eval, game, "S2")
    assert s2 == {b: game_cells(nums, t_s2, game, "S2")[f"{b}-imit{b}"] for b in BOTS}
    assert s2 == game_cells(nums, "Table 6.1", game, "S2")
    if t_s1:
        s1 = game_cells(nums, t_eval, game, "S1")
        assert s1 == {b: game_cells(nums, t_s1, game, "S1")[f"{b}-imit{b}"] for b in BOTS}


def test_table_4_6_imbot_is_its_own_number(nums):
    # the thesis's Table 4.6 IMBOT column (the best imitator's S1) is not Table 4.5's S1;
    # kept as printed (config/thesis/README.md), so a "correction" of either shows up here
    imbot = {b: ref.value("Table 4.6", "reversi", f"{b}-imit{b}", "S1") for b in BOTS}
    assert imbot == {"1": 13.9, "2": 8.7, "3": 7.0, "4": 72.1, "5": 40.9}
    assert all(imbot[b] != ref.value("Table 4.5", "reversi", b, "S1") for b in BOTS)


@pytest.mark.parametrize("game,t_data,t_train", [("reversi", "Table 4.2", "Table 4.4"),
                                                 ("doudizhu", "Table 5.4", "Table 5.6")])
def test_baselines_repeated(nums, game, t_data, t_train):
    assert cells(nums, t_data, "baseline") == cells(nums, t_train, "baseline")


@pytest.mark.parametrize("game,tables", [
    ("reversi", ["Table 4.1", "Table 4.5", "Table 4.6", "Table 4.8", "Table 6.1"]),
    ("doudizhu", ["Table 5.1", "Table 5.7", "Table 5.8", "Table 5.9", "Table 5.10",
                  "Table 6.1"])])
def test_ladder_ranks_repeated(nums, game, tables):
    first = game_cells(nums, tables[0], game, "ladder_rank")
    assert set(first) == set(BOTS)
    for t in tables[1:]:
        assert game_cells(nums, t, game, "ladder_rank") == first, t


def test_difficulty_classes_ordered(nums):
    # Table 6.1: statistical sampling search < deterministic search < rule-based, by S2
    t = ref.table("Table 6.1")
    wide = t.pivot(index=["game", "subject"], columns="metric", values="value")
    ranges = wide.groupby("class")["S2"].agg(["min", "max"]).sort_index()
    assert list(ranges.index) == [1, 2, 3]
    assert ranges["max"].iloc[0] < ranges["min"].iloc[1]
    assert ranges["max"].iloc[1] < ranges["min"].iloc[2]


def test_table_2_2_nets_about_60k(nums):
    params = cells(nums, "Table 2.2", "params")
    assert set(params) == {"MLP-1", "MLP-2", "CONV-1", "CONV-2", "CONV-3"}
    assert all(50_000 < p < 70_000 for p in params.values())


# ----------------------------------------------------------------------------------------------
# Conclusions.

def _readme_ids() -> set[str]:
    text = (ref.thesis_dir() / "README.md").read_text(encoding="utf-8")
    return set(re.findall(r"(?:Table|Fig) \d+\.\d+", text))


def test_conclusions_reference_known_tables(nums):
    con = ref.conclusions()
    assert con["id"].is_unique and len(con) >= 40
    known = set(nums["table"]) | _readme_ids()
    for row in con.itertuples():
        for t in row.tables.split(";"):
            assert t in known, (row.id, t)
        assert re.match(r"^(2\.1\.3|[456](\.\d+)*)$", row.section), row.id
        # a Chinese quote from the thesis, not a translation
        assert re.search(r"[\u4e00-\u9fff]", row.quote), row.id


def test_conclusions_cover_the_brief():
    ids = set(ref.conclusions()["id"])
    assert {"snake_plateau_1000", "snake_rank_harder", "snake_split_families",
            "reversi_conv_best", "reversi_beats_baseline", "reversi_s1_s2_not_linear",
            "reversi_mcts_hardest", "reversi_imitator_closest", "reversi_imitators_rank_order",
            "reversi_bot5_corners", "reversi_cluster_mcts_apart", "ddz_conv2_underfits",
            "ddz_beats_baseline", "ddz_rule_bot_easiest", "ddz_imitator_closest",
            "ddz_imitators_below_originals", "difficulty_by_class"} <= ids


def test_figures_without_numbers_are_documented(nums):
    # a figure a conclusion rests on but whose values are only plotted is named in the README
    con = ref.conclusions()
    used = {t for ts in con["tables"] for t in ts.split(";")}
    missing = used - set(nums["table"])
    assert missing and missing <= _readme_ids()


# ----------------------------------------------------------------------------------------------
# Lookup and errors.

def test_value_and_table_lookup():
    assert ref.value("Table 4.4", "reversi", "1", "val_acc", net="CONV") == 90.24
    assert ref.value("Table 5.5", "doudizhu", "CONV-1", "params_major") == 399219
    with pytest.raises(KeyError, match="numbers.csv"):
        ref.value("Table 4.4", "reversi", "9", "val_acc", net="CONV")
    with pytest.raises(KeyError, match="Table 9.9"):
        ref.table("Table 9.9")


GOOD = "Table 4.2,4.3.1,reversi,1,,baseline,17.44,percent,\n"
HEADER = ",".join(ref.NUMBER_COLUMNS) + "\n"


@pytest.mark.parametrize("bad,needle", [
    ("Table 4.2,4.3.1,reversi,2,,baseline,abc,percent,\n", "not a number"),
    ("Table 4.2,4.3.1,reversi,2,,baseline,17.44,percents,\n", "unknown unit"),
    ("Table 4.2,4.3.1,reversi,2,,baseline,117.44,percent,\n", "outside"),
    ("Table 4.2,4.3.1,chess,2,,baseline,17.44,percent,\n", "unknown game"),
    ("Table 4.2,4.3.1,reversi,2,,baseline,17.44\n", "fields"),
    ("Table 4.2,4.3.1,reversi,1,,baseline,17.44,percent,\n", "duplicate of line 2"),
    ("Tab 4.2,4.3.1,reversi,2,,baseline,17.44,percent,\n", "not like"),
])
def test_bad_row_names_file_and_line(tmp_path, monkeypatch, bad, needle):
    (tmp_path / "thesis").mkdir()
    path = tmp_path / "thesis" / "numbers.csv"
    path.write_text(HEADER + GOOD + bad, encoding="utf-8")
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=needle) as err:
        ref.numbers()
    assert f"{path}:3:" in str(err.value)


def test_bad_header_and_conclusion(tmp_path, monkeypatch):
    (tmp_path / "thesis").mkdir()
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    nums = tmp_path / "thesis" / "numbers.csv"
    nums.write_text("table,game\n" + GOOD, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{re.escape(str(nums))}:1: header"):
        ref.numbers()
    con = tmp_path / "thesis" / "conclusions.csv"
    row = "x_y,4.4.2,Table 4.5,A statement.,短引文\n"
    con.write_text(",".join(ref.CONCLUSION_COLUMNS) + "\n" + row + row, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{re.escape(str(con))}:3: id 'x_y' repeats line 2"):
        ref.conclusions()


def test_reload_after_edit(tmp_path, monkeypatch):
    (tmp_path / "thesis").mkdir()
    monkeypatch.setenv("IME_CONFIG_DIR", str(tmp_path))
    path: Path = tmp_path / "thesis" / "numbers.csv"
    path.write_text(HEADER + GOOD, encoding="utf-8")
    assert ref.value("Table 4.2", "reversi", "1", "baseline") == 17.44
    path.write_text(HEADER + GOOD.replace("17.44", "17.5"), encoding="utf-8")
    assert ref.value("Table 4.2", "reversi", "1", "baseline") == 17.5
