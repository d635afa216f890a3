"""Measurements of the Reversi zoo: speed, pairwise move agreement, and a round-robin ladder.

All functions return plain data (dicts, lists, numbers) so the CLI (``ime zoo agreement``,
``ime zoo roundrobin``) can print or save them. Everything is seeded: the same arguments give the
same numbers (timings aside). Timings are CPU time of this process (``time.process_time``), so a
busy shared machine inflates them less than wall time would.

The play loop here is deliberately minimal (no Botzone log) so that the zoo can be measured
without the match judge; the official judge is ``ime.matches.judge``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ime.bots.registry import make_bot
from ime.core.bot import Bot, DecisionContext, derive_seed
from ime.games.reversi import GAME
from ime.games.reversi.game import ReversiState

GAME_NAME = "reversi"


def random_midgame_positions(
    n: int, seed: int, min_plies: int = 20, max_plies: int = 40
) -> list[ReversiState]:
    """``n`` positions reached by ``min_plies..max_plies`` seeded random moves from the start.

    Positions that are over or leave the side to move at most one legal move are skipped: they
    cannot tell two bots apart.
    """
    rng = np.random.default_rng(seed)
    out: list[ReversiState] = []
    while len(out) < n:
        s = GAME.new_initial_state()
        for _ in range(int(rng.integers(min_plies, max_plies + 1))):
            if s.is_terminal():
                break
            la = s.legal_actions()
            s.apply_action(la[int(rng.integers(len(la)))])
        if s.is_terminal() or len(s.legal_actions()) <= 1:
            continue
        out.append(s)
    return out


def _bots(bot_ids: Sequence[str], specs: Mapping[str, Any] | None) -> dict[str, Bot]:
    return {b: make_bot(GAME_NAME, b, specs) for b in bot_ids}


def agreement_matrix(
    bot_ids: Sequence[str],
    n_positions: int = 1000,
    seed: int = 0,
    specs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Fraction of random mid-game positions on which each pair of bots picks the same move.

    Returns ``{"bots", "n_positions", "seed", "matrix" (list of rows, diagonal 1.0),
    "ms_per_decision" (per bot)}``.
    """
    bots = _bots(bot_ids, specs)
    positions = random_midgame_positions(n_positions, seed)
    moves: dict[str, list[int]] = {}
    ms: dict[str, float] = {}
    for b, bot in bots.items():
        t = time.process_time()
        moves[b] = []
        for i, s in enumerate(positions):
            ctx = DecisionContext(seed=seed, match_id=f"agree-{i}", ply=s.ply, player=s.to_move)
            moves[b].append(int(bot.act(s, ctx)))
        ms[b] = 1000 * (time.process_time() - t) / len(positions)
    ids = list(bot_ids)
    matrix = [
        [float(np.mean(np.array(moves[a]) == np.array(moves[b]))) for b in ids] for a in ids
    ]
    return {
        "bots": ids,
        "n_positions": n_positions,
        "seed": seed,
        "matrix": matrix,
        "ms_per_decision": ms,
    }


def play_game(
    black: Bot,
    white: Bot,
    *,
    match_id: str,
    seed: int,
    opening: Sequence[int] = (),
    timings: dict[str, list[float]] | None = None,
) -> ReversiState:
    """Play one game after the forced ``opening`` moves; returns the final state.

    ``timings[bot_id]`` (if given) collects the seconds of every decision of that bot.
    """
    s = GAME.new_initial_state()
    for a in opening:
        s.apply_action(int(a))
    seats = (black, white)
    while not s.is_terminal():
        p = s.to_move
        bot = seats[p]
        ctx = DecisionContext(seed=seed, match_id=match_id, ply=s.ply, player=p)
        t = time.process_time()
        a = bot.act(s, ctx)
        if timings is not None:
            timings.setdefault(bot.bot_id, []).append(time.process_time() - t)
        s.apply_action(int(a))
    return s


