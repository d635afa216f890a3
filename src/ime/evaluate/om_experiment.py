"""Opponent-model search against the original bots (issue 49, Deliver 3): the cells, their games
and the table.

Why: the thesis's outlook (6.2) proposes to search with the opponent's imitator as its model.
Whether that pays is measured against the opponent itself, beside the controls that say what the
gain costs and what a wrong model does (Carmel & Markovitch's M* against minimax at equal depth
and at equal leaves; Donkers et al.'s warning about wrong models). Per target ``T`` (an original
bot of the game), our player is an ``om_search`` bot (:mod:`ime.bots.om_search`) with one
evaluation throughout, in one of these *cells*:

========== ===== ==================================================================================
cell       label what our player is
========== ===== ==================================================================================
plain_depth (a)  plain alpha-beta (``mode: none``) to the depth cap, with a budget that never binds
plain_nodes (b)  plain alpha-beta at the node budget that (c) used on average per searched decision
                 (``equal_nodes: measured``) or at a configured budget (an int)
om          (c)  opponent-model search with ``T``'s own imitator as the model
om_wrong    (d)  the same with another target's imitator (a mis-specified model)
om_true     (t)  the same with ``T`` itself as the model (``source: zoo``: the true model)
========== ===== ==================================================================================

(e), the best and the plainest imitator families, is (c) and (d) under another ``imitator=``
composition (docs/opponent_model.md). Each cell plays ``2 * rounds`` games against ``T``: every
round one seeded balanced opening (:func:`ime.evaluate.tournament.balanced_openings`, the
tournament's), once with our player in each seat (:func:`ime.evaluate.schedule.pair_schedule`),
so an opening that favours a seat favours neither player. In a game of more seats (Doudizhu)
each round's deal is played once with our player in every seat and ``T`` in all the others
(:func:`seat_schedule`), and our player is the game's ``om_search.player`` template (Doudizhu's
``pimc_om``, :func:`template_spec`), whose cells are (a), (c), (d) and the true model.

**Determinism.** Every bot decides by node counts, never by time, and each game is a function of
its round, seats and specs alone, so the games (and their per-game counts) replay exactly and
do not depend on how many worker processes play them. The wall time of our decisions is kept
apart (:func:`play_cell` returns it beside the games), so that the games' file and the table keep
the same bytes for the same config.

**The points share** of a cell is ``(wins + draws / 2) / games``, with a Wilson interval
(:func:`ime.core.intervals.wilson`); a cell's ``gain`` is its share minus (a)'s with Newcombe's
interval (:func:`ime.core.intervals.newcombe`; the two cells play the same openings and seats,
so the interval is conservative).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, State

if TYPE_CHECKING:  # pandas is imported where a table is made: the Snakefile imports this module
    import pandas as pd

    from ime.evaluate.om_accuracy import AccuracySample

CELLS = ("plain_depth", "plain_nodes", "om", "om_wrong", "om_true")
"""Every cell, in the table's order."""
LABELS = {"plain_depth": "a", "plain_nodes": "b", "om": "c", "om_wrong": "d", "om_true": "t"}
"""The issue's letter of each cell (``t``: the true-model row)."""
MODEL_CELLS = ("om", "om_wrong")
"""Cells whose model is an imitator (their files live under the imitators' tag)."""
PLAYER = "om_player"
"""Our player's id in every game of a cell."""

GAME_COLUMNS = ["round", "match_id", "player0", "player1", "score0", "score1", "outcome0",
                "plies", "seat", "points", "decisions", "searched", "nodes", "model_positions",
                "model_calls", "depth", "fault"]
"""A cell's games file: the tournament's columns, then our seat, our points (1 win, 0.5 draw,
0 loss) and our decisions' counts summed over the game (``searched``: decisions with more than
one legal move, the ones that search), and the fault, if any."""

TABLE_COLUMNS = ["target", "cell", "label", "mode", "model", "depth_cap", "nodes_budget", "games",
                 "wins", "draws", "losses", "points_share", "points_share_lo", "points_share_hi",
                 "gain", "gain_lo", "gain_hi", "nodes_mean", "model_positions_mean",
                 "depth_mean", "decisions"]
"""``om_search.csv``'s columns (:mod:`ime.report.columns` defines them)."""

