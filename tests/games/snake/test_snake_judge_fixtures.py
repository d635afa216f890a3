"""Our engine against Botzone's own Snake judge: ``data/judge_fixtures.json`` holds what the
compiled ``Snake.cpp`` output (``make_judge_fixtures.py`` says how it was made).

* every board the judge drew from a seed (and size options) is the board we draw, obstacle by
  obstacle in the judge's order, with the numba kernels and with the plain-Python reference;
* every match, replayed through ``ime.matches``' log reader, gets the judge's request (or
  finish) content on every turn and its final scores and error; faulty answers included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ime.games.snake import GAME
from ime.games.snake import board as B
from ime.games.snake.reference import judge_board as ref_board
from ime.matches.rawlog import RawMatch
from ime.matches.replay import replay_match

FIXTURES = json.loads((Path(__file__).parent / "data" / "judge_fixtures.json").read_text())


def _opt(d: dict, key: str) -> int:
    v = d.get(key)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return v if isinstance(v, int) else B.NO_OPTION


@pytest.mark.parametrize("case", FIXTURES["boards"], ids=lambda c: json.dumps(c["initdata"]))
def test_boards_are_the_judges(case):
    want = case["output"]
    st = GAME.new_initial_state(case["initdata"])
    assert st.initdata() == want["initdata"]
    assert st.request_for(0) == want["content"]["0"]
    assert st.request_for(1) == want["content"]["1"]
    init = case["initdata"] if isinstance(case["initdata"], dict) else json.loads(
        case["initdata"])
    w, h, obs = B.judge_board(init["seed"], _opt(init, "width"), _opt(init, "height"))
    ref = ref_board(init["seed"],
                    *(None if _opt(init, k) == B.NO_OPTION else _opt(init, k)
                      for k in ("width", "height")))
    cells = [(o["x"], o["y"]) for o in want["initdata"]["obstacle"]]
    assert (int(w), int(h), [tuple(map(int, c)) for c in obs]) == ref == (
        want["initdata"]["width"], want["initdata"]["height"], cells)


def _log(m: dict) -> dict:
    log = [{"output": {"command": "request", "content": m["first"], "initdata": m["initdata"]}}]
    for entry, out in zip(m["entries"], m["outputs"], strict=True):
        log.append(entry)
        log.append({"output": out})
    return {"_id": f"judge-{m['seed']}", "players": [{"type": "bot", "bot": "a"},
                                                     {"type": "bot", "bot": "b"}],
            "initdata": json.dumps(m["initdata"]), "log": log}


@pytest.mark.parametrize("m", FIXTURES["matches"], ids=lambda m: f"{m['style']}-{m['seed']}")
def test_matches_replay_as_the_judge_plays_them(m):
    data = _log(m)
    res = replay_match(GAME, RawMatch("fixture", 1, data))  # raises on any disagreement
    final = m["outputs"][-1]
    assert res.scores == [float(final["content"]["0"]), float(final["content"]["1"])]
    assert len(res.log) == len(data["log"])
    for k in range(0, len(data["log"]), 2):
        assert res.log[k]["output"]["command"] == data["log"][k]["output"]["command"]
        assert res.log[k]["output"]["content"] == data["log"][k]["output"]["content"]
    shown = res.final_state.display()
    assert shown.get("err") == final["display"].get("err") or (
        final["display"].get("err", "").startswith("INVALID_INPUT_VERDICT_")
        and shown.get("err", "").startswith("INVALID_INPUT_VERDICT_"))
    assert shown.get("winner") == final["display"].get("winner")
    assert shown["grow"] == final["display"]["grow"]


def test_fixtures_cover_every_ending():
    ends = {json.dumps(m["outputs"][-1]["content"], sort_keys=True) for m in FIXTURES["matches"]}
    errs = {m["outputs"][-1]["display"].get("err") for m in FIXTURES["matches"]}
    assert ends == {'{"0": 0, "1": 2}', '{"0": 2, "1": 0}', '{"0": 1, "1": 1}'}
    assert {"INVALIDMOVE", "BothSnakeDie", "INVALID_INPUT_VERDICT_OK"} <= errs
    assert max(len(m["entries"]) for m in FIXTURES["matches"]) > 40  # tails removed
