"""Seed 002's two findings, reproduced: the UCT agent against graded opponents, and heuristic
against plain rollouts when playing the strongest of them.

The results hook of the plug-in (``results/connect4/seed002.csv``); settings come from
``game.extra.study`` of ``config/game/connect4.yaml``. Every game starts from the empty board and is
played by the judge (:func:`ime.matches.judge.run_match`), once per colour and index, with the
match id naming (agent, opponent, colour, index) and the config's seed; so the table is a pure
function of the config, whatever the number of worker processes.

Rows (``comparison``):

* ``graded``: the agent (heuristic rollouts, winning moves taken in selection; ``simulations``)
  against random, greedy, alpha-beta at each depth, plain UCT at the same budget, and the
  solver bot, ``games_per_colour`` games as first and as second player each;
* ``rollouts``: against the strongest opponent (``study.strongest``, or the one the agent
  scores lowest against; ``rollouts.opponents`` lists others instead), at each budget of
  ``rollouts.simulations``: the agent, the agent with plain rollouts (winning moves still
  taken in selection) and fully plain UCT, each ``rollouts.games_per_colour`` games per
  colour.

``score`` is the agent's win rate counting a draw as half a win; ``score_lo``/``score_hi`` the 95%
Wilson score interval of that rate over the games (draws as half a success: an
approximation, slightly wide when there are draws).

Standalone: ``python -m ime.games.connect4.study --out results/connect4/seed002.csv``.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import functools
import json
import math
import time
from collections.abc import Iterator, Mapping
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

import yaml

from ime.core.pools import fork_or_spawn, process_pool

Spec = tuple[str, str, str]
"""(name, kind, params as sorted JSON): hashable, so each worker builds a bot once."""

COLUMNS = ["comparison", "agent", "opponent", "simulations", "games", "wins", "draws", "losses",
           "score", "score_lo", "score_hi", "score_first", "score_second"]


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def _spec(name: str, kind: str, params: Mapping[str, Any]) -> Spec:
    return (name, kind, json.dumps(dict(params), sort_keys=True))


AGENTS = {"uct_heuristic": {},
          "uct_plain_rollouts": {"heuristic_rollouts": False},
          "uct_plain": {"heuristic_rollouts": False, "win_in_selection": False}}
"""The agent's three variants: seed 002's, without the rollout rules, without any rule."""


def agent(name: str, simulations: int, c: float) -> Spec:
    """A variant of the agent at a budget (the budget is part of the name, so of match ids)."""
    return _spec(f"{name}@{simulations}", "uct",
                 {"simulations": simulations, "c": c, **AGENTS[name]})


def opponents(study: Mapping[str, Any]) -> dict[str, Spec]:
    """The graded opponents of the study settings, weakest family first."""
    sims = int(study.get("simulations", 2000))
    out = {"random": _spec("random", "random", {}), "greedy": _spec("greedy", "greedy", {})}
    for d in study.get("depths", [1, 2, 3, 4, 5, 6]):
        out[f"alphabeta_d{d}"] = _spec(f"alphabeta_d{d}", "alphabeta",
                                       {"depth": int(d), "tie": "random"})
    out["uct_plain"] = agent("uct_plain", sims, float(study.get("c", 0.707)))
    out["solver"] = _spec("solver", "solver", dict(study.get("solver", {})))
    return out


@functools.lru_cache(maxsize=64)
def _bot(spec: Spec):
    from ime.games.connect4.bots import BOT_KINDS

    name, kind, params = spec
    return BOT_KINDS[kind]("connect4", name, json.loads(params))


def _play(task: tuple) -> float:
    """The agent's score (2 win, 1 draw, 0 loss) in one game."""
    from ime.core.registry import get_game
    from ime.matches.judge import run_match

    hero, opponent, colour, index, seed, params = task
    game = get_game("connect4", json.loads(params))
    seats = [hero, opponent] if colour == 0 else [opponent, hero]
    mid = f"seed002/{hero[0]}/{opponent[0]}/{'first' if colour == 0 else 'second'}/{index}"
    res = run_match(game, [_bot(s) for s in seats], match_id=mid, seed=seed,
                    player_ids=[s[0] for s in seats])
    return float(res.scores[colour])


