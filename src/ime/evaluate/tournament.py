"""Double round-robin tournaments from seeded balanced openings (thesis Table 4.8).

Table 4.8 puts the five originals and their imitators in 50 double round-robins. Our bots are
deterministic functions of the position (most of them), so two bots meeting twice from the
standard start would replay one game 50 times. Each round therefore starts every game from its
own *opening*: a seeded sequence of ``opening_plies`` random legal moves, fed to the judge as a
recorded prefix (the fork mechanism), after which the two bots play on. Within a round each pair
plays the opening twice with colours swapped, so an opening that favours one colour favours
neither bot. Openings are distinct across rounds and, for Reversi, rejected when the two sides'
mobility differs by more than ``max_mobility_gap`` (a crude but cheap balance test).

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

from ime.core.seeding import derive_seed
from ime.evaluate.agents import warm_up
from ime.evaluate.forks import BotProvider, outcome
from ime.evaluate.parallel import ordered_map
from ime.core.game import Game, State
from ime.core.registry import get_game
from ime.matches.judge import run_match

REVERSI_PASS = 64
RESULT_COLUMNS = ["round", "match_id", "player0", "player1", "score0", "score1", "outcome0",
                  "plies"]


def _reversi_balanced(state: State, max_gap: int) -> bool:
    from ime.games.reversi.bitboard import legal_moves, popcount

    own, opp = state.own_opp()  # type: ignore[attr-defined]
    a = int(popcount(legal_moves(own, opp)))
    b = int(popcount(legal_moves(opp, own)))
    return a > 0 and b > 0 and abs(a - b) <= max_gap


def balanced_openings(game: Game, n: int, plies: int, *, seed: int,
                      max_mobility_gap: int | None = 3,
                      max_tries: int = 100_000) -> list[list[Any]]:
    """``n`` distinct seeded openings, each a list of ``plies`` actions from the start.

    Openings never contain a pass and never end the game. Raises when ``n`` distinct balanced
    openings cannot be found (ask for more plies or a looser balance).
    """
    rng = np.random.default_rng(derive_seed("openings", game.name, seed, plies))
    seen: set[tuple] = set()
    out: list[list[Any]] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > max_tries:
            raise ValueError(f"found only {len(out)} distinct balanced {plies}-ply openings of "
                             f"{game.name} (wanted {n}); raise opening_plies or max_mobility_gap")
        st = game.new_initial_state(seed=seed)
        seq: list[Any] = []
        ok = True
        for _ in range(plies):
            if st.is_terminal():
                ok = False
                break
            (p,) = st.current_players()
            legal = st.legal_actions(p)
            if game.name == "reversi" and legal == [REVERSI_PASS]:  # openings never pass
                ok = False
                break
            a = legal[int(rng.integers(len(legal)))]
            seq.append(a)
            st.apply_action(a)
        if not ok or st.is_terminal():
            continue
        key = tuple(seq)
        if key in seen:
            continue
        if game.name == "reversi" and max_mobility_gap is not None \
                and not _reversi_balanced(st, max_mobility_gap):
            continue
        seen.add(key)
        out.append(seq)
    return out


def opening_prefix(game: Game, actions: Sequence[Any], seed: int = 0) -> list[dict[str, Any]]:
    """The opening as recorded player entries, ready to be a :func:`run_match` prefix."""
    st = game.new_initial_state(seed=seed)
    entries = []
    for a in actions:
        (p,) = st.current_players()
        entries.append({str(p): {"verdict": "OK", "response": st.encode_response(p, a)}})
        st.apply_action(a)
    return entries


@dataclass(frozen=True)
class TourGame:
    """One scheduled game: round (= opening index) and the bot in each seat."""

    round: int
    player0: str
    player1: str


def pair_schedule(a: str, b: str, rounds: int) -> list[TourGame]:
    """Every round: ``a`` black vs ``b`` white, then colours swapped."""
    out = []
    for r in range(rounds):
        out.append(TourGame(r, a, b))
        out.append(TourGame(r, b, a))
    return out


def round_robin_pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    """Unordered pairs in a stable order (the pair's file name uses this order)."""
    ps = list(players)
    return [(ps[i], ps[j]) for i in range(len(ps)) for j in range(i + 1, len(ps))]


@dataclass
class _Ctx:
    game: Game
    provider: BotProvider
    openings: list[list[dict[str, Any]]]
    seed: int


def _play(ctx: _Ctx, g: TourGame) -> dict[str, Any]:
    mid = f"{ctx.game.name}-t{ctx.seed}-r{g.round:03d}-{g.player0}-{g.player1}"
    res = run_match(ctx.game, [ctx.provider(g.player0), ctx.provider(g.player1)], match_id=mid,
                    seed=ctx.seed, prefix=ctx.openings[g.round])
    return {"round": g.round, "match_id": mid, "player0": g.player0, "player1": g.player1,
            "score0": float(res.scores[0]), "score1": float(res.scores[1]),
            "outcome0": outcome(res.scores, 0), "plies": int(res.final_state.ply),
            "log": res.to_json()}


def play_games(
    game_name: str,
    games: Sequence[TourGame],
    provider_factory: Callable[[], BotProvider],
    *,
    rounds: int,
    opening_plies: int,
    seed: int,
    max_mobility_gap: int | None = 3,
    workers: int = 1,
    progress: bool = True,
    desc: str = "tournament",
) -> tuple[pd.DataFrame, list[dict]]:
    """Play ``games`` (results in schedule order) and return the result table and the logs."""
    game = get_game(game_name)
    openings = [opening_prefix(game, o, seed) for o in
                balanced_openings(game, rounds, opening_plies, seed=seed,
                                  max_mobility_gap=max_mobility_gap)]

    def setup() -> _Ctx:
        prov = provider_factory()
        if workers > 1:
            warm_up(prov, sorted({b for g in games for b in (g.player0, g.player1)}), game)
        return _Ctx(game, prov, openings, seed)

    rows, logs = [], []
    bar = tqdm(total=len(games), desc=desc, unit="game", disable=not progress)
    for r in ordered_map(_play, games, setup, workers=workers):
        logs.append(r.pop("log"))
        rows.append(r)
        bar.update()
    bar.close()
    return pd.DataFrame(rows, columns=RESULT_COLUMNS), logs


def standings(results: pd.DataFrame, players: Sequence[str] | None = None,
              points: Sequence[float] = (3, 1, 0)) -> pd.DataFrame:
    """Per bot: games, wins, draws, losses, points (win/draw/loss = ``points``), rank.

    Ranks are by points (ties share the better rank, "1224" style).
    """
    pw, pd_, pl = points
    recs: dict[str, dict[str, float]] = {}
    names = list(players) if players is not None else sorted(
        set(results["player0"]) | set(results["player1"]))
    for p in names:
        recs[p] = {"games": 0, "wins": 0, "draws": 0, "losses": 0}
    for r in results.itertuples(index=False):
        for seat, p in ((0, r.player0), (1, r.player1)):
            if p not in recs:
                continue
            o = r.outcome0 if seat == 0 else 2 - r.outcome0
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
