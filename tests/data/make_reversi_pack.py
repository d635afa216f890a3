"""Regenerate ``reversi_pack.matches``: a hand-made Botzone-style pack mixing good and bad matches.

Run from the repository root: ``python tests/data/make_reversi_pack.py``. The matches are played
by a deterministic in-file bot (most discs flipped, first in row-major order) and written the way
the platform writes them (24-hex bot ids, ``time``/``memory`` fields, ``display``, some responses
as JSON strings); then single lines are broken on purpose. ``EXPECTED`` below is what
tests/test_import_pack.py checks, line by line.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from ime.core.bot import Bot, DecisionContext
from ime.games.reversi import GAME
from ime.games.reversi.bitboard import PASS, flips, popcount
from ime.matches.judge import run_match

A = "5f1a2b3c4d5e6f708192a3b4"  # the bot we import ("alice")
B = "60aa11bb22cc33dd44ee55ff"  # mapped opponent ("bob")
C = "61c0ffee61c0ffee61c0ffee"  # unmapped opponent
HERE = Path(__file__).parent
PACK = HERE / "reversi_pack.matches"

# line -> (kind or "ok"/"faulted"/"skipped", note)
EXPECTED = {
    1: ("ok", "alice black vs bob"),
    2: ("ok", "bob black vs alice; responses stored as JSON strings"),
    3: ("faulted", "alice vs C; C times out on the platform (a valid log, ended by a fault)"),
    4: ("skipped", "bob vs C: alice does not play"),
    5: ("illegal_move", "alice's move replaced by an occupied square, log goes on"),
    6: ("wrong_pass", "alice passes with a legal move, log goes on"),
    7: ("wrong_score", "finish scores swapped"),
    8: ("truncated", "line cut in the middle"),
    9: ("malformed_json", "not JSON at all"),
    10: ("missing_log", "no 'log'"),
    11: ("wrong_game", "a Snake match naming alice"),
    12: ("duplicate", "line 1 again"),
    13: ("encoding", "GBK bytes in a debug string"),
    14: ("early_finish", "finish after 6 turns"),
    15: ("wrong_game", "a 3-player (FightTheLandlord) match naming alice"),
    16: ("wrong_request", "a judge request that is not the previous move"),
    17: ("ok", "C black vs alice, with the optional top-level 'scores'"),
}


class Greedy(Bot):
    """Most discs flipped, first in square order: deterministic, different games per colour."""

    def __init__(self, bot_id: str, skew: int = 0):
        self.bot_id = bot_id
        self.skew = skew

    def act(self, state, ctx: DecisionContext):
        actions = state.legal_actions()
        if actions == [PASS]:
            return PASS
        P, O = state.own_opp(state.to_move)
        scores = [int(popcount(flips(P, O, a))) for a in actions]
        best = max(scores)
        ties = [a for a, s in zip(actions, scores, strict=True) if s == best]
        return ties[(ctx.ply + self.skew) % len(ties)]


def platform(res, ids, *, strings: bool = False) -> dict:
    """Our judge's log rewritten the way Botzone stores a match."""
    log = []
    for k, e in enumerate(res.log):
        if k % 2 == 0:
            log.append({"memory": 2, "output": e["output"], "time": 1, "verdict": "OK"})
        else:
            pe = {}
            for p, item in e.items():
                item = dict(item)
                if strings and "response" in item:
                    item["response"] = json.dumps(item["response"], separators=(",", ":"))
                pe[p] = {"memory": 3, "time": 11, **item, "debug": ""}
            log.append(pe)
    return {"_id": f"{len(res.log) % 100:02d}" + res.match_id.encode().hex()[:22].ljust(22, "0"),
            "players": [{"type": "bot", "bot": i} for i in ids],
            "initdata": "", "log": log}


def turn_of(doc: dict, seat: int, nth: int) -> int:
    """Log index of ``seat``'s ``nth`` player entry."""
    seen = 0
    for k, e in enumerate(doc["log"]):
        if k % 2 == 1 and str(seat) in e:
            if seen == nth:
                return k
            seen += 1
    raise IndexError(nth)


