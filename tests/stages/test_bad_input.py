"""Bad input wherever logs are read: every problem named (file, line, match id), nothing dropped.

strict fails on the first problems with their count; lenient quarantines them with a reason and a
kind and goes on; ``total == accepted + rejected`` always.
"""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest

from ime.core.bot import Bot, DecisionContext
from ime.games.reversi import GAME
from ime.matches.judge import run_match
from ime.matches.logs import (
    LogFormatError,
    ReplayError,
    iter_raw_matches,
    read_matches,
    replay_match,
)


class FirstLegal(Bot):
    def __init__(self, bot_id: str):
        self.bot_id = bot_id

    def act(self, state, ctx: DecisionContext):
        acts = state.legal_actions()
        return acts[(ctx.ply * 7) % len(acts)]


def good(mid: str = "g1", players=("a", "b")) -> dict:
    return run_match(GAME, [FirstLegal(players[0]), FirstLegal(players[1])],
                     match_id=mid).to_json()


def line(d: dict) -> str:
    return json.dumps(d, separators=(",", ":"))


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(content.encode() if isinstance(content, str) else content)
    return p


def lenient(p: Path, **kw):
    rep = read_matches(p, GAME, mode="lenient", **kw)
    assert rep.total == len(rep.accepted) + len(rep.rejected)
    return rep


def kinds(rep) -> list[tuple[int, str]]:
    return [(b.line, b.kind) for b in rep.rejected]


# --- one problem at a time -----------------------------------------------------------------------
def test_malformed_json(tmp_path):
    p = write(tmp_path, "m.jsonl", line(good()) + "\n{'_id': 'x', oops}\n" + line(good("g2")))
    rep = lenient(p)
    assert kinds(rep) == [(2, "malformed_json")] and len(rep.accepted) == 2
    with pytest.raises(LogFormatError, match=r"m.jsonl:2: match \?: malformed JSON"):
        read_matches(p, GAME)


def test_truncated_lines_mid_file_and_at_the_end(tmp_path):
    g = line(good())
    p = write(tmp_path, "t.jsonl", g[:500] + "\n" + line(good("g2")) + "\n" + g[:-40])
    rep = lenient(p)
    assert kinds(rep) == [(1, "truncated"), (3, "truncated")]
    assert rep.rejected[0].match_id == "g1"  # sniffed from the cut text
    assert "stops after 500 characters" in rep.rejected[0].reason


def test_missing_log_and_broken_structure(tmp_path):
    g = good()
    no_log = {k: v for k, v in g.items() if k != "log"}
    empty_log = dict(g, _id="e", log=[])
    not_list = dict(g, _id="n", players={"0": "a"})
    bad_entry = dict(g, _id="b", log=[g["log"][0], "oops", g["log"][-1]])
    no_finish = dict(g, _id="f", log=g["log"][:-1])
    no_score = json.loads(json.dumps(g))
    no_score["_id"] = "s"
    no_score["log"][-1]["output"]["content"] = {"0": 2}
    array = [1, 2, 3]
    text = "\n".join(line(x) if isinstance(x, dict) else json.dumps(x)
                     for x in (no_log, empty_log, not_list, bad_entry, no_finish, no_score,
                               array))
    rep = lenient(write(tmp_path, "s.jsonl", text))
    assert kinds(rep) == [(1, "missing_log"), (2, "missing_log"), (3, "structure"),
                          (4, "structure"), (5, "truncated"), (6, "structure"),
                          (7, "structure")]
    assert "missing 'log'" in rep.rejected[0].reason
    assert "finish" in rep.rejected[4].reason


def test_unknown_players(tmp_path):
    p = write(tmp_path, "u.jsonl", line(good()) + "\n" + line(good("g2", ("a", "zed"))))
    rep = lenient(p, known_players={"a", "b"})
    assert kinds(rep) == [(2, "unknown_player")] and "'zed'" in rep.rejected[0].reason
    with pytest.raises(LogFormatError, match=r"u.jsonl:2: match g2: unknown player"):
        read_matches(p, GAME, known_players={"a", "b"})


