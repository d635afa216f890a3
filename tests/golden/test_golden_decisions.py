"""Every zoo bot decides today as it did when ``tests/data/golden/<game>.json`` was written.

Issue 31 makes the searches faster and must change no decision: each bot (Reversi's rev1..rev5
and opponents, Doudizhu's ddz1..5 and ddz_mc, Snake's snk01..22, Connect Four's UCT, alpha-beta
and solver, Big-2's negamax) decides 60 seeded positions of its game, with its config's budget,
and must give the recorded Botzone response for every mover. ``scripts/golden_decisions.py
--write`` wrote the files (and checked that a fresh instance asked in the reverse order agrees);
rewrite them only for a change that is meant to alter play.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ime.bots.registry import load_bot_specs, make_bot
from ime.core.game import State
from ime.core.golden import bot_decisions, load_golden, replay, write_golden
from ime.core.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "golden"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("golden_decisions",
                                                  ROOT / "scripts" / "golden_decisions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
GAMES = sorted(SCRIPT.PLANS)
CASES = [(g, b) for g in GAMES for b in load_golden(DATA / f"{g}.json")["bots"]]


@cache
def golden(game: str) -> dict[str, Any]:
    return load_golden(DATA / f"{game}.json")


@cache
def states(game: str) -> tuple[State, ...]:
    """The golden positions of ``game``, replayed (a changed rule fails here, naming the
    position)."""
    data = golden(game)
    g = get_game(game, data["game_params"])
    return tuple(replay(g, pos, f"{DATA / game}.json position {i}")
                 for i, pos in enumerate(data["positions"]))


def _differences(want: list, got: list) -> str:
    diff = [i for i, (w, g) in enumerate(zip(want, got, strict=True)) if w != g]
    return (f"{len(diff)} of {len(want)} decisions differ; first: "
            + "; ".join(f"position {i}: recorded {json.dumps(want[i])}, now {json.dumps(got[i])}"
                        for i in diff[:3]))


@pytest.mark.parametrize(("game", "bot_id"), CASES, ids=[f"{g}-{b}" for g, b in CASES])
@pytest.mark.slow
def test_bot_decides_as_recorded(game: str, bot_id: str) -> None:
    data = golden(game)
    rec = data["bots"][bot_id]
    spec = load_bot_specs(game).get(bot_id)
    assert spec is not None, f"{game} bot {bot_id} is in the golden file but not in the zoo"
    now = {"kind": spec["kind"], "params": spec.get("params") or {}}
    assert now == {"kind": rec["kind"], "params": rec["params"]}, (
        f"config/bots/{game}.yaml: {bot_id}'s spec changed since the golden file was written "
        f"(recorded {rec['kind']} {rec['params']}, now {now['kind']} {now['params']}); if the "
        "change is meant to alter its play, rerun scripts/golden_decisions.py --write")
    got = bot_decisions(make_bot(game, bot_id), states(game)[:rec["positions"]], data["seed"])
    assert got == rec["decisions"], f"{game} {bot_id}: " + _differences(rec["decisions"], got)


@pytest.mark.parametrize("game", GAMES)
def test_every_zoo_bot_is_pinned(game: str) -> None:
    """A bot added to the zoo (or dropped from it) needs the golden file rewritten; the plan
    and the game params are the ones the file was written with."""
    data, plan = golden(game), SCRIPT.PLANS[game]
    zoo = set(load_bot_specs(game)) - set(plan.skip)
    assert set(data["bots"]) == zoo, (
        f"{game}: zoo bots not in the golden file {sorted(zoo - set(data['bots']))}, golden bots "
        f"no longer in the zoo {sorted(set(data['bots']) - zoo)}: rerun "
        "scripts/golden_decisions.py --write")
    assert data["game_params"] == SCRIPT.game_params(game)
    assert data["plan"]["positions"] == len(data["positions"]) == plan.positions
    assert all(data["bots"][b]["positions"] == plan.per_bot.get(b, plan.positions)
               for b in data["bots"])


def test_every_game_with_a_zoo_is_planned_or_excused() -> None:
    games = {p.stem for p in (ROOT / "config" / "bots").glob("*.yaml")}
    assert games == set(SCRIPT.PLANS) | set(SCRIPT.EXCLUDED_GAMES), (
        f"bots configs {sorted(games)}, planned {sorted(SCRIPT.PLANS)}, "
        f"excused {sorted(SCRIPT.EXCLUDED_GAMES)}")


@pytest.mark.parametrize("game", GAMES)
def test_positions_cover_choices_and_phases(game: str) -> None:
    """Every position gives some mover a choice, and the positions span the game (a golden
    set of openings alone would not pin the endgame searches)."""
    data = golden(game)
    assert all(max(p["legal"]) >= 2 for p in data["positions"])
    plies = sorted(p["ply"] for p in data["positions"])
    lo, hi = data["plan"]["plies"]
    assert plies[0] <= lo + (hi - lo) // 4 and plies[-1] >= lo + (hi - lo) // 2, plies


@pytest.mark.parametrize("game", GAMES)
def test_golden_file_bytes_are_canonical(game: str, tmp_path: Path) -> None:
    """The file is what ``write_golden`` writes for its data: same data, same bytes."""
    out = tmp_path / f"{game}.json"
    write_golden(out, golden(game))
    assert out.read_bytes() == (DATA / f"{game}.json").read_bytes()


@pytest.mark.parametrize(("game", "bot_id", "change"), [
    ("reversi", "rev1", {"nodes": 2000}),
    ("reversi", "rev2", {"endgame_empties": 4}),
    ("snake", "snk04", {"nodes": 30}),
    ("big2", "b2_negamax", {"exact_threshold": 3}),
])
@pytest.mark.slow
def test_the_golden_positions_see_a_changed_search(game: str, bot_id: str, change: dict) -> None:
    """The positions tell searches apart: the same bot with a smaller budget, or solving
    later, decides some of them differently, so a speed change that alters a search fails."""
    rec = golden(game)["bots"][bot_id]
    specs = load_bot_specs(game)
    specs[bot_id] = {**specs[bot_id], "params": {**specs[bot_id]["params"], **change}}
    got = bot_decisions(make_bot(game, bot_id, specs), states(game)[:rec["positions"]],
                        golden(game)["seed"])
    assert got != rec["decisions"]


@pytest.mark.parametrize(("game", "bot_id"), [("reversi", "rev3"), ("doudizhu", "ddz_mc"),
                                               ("snake", "snk01"), ("connect4", "c4_uct2k")])
@pytest.mark.slow
def test_another_seed_changes_a_sampling_bot(game: str, bot_id: str) -> None:
    """A sampling search draws from its decision's seed: with another seed it decides some
    golden positions differently (the seed is part of what the file pins)."""
    rec = golden(game)["bots"][bot_id]
    got = bot_decisions(make_bot(game, bot_id), states(game)[:rec["positions"]],
                        golden(game)["seed"] + 1)
    assert got != rec["decisions"]
