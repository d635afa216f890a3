"""Golden decisions: what every zoo bot decides today on fixed, seeded positions.

Speed work on a search (issue 31) must leave every decision as it was: the bots' budgets are
node / simulation counts and their randomness is keyed by the decision (:mod:`ime.core.bot`),
so the same position, seed, match id and ply give the same action, whatever the machine or the
speed. ``scripts/golden_decisions.py --write`` records them in ``tests/data/golden/<game>.json``
and ``tests/golden/test_golden_decisions.py`` checks them.

A position is stored the way a Botzone log stores a match: the game's ``initdata`` and the
responses of every turn, replayed through the game's own codec (``decode_response``). The
positions therefore stay the same when the random draws or the order of ``legal_actions``
change; an engine change that alters the rules shows up as a replay error or a changed count of
legal actions, not as a silently different position. A decision is stored as the bot's Botzone
response (``encode_response``), which is plain JSON for every game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Game, State
from ime.core.seeding import derive_seed

__all__ = ["GoldenPlan", "bot_decisions", "load_golden", "make_positions", "replay",
           "write_golden"]


@dataclass(frozen=True)
class GoldenPlan:
    """How one game's golden file is made.

    ``plies``: the random playout lengths drawn per position (inclusive), wide enough to reach
    every phase a search treats differently (openings, mid-game, the endgame solves).
    ``positions``: how many positions every bot decides. ``per_bot``: fewer positions for a bot
    whose decisions are expensive (the first ``n`` of the list), so that the whole golden test
    stays under a minute on 2 cores. ``skip``: bots left out, each with the reason.
    ``playout``: a zoo bot whose moves drive the playouts (one move in ``epsilon`` stays
    random), for a game whose random games end before its later phases (Snake: random snakes
    die young); ``None``: uniformly random moves.
    """

    game: str
    plies: tuple[int, int]
    positions: int
    per_bot: Mapping[str, int]
    skip: Mapping[str, str]
    seed: int = 31
    playout: str | None = None
    epsilon: float = 0.0


def make_positions(game: Game, plan: GoldenPlan,
                   playout_bot: Bot | None = None) -> list[dict[str, Any]]:
    """``plan.positions`` seeded positions of random games, each as ``{initdata, turns}`` plus
    what a replay must find again (``ply``, the ``movers`` and their ``legal`` counts).

    A game dealt or drawn at its start gets its start from ``(seed, "start", index)``; the
    random moves from one generator keyed by ``(seed, game, "playouts")``, the others from
    ``playout_bot`` (``plan.playout``), seeded per playout and ply. Positions that are
    over, or where no mover has a choice, are skipped: every bot would decide them alike.
    """
    rng = np.random.default_rng(derive_seed(plan.seed, plan.game, "playouts"))
    out: list[dict[str, Any]] = []
    tries = 0
    while len(out) < plan.positions:
        tries += 1
        if tries > 50 * plan.positions:
            raise RuntimeError(f"{plan.game}: only {len(out)} of {plan.positions} positions with "
                               f"a choice after {tries} random playouts; widen plies {plan.plies}")
        st = game.new_initial_state(seed=derive_seed(plan.seed, "start", tries))
        initdata = json.loads(json.dumps(st.initdata()))
        turns: list[dict[str, Any]] = []
        for _ in range(int(rng.integers(plan.plies[0], plan.plies[1] + 1))):
            if st.is_terminal():
                break
            movers = st.current_players()
            acts = {}
            for p in movers:
                legal = st.legal_actions(p)
                if playout_bot is not None and rng.random() >= plan.epsilon:
                    ctx = DecisionContext(plan.seed, f"playout-{tries}", st.ply, p)
                    acts[p] = playout_bot.act(st.clone(), ctx)
                else:
                    acts[p] = legal[int(rng.integers(len(legal)))]
            turns.append({str(p): json.loads(json.dumps(st.encode_response(p, a)))
                          for p, a in acts.items()})
            st.apply_actions(acts)
        if st.is_terminal():
            continue
        legal_counts = [len(st.legal_actions(p)) for p in st.current_players()]
        if max(legal_counts) <= 1:
            continue
        out.append({"initdata": initdata, "turns": turns, "ply": int(st.ply),
                    "movers": [int(p) for p in st.current_players()], "legal": legal_counts})
    return out


def replay(game: Game, position: Mapping[str, Any], where: str = "") -> State:
    """The state of a stored position, rebuilt through the game's codec; a ValueError naming
    ``where`` if it does not come back as it was recorded (the engine's rules changed)."""
    st = game.new_initial_state(initdata=position["initdata"])
    for t, turn in enumerate(position["turns"]):
        st.apply_actions({int(p): st.decode_response(int(p), r) for p, r in turn.items()})
        if st.is_terminal() and t + 1 < len(position["turns"]):
            raise ValueError(f"{where}: the game ended at turn {t} of {len(position['turns'])}")
    found = {"ply": int(st.ply), "movers": [int(p) for p in st.current_players()],
             "legal": [len(st.legal_actions(p)) for p in st.current_players()]}
    want = {k: position[k] for k in found}
    if found != want:
        raise ValueError(f"{where}: the replayed position is not the recorded one: "
                         f"recorded {want}, replayed {found}")
    return st


def bot_decisions(bot: Bot, states: Sequence[State], seed: int,
                  order: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """``bot``'s Botzone response for every mover of every state, ``{str(player): response}``
    per state, in the states' order whatever ``order`` the bot is asked in.

    Decision ``i`` is made as a match would make it: seed ``seed``, match id ``golden-<i>``, the
    state's own ply, on a clone (a bot must not mutate its state). ``order`` lets a check ask the
    same bot instance in another order: a bot that carries anything from one decision to the
    next (a transposition table, a generator) then decides differently, which forks of a match
    cannot tolerate.
    """
    out: list[dict[str, Any] | None] = [None] * len(states)
    for i in order if order is not None else range(len(states)):
        st = states[i]
        row = {}
        for p in st.current_players():
            ctx = DecisionContext(seed=seed, match_id=f"golden-{i}", ply=st.ply, player=p)
            action = bot.act(st.clone(), ctx)
            row[str(p)] = json.loads(json.dumps(st.encode_response(p, action)))
        out[i] = row
    return [r for r in out if r is not None]


def write_golden(path: Path, data: Mapping[str, Any]) -> None:
    """``data`` as JSON, keys sorted, one position or one bot per line (small, diffable, the
    same bytes for the same data)."""
    lines = ["{"]
    items = list(data.items())
    for k, (key, value) in enumerate(items):
        end = "," if k + 1 < len(items) else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            lines += [f"    {_dump(v)}{',' if j + 1 < len(value) else ''}"
                      for j, v in enumerate(value)]
            lines.append(f"  ]{end}")
        elif isinstance(value, dict) and value and all(isinstance(v, dict)
                                                       for v in value.values()):
            lines.append(f"  {json.dumps(key)}: {{")
            sub = sorted(value.items())
            lines += [f"    {json.dumps(b)}: {_dump(v)}{',' if j + 1 < len(sub) else ''}"
                      for j, (b, v) in enumerate(sub)]
            lines.append(f"  }}{end}")
        else:
            lines.append(f"  {json.dumps(key)}: {_dump(value)}{end}")
    lines.append("}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_golden(path: Path) -> dict[str, Any]:
    """A golden file, or a FileNotFoundError saying how to write it."""
    if not path.is_file():
        raise FileNotFoundError(f"no golden decisions at {path}: "
                                "run `python3 scripts/golden_decisions.py --write`")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data
