"""``ime verify`` on the files of an IME tree (issue 13, Deliver 4, faults 4, 5 and 11): logs
must replay through the judge, models load, Parquet files pass their checksums and invariants.
Every bad file is printed with its reason; the exit status is 1 if there is any. Fails on the
old package: there is no ``ime verify``.
"""

from __future__ import annotations

import json

import pytest
from reliability_helpers import ime, ime_verify, write_decisions


@pytest.mark.slow
def test_verify_reports_each_bad_file_with_its_reason(tmp_path):
    logs = tmp_path / "data" / "reversi" / "logs" / "tiny" / "rev1"
    logs.mkdir(parents=True)
    good_log, bad_log = logs / "shard000.jsonl", logs / "shard001.jsonl"
    run = ime("play", "reversi", "--black", "opp_greedy", "--white", "opp_random", "--games",
              "2", "--workers", "1", "--out", str(good_log), "--no-progress")
    assert run.returncode == 0, run.stderr
    lines = good_log.read_text().splitlines()
    match = json.loads(lines[1])
    entry = match["log"][1]["0"]  # black's first move: to a square that is not legal
    entry["response"] = {"x": 0, "y": 0}
    bad_log.write_text(lines[0] + "\n" + json.dumps(match) + "\n")
    models = tmp_path / "data" / "reversi" / "models" / "tiny" / "conv" / "rev1"
    models.mkdir(parents=True)
    (models / "fold0.pt").write_bytes(b"not a checkpoint")
    (models / "fold0.json").write_text('{"val_acc": 0.5')
    parts = tmp_path / "data" / "reversi" / "decisions" / "tiny" / "strict" / "rev1"
    parts.mkdir(parents=True)
    write_decisions(parts / "shard000.parquet")
    broken = write_decisions(parts / "shard001.parquet")
    blob = bytearray(broken.read_bytes())
    blob[len(blob) // 3] ^= 0x40
    broken.write_bytes(bytes(blob))
    results = tmp_path / "results" / "reversi" / "tiny"
    results.mkdir(parents=True)
    (results / "table4_2.csv").write_text("bot,pairs,baseline\nrev1,393,16.67\nrev2,36")

    run = ime_verify(cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    bad = {line.split()[1].rstrip(":"): line for line in run.stdout.splitlines()
           if line.startswith("BAD")}
    rel = "data/reversi/"
    assert set(bad) == {f"{rel}logs/tiny/rev1/shard001.jsonl", f"{rel}models/tiny/conv/rev1/"
                        "fold0.pt", f"{rel}models/tiny/conv/rev1/fold0.json",
                        f"{rel}decisions/tiny/strict/rev1/shard001.parquet",
                        "results/reversi/tiny/table4_2.csv"}, run.stdout
    assert "1 of 2 matches do not replay through the judge (illegal_move: 1)" in bad[
        f"{rel}logs/tiny/rev1/shard001.jsonl"]
    assert "the checkpoint does not load" in bad[f"{rel}models/tiny/conv/rev1/fold0.pt"]
    assert "not valid JSON" in bad[f"{rel}models/tiny/conv/rev1/fold0.json"]
    assert "line 3 has 2 fields, the header 3" in bad["results/reversi/tiny/table4_2.csv"]
    assert "no Snakemake records found" in run.stderr
    assert "5 bad" in run.stderr
