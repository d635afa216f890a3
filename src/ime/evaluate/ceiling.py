"""How far imitation can go: a bot's agreement with its own logged decisions.

An imitator is scored on how often it plays the logged action. A bot that is stochastic (Monte
Carlo rollouts, random tie-breaks) would not always play its own logged action either, so no net
can beat the rate at which the bot agrees with itself. ``self_agreement`` measures that ceiling:
on a seeded sample of the decisions in the bot's dataset (every row is a validation row of one
fold, so this is the validation states' ceiling), it rebuilds the position from the log, asks the
bot again under another seed (:func:`reask_seed`), and counts equal actions. A deterministic bot
should score 100 %; anything lower means the bot reads something beyond (config, seed, history),
which the bot contract forbids.

Self-agreement is not the best top-1 accuracy, though. A bot that plays move ``a`` with
probability ``p(a)`` agrees with one redraw with probability ``sum_a p(a)^2``, while a predictor
that always plays the bot's modal move scores ``max_a p(a)``, which is at least as much (equal
only when the bot is deterministic or uniform over its support). An imitator that learns the mode
can beat self-agreement (issue 46: c4_greedy's search imitator at 40 % unseen against a 31 %
self-agreement). So a bot that is not deterministic is re-asked ``repeats`` times at each sampled
decision (:func:`reask_seed` with repeat 0 .. repeats-1; repeat 0 is the self-agreement's own
re-ask) and two estimates of the best top-1 accuracy, ``E[max_a p(a)]``, are kept beside it
(:func:`top1_estimates`): ``top1_mode``, how often the mode of the re-asks is the logged action
(a predictor one could build, the bot asked ``repeats`` times: a lower estimate), and
``top1_max``, the largest frequency among the logged action and the re-asks (the plug-in maximum
is biased up: an upper estimate). A deterministic bot is asked once; its two equal its
self-agreement.

The position is replayed through the rules with the same Botzone transcript the judge would send
(requests and earlier responses), so external programs are re-asked exactly like in-process bots.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
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


def top1_estimates(logged: Hashable, answers: Sequence[Hashable | None]) -> tuple[int, float]:
    """(``top1_lo``, ``top1_hi``) of one decision from its logged action and the bot's
    ``answers`` when re-asked (action keys; None: an illegal or unreadable answer).

    ``top1_lo`` is 1 when the mode of ``answers`` (ties broken by first occurrence; None never
    counts) is ``logged``: the hit of the predictor "ask the bot len(answers) times and play the
    most frequent answer", so its mean is a lower estimate of the best achievable top-1 accuracy
    ``E[max_a p(a)]``. ``top1_hi`` is the largest frequency among the ``len(answers) + 1``
    actions (logged and re-asked; a None is in the count, not in any action's): the plug-in
    maximum, whose mean is biased up, an upper estimate. Logged ``a`` and answers ``a a b c``
    give (1, 3/5).
    """
    if not answers:
        raise ValueError("top1_estimates needs at least one re-asked answer")
    counts: dict[Hashable, int] = {}
    for a in answers:
        if a is not None:
            counts[a] = counts.get(a, 0) + 1
    mode = max(counts, key=counts.__getitem__) if counts else None  # first of the largest
    total = dict(counts)
    total[logged] = total.get(logged, 0) + 1
    return int(mode is not None and mode == logged), max(total.values()) / (len(answers) + 1)


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
    repeats: int = 1,
) -> dict[str, Any]:
    """Agreement of ``bot`` with its logged actions on ``rows`` ((match id, ply, seat)).

    Returns the rate in % and every row's verdict (``[match, ply, seat, same]``), from which
    :func:`ceiling_columns` draws its CI. ``bot`` None (a raw log's player that no config can
    rebuild) gives no figure, with the reason.

    Beside it, the top-1 ceiling (:func:`top1_estimates`): a bot that is not deterministic is
    re-asked ``repeats`` times at each decision, a whole pass over a match's decisions per repeat
    with ``bot.end_match`` after each (so repeat 0 is exactly the self-agreement's re-ask and no
    kept-running program carries one pass into the next); a deterministic one once, its two
    estimates being its verdict. Keys ``repeats`` (as used), ``top1_mode`` and ``top1_max`` (in
    %) and ``top1_rows`` (``[match, ply, seat, top1_lo, top1_hi]``, for :func:`top1_columns`).
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
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
    deterministic = bool(getattr(bot, "deterministic", True))
    passes = 1 if deterministic else repeats
    verdicts: list[list[Any]] = []
    top1: list[list[Any]] = []
    for mid in sorted(wanted):
        match = found[mid]
        for _ply, seat in wanted[mid]:
            if match.players[seat] != bot_id:
                raise ValueError(f"match {mid}: seat {seat} is {match.players[seat]}, "
                                 f"not {bot_id}")
        answers: list[list[Any]] = [[] for _ in wanted[mid]]
        logged_keys: list[Any] = []
        for repeat in range(passes):
            for k, (ply, seat) in enumerate(wanted[mid]):
                logged, now = ask_again(game, match, ply, seat, bot,
                                        reask_seed(match.seed, repeat))
                answers[k].append(None if now is None else action_key(now))
                if repeat == 0:
                    logged_keys.append(action_key(logged))
            bot.end_match(mid)
        for (ply, seat), key, got in zip(wanted[mid], logged_keys, answers, strict=True):
            same = int(got[0] is not None and got[0] == key)
            verdicts.append([mid, ply, seat, same])
            lo, hi = (same, float(same)) if deterministic else top1_estimates(key, got)
            top1.append([mid, ply, seat, lo, hi])
    agree = sum(v[3] for v in verdicts)
    rate = round(100.0 * agree / len(verdicts), 2) if verdicts else None

    def pct(i: int) -> float | None:
        return round(100.0 * sum(t[i] for t in top1) / len(top1), 2) if top1 else None

    return {**out, "matches": len(wanted), "agree": agree, "self_agreement": rate,
            "deterministic": deterministic, "rows": verdicts, "repeats": passes,
            "top1_mode": pct(3), "top1_max": pct(4), "top1_rows": top1}


def _rate_columns(name: str, rate: float, rows: Sequence[Sequence[Any]], col: int, *,
                  bot: str, bootstrap: int, ci: float, seed: int) -> dict[str, float]:
    """``name``, ``name_lo`` and ``name_hi`` in %: ``rate`` and the CI of the mean of column
    ``col`` of ``rows`` (``[match, ply, seat, ...]``), resampling whole matches (one match's
    decisions are not independent) with the salt every ceiling column of ``bot`` shares, so they
    all draw the same resamples."""
    nan = float("nan")
    lo, hi = (cluster_bootstrap_ci([float(r[col]) for r in rows], [r[0] for r in rows],
                                   n_boot=bootstrap, level=ci, seed=seed,
                                   salt=f"self_agreement/{bot}")
              if bootstrap else (nan, nan))
    return {name: float(rate), f"{name}_lo": round(100.0 * lo, 2),
            f"{name}_hi": round(100.0 * hi, 2)}


def ceiling_columns(ceiling: Mapping[str, Any] | None, *, bootstrap: int, ci: float,
                    seed: int) -> dict[str, float]:
    """Table 4.4's ceiling columns of one bot: the rate and its CI in % (NaN when not
    measured). The CI resamples whole matches: one match's decisions are not independent."""
    nan = float("nan")
    if not ceiling or ceiling.get("self_agreement") is None:
        return {"self_agreement": nan, "self_agreement_lo": nan,
                "self_agreement_hi": nan}
    return _rate_columns("self_agreement", ceiling["self_agreement"], ceiling["rows"], 3,
                         bot=ceiling["bot"], bootstrap=bootstrap, ci=ci, seed=seed)


UNSEEN_CEILING_COLUMNS = ["self_agreement_unseen", "self_agreement_unseen_lo",
                          "self_agreement_unseen_hi", "self_agreement_unseen_n"]
"""The ceiling on unseen positions: self-agreement on the sampled decisions whose position no
model trained on (:func:`unseen_decisions`), its CI and how many sampled decisions that is."""


def unseen_decisions(dataset: str | Path, split: Any) -> set[tuple[str, int, int]]:
    """(match id, ply, seat) of every decision of ``dataset`` that a model of ``split``
    (:class:`ime.train.folds.Split`) validates on and whose exact position never occurs in that
    model's training rows: the rows ``val_acc_unseen`` is measured on, over all of the split's
    models (the folds a run leaves untrained hold positions of the same kind)."""
    from ime.datasets.schema import position_part, read_arrays

    arr = read_arrays(dataset)
    position = position_part(arr.state, arr.metadata)
    out: set[tuple[str, int, int]] = set()
    for fold in range(split.models):
        unseen = split.unseen(position, arr.match_id, fold)[2]
        out.update(zip(arr.match_id[unseen].astype(str).tolist(),
                       arr.ply[unseen].astype(int).tolist(),
                       arr.seat[unseen].astype(int).tolist(), strict=True))
    return out


def unseen_ceiling_columns(ceiling: Mapping[str, Any] | None,
                           unseen: set[tuple[str, int, int]] | None, *, bootstrap: int,
                           ci: float, seed: int) -> dict[str, float]:
    """:data:`UNSEEN_CEILING_COLUMNS` of one bot: its self-agreement on those of its sampled
    decisions that are in ``unseen`` (:func:`unseen_decisions`), so that an imitator's unseen
    accuracy is set beside the bot's own agreement on positions of the same kind (in a repeated
    opening a bot's answer can differ from its midgame answers' rate). The CI resamples whole
    matches with the other ceiling columns' salt. NaN (and n 0) when not measured."""
    measured = ceiling and ceiling.get("self_agreement") is not None and unseen is not None
    rows = ([r for r in ceiling["rows"] if (str(r[0]), int(r[1]), int(r[2])) in unseen]
            if measured else [])
    if not rows:
        return {**dict.fromkeys(UNSEEN_CEILING_COLUMNS[:3], float("nan")),
                "self_agreement_unseen_n": 0}
    rate = round(100.0 * sum(r[3] for r in rows) / len(rows), 2)
    return {**_rate_columns("self_agreement_unseen", rate, rows, 3, bot=ceiling["bot"],
                            bootstrap=bootstrap, ci=ci, seed=seed),
            "self_agreement_unseen_n": len(rows)}


TOP1_COLUMNS = ["top1_mode", "top1_mode_lo", "top1_mode_hi", "top1_max", "top1_max_lo",
                "top1_max_hi"]
"""The top-1 ceiling's columns: the lower (``top1_mode``) and upper (``top1_max``) estimate of
the best achievable top-1 accuracy, each with its CI, in %."""


def top1_columns(ceiling: Mapping[str, Any] | None, *, bootstrap: int, ci: float,
                 seed: int) -> dict[str, float]:
    """:data:`TOP1_COLUMNS` of one bot (NaN when not measured: no bot, or a file written before
    the top-1 ceiling). The CIs resample whole matches with the same draws as
    :func:`ceiling_columns` (same salt), so a deterministic bot's three CIs are equal."""
    nan = float("nan")
    if not ceiling or ceiling.get("self_agreement") is None or not ceiling.get("top1_rows"):
        return dict.fromkeys(TOP1_COLUMNS, nan)
    out: dict[str, float] = {}
    for name, col in (("top1_mode", 3), ("top1_max", 4)):
        out |= _rate_columns(name, ceiling[name], ceiling["top1_rows"], col, bot=ceiling["bot"],
                             bootstrap=bootstrap, ci=ci, seed=seed)
    return out


def spot_check(game_name: str, bot_id: str, opponent: str, matches: int, *, seed: int = 5,
               params: Mapping[str, Any] | None = None, workdir: str | Path = ".",
               repeats: int = 4) -> dict:
    """Play ``matches`` of ``bot_id`` against ``opponent`` in the other seats (the bot's seat
    rotates), then re-ask the bot at every one of its decisions (``repeats`` times when it is
    not deterministic): the ceilings without running the pipeline."""
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
                         default_seed=seed, repeats=repeats)
    return {**{k: v for k, v in out.items() if k not in ("rows", "top1_rows")},
            **ceiling_columns(out, bootstrap=1000, ci=0.95, seed=0),
            **top1_columns(out, bootstrap=1000, ci=0.95, seed=0)}


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
    ap.add_argument("--repeats", type=int, default=4,
                    help="re-asks of a stochastic bot per decision (the top-1 ceiling)")
    a = ap.parse_args(argv)
    params = {k: int(v) if v.lstrip("-").isdigit() else v
              for k, v in (p.split("=", 1) for p in a.params)}
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(spot_check(a.game, a.bot, a.opponent, a.matches, params=params or None,
                                    workdir=tmp, repeats=a.repeats)))


if __name__ == "__main__":
    main()