def test_wrong_game(tmp_path):
    tagged = dict(good(), _id="t", game="snake")
    three = dict(good(), _id="3", players=[{"bot": "a"}, {"bot": "b"}, {"bot": "c"}])
    snake = {"_id": "sn", "players": [{"bot": "a"}, {"bot": "b"}], "initdata": "",
             "log": [{"output": {"command": "request", "content": {
                 "0": {"x": 1, "y": 1, "width": 11, "height": 12, "obstacle": []},
                 "1": {"x": 12, "y": 11, "width": 11, "height": 12, "obstacle": []}}}},
                 {"0": {"verdict": "OK", "response": {"direction": 1}},
                  "1": {"verdict": "OK", "response": {"direction": 3}}},
                 {"output": {"command": "request", "content": {"0": {"direction": 3},
                                                               "1": {"direction": 1}}}},
                 {"0": {"verdict": "OK", "response": {"direction": 1}},
                  "1": {"verdict": "OK", "response": {"direction": 3}}},
                 {"output": {"command": "finish", "content": {"0": 1, "1": 1}}}]}
    by_id = dict(good(), _id="id", game=GAME.botzone_game_id)  # the platform's id is fine
    p = write(tmp_path, "w.jsonl", "\n".join(line(x) for x in (tagged, three, snake, by_id)))
    rep = lenient(p)
    assert kinds(rep) == [(1, "wrong_game"), (2, "wrong_game"), (3, "wrong_game")]
    assert [m.match_id for m in rep.accepted] == ["id"]


def test_empty_and_blank_files(tmp_path):
    for content in ("", "\n\n  \n"):
        p = write(tmp_path, "e.jsonl", content)
        rep = lenient(p)
        assert kinds(rep) == [(0, "empty_file")]
        with pytest.raises(LogFormatError, match="empty file"):
            read_matches(p, GAME)


def test_missing_file_names_it(tmp_path):
    with pytest.raises(LogFormatError, match="nope.jsonl.*cannot read"):
        read_matches(tmp_path / "nope.jsonl", GAME, mode="lenient")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files(tmp_path, encoding):
    text = line(good()) + "\n" + line(good("g2")) + "\n"
    bom = b"\xfe\xff" if encoding == "utf-16-be" else b""  # Python adds the others' BOM
    p = write(tmp_path, "x.jsonl", bom + text.encode(encoding))
    rep = lenient(p)
    assert kinds(rep) == [(0, "encoding")] and "not UTF-8" in rep.rejected[0].reason
    with pytest.raises(LogFormatError, match="x.jsonl:0: match \\?: file is UTF-"):
        read_matches(p, GAME)


def test_utf16_without_bom(tmp_path):
    p = write(tmp_path, "x.jsonl", (line(good()) + "\n").encode("utf-16-le"))
    assert kinds(lenient(p)) == [(0, "encoding")]


def test_gbk_line(tmp_path):
    g = good()
    g["log"][1]["0"]["debug"] = "@@"
    raw = line(g).encode().replace(b"@@", "调试信息".encode("gbk"))
    p = write(tmp_path, "gbk.jsonl", raw + b"\n" + line(good("g2")).encode())
    rep = lenient(p)
    assert kinds(rep) == [(1, "encoding")]
    assert rep.rejected[0].match_id == "g1" and "GBK" in rep.rejected[0].reason
    assert [m.match_id for m in rep.accepted] == ["g2"]


def test_utf8_bom_crlf_and_gzip_are_read(tmp_path):
    text = line(good()) + "\r\n" + line(good("g2")) + "\r\n"
    p = write(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + text.encode())
    assert len(read_matches(p, GAME).accepted) == 2
    gz = write(tmp_path, "m.jsonl.gz", gzip.compress(text.encode()))
    assert len(read_matches(gz, GAME).accepted) == 2


def test_zip_archive_is_named(tmp_path):
    z = tmp_path / "pack.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("a.matches", line(good()))
    rep = lenient(z)
    assert kinds(rep) == [(0, "archive")] and "unzip" in rep.rejected[0].reason