COST_COLUMNS = ["target", "cell", "label", "decisions", "searched", "ms_mean", "nodes_mean",
                "model_positions_mean", "model_calls_mean", "depth_mean", "seconds", "workers"]
"""``om_search_cost.csv``'s columns: what a decision of our player costs in each cell (wall
times: not byte-stable, so apart from the table)."""


def template_spec(cell: str, target: str, player: Mapping[str, Any], *,
                  model_bot: str | None = None, net: str | None = None,
                  fold: int | str = "ensemble") -> dict[str, Any]:
    """Our player's spec in ``cell`` when the game's config gives a player template
    (``om_search.player``: ``{kind, params}`` of a bot that takes an ``opponent`` model in
    ``om_search``'s format, e.g. Doudizhu's ``pimc_om``).

    Why: a game whose search is no alpha-beta (Doudizhu's rollouts) asks the same question with
    the same cells; only how the model enters differs, so the template is played as it is in
    cell (a) (the same budget without a model), with the imitator as ``opponent`` in (c) and
    (d), and with ``target`` itself (``source: zoo``) in the true-model row. There is no node
    count to equal, so no cell (b)."""
    params = dict(player.get("params") or {})
    if cell == "plain_depth":
        pass
    elif cell in MODEL_CELLS:
        if model_bot is None or net is None:
            raise ValueError(f"cell {cell} needs the model's bot and net")
        params["opponent"] = {"bot": model_bot, "net": net, "fold": fold}
    elif cell == "om_true":
        params["opponent"] = {"bot": target, "source": "zoo"}
    elif cell == "plain_nodes":
        raise ValueError(f"cell plain_nodes needs a node-counting search; om_search.player "
                         f"({player.get('kind')}) has none: leave plain_nodes out of "
                         f"om_search.cells")
    else:
        raise ValueError(f"unknown cell {cell!r}; cells: {list(CELLS)}")
    return {"kind": str(player["kind"]), "params": params}


def cell_spec(cell: str, target: str, settings: Mapping[str, Any], *,
              model_bot: str | None = None, net: str | None = None,
              fold: int | str = "ensemble", nodes: int | None = None) -> dict[str, Any]:
    """Our player's ``om_search`` spec in ``cell`` against ``target``.

    ``settings``: ``evaluation``, ``depth``, ``nodes`` (the model cells' budget),
    ``plain_nodes`` (cell (a)'s), ``mode``, ``mix``, ``min_prob``, ``batch`` (the config's
    ``om_search`` section). ``model_bot``/``net``/``fold``: the imitator of the model cells
    (its checkpoints are filled by the workflow: :func:`ime.bots.om_search.resolve_specs`).
    ``nodes``: cell (b)'s budget (required there). With a ``player`` template in ``settings``
    the spec is :func:`template_spec`'s."""
    s = settings
    if s.get("player"):
        return template_spec(cell, target, s["player"], model_bot=model_bot, net=net, fold=fold)
    base = {"evaluation": s["evaluation"], "depth": int(s["depth"])}
    if cell == "plain_depth":
        params = {**base, "mode": "none", "nodes": int(s["plain_nodes"])}
    elif cell == "plain_nodes":
        if nodes is None:
            raise ValueError("cell plain_nodes needs its node budget")
        params = {**base, "mode": "none", "nodes": max(1, int(nodes))}
    elif cell in MODEL_CELLS:
        if model_bot is None or net is None:
            raise ValueError(f"cell {cell} needs the model's bot and net")
        params = {**base, "mode": str(s["mode"]), "nodes": int(s["nodes"]),
                  "opponent": {"bot": model_bot, "net": net, "fold": fold}}
        if s["mode"] == "prom":
            params.update(mix=float(s["mix"]), min_prob=float(s["min_prob"]))
    elif cell == "om_true":
        params = {**base, "mode": "search", "nodes": int(s["nodes"]),
                  "opponent": {"bot": target, "source": "zoo"}}
    else:
        raise ValueError(f"unknown cell {cell!r}; cells: {list(CELLS)}")
    if cell != "om_true" and params["mode"] != "none":
        params["batch"] = int(s["batch"])
    return {"kind": "om_search", "params": params}


