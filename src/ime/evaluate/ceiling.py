"""How far imitation can go: a bot's agreement with its own logged decisions.

An imitator is scored on how often it plays the logged action. A bot that is stochastic (Monte
Carlo rollouts, random tie-breaks) would not always play its own logged action either, so no net
can beat the rate at which the bot agrees with itself. ``self_agreement`` measures that ceiling:
on a seeded sample of the decisions in the bot's dataset (every row is a validation row of one
fold, so this is the validation states' ceiling), it rebuilds the position from the log, asks the
bot again under another seed (:func:`reask_seed`), and counts equal actions. A deterministic bot
should score 100 %; anything lower means the bot reads something beyond (config, seed, history),
which the bot contract forbids.

The position is replayed through the rules with the same Botzone transcript the judge would send
(requests and earlier responses), so external programs are re-asked exactly like in-process bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Game
from ime.core.seeding import derive_seed
from ime.evaluate.forks import LoggedMatch, action_key
from ime.evaluate.similarity import cluster_bootstrap_ci
from ime.matches.judge import respond
from ime.matches.logs import iter_raw_matches


def reask_seed(match_seed: int, repeat: int = 0) -> int:
    """The seed a bot is re-asked under: never the match's own (a stochastic bot draws anew)."""
    return derive_seed(match_seed, "self_agreement", repeat)


def sample_decisions(match_ids: Sequence[str], plies: Sequence[int], seats: Sequence[int],
                     n: int, seed: int, bot: str) -> list[tuple[str, int, int]]:
    """A seeded sample of ``n`` decisions (all when fewer), sorted by (match, ply, seat)."""
    total = len(match_ids)
    rng = np.random.default_rng(derive_seed(seed, "self_agreement_sample", bot))
    pick = np.sort(rng.choice(total, size=min(n, total), replace=False)) if total else []
    rows = {(str(match_ids[i]), int(plies[i]), int(seats[i])) for i in pick}
    return sorted(rows)


def ask_again(game: Game, match: LoggedMatch, ply: int, seat: int, bot: Bot,
              seed: int) -> tuple[Any, Any]:
    """(logged action, the bot's action now) of ``seat`` at ``ply`` of ``match``.

    The position is replayed turn by turn from the log with every player's Botzone transcript;
    the bot answers under ``seed`` (same match id, ply and seat as the original decision).
    """
    state = game.new_initial_state(initdata=match.initdata, seed=match.seed)
    n = game.num_players
    requests: list[list[Any]] = [[] for _ in range(n)]
    responses: list[list[Any]] = [[] for _ in range(n)]
    for entry in match.entries:
        movers = state.current_players()
        for p in movers:
            requests[p].append(state.request_for(p))
        if state.ply == ply and seat in movers:
            logged = state.decode_response(seat, entry[str(seat)]["response"])
            ctx = DecisionContext(seed=seed, match_id=match.match_id, ply=state.ply,
                                  player=seat, requests=list(requests[seat]),
                                  responses=list(responses[seat]))
            raw = respond(bot, state.clone(), ctx)
            try:
                now = state.decode_response(seat, raw)
            except ValueError:  # an illegal or unreadable answer agrees with nothing
                now = None
            return logged, now
        actions = {p: state.decode_response(p, entry[str(p)]["response"]) for p in movers}
        for p in movers:
            responses[p].append(entry[str(p)]["response"])
        state.apply_actions(actions)
    raise ValueError(f"match {match.match_id}: seat {seat} does not decide at ply {ply}")