def random_opening(seed: int, plies: int) -> list[int]:
    """A seeded random opening of ``plies`` moves (never ending the game)."""
    rng = np.random.default_rng(seed)
    s = GAME.new_initial_state()
    out: list[int] = []
    for _ in range(plies):
        la = s.legal_actions()
        a = la[int(rng.integers(len(la)))]
        s.apply_action(a)
        out.append(int(a))
        if s.is_terminal():
            return random_opening(seed + 1, plies)
    return out


def round_robin(
    bot_ids: Sequence[str],
    rounds: int = 10,
    seed: int = 0,
    opening_plies: int = 6,
    specs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Double round-robin: each round draws one random opening; every ordered pair plays it.

    So each pair meets twice per round from the same opening with colours swapped, which cancels
    the opening's bias. Scoring as the thesis's Table 4.8: win 3, draw 1, loss 0.
    Returns ``{"bots", "matches", "points", "wins", "draws", "losses", "pairwise"}`` where
    ``pairwise[a][b]`` is a's score rate against b (win 1, draw 0.5).
    """
    bots = _bots(bot_ids, specs)
    ids = list(bot_ids)
    points = dict.fromkeys(ids, 0)
    wins = dict.fromkeys(ids, 0)
    draws = dict.fromkeys(ids, 0)
    losses = dict.fromkeys(ids, 0)
    pair_score: dict[str, dict[str, float]] = {a: dict.fromkeys(ids, 0.0) for a in ids}
    pair_games: dict[str, dict[str, int]] = {a: dict.fromkeys(ids, 0) for a in ids}
    timings: dict[str, list[float]] = {}
    n = 0
    for r in range(rounds):
        opening = random_opening(derive_seed(seed, "opening", r), opening_plies)
        for a in ids:
            for b in ids:
                if a == b:
                    continue
                mid = f"rr-{seed}-{r}-{a}-{b}"
                final = play_game(bots[a], bots[b], match_id=mid, seed=seed, opening=opening,
                                  timings=timings)
                ra, rb = final.returns()
                n += 1
                for x, y, rx in ((a, b, ra), (b, a, rb)):
                    pair_games[x][y] += 1
                    if rx == 2.0:
                        points[x] += 3
                        wins[x] += 1
                        pair_score[x][y] += 1.0
                    elif rx == 1.0:
                        points[x] += 1
                        draws[x] += 1
                        pair_score[x][y] += 0.5
                    else:
                        losses[x] += 1
    pairwise = {
        a: {b: pair_score[a][b] / pair_games[a][b] for b in ids if b != a} for a in ids
    }
    return {
        "bots": ids,
        "rounds": rounds,
        "matches": n,
        "points": points,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "pairwise": pairwise,
        "ms_per_decision": {k: 1000 * float(np.mean(v)) for k, v in timings.items()},
    }


def decision_speed(
    bot_ids: Sequence[str],
    games: int = 10,
    seed: int = 0,
    opponent: str = "opp_noisy1",
    specs: Mapping[str, Any] | None = None,
) -> dict[str, dict[str, float]]:
    """Decisions per second of each bot in real games against ``opponent`` (both colours).

    Counts every decision the bot makes, forced moves included, because that is what data
    generation pays for.
    """
    opp = make_bot(GAME_NAME, opponent, specs)
    out: dict[str, dict[str, float]] = {}
    for b in bot_ids:
        bot = make_bot(GAME_NAME, b, specs)
        timings: dict[str, list[float]] = {}
        play_game(bot, opp, match_id="warmup", seed=seed, timings={})  # numba compile
        for g in range(games):
            black, white = (bot, opp) if g % 2 == 0 else (opp, bot)
            play_game(black, white, match_id=f"speed-{g}", seed=seed, timings=timings)
        t = np.array(timings[b])
        out[b] = {
            "decisions": int(t.size),
            "seconds": float(t.sum()),
            "decisions_per_s": float(t.size / t.sum()),
            "ms_mean": float(1000 * t.mean()),
            "ms_p99": float(1000 * np.percentile(t, 99)),
            "ms_max": float(1000 * t.max()),
        }
    return out
