"""Reversi's Botzone codec against the official judge (``Reversi.cpp`` + jsoncpp) and Botzone's
simple-interaction ``transform_code`` (JavaScript): issue 12, item 6.

The three cases where we used to differ from the judge go through the whole path: a real bot
program (``tests/programs/raw_bot.py``) prints the answer, the external-bot adapter reads it, our
judge rules on it, and the match goes on (or ends) as the platform's would.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ime.bots.external import ExternalBot, ExternalSpec
from ime.core.bot import Bot
from ime.core.game import IllegalMoveError
from ime.core.registry import get_plugin
from ime.games.reversi import GAME
from ime.games.reversi.bitboard import PASS
from ime.games.reversi.codec import decode_response, jsoncpp_int, jsoncpp_loads
from ime.matches.judge import run_match
from ime.matches.logs import read_matches, write_matches

PROGRAMS = Path(__file__).resolve().parents[2] / "programs"
CODEC = get_plugin("reversi").simple_codec
BAD_INPUT = "INVALID_INPUT_VERDICT_OK"


class FirstLegal(Bot):
    """Opponent: the first legal square (deterministic)."""

    bot_id = "first"

    def act(self, state, ctx):
        return state.legal_actions()[0]


class Raw(Bot):
    """Answers its first turn with a fixed raw response, then the first legal square."""

    def __init__(self, raw):
        self.raw = raw
        self.bot_id = "raw"

    def respond(self, state, ctx):
        if len(ctx.requests) == 1:
            return self.raw
        return state.encode_response(ctx.player, state.legal_actions()[0])

    def act(self, state, ctx):  # pragma: no cover - respond() is used
        raise AssertionError


def raw_program(raw: str, simple: bool = False) -> ExternalBot:
    """``raw_bot.py``: its first answer is ``raw`` exactly as printed."""
    spec = ExternalSpec.from_params("raw_prog", {
        "command": [sys.executable, "-S", str(PROGRAMS / "raw_bot.py"), raw,
                    *(["--simple"] if simple else [])],
        "protocol": "simple" if simple else "json", "time_limit": 20,
        "env": {"PYTHONIOENCODING": "utf-8"}})
    return ExternalBot(spec, game="reversi")


def _replays(res, tmp_path) -> bool:
    """The log reads back through our judge, move for move."""
    path = tmp_path / "m.jsonl"
    write_matches(path, [res])
    back = read_matches(path, GAME).accepted
    return len(back) == 1 and back[0].to_json()["log"] == res.to_json()["log"]


# --- item 6, through the judge, with real programs -----------------------------------------------
def test_whole_number_float_is_a_legal_move(tmp_path):
    bot = raw_program('{"response": {"x": 2.0, "y": 3.0}}')
    try:
        res = run_match(GAME, [bot, FirstLegal()], match_id="float", seed=0)
    finally:
        bot.close()
    assert res.log[1]["0"] == {"verdict": "OK", "response": {"x": 2.0, "y": 3.0}}
    assert res.log[2]["output"]["content"] == {"1": {"x": 2, "y": 3}}  # the judge's ints
    assert res.fault is None and res.final_state.is_terminal()
    assert _replays(res, tmp_path)


def test_int_beyond_32_bits_is_invalid_input_not_invalid_move(tmp_path):
    bot = raw_program('{"response": {"x": 4294967298, "y": 3}}')
    try:
        res = run_match(GAME, [bot, FirstLegal()], match_id="big", seed=0)
    finally:
        bot.close()
    assert res.log[1]["0"] == {"verdict": "OK", "response": {"x": 4294967298, "y": 3}}
    assert (res.fault.player, res.fault.verdict, res.fault.reason) == (0, "OK", BAD_INPUT)
    assert res.scores == [0.0, 2.0]
    assert res.log[-1]["output"]["display"] == {"err": BAD_INPUT, "winner": 1}
    assert _replays(res, tmp_path)


@pytest.mark.parametrize("line", ["0x3 2", "\u00a03 2", "0X3 +2", "\ufeff3 2abc"],
                         ids=["hex", "nbsp", "hex-plus", "bom-trailing"])
@pytest.mark.slow
def test_simple_mode_numbers_are_read_like_javascript_parseint(tmp_path, line):
    bot = raw_program(line, simple=True)
    try:
        res = run_match(GAME, [bot, FirstLegal()], match_id="js", seed=0)
    finally:
        bot.close()
    assert res.log[1]["0"] == {"verdict": "OK", "response": {"x": 3, "y": 2}}
    assert res.log[2]["output"]["content"] == {"1": {"x": 3, "y": 2}}
    assert res.fault is None and res.final_state.is_terminal()
    assert _replays(res, tmp_path)


# --- edge cases through the judge ----------------------------------------------------------------
LEGAL_FIRST = 3 * 8 + 2  # (x=2, y=3), one of black's four first moves


EDGES = [
    ({"x": 2.5, "y": 3}, BAD_INPUT),                 # not integral
    ({"x": True, "y": 3}, BAD_INPUT),                # a bool is not isInt()
    ({"x": 2, "y": None}, BAD_INPUT),
    ({"x": 2}, BAD_INPUT),                           # missing key: null
    ({"x": -1}, BAD_INPUT),                          # even a pass needs an int y
    ({"x": "2", "y": 3}, BAD_INPUT),
    ({"x": 2 ** 31, "y": 3}, BAD_INPUT),             # just beyond int32
    ({"x": 2147483648.0, "y": 3}, BAD_INPUT),
    ({"x": float("inf"), "y": 3}, BAD_INPUT),
    ([2, 3], BAD_INPUT),                             # not an object
    ('{"x":NaN,"y":3}', BAD_INPUT),                  # jsoncpp has no NaN literal
    ("[" * 100_000, BAD_INPUT),                      # nested too deep: rejected, no crash
    ("", BAD_INPUT),
    ({"x": 8, "y": 3}, "INVALID_MOVE"),              # an int off the board
    ({"x": 2, "y": 8}, "INVALID_MOVE"),
    ({"x": -2, "y": 3}, "INVALID_MOVE"),
    ({"x": 2 ** 31 - 1, "y": 3}, "INVALID_MOVE"),    # int32 max: isInt(), then off the board
    ({"x": -(2 ** 31), "y": 3}, "INVALID_MOVE"),
    ({"x": 3, "y": 3}, "INVALID_MOVE"),              # occupied
    ({"x": -1, "y": 99}, "HE_THOUGHT_THAT_HE_COULDNOT_MOVE_BUT_IN_FACT_HE_CAN"),  # a pass
]


@pytest.mark.parametrize("raw, reason", EDGES, ids=[repr(r)[:24] for r, _ in EDGES])
def test_judge_edge_cases(raw, reason):
    res = run_match(GAME, [Raw(raw), FirstLegal()], match_id="edge", seed=0)
    assert (res.fault.player, res.fault.verdict, res.fault.reason) == (0, "OK", reason)
    assert res.scores == [0.0, 2.0]


@pytest.mark.parametrize("raw", [
    {"x": 2, "y": 3}, {"x": 2.0, "y": 3.0}, {"x": 20e-1, "y": 3, "extra": [1]},
    '{"x":2,"y":3}', ' \r\n\t{"x":2.0,"y":3}', '{"x":2,"y":3} trailing text',
    '{"x":2,"y":3,"note":"raw\ttab"}',
])
def test_judge_accepts_what_jsoncpp_reads_as_the_move(raw):
    res = run_match(GAME, [Raw(raw), FirstLegal()], match_id="ok", seed=0)
    assert res.fault is None
    assert res.log[2]["output"]["content"] == {"1": {"x": 2, "y": 3}}
    assert res.final_state.history[0] == LEGAL_FIRST


def test_x_minus_one_is_a_pass_whatever_y_is():
    rng = random.Random(0)
    while True:  # random games until someone must pass
        st = GAME.new_initial_state()
        while not st.is_terminal() and st.legal_actions() != [PASS]:
            st.apply_action(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            break
    p = st.current_players()[0]
    for y in (-1, 0, 7, 99, -(2 ** 31)):
        assert st.decode_response(p, {"x": -1, "y": y}) == PASS
    st.apply_action(st.decode_response(p, {"x": -1.0, "y": 123456}))
    assert st.current_players() != [p] or st.is_terminal()


# --- the pieces ----------------------------------------------------------------------------------
@pytest.mark.parametrize("v, out", [
    (3, 3), (-1, -1), (2.0, 2), (-0.0, 0), (2 ** 31 - 1, 2 ** 31 - 1), (-(2 ** 31), -(2 ** 31)),
    (2147483647.0, 2147483647), (2 ** 31, None), (-(2 ** 31) - 1, None), (2.5, None),
    (True, None), (False, None), (None, None), ("3", None), (float("nan"), None), ([3], None),
])
def test_jsoncpp_int_is_isint_then_asint(v, out):
    got = jsoncpp_int(v)
    assert got == out and (got is None or type(got) is int)


def test_jsoncpp_loads_reads_the_first_value_only():
    assert jsoncpp_loads('  {"x": 1} {"y": 2}') == {"x": 1}
    assert jsoncpp_loads("7 and more") == 7
    for bad in ("", "   ", "NaN", "-Infinity", "{'x': 1}", "[" * 50_000):
        with pytest.raises(ValueError):
            jsoncpp_loads(bad)


def test_decode_response_raises_the_judges_reason():
    with pytest.raises(IllegalMoveError) as e:
        decode_response(1, {"x": 4294967298, "y": 3})
    assert (e.value.player, e.value.reason) == (1, BAD_INPUT)
    assert decode_response(0, '{"x":7.0,"y":7}') == 63


def test_simple_codec_lines():
    assert CODEC.line_to_response("2 3") == {"x": 2, "y": 3}
    assert CODEC.line_to_response("-1 -1\r") == {"x": -1, "y": -1}
    assert CODEC.line_to_response(" 2 3") == {"x": None, "y": 2}  # JS split(' ') keeps ""
    assert CODEC.line_to_response("4x 5") == {"x": 4, "y": 5}  # parseInt stops at a non-digit
    assert CODEC.line_to_response("0x 5") == {"x": None, "y": 5}  # "0x" alone is NaN
    assert CODEC.line_to_response("-0x1 9") == {"x": -1, "y": 9}  # a pass, sign before "0x"
    assert CODEC.line_to_response("\u180e3 2") == {"x": None, "y": 2}  # not JS whitespace
    assert CODEC.line_to_response("") == {"x": None}  # JSON.stringify drops an undefined y
    assert CODEC.line_to_response("9" * 500 + " 1") == {"x": None, "y": 1}  # Infinity: null
    assert CODEC.request_to_line({"x": -1, "y": -1}) == "-1 -1"
    assert CODEC.response_to_line('{"x":2,"y":3}') == "2 3"
    # JavaScript string conversion of what a log may hold
    assert CODEC.response_to_line({"x": 2.0, "y": 3.0}) == "2 3"
    assert CODEC.response_to_line({"x": None}) == "null undefined"


# --- differential: Botzone's own transform_code, run by Node.js ----------------------------------
RESPONSE_TO_JSON = ("var parts = response.split(' ').map(function (x) { return parseInt(x) });\n"
                    "return {x:parts[0],y:parts[1]};")
RESPONSE_FROM_JSON = "return response.x+' '+response.y;"
"""Botzone's Reversi ``transform_code`` (botzone-local ``botzone/online/games.py``)."""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_simple_codec_agrees_with_botzones_transform_code():
    rng = random.Random(12)
    alphabet = ["0", "1", "3", "7", "9", "x", "X", "a", "f", "-", "+", " ", " ", "\u00a0",
                "\ufeff", "\t", "\u2028", "\u3000", "\u180e", "\u200b", ".", "e", "0x", "00"]
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
             for _ in range(2000)]
    lines += ["9" * 17 + " 1", "9" * 400 + " 2", "0x" + "f" * 20 + " 3", "-0 -0"]
    objects = [{"x": rng.choice([2, -1, 2.0, 2.5, 1e21, 1e-7, None, True, "s", 2 ** 60]),
                "y": rng.choice([3, 3.0, None, False, 123456789.125])} for _ in range(300)]
    objects += [{"x": 1}, {}, {"x": [1, None, 2.5], "y": {"a": 1}}]
    script = f"""
        const inp = JSON.parse(require('fs').readFileSync(0, 'utf8'));
        const toJson = function (response) {{ {RESPONSE_TO_JSON} }};
        const fromJson = function (response) {{ {RESPONSE_FROM_JSON} }};
        console.log(JSON.stringify({{
            parsed: inp.lines.map(l => JSON.stringify(toJson(l))),
            lines: inp.objects.map(fromJson)}}));
    """
    payload = json.dumps({"lines": lines, "objects": objects})
    out = json.loads(subprocess.run(["node", "-e", script], input=payload, capture_output=True,
                                    text=True, check=True, timeout=60).stdout)
    for line, js in zip(lines, out["parsed"], strict=True):
        ours = CODEC.line_to_response(line)
        assert json.loads(json.dumps(ours)) == json.loads(js), repr(line)
    for obj, js in zip(objects, out["lines"], strict=True):
        assert CODEC.response_to_line(obj) == js, obj