def self_agreement(
    game: Game,
    bot_id: str,
    bot: Bot | None,
    log_paths: Sequence[str | Path],
    rows: Sequence[tuple[str, int, int]],
    *,
    default_seed: int,
) -> dict[str, Any]:
    """Agreement of ``bot`` with its logged actions on ``rows`` ((match id, ply, seat)).

    Returns the rate in % and every row's verdict (``[match, ply, seat, same]``), from which
    :func:`ceiling_columns` draws its CI. ``bot`` None (a raw log's player that no config can
    rebuild) gives no figure, with the reason.
    """
    out: dict[str, Any] = {"bot": bot_id, "decisions": len(rows)}
    if bot is None:
        return {**out, "self_agreement": None, "rows": [],
                "why": f"{bot_id} is not a bot of config/bots/{game.name}.yaml: nothing to re-ask"}
    wanted: dict[str, list[tuple[int, int]]] = {}
    for mid, ply, seat in rows:
        wanted.setdefault(mid, []).append((ply, seat))
    found: dict[str, LoggedMatch] = {}
    for path in log_paths:
        for item in iter_raw_matches(path):
            data = getattr(item, "data", None)
            if data is None:
                raise ValueError(f"unreadable match log line: {item}")
            mid = str(data.get("_id"))
            if mid in wanted and mid not in found:
                found[mid] = LoggedMatch.from_json(data, default_seed)
    missing = sorted(set(wanted) - set(found))
    if missing:
        raise ValueError(f"{bot_id}: {len(missing)} dataset match(es) are in none of the logs "
                         f"{[str(p) for p in log_paths][:3]}: first {missing[0]}")
    verdicts: list[list[Any]] = []
    for mid in sorted(wanted):
        match = found[mid]
        for ply, seat in wanted[mid]:
            if match.players[seat] != bot_id:
                raise ValueError(f"match {mid}: seat {seat} is {match.players[seat]}, "
                                 f"not {bot_id}")
            logged, now = ask_again(game, match, ply, seat, bot, reask_seed(match.seed))
            verdicts.append([mid, ply, seat, int(now is not None
                                                 and action_key(now) == action_key(logged))])
        bot.end_match(mid)
    agree = sum(v[3] for v in verdicts)
    rate = round(100.0 * agree / len(verdicts), 2) if verdicts else None
    return {**out, "matches": len(wanted), "agree": agree, "self_agreement": rate,
            "deterministic": bool(getattr(bot, "deterministic", True)), "rows": verdicts}


def ceiling_columns(ceiling: Mapping[str, Any] | None, *, bootstrap: int, ci: float,
                    seed: int) -> dict[str, float]:
    """Table 4.4's ceiling columns of one bot: the rate and its CI in % (NaN when not
    measured). The CI resamples whole matches: one match's decisions are not independent."""
    nan = float("nan")
    if not ceiling or ceiling.get("self_agreement") is None:
        return {"self_agreement": nan, "self_agreement_lo": nan,
                "self_agreement_hi": nan}
    rows = ceiling["rows"]
    same = [float(r[3]) for r in rows]
    lo, hi = (cluster_bootstrap_ci(same, [r[0] for r in rows], n_boot=bootstrap, level=ci,
                                   seed=seed, salt=f"self_agreement/{ceiling['bot']}")
              if bootstrap else (nan, nan))
    return {"self_agreement": float(ceiling["self_agreement"]),
            "self_agreement_lo": round(100.0 * lo, 2),
            "self_agreement_hi": round(100.0 * hi, 2)}


def spot_check(game_name: str, bot_id: str, opponent: str, matches: int, *, seed: int = 5,
               params: Mapping[str, Any] | None = None, workdir: str | Path = ".") -> dict:
    """Play ``matches`` of ``bot_id`` against ``opponent`` in the other seats (the bot's seat
    rotates), then re-ask the bot at every one of its decisions: the ceiling without running
    the pipeline."""
    from ime.bots.registry import make_bot
    from ime.core.registry import get_game
    from ime.matches.judge import run_match
    from ime.matches.logs import write_matches

    game = get_game(game_name, params)
    target, opp = make_bot(game_name, bot_id), make_bot(game_name, opponent)
    results = []
    for k in range(matches):
        seats = [opp] * game.num_players
        seats[k % game.num_players] = target
        results.append(run_match(game, seats, match_id=f"ceiling-{k}", seed=seed,
                                 player_ids=[b.bot_id for b in seats], record_decisions=True))
    path = Path(workdir) / f"ceiling_{game_name}_{bot_id}.jsonl"
    write_matches(path, results)
    rows = [(r.match_id, d.ply, d.player) for r in results for d in r.decisions
            if r.players[d.player] == bot_id]
    out = self_agreement(game, bot_id, make_bot(game_name, bot_id), [path], rows,
                         default_seed=seed)
    return {**{k: v for k, v in out.items() if k != "rows"},
            **ceiling_columns(out, bootstrap=1000, ci=0.95, seed=0)}


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m ime.evaluate.ceiling reversi rev3 opp_noisy1 6 [key=value ...]``."""
    import argparse
    import json
    import tempfile

    ap = argparse.ArgumentParser(description=spot_check.__doc__)
    ap.add_argument("game")
    ap.add_argument("bot")
    ap.add_argument("opponent")
    ap.add_argument("matches", type=int)
    ap.add_argument("params", nargs="*", help="game params key=value (Snake: width=11 height=10)")
    a = ap.parse_args(argv)
    params = {k: int(v) if v.lstrip("-").isdigit() else v
              for k, v in (p.split("=", 1) for p in a.params)}
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(spot_check(a.game, a.bot, a.opponent, a.matches, params=params or None,
                                    workdir=tmp)))


if __name__ == "__main__":
    main()