def main(path: Path = PACK) -> None:
    alice, bob, carl = Greedy("alice"), Greedy("bob", 1), Greedy("carl", 2)
    m1 = platform(run_match(GAME, [alice, bob], match_id="m1"), [A, B])
    m2 = platform(run_match(GAME, [bob, alice], match_id="m2"), [B, A], strings=True)
    full3 = run_match(GAME, [alice, carl], match_id="m3")
    m3 = platform(full3, [A, C])
    k = turn_of(m3, 1, 5)
    m3["log"] = m3["log"][:k] + [
        {"1": {"verdict": "TLE", "time": 6012, "memory": 5}},
        {"memory": 1, "time": 1, "verdict": "OK", "output": {
            "command": "finish", "content": {"0": 2, "1": 0},
            "display": {"err": "INVALID_INPUT_VERDICT_TLE", "winner": 0}}}]
    m4 = platform(run_match(GAME, [bob, carl], match_id="m4"), [B, C])

    m5 = copy.deepcopy(m1)
    m5["_id"] = "5" * 24
    k = turn_of(m5, 0, 4)
    m5["log"][k]["0"]["response"] = {"x": 3, "y": 3}  # a starting square: always occupied

    m6 = copy.deepcopy(m1)
    m6["_id"] = "6" * 24
    k = turn_of(m6, 0, 3)
    m6["log"][k]["0"]["response"] = {"x": -1, "y": -1}

    m7 = copy.deepcopy(m1)
    m7["_id"] = "7" * 24
    fin = m7["log"][-1]["output"]["content"]
    fin["0"], fin["1"] = fin["1"], fin["0"]
    if fin["0"] == fin["1"]:
        fin["0"], fin["1"] = 2, 0

    line8 = json.dumps(dict(m1, _id="8" * 24), separators=(",", ":"))
    line8 = line8[: len(line8) // 2]
    line9 = "this is not JSON {]"
    m10 = {k2: v for k2, v in m1.items() if k2 != "log"}
    m10["_id"] = "a" * 24
    m11 = {"_id": "b" * 24, "players": [{"type": "bot", "bot": A}, {"type": "bot", "bot": C}],
           "initdata": {"width": 11, "height": 12, "0": {"x": 1, "y": 1},
                        "1": {"x": 12, "y": 11}, "obstacle": []},
           "log": [{"output": {"command": "request", "content": {
                        "0": {"x": 1, "y": 1, "width": 11, "height": 12, "obstacle": []},
                        "1": {"x": 12, "y": 11, "width": 11, "height": 12, "obstacle": []}},
                    "display": ""}},
                   {"0": {"verdict": "OK", "response": {"direction": 1}},
                    "1": {"verdict": "OK", "response": {"direction": 3}}},
                   {"output": {"command": "request", "content": {
                       "0": {"direction": 3}, "1": {"direction": 1}}, "display": ""}},
                   {"0": {"verdict": "OK", "response": {"direction": 2}},
                    "1": {"verdict": "OK", "response": {"direction": 0}}},
                   {"output": {"command": "finish", "content": {"0": 1, "1": 1}}}]}
    m13 = copy.deepcopy(m2)
    m13["_id"] = "d" * 24
    m13["log"][1]["0"]["debug"] = "@@GBK@@"
    line13 = json.dumps(m13, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    line13 = line13.replace(b"@@GBK@@", "黑棋先手".encode("gbk"))
    m14 = copy.deepcopy(m1)
    m14["_id"] = "e" * 24
    m14["log"] = m14["log"][:12] + [{"output": {"command": "finish",
                                                "content": {"0": 2, "1": 0}}}]
    m15 = {"_id": "f" * 24, "players": [{"type": "bot", "bot": A}, {"type": "bot", "bot": B},
                                        {"type": "bot", "bot": C}],
           "initdata": {"seed": "1"},
           "log": [{"output": {"command": "finish", "content": {"0": 2, "1": 0, "2": 0}}}]}
    m16 = copy.deepcopy(m1)
    m16["_id"] = "1" * 23 + "6"
    m16["log"][6]["output"]["content"] = {"0": {"x": 0, "y": 0}}
    m17 = platform(run_match(GAME, [carl, alice], match_id="m17"), [C, A])
    m17["scores"] = [m17["log"][-1]["output"]["content"][p] for p in ("0", "1")]

    def dump(d: dict) -> bytes:
        return json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    lines = [dump(m1), dump(m2), dump(m3), dump(m4), dump(m5), dump(m6), dump(m7),
             line8.encode(), line9.encode(), dump(m10), dump(m11), dump(m1), line13, dump(m14),
             dump(m15), dump(m16), dump(m17)]
    assert len(lines) == len(EXPECTED)
    path.write_bytes(b"\n".join(lines) + b"\n")
    print(f"wrote {path} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
