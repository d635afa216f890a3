"""A no-op rerun's setup imports no game engine, no numba and no torch (issue 31).

``snakemake`` sets up every game's plan on every call, a no-op rerun included. Once the
composition cache and the plug-in facts cache (:mod:`ime.workflow.plugins`) hold this code's
entries, that setup must not import any module of a game package (its engine, encoder, bots:
``ime.games.<game>.<module>``), numba or torch: they cost the no-op half a second. The check
runs in fresh interpreters (this process has imported them all), with a throw-away cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ime

SRC = Path(ime.__file__).resolve().parents[1]
REPO_CONFIG = SRC.parent / "config"

SETUP = """
import json, os, sys
from ime.workflow import setup_workflow
from ime.workflow import artifacts as A
from ime.workflow.index import encoder_heads, encoder_shape

wf = setup_workflow({}, CONFIG)  # as the Snakefile composes the workflow
wf.constraints()
for game in wf.games:
    v = wf.main(game)
    wf.targets(game)
    A.describe(game)
    encoder_shape(game, v.game_params)  # the decisions and training jobs' params
    encoder_heads(game, v.game_params)
    wf.index_spec(v.results_dir)
    wf.index.metrics_paths(v)  # Table 4.4's inputs: which nets are imitator families
    for name in A.game_results(game):
        wf.result_inputs(v.results_dir, name)
loaded = [m for m in sys.modules if m in ("numba", "torch") or m.startswith("ime.games.")]
print(json.dumps({"games": wf.games, "loaded": loaded,
                  "numba_cache": os.environ.get("NUMBA_CACHE_DIR")}))
"""


def _setup(tmp: Path) -> dict:
    """Run :data:`SETUP` in a fresh interpreter with the caches under ``tmp``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "IME_NUMBA_CACHE_AUTO")}
    env.update(IME_COMPOSE_CACHE=str(tmp / "compose"), IME_NUMBA_CACHE=str(tmp / "numba"),
               PYTHONPATH=os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]))
    code = f"CONFIG = {str(REPO_CONFIG)!r}\n" + SETUP
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=tmp, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(1200)
@pytest.mark.slow
def test_a_noop_setup_imports_no_engine_numba_or_torch(tmp_path: Path) -> None:
    first = _setup(tmp_path)  # cold caches: composes with Hydra, reads the plug-ins
    assert len(first["games"]) == 6
    assert any(m.startswith("ime.games.") for m in first["loaded"])  # the check can fail
    entries = sorted(p.name for p in (tmp_path / "compose" / "plugins").glob("*.json"))
    assert sum(e.endswith("-plugin.json") for e in entries) == 6, entries
    assert sum("-encoder-" in e for e in entries) == 6, entries
    again = _setup(tmp_path)
    assert again["games"] == first["games"]
    assert again["loaded"] == []
    assert again["numba_cache"] is None  # nothing needed numba, so nothing configured it