def model_label(spec: Mapping[str, Any]) -> str:
    """The table's ``model`` of a cell spec: ``bot:net:fold`` for an imitator, ``bot:zoo`` for
    the true model, empty for plain search."""
    opp = dict((spec.get("params") or {}).get("opponent") or {})
    if not opp:
        return ""
    if opp.get("source") == "zoo":
        return f"{opp['bot']}:zoo"
    return f"{opp['bot']}:{opp.get('net')}:{opp.get('fold', 'ensemble')}"


def cell_mode(spec: Mapping[str, Any]) -> str:
    """The table's ``mode`` of a cell spec: how our player uses its model.

    An ``om_search`` spec names it (``none``, ``policy``, ``search``, ``prom``). A player
    template (:func:`template_spec`) has no ``mode``, so it is read from the cell: ``none``
    without an ``opponent`` (plain play, cell (a)), ``search`` for the true model (the zoo bot's
    own decision, as the two-player true-model row), and for an imitator the template's
    ``model_play`` (``sample`` or ``argmax``; absent: ``sample``, ``pimc_om``'s default)."""
    params = dict(spec.get("params") or {})
    if "mode" in params:
        return str(params["mode"])
    opp = dict(params.get("opponent") or {})
    if not opp:
        return "none"
    if opp.get("source") == "zoo":
        return "search"
    return str(params.get("model_play", "sample"))


