"""The match runner: per-target schedules, the ``seed`` log field, duplicate statistics."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ime.games.reversi import GAME
from ime.games.reversi.bots.simple import RandomBot
from ime.matches.judge import run_match
from ime.matches.logs import RawMatch, iter_raw_matches, read_matches, replay_match
from ime.matches.runner import (
    build_schedule,
    build_target_schedule,
    duplicate_stats,
    play_schedule,
    shard,
)

OPP = ["opp_random", "opp_greedy"]
POOL = ["rev1", "rev2", "rev3", "rev4", "rev5"]


def test_target_schedule_is_its_own() -> None:
    s = build_target_schedule("reversi", "rev1", OPP, POOL, 100, seed=3, vs_targets=0.2)
    assert len(s) == 100 and all("rev1" in m.players for m in s)
    assert len({m.match_id for m in s}) == 100
    assert s[0].match_id == "reversi-s3-rev1-0000000"
    partners = Counter(next(p for p in m.players if p != "rev1") for m in s)
    # 20 sparring matches, 5 with each of the pool minus rev1, both colours each
    assert {b: partners[b] for b in POOL if b != "rev1"} == dict.fromkeys(POOL[1:], 5)
    assert "rev1" not in partners
    for b in POOL[1:]:
        first = Counter(m.players[0] == "rev1" for m in s if b in m.players)
        assert first[True] >= 2 and first[False] >= 2
    assert sum(partners[o] for o in OPP) == 80
    # the same arguments give the same schedule; another target's is independent of the list
    assert s == build_target_schedule("reversi", "rev1", OPP, POOL, 100, seed=3, vs_targets=0.2)
    other = build_target_schedule("reversi", "rev2", OPP, POOL, 100, seed=3, vs_targets=0.2)
    assert not {m.match_id for m in s} & {m.match_id for m in other}


def test_schedule_without_opponents_or_partners() -> None:
    s = build_target_schedule("reversi", "a", [], ["a", "b"], 6, seed=0)
    assert all(set(m.players) == {"a", "b"} for m in s)
    assert Counter(m.players[0] for m in s) == {"a": 3, "b": 3}
    only_opp = build_target_schedule("reversi", "a", OPP, ["a"], 10, seed=0, vs_targets=0.5)
    assert all(set(m.players) & set(OPP) for m in only_opp)  # nobody to spar with
    with pytest.raises(ValueError, match="opponents or sparring"):
        build_target_schedule("reversi", "a", [], ["a"], 6, seed=0)


def test_build_schedule_concatenates_the_targets_schedules() -> None:
    both = build_schedule("reversi", ["rev1", "rev2"], OPP, 10, seed=1, vs_targets=0.2)
    assert both[:10] == build_target_schedule("reversi", "rev1", OPP, ["rev1", "rev2"], 10, 1,
                                              vs_targets=0.2)
    pinned = build_schedule("reversi", ["rev1", "rev2"], OPP, 10, seed=1, vs_targets=0.2,
                            sparring=POOL)
    assert pinned[10:] == build_target_schedule("reversi", "rev2", OPP, POOL, 10, 1,
                                                vs_targets=0.2)
    assert shard(both, 1, 3) == both[1::3]


def test_logs_carry_the_seed_and_old_logs_still_read(tmp_path) -> None:
    specs = {"opp_random": {"kind": "random"}, "opp_greedy": {"kind": "greedy"}}
    sched = build_target_schedule("reversi", "opp_random", ["opp_greedy"], [], 4, seed=9)
    out = tmp_path / "opp_random" / "shard000.jsonl"
    assert play_schedule("reversi", sched, specs, out, seed=9, workers=1, progress=False) == 4
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(d["seed"] == 9 for d in docs)
    assert [d["_id"] for d in docs] == [m.match_id for m in sched]
    # a reader ignores unknown fields and does not need `seed`
    extra = [{**d, "novel_field": {"x": 1}} for d in docs]
    old = [{k: v for k, v in d.items() if k != "seed"} for d in docs]
    for name, lines in (("extra", extra), ("old", old)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(d) + "\n" for d in lines))
        rep = read_matches(path, GAME)
        assert len(rep.accepted) == 4 and not rep.rejected, rep.summary()
    # a replay keeps the logged seed, and invents none
    res = run_match(GAME, [RandomBot("a"), RandomBot("b")], match_id="m", seed=5)
    assert res.to_json()["seed"] == 5
    item = next(iter_raw_matches(tmp_path / "old.jsonl"))
    assert isinstance(item, RawMatch)
    assert "seed" not in replay_match(GAME, item).to_json()
    item = next(iter_raw_matches(out))
    assert replay_match(GAME, item).to_json()["seed"] == 9


def test_duplicate_stats(tmp_path) -> None:
    a = run_match(GAME, [RandomBot("x"), RandomBot("y")], match_id="m1", seed=1).to_json()
    b = {**a, "_id": "m2"}  # the same moves again
    c = run_match(GAME, [RandomBot("x"), RandomBot("y")], match_id="m3", seed=2).to_json()
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in (a, b, c)))
    st = duplicate_stats([path], "x")
    assert st == {"matches": 3, "duplicates": 1, "duplicate_rate": pytest.approx(1 / 3)}
    assert duplicate_stats([path], "nobody")["matches"] == 0


def test_duplicate_stats_names_a_bad_line(tmp_path) -> None:
    good = run_match(GAME, [RandomBot("x"), RandomBot("y")], match_id="m1", seed=1).to_json()
    path = tmp_path / "logs.jsonl"
    path.write_text(json.dumps(good) + "\n" + '{"_id":"broken-7","players":[{"bot":"x"}\n')
    with pytest.raises(ValueError) as e:
        duplicate_stats([path], "x")
    msg = str(e.value)
    assert f"{path}:2" in msg and "broken-7" in msg and "truncated" in msg
    path.write_text(json.dumps({"_id": "nolog", "players": [{"bot": "x"}]}) + "\n")
    with pytest.raises(ValueError, match=r"logs\.jsonl:1: match nolog: .*'log'"):
        duplicate_stats([path], "x")


def test_a_target_that_is_also_an_opponent_does_not_play_itself() -> None:
    s = build_target_schedule("reversi", "opp_greedy", OPP, POOL, 40, seed=0, vs_targets=0.0)
    assert all(m.players.count("opp_greedy") == 1 for m in s)