def test_rule_breaking_logs_get_precise_kinds(tmp_path):
    g = good()
    cases = {}
    c = json.loads(json.dumps(g))
    c["log"][3]["1"]["response"] = {"x": 3, "y": 3}
    cases["illegal"] = c
    c = json.loads(json.dumps(g))
    c["log"][3]["1"]["response"] = {"x": -1, "y": -1}
    cases["pass"] = c
    c = json.loads(json.dumps(g))
    c["log"][3]["1"]["response"] = "not json"
    cases["garbage"] = c
    c = json.loads(json.dumps(g))
    c["log"] = c["log"][:8] + [c["log"][-1]]
    cases["early"] = c
    c = json.loads(json.dumps(g))
    c["log"] = c["log"][:-1] + c["log"][-3:]
    cases["long"] = c
    c = json.loads(json.dumps(g))
    c["log"][4]["output"]["content"] = {"0": {"x": 7, "y": 7}}
    cases["request"] = c
    c = json.loads(json.dumps(g))
    c["scores"] = [c["scores"][1] + 1, c["scores"][0]]
    cases["topscore"] = c
    want = {"illegal": "illegal_move", "pass": "wrong_pass", "garbage": "bad_response",
            "early": "early_finish", "long": "too_long", "request": "wrong_request",
            "topscore": "wrong_score"}
    for name, doc in cases.items():
        doc["_id"] = name
    p = write(tmp_path, "r.jsonl", "\n".join(line(d) for d in cases.values()))
    rep = lenient(p)
    assert {b.match_id: b.kind for b in rep.rejected} == want
    for name in want:  # replay_match raises the same, as a ValueError with a kind
        raw = next(x for x in iter_raw_matches(p) if x.match_id == name)
        with pytest.raises(ReplayError) as e:
            replay_match(GAME, raw)
        assert e.value.kind == want[name] and isinstance(e.value, ValueError)


def test_weird_shapes_never_crash(tmp_path):
    g = good()
    docs = [
        dict(g, _id="a", log=[{"output": {"command": "request", "content": 5}}, {},
                              g["log"][-1]]),
        dict(g, _id="b", log=[g["log"][0], {"0": "nope"}, g["log"][-1]]),
        dict(g, _id="c", initdata="{not json"),
        dict(g, _id="d", players=[1, 2]),
        dict(g, _id={"$oid": "abc"}),
    ]
    p = write(tmp_path, "weird.jsonl", "\n".join(line(d) for d in docs))
    rep = lenient(p)
    assert len(rep.rejected) == 4 and [m.match_id for m in rep.accepted] == ["abc"]
    assert all(b.reason for b in rep.rejected)


def test_duplicates_are_optional_rejects(tmp_path):
    p = write(tmp_path, "d.jsonl", line(good()) + "\n" + line(good()))
    assert len(read_matches(p, GAME).accepted) == 2  # default: the caller decides
    rep = lenient(p, reject_duplicates=True)
    assert kinds(rep) == [(2, "duplicate")] and "first at line 1" in rep.rejected[0].reason


def test_strict_message_lists_first_problems_and_count(tmp_path):
    bad = [f'{{"_id":"b{i}","log":' for i in range(8)]
    p = write(tmp_path, "many.jsonl", "\n".join([line(good())] + bad))
    with pytest.raises(LogFormatError) as e:
        read_matches(p, GAME)
    msg = str(e.value)
    assert "8 of 9 matches are bad" in msg and "many.jsonl:2: match b0: truncated" in msg
    assert "... and 3 more" in msg and e.value.n_bad == 8


def test_lenient_writes_rejects_and_summary_counts(tmp_path):
    p = write(tmp_path, "mix.jsonl", "\n".join([line(good()), "junk", '{"_id":"x"}',
                                               line(good("g2"))]))
    rej = tmp_path / "rej.jsonl"
    rep = read_matches(p, GAME, mode="lenient", rejects_path=rej)
    rows = [json.loads(x) for x in rej.read_text().splitlines()]
    assert [(r["line"], r["kind"]) for r in rows] == [(2, "malformed_json"), (3, "missing_log")]
    assert rep.summary() == "2 accepted, 2 rejected of 4 (malformed_json: 1, missing_log: 1)"
