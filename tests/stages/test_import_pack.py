"""Importing a Botzone match pack: exact accepted / rejected counts and reasons, both modes, CLI.

The pack (tests/data/reversi_pack.matches) is hand-made by tests/data/make_reversi_pack.py, whose
``EXPECTED`` says what each line is; the first test checks the checked-in file is what that script
makes, so the two cannot drift apart.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

import pytest

from ime.games.reversi import GAME
from ime.matches.import_pack import import_pack, load_map_file, parse_map, resolve_bot
from ime.matches.logs import LogFormatError, read_matches

DATA = Path(__file__).resolve().parents[1] / "data"
PACK = DATA / "reversi_pack.matches"
A, B, C = "5f1a2b3c4d5e6f708192a3b4", "60aa11bb22cc33dd44ee55ff", "61c0ffee61c0ffee61c0ffee"
NAMES = {A: "alice", B: "bob"}


def _maker():
    spec = importlib.util.spec_from_file_location("make_reversi_pack",
                                                  DATA / "make_reversi_pack.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MAKER = _maker()
EXPECTED = MAKER.EXPECTED


def test_pack_is_what_the_generator_makes(tmp_path):
    MAKER.main(tmp_path / "p.matches")
    assert (tmp_path / "p.matches").read_bytes() == PACK.read_bytes()


def test_lenient_import_counts_and_reasons(tmp_path):
    out, rej = tmp_path / "alice.jsonl", tmp_path / "alice.rejects.jsonl"
    rep = import_pack(PACK, GAME, "alice", names=NAMES, mode="lenient", out=out, rejects=rej)
    want_rejects = {line: kind for line, (kind, _) in EXPECTED.items()
                    if kind not in ("ok", "faulted", "skipped")}
    assert {b.line: b.kind for b in rep.rejected} == want_rejects
    c = rep.counts()
    assert (c["lines"], c["selected"], c["skipped_other_bots"]) == (17, 13, 1)
    assert (c["accepted"], c["accepted_faulted"], c["rejected"]) == (4, 1, 12)
    assert c["rejected_by_kind"]["wrong_game"] == 2 and sum(c["rejected_by_kind"].values()) == 12
    assert c["lines"] == c["skipped_other_bots"] + c["accepted"] + c["rejected"]
    assert c["seats"] == {"0": 2, "1": 2}
    reasons = {b.line: b.reason for b in rep.rejected}
    assert "INVALID_MOVE" in reasons[5] and "{\"x\":3,\"y\":3}" in reasons[5]
    assert "HE_THOUGHT_THAT_HE_COULDNOT_MOVE_BUT_IN_FACT_HE_CAN" in reasons[6]
    assert "contradict the rules" in reasons[7]
    assert "truncated" in reasons[8]
    assert "GBK" in reasons[13]
    assert "another game" in reasons[11] and "another game" in reasons[15]
    assert "not over" in reasons[14]
    assert "first at line 1" in reasons[12]
    # the rejects file: every reject, with where and why
    rows = [json.loads(x) for x in rej.read_text().splitlines()]
    assert [(r["line"], r["kind"]) for r in rows] == sorted(want_rejects.items())
    assert all(r["file"] == str(PACK) and r["reason"] for r in rows)
    assert {r["match_id"] for r in rows if r["line"] == 5} == {"5" * 24}
    # the accepted matches are our JSON lines, with mapped names, and replay strictly
    docs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [d["platform"]["line"] for d in docs] == [1, 2, 3, 17]
    assert [[p["bot"] for p in d["players"]] for d in docs] == [
        ["alice", "bob"], ["bob", "alice"], ["alice", C], [C, "alice"]]
    assert docs[2]["fault"]["verdict"] == "TLE" and docs[2]["platform"]["players"] == [A, C]
    back = read_matches(out, GAME)
    assert len(back.accepted) == 4
    assert len(read_matches(out, GAME, mode="lenient", keep_faulted=False).accepted) == 3


def test_strict_import_fails_naming_the_first_bad_lines(tmp_path):
    out, rej = tmp_path / "alice.jsonl", tmp_path / "rej.jsonl"
    with pytest.raises(LogFormatError) as e:
        import_pack(PACK, GAME, A, names=NAMES, out=out, rejects=rej)
    msg = str(e.value)
    assert "12 of 17 matches are bad" in msg
    assert f"{PACK}:5: match {'5' * 24}: rejected by the judge" in msg
    assert f"{PACK}:8: match ?: truncated line" not in msg  # the id is sniffed from the text
    assert f"{PACK}:8: match {'8' * 24}: truncated line" in msg
    assert "... and 7 more" in msg
    assert not out.exists()  # strict writes no partial import
    assert len(rej.read_text().splitlines()) == 12


def test_only_the_good_part_passes_strict(tmp_path):
    good = tmp_path / "good.matches"
    lines = PACK.read_bytes().split(b"\n")
    good.write_bytes(b"\n".join(lines[i - 1] for i in (1, 2, 3, 4, 17)) + b"\n")
    rep = import_pack(good, GAME, "bob", names=NAMES, out=tmp_path / "bob.jsonl")
    assert rep.counts()["accepted"] == 3 and rep.skipped == 2  # bob is not in lines 3 and 17
    assert rep.seats == {0: 2, 1: 1}
    rep = import_pack(good, GAME, C, names=NAMES, out=tmp_path / "c.jsonl")
    assert rep.name == C and rep.counts()["accepted"] == 3


def test_drop_faulted(tmp_path):
    rep = import_pack(PACK, GAME, "alice", names=NAMES, mode="lenient", keep_faulted=False)
    assert rep.counts()["accepted"] == 3
    assert {b.line: b.kind for b in rep.rejected}[3] == "faulted"


def test_bot_and_map_resolution(tmp_path):
    assert resolve_bot("alice", NAMES) == (A, "alice")
    assert resolve_bot(A.upper(), NAMES) == (A, "alice")
    assert resolve_bot(C, NAMES) == (C, C)
    with pytest.raises(ValueError, match="neither"):
        resolve_bot("carol", NAMES)
    with pytest.raises(ValueError, match="several"):
        resolve_bot("x", {A: "x", B: "x"})
    assert parse_map([f"{A}=alice", f" {B.upper()} = bob "]) == NAMES
    for bad in ["alice", f"{A}=", "123=x", f"{A}=a"]:
        with pytest.raises(ValueError):
            parse_map([f"{A}=alice", bad])
    f = tmp_path / "ids.yaml"
    f.write_text(f"{A}: alice\n'{B}': bob\n")
    assert load_map_file(f) == NAMES


def _cli(argv: list[str]) -> int:
    from ime.cli import import_pack as cmd

    parser = argparse.ArgumentParser(prog="ime")
    cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_lenient_writes_matches_rejects_and_counts(tmp_path, capsys):
    out = tmp_path / "alice.jsonl"
    rc = _cli(["import-pack", "reversi", str(PACK), "--bot", A, "--map", f"{A}=alice",
               "--map", f"{B}=bob", "--mode", "lenient", "--out", str(out)])
    assert rc == 0
    err = capsys.readouterr().err
    assert "accepted 4 (1 ended by a fault), rejected 12" in err and "wrong_game: 2" in err
    assert len(out.read_text().splitlines()) == 4
    assert len((tmp_path / "import" / "alice.rejects.jsonl").read_text().splitlines()) == 12
    counts = json.loads((tmp_path / "import" / "alice.report.json").read_text())
    assert counts["accepted"] == 4 and counts["skipped_other_bots"] == 1


def test_cli_strict_fails_and_writes_no_matches(tmp_path, capsys):
    out = tmp_path / "alice.jsonl"
    mapfile = tmp_path / "ids.yaml"
    mapfile.write_text(f"'{A}': alice\n")
    rc = _cli(["import-pack", "reversi", str(PACK), "--bot", "alice", "--map-file",
               str(mapfile), "--out", str(out)])
    assert rc == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "12 of 17 matches are bad" in err and "--mode lenient" in err


def test_cli_bot_not_in_pack(tmp_path, capsys):
    rc = _cli(["import-pack", "reversi", str(PACK), "--bot", "ab" * 12, "--mode", "lenient",
               "--out", str(tmp_path / "x.jsonl")])
    assert rc == 1 and "plays in none" in capsys.readouterr().err
