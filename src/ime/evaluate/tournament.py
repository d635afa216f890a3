"""Round-robin tournaments from seeded balanced openings (thesis Table 4.8), for any seat count.

Table 4.8 puts the five originals and their imitators in 50 double round-robins. Our bots are
deterministic functions of the position (most of them), so two bots meeting twice from the
standard start would replay one game 50 times. Each round therefore starts every game from its
own *opening*: a seeded sequence of ``opening_plies`` random legal moves, fed to the judge as a
recorded prefix (the fork mechanism), after which the bots play on. Openings are distinct across
rounds; the game's plug-in says which openings are usable (:class:`ime.core.registry.Openings`:
``rejects`` a ply's legal actions, e.g. a forced pass, and ``balanced`` the position after the
opening, with the ``game.openings`` config as parameters, e.g. a maximum mobility gap).

**Seats.** Within a round a *lineup* (one bot per seat) plays the opening once in each seat
rotation (:func:`seat_rotations`), so an opening that favours a seat favours no bot. Two bots
``a`` and ``b`` in a two-seat game are the lineup ``(a, b)``: ``a`` first, then ``b`` first, as
in a double round-robin. In a game of ``n > 2`` seats a pair plays ``(a, b, ..., b)`` and
``(b, a, ..., a)``, each in every rotation (:func:`pair_lineups`), so each bot meets the other
alone and as the majority in every seat. With ``evaluate.tournament.lineups: sides`` a pair
in a game of two sides (Doudizhu's landlord against the farmers) plays each side once a round
instead (:func:`side_lineups`): Botzone's and Table 5.10's protocol, a third of the games.

**Results.** One row per game: ``round, match_id, player0..player{n-1}, score0..score{n-1}``,
the outcome of every seat (:func:`ime.evaluate.forks.outcome`, 2 win / 1 draw / 0 loss) and
``plies``. Two seats keep the historical columns: only ``outcome0`` (seat 1's is ``2 -
outcome0``). A bot that fills several seats of one game gets its best seat's outcome there
(:func:`bot_outcomes`), and standings and ratings count one result per bot and game.

Games of one pair do not depend on the other players, so the tournament is played pair by pair
(one Snakemake job per pair): adding a bot plays only its own pairs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ime.core.game import Action, Game, State
from ime.core.registry import get_game, get_plugin
from ime.core.seeding import derive_seed
from ime.evaluate.agents import warm_up
from ime.evaluate.forks import BotProvider, outcome
from ime.evaluate.parallel import ordered_map
from ime.evaluate.schedule import (  # the schedule, re-exported (the workflow imports it alone)
    TourGame,
    lineup_schedule,  # noqa: F401
    pair_lineups,  # noqa: F401
    pair_schedule,  # noqa: F401
    round_robin_pairs,  # noqa: F401
    seat_rotations,  # noqa: F401
    side_lineups,  # noqa: F401
)
from ime.matches.judge import run_match

RESULT_COLUMNS = ["round", "match_id", "player0", "player1", "score0", "score1", "outcome0",
                  "plies"]
"""The result columns of a two-seat game (see :func:`result_columns`)."""

OpeningPly = Action | dict[int, Action]
"""One ply of an opening: the action of its single mover, or ``{seat: action}`` when several
seats move at once."""


def result_columns(seats: int) -> list[str]:
    """Columns of a game's result row for ``seats`` seats (see the module doc)."""
    if seats == 2:
        return list(RESULT_COLUMNS)
    return (["round", "match_id"] + [f"player{s}" for s in range(seats)]
            + [f"score{s}" for s in range(seats)] + [f"outcome{s}" for s in range(seats)]
            + ["plies"])


def _ply_key(ply: OpeningPly) -> Any:
    return tuple(sorted(ply.items())) if isinstance(ply, dict) else ply


