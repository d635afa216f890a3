"""Hard identification pools (issue 48, Deliver 3): parameter variants of a zoo bot.

Every ``variant_of`` entry of a game's bot zoo must be a real bot that plays differently from
its base (else a hard pool would hold a relabelled copy), and every experiment that adds extra
bots to the identification pool must name such zoo bots. Checked on seeded midgame positions
(random play from the initial state) through the game API only: no game is named here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from ime.bots.registry import make_bot
from ime.core.bot import DecisionContext
from ime.core.registry import get_game
from ime.workflow.setup import load_specs

CONFIG = Path(__file__).resolve().parents[2] / "config"


def zoo_variants() -> list[tuple[str, str, str]]:
    """``(game, variant, base)`` of every bots file."""
    out = []
    for path in sorted((CONFIG / "bots").glob("*.yaml")):
        specs = yaml.safe_load(path.read_text()) or {}
        out += [(path.stem, b, s["variant_of"]) for b, s in specs.items()
                if isinstance(s, dict) and s.get("variant_of")]
    return out


def hard_pool_experiments() -> list[tuple[str, list[str]]]:
    """``(game, extra bots)`` of every ``identify_hard_<game>`` experiment."""
    out = []
    for path in sorted((CONFIG / "experiment").glob("identify_hard_*.yaml")):
        doc = yaml.safe_load(path.read_text())
        out.append((path.stem.removeprefix("identify_hard_"), doc["identify"]["extra_bots"]))
    return out


def positions(game: str, n: int, seed: int = 0) -> list:
    """``n`` seeded positions with a choice, after 8..49 random plies from the start. Try ``i``
    starts from ``new_initial_state(seed=i)``: a deal or board of its own where the game draws
    one (a card game needs a seed to deal; a fixed start such as Reversi's ignores it)."""
    g = get_game(game)
    rng = np.random.default_rng(seed)
    out = []
    tries = 0
    while len(out) < n:
        s = g.new_initial_state(seed=tries)
        tries += 1
        stop = int(rng.integers(8, 50))
        while not s.is_terminal() and s.ply < stop:
            moves = {p: s.legal_actions(p) for p in s.current_players()}
            s.apply_actions({p: m[int(rng.integers(len(m)))] for p, m in moves.items()})
        if not s.is_terminal() and len(s.legal_actions(s.current_players()[0])) > 1:
            out.append(s)
    return out


def test_every_hard_pool_names_variants_of_the_zoo() -> None:
    pools = hard_pool_experiments()
    assert pools, "no config/experiment/identify_hard_<game>.yaml"
    variants = {(g, v) for g, v, _ in zoo_variants()}
    for game, extra in pools:
        specs = load_specs(game)  # the bots schema: every variant_of names a bot of the file
        assert extra and all(b in specs for b in extra), (game, extra)
        assert all((game, b) in variants for b in extra), (game, extra)


@pytest.mark.parametrize(("game", "variant", "base"), zoo_variants())
def test_a_variant_plays_unlike_its_base(game: str, variant: str, base: str) -> None:
    specs = load_specs(game)
    assert specs[variant]["kind"] == specs[base]["kind"]
    assert specs[variant]["params"] != specs[base]["params"]
    a, b = make_bot(game, variant, specs), make_bot(game, base, specs)
    differ = 0
    states = positions(game, 40)
    for i, s in enumerate(states):
        p = s.current_players()[0]
        ctx = DecisionContext(seed=0, match_id=f"variant-{i}", ply=s.ply, player=p)
        differ += a.act(s, ctx) != b.act(s, ctx)
    # at least 5 % of the positions: a near-identical bot, but never a relabelled copy
    assert differ >= 2, f"{variant} plays as {base} on {len(states) - differ} of {len(states)}"