def _row(comparison: str, hero: Spec, opponent: str, scores: list[float], per: int
         ) -> dict[str, Any]:
    first, second = scores[:per], scores[per:]
    n = len(scores)
    wins, draws = sum(s == 2 for s in scores), sum(s == 1 for s in scores)
    rate = (wins + draws / 2) / n
    lo, hi = wilson(wins + draws / 2, n)
    name, sims = hero[0].split("@")
    return {"comparison": comparison, "agent": name, "opponent": opponent,
            "simulations": int(sims), "games": n, "wins": wins, "draws": draws,
            "losses": n - wins - draws, "score": round(rate, 4), "score_lo": round(lo, 4),
            "score_hi": round(hi, 4), "score_first": round(sum(first) / (2 * per), 4),
            "score_second": round(sum(second) / (2 * per), 4)}


def run_study(study: Mapping[str, Any], game_params: Mapping[str, Any] | None = None,
              seed: int = 0, workers: int = 1, log: Any = print) -> list[dict[str, Any]]:
    """Play the study and return its table rows."""
    per = int(study.get("games_per_colour", 10))
    sims = int(study.get("simulations", 2000))
    c = float(study.get("c", 0.707))
    roll = dict(study.get("rollouts") or {})
    roll_per = int(roll.get("games_per_colour", per))
    seed = int(study.get("seed", seed))
    params = json.dumps(dict(game_params or {}), sort_keys=True)
    opps = opponents(study)

    def games(a: Spec, opponent: Spec, n: int) -> list[float]:
        tasks = [(a, opponent, colour, i, seed, params) for colour in (0, 1) for i in range(n)]
        t = time.perf_counter()
        out = list(pool.map(_play, tasks)) if pool else [_play(x) for x in tasks]
        log(f"{a[0]} vs {opponent[0]}: score {sum(out) / (2 * len(out)):.3f} "
            f"({time.perf_counter() - t:.1f} s)")
        return out

    with _pool(workers) as pool:
        hero = agent("uct_heuristic", sims, c)
        rows = [_row("graded", hero, name, games(hero, opp, per), per)
                for name, opp in opps.items()]
        strongest = study.get("strongest") or min(rows, key=lambda r: r["score"])["opponent"]
        against = roll.get("opponents") or [strongest]
        for o in [strongest, *against]:
            if o not in opps:
                raise ValueError(f"game.extra.study: opponent {o!r} is not one of {list(opps)}")
        for o in against:
            for budget in roll.get("simulations", [sims]):
                for name in AGENTS:
                    a = agent(name, int(budget), c)
                    rows.append(_row("rollouts", a, o, games(a, opps[o], roll_per), roll_per))
    return rows


def _finding2_setup(mode: str, opponents_: list[str], variants: list[str],
                    study: Mapping[str, Any] | None) -> tuple[dict[str, Spec], float]:
    """The ``--pilot``'s and ``--curve``'s shared start: every opponent and agent variant named
    must exist (a ``ValueError`` naming ``mode`` and the mistyped name otherwise); the
    opponents built from ``study`` and the agents' exploration constant, the study's ``c``."""
    for v in variants:
        if v not in AGENTS:
            raise ValueError(f"{mode}: variant {v!r} is not one of {list(AGENTS)}")
    known = opponents(study or {})
    for o in opponents_:
        if o not in known:
            raise ValueError(f"{mode}: opponent {o!r} is not one of {list(known)}")
    return known, float((study or {}).get("c", 0.707))


@contextlib.contextmanager
def _pool(workers: int) -> Iterator[Pool | None]:
    """A process pool of ``workers`` (None for one: the games run in this process);
    :func:`ime.core.pools.process_pool`, so that Ctrl-C reaches this thread."""
    if workers <= 1:
        yield None
        return
    with process_pool(fork_or_spawn(), workers) as pool:
        yield pool