def balanced_openings(game: Game, n: int, plies: int, *, seed: int,
                      max_mobility_gap: int | None = 3,
                      openings: Mapping[str, Any] | None = None,
                      max_tries: int = 100_000,
                      starts: bool = False) -> list[Any]:
    """``n`` distinct seeded openings, each a list of ``plies`` plies from the start.

    Each try starts from its own seeded start (a deal, a board; the same fixed start for games
    that have one), so ``starts=True`` returns ``(initdata, plies)`` pairs: a round's games
    all play that start (both orders of a Doudizhu pair play one deal).

    A ply the plug-in's ``Openings.rejects`` refuses (e.g. a forced pass) discards the opening,
    as does an opening that ends the game or that ``Openings.balanced`` finds unfair with
    ``openings`` as parameters (default: ``{"max_mobility_gap": max_mobility_gap}``, the
    historical keyword). Several movers at one ply draw one action each, in seat order. Raises
    when ``n`` distinct usable openings cannot be found (ask for more plies or a looser balance).
    """
    rules = get_plugin(game.name).openings
    params = dict(openings) if openings is not None else {"max_mobility_gap": max_mobility_gap}
    rng = np.random.default_rng(derive_seed("openings", game.name, seed, plies))
    seen: set[tuple] = set()
    out: list[list[OpeningPly]] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > max_tries:
            raise ValueError(f"found only {len(out)} distinct balanced {plies}-ply openings of "
                             f"{game.name} (wanted {n}); raise opening_plies or loosen "
                             f"game.openings {params}")
        st = game.new_initial_state(seed=derive_seed("start", game.name, seed, tries))
        init = st.initdata()
        seq: list[OpeningPly] = []
        ok = True
        for _ in range(plies):
            if st.is_terminal():
                ok = False
                break
            movers = st.current_players()
            chosen: dict[int, Action] = {}
            for p in movers:
                legal = st.legal_actions(p)
                if rules.rejects(st, legal):
                    ok = False
                    break
                chosen[p] = legal[int(rng.integers(len(legal)))]
            if not ok:
                break
            if len(movers) == 1:
                (a,) = chosen.values()
                seq.append(a)
                st.apply_action(a)
            else:
                seq.append(chosen)
                st.apply_actions(chosen)
        if not ok or st.is_terminal():
            continue
        key = (json.dumps(init, sort_keys=True, default=str),
               *(_ply_key(x) for x in seq))
        if key in seen:
            continue
        if not rules.balanced(st, params):
            continue
        seen.add(key)
        out.append((init, seq) if starts else seq)
    return out


def opening_prefix(game: Game, actions: Sequence[OpeningPly], seed: int = 0,
                   initdata: Any = None) -> list[dict[str, Any]]:
    """The opening (from the start ``initdata``, if given) as recorded player entries, ready to
    be a :func:`run_match` prefix."""
    st: State = game.new_initial_state(initdata=initdata, seed=seed)
    entries = []
    for ply in actions:
        if isinstance(ply, dict):
            chosen = dict(ply)
        else:
            (p,) = st.current_players()
            chosen = {p: ply}
        entries.append({str(p): {"verdict": "OK", "response": st.encode_response(p, a)}
                        for p, a in chosen.items()})
        st.apply_actions(chosen)
    return entries


@dataclass
class _Ctx:
    game: Game
    provider: BotProvider
    openings: list[tuple[Any, list[dict[str, Any]]]]
    seed: int


def _play(ctx: _Ctx, g: TourGame) -> dict[str, Any]:
    n = ctx.game.num_players
    if len(g.players) != n:
        raise ValueError(f"{ctx.game.name} has {n} seats, a game lists {list(g.players)}")
    mid = f"{ctx.game.name}-t{ctx.seed}-r{g.round:03d}-" + "-".join(g.players)
    init, prefix = ctx.openings[g.round]
    res = run_match(ctx.game, [ctx.provider(p) for p in g.players], match_id=mid,
                    seed=ctx.seed, initdata=init, prefix=prefix)
    row: dict[str, Any] = {"round": g.round, "match_id": mid}
    row.update({f"player{s}": p for s, p in enumerate(g.players)})
    row.update({f"score{s}": float(res.scores[s]) for s in range(n)})
    for s in range(1 if n == 2 else n):
        row[f"outcome{s}"] = outcome(res.scores, s)
    row["plies"] = int(res.final_state.ply)
    row["log"] = res.to_json()
    return row