# --- playing a cell -------------------------------------------------------------------------------
class _Recorder(Bot):
    """Our player, counting every decision: its counts (``bot.last``) and its wall time."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.bot_id = getattr(bot, "bot_id", PLAYER)
        self.deterministic = getattr(bot, "deterministic", True)
        self.counts = {"decisions": 0, "searched": 0, "nodes": 0, "model_positions": 0,
                       "model_calls": 0, "depth": 0}
        self.seconds = 0.0
        self.before: Callable[[State], None] | None = None
        """Called with the position before each decision (the model-accuracy record's root)."""

    def act(self, state: State, ctx: DecisionContext) -> Action:
        if self.before is not None:
            self.before(state)
        t0 = time.perf_counter()
        move = self.bot.act(state, ctx)
        self.seconds += time.perf_counter() - t0
        last = getattr(self.bot, "last", None) or {}
        c = self.counts
        c["decisions"] += 1
        # a rollout player (pimc_om) counts rollouts where a search counts nodes and depth
        if last.get("depth", 0) or last.get("rollouts", 0):
            c["searched"] += 1
            c["nodes"] += int(last.get("nodes", last.get("rollouts", 0)))
            for k in ("model_positions", "model_calls", "depth"):
                c[k] += int(last.get(k, 0))
        return move

    def end_match(self, match_id: str) -> None:
        self.bot.end_match(match_id)


@dataclass
class _Ctx:
    game: Any
    provider: Callable[[str], Bot]
    openings: list[tuple[Any, list[dict[str, Any]]]]
    seed: int
    tag: str
    accuracy: int = 0
    """Positions of each kind a game keeps for the model-accuracy record (0: none)."""


def _play(ctx: _Ctx, g: Any) -> dict[str, Any]:
    from ime.evaluate.forks import outcome
    from ime.matches.judge import run_match

    seat = list(g.players).index(PLAYER)
    player_bot = ctx.provider(PLAYER)
    rec = _Recorder(player_bot)
    bots = [rec if p == PLAYER else ctx.provider(p) for p in g.players]
    mid = f"{ctx.game.name}-om{ctx.seed}-{ctx.tag}-r{g.round:03d}-s{seat}"
    init, prefix = ctx.openings[g.round]
    sample, detach = None, None
    if ctx.accuracy > 0:  # only watches the model's calls and the target's moves
        from ime.evaluate.om_accuracy import GameSample

        sample = GameSample(ctx.accuracy, ctx.seed, mid)
        rec.before = sample.at_root
        # the target holds every other seat (two in Doudizhu): one watcher records each move
        watched, detach = sample.attach(player_bot, bots[(seat + 1) % len(bots)])
        bots = [b if k == seat else watched for k, b in enumerate(bots)]
    try:
        res = run_match(ctx.game, bots, match_id=mid, seed=ctx.seed, initdata=init,
                        prefix=prefix)
    finally:
        if detach is not None:
            detach()
    ours = outcome(res.scores, seat)
    row: dict[str, Any] = {"round": g.round, "match_id": mid, "player0": g.players[0],
                           "player1": g.players[1], "score0": float(res.scores[0]),
                           "score1": float(res.scores[1]), "outcome0": outcome(res.scores, 0),
                           "plies": int(res.final_state.ply), "seat": seat,
                           "points": ours / 2.0, **rec.counts,
                           "fault": "" if res.fault is None else str(res.fault)}
    for k in range(2, len(g.players)):
        row[f"player{k}"] = g.players[k]
        row[f"score{k}"] = float(res.scores[k])
    row["_seconds"] = rec.seconds
    row["_accuracy"] = sample.result() if sample is not None else None
    return row


def play_cell(game_name: str, target: str, provider_factory: Callable[[], Any], *,
              rounds: int, opening_plies: int, seed: int,
              openings: Mapping[str, Any] | None = None,
              game_params: Mapping[str, Any] | None = None, workers: int = 1,
              progress: bool = True, tag: str = "cell",
              accuracy: AccuracySample | None = None) -> tuple[pd.DataFrame, float]:
    """Our player (bot id :data:`PLAYER` of the provider) against ``target``: ``rounds``
    balanced openings, each once in each seat (more seats: :func:`seat_schedule`). Returns the
    games (:data:`GAME_COLUMNS`, in schedule order) and our decisions' summed wall time in
    seconds (kept out of the games).

    ``accuracy``: for a cell whose model is an imitator, the sample that the positions the
    model is asked about and the target's moves go into (:mod:`ime.evaluate.om_accuracy`;
    the games are the same with it and without)."""
    import pandas as pd
    from tqdm.auto import tqdm

    from ime.core.registry import get_game
    from ime.evaluate.agents import warm_up
    from ime.evaluate.parallel import ordered_map
    from ime.evaluate.tournament import balanced_openings, opening_prefix

    if game_params:
        game = get_game(game_name, game_params)
    else:
        game = get_game(game_name)
    opening_list = [(init, opening_prefix(game, o, seed, initdata=init)) for init, o in
                    balanced_openings(game, rounds, opening_plies, seed=seed,
                                      openings=openings, starts=True)]
    games = seat_schedule(target, int(rounds), int(game.num_players))

    def setup() -> _Ctx:
        prov = provider_factory()
        if workers > 1:
            warm_up(prov, [target], game)
        return _Ctx(game, prov, opening_list, seed, tag,
                    accuracy.k if accuracy is not None else 0)

    rows = []
    bar = tqdm(total=len(games), desc=f"{tag} vs {target}", unit="game", disable=not progress)
    for r in ordered_map(_play, games, setup, workers=workers):
        rows.append(r)
        bar.update()
    bar.close()
    seconds = float(sum(r.pop("_seconds") for r in rows))
    for r in rows:
        got = r.pop("_accuracy")
        if accuracy is not None and got is not None:
            accuracy.merge(got)
    return pd.DataFrame(rows, columns=game_columns(int(game.num_players))), seconds


def game_columns(seats: int) -> list[str]:
    """A cell's games columns in a game of ``seats`` seats: :data:`GAME_COLUMNS` (two seats),
    then ``player<k>``/``score<k>`` of every further seat (the two-player files keep their
    bytes)."""
    return GAME_COLUMNS + [f"{w}{k}" for k in range(2, seats) for w in ("player", "score")]


def seat_schedule(target: str, rounds: int, seats: int) -> list[Any]:
    """Every round, our player in each seat once and ``target`` in all the others.

    Why: in a game of more seats "against the original bot" means the original everywhere but
    our seat (as a Doudizhu farmer our teammate is the original too); each round's start (a
    deal) is played once with our player in every seat, so a start that favours a seat (the
    landlord's 20 cards) favours no cell. Two seats: the tournament's pair schedule."""
    from ime.evaluate.schedule import TourGame, pair_schedule

    if seats == 2:
        return pair_schedule(PLAYER, target, rounds)
    return [TourGame(r, tuple(PLAYER if q == s else target for q in range(seats)))
            for r in range(rounds) for s in range(seats)]


def mean_nodes(games: pd.DataFrame) -> int:
    """The nodes per searched decision of a cell's games, rounded (cell (b)'s budget when it
    equals (c)'s measured budget); at least 1."""
    searched = int(games["searched"].sum())
    return max(1, int(round(float(games["nodes"].sum()) / searched))) if searched else 1


def summary(games: pd.DataFrame) -> dict[str, Any]:
    """A cell's counts from its games: games, wins/draws/losses (ours), points, and our
    decisions' means per searched decision."""
    pts = games["points"].astype(float)
    searched = int(games["searched"].sum())

    def per(col: str) -> float:
        return float(games[col].sum()) / searched if searched else float("nan")

    return {"games": int(len(games)), "wins": int((pts == 1.0).sum()),
            "draws": int((pts == 0.5).sum()), "losses": int((pts == 0.0).sum()),
            "points": float(pts.sum()), "decisions": int(games["decisions"].sum()),
            "searched": searched, "nodes_mean": per("nodes"),
            "model_positions_mean": per("model_positions"),
            "model_calls_mean": per("model_calls"), "depth_mean": per("depth")}


def om_table(cells: Sequence[Mapping[str, Any]], level: float = 0.95) -> pd.DataFrame:
    """``om_search.csv``: one row per (target, cell) with the points share and its interval,
    the gain over the target's cell (a) with its interval, and our decisions' mean counts.

    ``cells``: per played cell, ``target``, ``cell``, ``spec`` (our player's spec) and
    ``games`` (its games, :data:`GAME_COLUMNS`)."""
    import pandas as pd

    from ime.core.intervals import newcombe, wilson

    rows = []
    base: dict[str, dict[str, Any]] = {}
    for c in cells:
        s = summary(c["games"])
        if c["cell"] == "plain_depth":
            base[c["target"]] = s
        rows.append((c, s))
    out = []
    order = {name: i for i, name in enumerate(CELLS)}
    targets = list(dict.fromkeys(c["target"] for c in cells))
    for c, s in sorted(rows, key=lambda cs: (targets.index(cs[0]["target"]),
                                             order[cs[0]["cell"]])):
        p = dict(c["spec"]["params"])
        n = s["games"]
        lo, hi = wilson(s["points"], n, level)
        b = base.get(c["target"])
        if b is not None and c["cell"] != "plain_depth":
            gain = s["points"] / n - b["points"] / b["games"] if n and b["games"] else np.nan
            glo, ghi = newcombe(s["points"], n, b["points"], b["games"], level)
        else:
            gain, glo, ghi = np.nan, np.nan, np.nan
        out.append({"target": c["target"], "cell": c["cell"], "label": LABELS[c["cell"]],
                    "mode": cell_mode(c["spec"]), "model": model_label(c["spec"]),
                    "depth_cap": int(p.get("depth", 0)),  # a rollout player: no depth cap
                    "nodes_budget": int(p.get("nodes", p.get("simulations", 0))),
                    "games": n, "wins": s["wins"], "draws": s["draws"], "losses": s["losses"],
                    "points_share": s["points"] / n if n else np.nan,
                    "points_share_lo": lo, "points_share_hi": hi,
                    "gain": gain, "gain_lo": glo, "gain_hi": ghi,
                    "nodes_mean": s["nodes_mean"],
                    "model_positions_mean": s["model_positions_mean"],
                    "depth_mean": s["depth_mean"], "decisions": s["searched"]})
    return pd.DataFrame(out, columns=TABLE_COLUMNS)


def cost_table(cells: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """``om_search_cost.csv``: per (target, cell), our decisions' mean wall time (ms per
    searched decision) beside their mean counts, and the cell job's wall time and workers.

    ``cells``: as :func:`om_table`'s, plus ``timing`` (the cell job's timing record:
    ``decision_seconds``, ``seconds``, ``workers``)."""
    import pandas as pd

    out = []
    for c in cells:
        s = summary(c["games"])
        t = c["timing"]
        out.append({"target": c["target"], "cell": c["cell"], "label": LABELS[c["cell"]],
                    "decisions": s["decisions"], "searched": s["searched"],
                    "ms_mean": (1000.0 * float(t["decision_seconds"]) / s["searched"]
                                if s["searched"] else np.nan),
                    "nodes_mean": s["nodes_mean"],
                    "model_positions_mean": s["model_positions_mean"],
                    "model_calls_mean": s["model_calls_mean"], "depth_mean": s["depth_mean"],
                    "seconds": float(t["seconds"]), "workers": int(t["workers"])})
    return pd.DataFrame(out, columns=COST_COLUMNS)