def _play_point(pool: Pool | None, comparison: str, hero: Spec, opp_name: str,
                opp: Spec, per: int, seed: int, params: str) -> tuple[dict[str, Any], float]:
    """``per`` games per colour of ``hero`` against ``opp``: the table row, and the CPU seconds
    this process spent on them (all of them with one worker)."""
    tasks = [(hero, opp, colour, i, seed, params) for colour in (0, 1) for i in range(per)]
    t = time.process_time()
    out = list(pool.map(_play, tasks)) if pool else [_play(x) for x in tasks]
    return _row(comparison, hero, opp_name, out, per), time.process_time() - t


def run_pilot(game_params: Mapping[str, Any], opponent: str, budgets: Mapping[str, int],
              per: int, seed: int = 0, workers: int = 1, log: Any = print,
              on_row: Any = None, study: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Finding 2 on one board at per-variant budgets (``budgets``: agent variant -> simulations,
    e.g. each variant's simulations/s x the seed's 1.8 s), ``per`` games per colour against
    ``opponent`` (a name of :func:`opponents`, built from ``study`` as :func:`run_curve`'s are,
    and the agents' exploration constant is the study's ``c``). Rows as ``run_study``'s,
    comparison ``pilot``. The seed's course boards (over 64 bits) have no solver, so the
    strongest opponent there is alpha-beta. ``on_row(rows so far)`` is called after each
    variant, so a pilot stopped for its CPU budget keeps the variants it finished."""
    known, c = _finding2_setup("pilot", [opponent], list(budgets), study)
    params = json.dumps(dict(game_params), sort_keys=True)
    rows = []
    with _pool(workers) as pool:
        for name, budget in budgets.items():
            a = agent(name, int(budget), c)
            row, cpu = _play_point(pool, "pilot", a, opponent, known[opponent], per, seed,
                                   params)
            rows.append(row)
            log(f"{a[0]} vs {opponent}: {json.dumps(row)} ({cpu:.1f} CPU s in this process)")
            if on_row:
                on_row(rows)
    return rows


def run_curve(game_params: Mapping[str, Any], opponents_: list[str], budgets: list[int],
              variants: list[str], per: int, seed: int = 0, workers: int = 1,
              log: Any = print, on_row: Any = None,
              study: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Finding 2 over budgets: each agent variant of ``variants`` (names of :data:`AGENTS`)
    at each budget of ``budgets``, ``per`` games per colour against each opponent of
    ``opponents_`` (names of :func:`opponents`, built from ``study``: the study settings, so
    ``solver`` is the study's solver bot, not the bot's defaults); rows as ``run_study``'s,
    comparison ``curve``. Where the rollout rules stop mattering is :func:`saturation` of
    these rows. ``on_row(rows so far)`` after each row, so a stopped curve keeps what it
    finished."""
    known, c = _finding2_setup("curve", opponents_, variants, study)
    params = json.dumps(dict(game_params), sort_keys=True)
    rows: list[dict[str, Any]] = []
    with _pool(workers) as pool:
        for o in opponents_:
            for budget in budgets:
                for name in variants:
                    a = agent(name, int(budget), c)
                    row, cpu = _play_point(pool, "curve", a, o, known[o], per, seed, params)
                    rows.append(row)
                    log(f"{a[0]} vs {o}: score {row['score']:.3f} ({row['score_lo']:.3f}-"
                        f"{row['score_hi']:.3f}; {cpu:.1f} CPU s in this process)")
                    if on_row:
                        on_row(rows)
    return rows


def curve_spec(text: str) -> dict[str, Any]:
    """The ``--curve`` JSON, checked: ``opponents`` (names), ``budgets`` (simulations, each
    >= 1), ``games_per_colour`` (>= 1), optional ``params`` (the board) and ``variants``
    (default: heuristic and plain rollouts). A ``ValueError`` says what is wrong."""
    try:
        c = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e}): {text!r}") from None
    if not isinstance(c, dict):
        raise ValueError(f"expected a JSON object, got {text!r}")
    missing = [k for k in ("opponents", "budgets", "games_per_colour") if k not in c]
    if missing:
        raise ValueError(f"missing {missing} in {text!r}")
    budgets, per = c["budgets"], c["games_per_colour"]
    if not isinstance(budgets, list) or not budgets or not all(
            isinstance(b, int) and not isinstance(b, bool) and b >= 1 for b in budgets):
        raise ValueError(f"budgets must be a list of simulation counts >= 1, got {budgets!r}")
    if not isinstance(per, int) or isinstance(per, bool) or per < 1:
        raise ValueError(f"games_per_colour must be an integer >= 1, got {per!r}")
    return {"params": dict(c.get("params") or {}), "opponents": list(c["opponents"]),
            "budgets": budgets, "games_per_colour": per,
            "variants": list(c.get("variants") or ["uct_heuristic", "uct_plain_rollouts"])}