def play_games(
    game_name: str,
    games: Sequence[TourGame],
    provider_factory: Callable[[], BotProvider],
    *,
    rounds: int,
    opening_plies: int,
    seed: int,
    max_mobility_gap: int | None = 3,
    openings: Mapping[str, Any] | None = None,
    game_params: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: bool = True,
    desc: str = "tournament",
) -> tuple[pd.DataFrame, list[dict]]:
    """Play ``games`` (results in schedule order) and return the result table and the logs.

    ``openings``: the game config's ``openings`` section for the plug-in's balance test
    (default: ``{"max_mobility_gap": max_mobility_gap}``); ``game_params``: the board options.
    """
    game = get_game(game_name, game_params)
    opening_list = [(init, opening_prefix(game, o, seed, initdata=init)) for init, o in
                    balanced_openings(game, rounds, opening_plies, seed=seed,
                                      max_mobility_gap=max_mobility_gap, openings=openings,
                                      starts=True)]

    def setup() -> _Ctx:
        prov = provider_factory()
        if workers > 1:
            warm_up(prov, sorted({b for g in games for b in g.players}), game)
        return _Ctx(game, prov, opening_list, seed)

    rows, logs = [], []
    bar = tqdm(total=len(games), desc=desc, unit="game", disable=not progress)
    for r in ordered_map(_play, games, setup, workers=workers):
        logs.append(r.pop("log"))
        rows.append(r)
        bar.update()
    bar.close()
    return pd.DataFrame(rows, columns=result_columns(game.num_players)), logs


def seats_of(results: pd.DataFrame) -> int:
    """How many seats a result table has (its ``player<k>`` columns)."""
    n = 0
    while f"player{n}" in results.columns:
        n += 1
    return n


def bot_outcomes(results: pd.DataFrame) -> list[dict[str, int]]:
    """Per game: ``bot -> outcome`` (2 win / 1 draw / 0 loss), a bot in several seats getting
    its best seat's outcome."""
    n = seats_of(results)
    players = results[[f"player{s}" for s in range(n)]].to_numpy()
    if n == 2 and "outcome1" not in results.columns:
        o0 = results["outcome0"].to_numpy().astype(int)
        outs = np.stack([o0, 2 - o0], axis=1)
    else:
        outs = results[[f"outcome{s}" for s in range(n)]].to_numpy().astype(int)
    out = []
    for ps, os_ in zip(players, outs, strict=True):
        per: dict[str, int] = {}
        for p, o in zip(ps, os_, strict=True):
            per[p] = max(per.get(p, 0), int(o))
        out.append(per)
    return out


def standings(results: pd.DataFrame, players: Sequence[str] | None = None,
              points: Sequence[float] = (3, 1, 0)) -> pd.DataFrame:
    """Per bot: games, wins, draws, losses, points (win/draw/loss = ``points``), rank.

    One result per bot and game (:func:`bot_outcomes`). Ranks are by points (ties share the
    better rank, "1224" style).
    """
    pw, pd_, pl = points
    recs: dict[str, dict[str, float]] = {}
    per_game = bot_outcomes(results)
    names = list(players) if players is not None else sorted({p for g in per_game for p in g})
    for p in names:
        recs[p] = {"games": 0, "wins": 0, "draws": 0, "losses": 0}
    for game in per_game:
        for p, o in game.items():
            if p not in recs:
                continue
            recs[p]["games"] += 1
            recs[p][{2: "wins", 1: "draws", 0: "losses"}[int(o)]] += 1
    df = pd.DataFrame([{"bot": p, **v} for p, v in recs.items()])
    df["points"] = df["wins"] * pw + df["draws"] * pd_ + df["losses"] * pl
    df = df.sort_values(["points", "bot"], ascending=[False, True], kind="stable")
    df["rank"] = df["points"].rank(method="min", ascending=False).astype(int)
    return df.reset_index(drop=True)


def write_games(results: pd.DataFrame, logs: Iterable[Mapping], results_path: str | Path,
                logs_path: str | Path | None = None) -> None:
    """Result table as CSV (small, diffable) and the games as Botzone JSON lines."""
    results_path = Path(results_path)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results.to_csv(results_path, index=False)
    if logs_path is not None:
        with open(logs_path, "w", encoding="utf-8") as f:
            for m in logs:
                f.write(json.dumps(m, separators=(",", ":"), ensure_ascii=False) + "\n")
