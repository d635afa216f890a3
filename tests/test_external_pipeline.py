"""An external program as a pipeline target: matches -> decision parts -> dataset.

The library-level test runs the same functions the Snakemake jobs call (match runner with worker
processes, the decisions extractor, the dataset builder), with the example bot of
``examples/reversi_bot.py`` as the target and a crashing external opponent, so faulted matches
must be counted and kept out of the dataset. The Snakemake test runs the real workflow to the
target's dataset; it needs ``make_bot`` to find the ``external`` kind without an explicit import
(the registry importing plug-in kinds), and is skipped until it does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import ime.bots.external  # noqa: F401  (registers the kind in this process and forked workers)
from ime.bots.registry import load_bot_specs
from ime.datasets.build import build_dataset
from ime.datasets.extract import extract_part
from ime.matches.runner import build_schedule, play_schedule

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "reversi_bot.py"
FAULT_BOT = ROOT / "tests" / "bots" / "fault_bot.py"


def _leftovers(marker: str) -> list[int]:
    """Live processes whose command line mentions ``marker`` (a unique path)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if marker in cmd and state not in ("Z", "X"):
                out.append(int(entry))
    return out


@pytest.fixture
def specs(tmp_path):
    bot = tmp_path / "my_bot.py"  # a unique path, to find leftover processes by command line
    shutil.copy(EXAMPLE, bot)
    s = dict(load_bot_specs("reversi"))
    s["my_ext"] = {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(bot), "--keep-running"], "keep_running": True,
        "time_limit": 20, "keep_running_time_limit": 10}}
    s["crashy"] = {"kind": "external", "params": {
        "command": [sys.executable, "-S", str(FAULT_BOT), "crash", "--after", "3",
                    str(tmp_path)], "time_limit": 20}}
    return s


def test_external_target_gets_a_dataset_and_faults_stay_out(tmp_path, specs):
    sched = build_schedule("reversi", ["my_ext"], ["opp_random", "crashy"],
                           matches_per_target=8, seed=4)
    log = tmp_path / "logs" / "shard0.jsonl"
    n = play_schedule("reversi", sched, specs, log, seed=4, workers=2, progress=False)
    assert n == 8
    docs = [json.loads(x) for x in log.read_text().splitlines()]
    vs_crashy = [d for d in docs if "crashy" in [p["bot"] for p in d["players"]]]
    assert vs_crashy and all(d["fault"]["verdict"] == "RE" for d in vs_crashy)
    assert all("fault" not in d for d in docs if d not in vs_crashy)

    part, rep = tmp_path / "part.parquet", tmp_path / "part.json"
    report = extract_part(log, part, rep, game="reversi", targets=["my_ext"], num_actions=64)
    assert report["faulted_per_bot"]["my_ext"] == len(vs_crashy)
    assert report["matches_per_bot"]["my_ext"] == 8 - len(vs_crashy)
    assert report["decisions_per_bot"]["my_ext"] > 0
    stats = build_dataset([part], [rep], "my_ext", tmp_path / "my_ext.parquet",
                          tmp_path / "my_ext.json", game="reversi")
    assert stats["matches"] == 8 - len(vs_crashy)
    assert stats["faulted_matches_excluded"] == len(vs_crashy)
    assert _leftovers(str(tmp_path)) == []


def _registry_finds_external() -> bool:
    code = ("from ime.bots.registry import make_bot; import sys; "
            "make_bot('reversi', 'x', {'x': {'kind': 'external', 'params': "
            "{'command': [sys.executable, '-c', 'pass']}}})")
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("snakemake") is None, reason="snakemake CLI not installed")
def test_snakemake_builds_a_dataset_for_an_external_target(tmp_path, specs):
    if not _registry_finds_external():
        pytest.skip("ime.bots.registry.make_bot does not import the 'external' kind yet")
    cfg = tmp_path / "config"
    (cfg / "bots").mkdir(parents=True)
    with open(cfg / "bots" / "reversi.yaml", "w") as f:
        yaml.safe_dump({k: v for k, v in specs.items() if k != "crashy"}, f)
    work = tmp_path / "work"
    work.mkdir()
    variant = "tiny__game.targets-my_ext-rev5"
    target = f"data/reversi/datasets/{variant}/my_ext.parquet"
    env = dict(os.environ, IME_CONFIG_DIR=str(cfg))
    res = subprocess.run(
        ["snakemake", "-s", str(ROOT / "Snakefile"), "-j2", "--config",
         'overrides=["scale=tiny","game.targets=[my_ext,rev5]"]', "--", target],
        cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    stats = json.loads((work / target).with_suffix(".json").read_text())
    assert stats["bot"] == "my_ext" and stats["pairs"] > 0
    assert _leftovers(str(tmp_path)) == []