def saturation(rows: list[dict[str, Any]], better: str = "uct_heuristic",
               worse: str = "uct_plain_rollouts") -> list[dict[str, Any]]:
    """Per opponent of a curve's rows: the budgets where ``better`` beats ``worse`` with
    95% intervals apart (its lower bound above the other's upper: ``lifted_at``), and the
    smallest budget from which it never does again (``saturates_at``: the first budget after
    the last lifted one; the smallest budget when none is lifted; None when the largest budget
    is still lifted, i.e. the curve has not saturated), and the budgets where ``worse`` beats
    ``better`` with intervals apart (``reversed_at``). Finding 2 holds at a budget where the
    rollout rules lift the score beyond the intervals."""
    out = []
    for o in dict.fromkeys(r["opponent"] for r in rows):
        by = {(r["agent"], int(r["simulations"])): r for r in rows if r["opponent"] == o}
        budgets = sorted({b for (_, b) in by if (better, b) in by and (worse, b) in by})
        lo = {k: float(r["score_lo"]) for k, r in by.items()}  # rows from a CSV hold strings
        hi = {k: float(r["score_hi"]) for k, r in by.items()}
        lifted = [b for b in budgets if lo[(better, b)] > hi[(worse, b)]]
        reversed_ = [b for b in budgets if lo[(worse, b)] > hi[(better, b)]]
        sat = None
        if budgets and (not lifted or lifted[-1] != budgets[-1]):
            later = [b for b in budgets if not lifted or b > lifted[-1]]
            sat = later[0] if later else None
        out.append({"opponent": o, "budgets": budgets, "lifted_at": lifted,
                    "saturates_at": sat, "reversed_at": reversed_})
    return out


