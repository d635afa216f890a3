"""Key mining finds today the keys it found before issue 31's speed-ups, byte for byte.

``tests/data/golden/keys_<game>.json`` was written by ``scripts/golden_keys.py --write`` with the
code before the change (commit fd67599): a few seeded matches of the target against its
sparring partners, mined with the zoo's real reference bots. Every key's match, ply, seat,
actions, outcomes, self-fork and stored planes and masks (by digest), the mining counts and the
whole table's digest must come out the same, with the decision memo (the default) and without.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("golden_keys",
                                                  ROOT / "scripts" / "golden_keys.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()


@pytest.mark.parametrize("memo", [True, False], ids=["memo", "no-memo"])
@pytest.mark.parametrize("game", sorted(SCRIPT.PLANS))
@pytest.mark.slow
def test_mining_finds_the_golden_keys(game: str, memo: bool, tmp_path: Path) -> None:
    want = json.loads(SCRIPT.golden_path(game).read_text())
    got = json.loads(json.dumps(SCRIPT.compute(game, tmp_path, memo=memo), sort_keys=True))
    assert got["n_keys"] == want["n_keys"] > 0
    for i, (w, g) in enumerate(zip(want["keys"], got["keys"], strict=True)):
        diff = {k: (w[k], g.get(k)) for k in w if w[k] != g.get(k)}
        assert not diff, f"key {i} ({w['match_id']} ply {w['ply']}) differs: {diff}"
    assert got == want