def plot_curve(rows: list[dict[str, Any]], png: str | Path) -> None:
    """Score against budget (log scale), one panel per opponent, one line per variant with its
    95% interval as a band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opps = list(dict.fromkeys(r["opponent"] for r in rows))
    fig, axes = plt.subplots(1, len(opps), figsize=(5 * len(opps), 3.6), squeeze=False)
    for ax, o in zip(axes[0], opps, strict=True):
        for v in dict.fromkeys(r["agent"] for r in rows):
            rs = sorted((r for r in rows if r["opponent"] == o and r["agent"] == v),
                        key=lambda r: int(r["simulations"]))
            x = [int(r["simulations"]) for r in rs]
            ax.plot(x, [float(r["score"]) for r in rs], marker="o", label=v)
            ax.fill_between(x, [float(r["score_lo"]) for r in rs],
                            [float(r["score_hi"]) for r in rs], alpha=0.2)
        ax.set_xscale("log")
        ax.set_ylim(0, 1)
        ax.set_xlabel("simulations per move")
        ax.set_ylabel("score (draw = half)")
        ax.set_title(f"against {o}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)


def write_rows(rows: list[dict[str, Any]], out_path: str | Path) -> None:
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def study_settings(game: Mapping[str, Any]) -> dict[str, Any]:
    """``game.extra.study`` (the config schema keeps plug-in settings under ``game.extra``;
    a bare ``game.study`` is read too)."""
    return dict((game.get("extra") or {}).get("study") or game.get("study") or {})


def results_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """Seed 002's findings: the UCT agent's win rate against graded opponents, and heuristic
    against plain rollouts versus the strongest one, with 95% Wilson CIs (``game.extra.study``)."""
    game = plain_cfg["game"]
    study = study_settings(game)
    from ime.core.workers import job_workers  # the job's threads (evaluate.workers, runtime)

    workers = job_workers(plain_cfg.get("evaluate", {}).get("workers", 1))
    rows = run_study(study, game.get("params"), seed=int(plain_cfg.get("seed", 0)),
                     workers=workers)
    write_rows(rows, out_path)


def main(argv: list[str] | None = None) -> None:
    from ime.paths import config_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/connect4/seed002.csv")
    ap.add_argument("--config", default=str(config_dir() / "game" / "connect4.yaml"))
    ap.add_argument("--games", type=int, help="games per opponent and colour")
    ap.add_argument("--simulations", type=int, help="the UCT budget")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pilot", metavar="JSON",
                    help='instead of the study, finding 2 only: {"params": {board}, "opponent": '
                         'name, "budgets": {variant: simulations}, "games_per_colour": n}, the '
                         "opponent and the agents' c as the --config study's")
    ap.add_argument("--curve", metavar="JSON",
                    help='instead of the study, finding 2 over budgets: {"params": {board}, '
                         '"opponents": [names], "budgets": [simulations], "variants": '
                         '[names], "games_per_colour": n}, the opponents as the --config '
                         "study's; writes --out, a figure beside it (.png) and prints where "
                         'the rollout rules stop mattering')
    ap.add_argument("--saturation", metavar="CSV",
                    help="print saturation() of a curve's CSV (written by --curve) and exit")
    a = ap.parse_args(argv)
    if a.saturation:
        with open(a.saturation, newline="", encoding="utf-8") as fh:
            for sat in saturation(list(csv.DictReader(fh))):
                print(f"saturation: {json.dumps(sat)}")
        return
    if a.curve:
        try:
            c = curve_spec(a.curve)
        except ValueError as e:
            ap.error(f"--curve: {e}")
        t = time.perf_counter()
        cfg = yaml.safe_load(Path(a.config).read_text(encoding="utf-8"))
        rows = run_curve(c["params"], c["opponents"], c["budgets"], c["variants"],
                         c["games_per_colour"], seed=a.seed, workers=a.workers,
                         on_row=lambda rows: write_rows(rows, a.out),
                         study=study_settings(cfg))
        plot_curve(rows, Path(a.out).with_suffix(".png"))
        for sat in saturation(rows):
            print(f"saturation: {json.dumps(sat)}")
        print(f"wrote {a.out} in {time.perf_counter() - t:.1f} s")
        return
    if a.pilot:
        p = json.loads(a.pilot)
        t = time.perf_counter()
        cfg = yaml.safe_load(Path(a.config).read_text(encoding="utf-8"))
        try:
            rows = run_pilot(p["params"], p["opponent"], p["budgets"],
                             int(p["games_per_colour"]), seed=a.seed, workers=a.workers,
                             on_row=lambda rows: write_rows(rows, a.out),
                             study=study_settings(cfg))
        except ValueError as e:
            ap.error(f"--pilot: {e}")
        print(f"wrote {a.out} in {time.perf_counter() - t:.1f} s")
        return
    cfg = yaml.safe_load(Path(a.config).read_text(encoding="utf-8"))
    study = study_settings(cfg)
    if a.games:
        study["games_per_colour"] = a.games
    if a.simulations:
        study["simulations"] = a.simulations
    t = time.perf_counter()
    rows = run_study(study, cfg.get("params"), seed=a.seed, workers=a.workers)
    write_rows(rows, a.out)
    print(f"wrote {a.out} in {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
