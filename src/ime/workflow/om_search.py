"""The opponent-model search experiment of one variant (issue 49, Deliver 3): its cells' files,
inputs and job params, so that ``rules/om_search.smk`` stays declarative.

Per variant, :class:`OmPlan` says which originals are played (``om_search.targets`` that are
targets of this variant: a scale that trains fewer targets plays fewer), which cells each plays
(:mod:`ime.evaluate.om_experiment`), and where each cell's files go (patterns in
:mod:`ime.workflow.paths`):

* cells without an imitator (``plain_depth``, ``om_true``) under
  ``data/<game>/om_search/<ptag>/plain/<target>/``, where ``ptag`` names the games (openings,
  rounds, seed, the board options' hash) and our search (evaluation, depth cap, budgets), e.g.
  ``rev1-d4_n20000_a100000000_r20_p4_s0_g3``: another imitator family (the
  issue's (e): ``imitator=search``) or another ``mode`` plays none of them again;
* cells with one (``om``, ``om_wrong``, and ``plain_nodes``, whose budget is what ``om`` used)
  under ``<ptag>/<ttag>/<netdir>/<ens>/<mtag>/<target>/``: the imitators' models (the
  evaluation's net and fold, ``evaluate.imitator``) and how the search uses them (``mtag``).

A model cell's inputs are its imitator's checkpoints, so a retrained imitator re-plays the cells
that use it. Params hold only plain values, bot specs included (the target's, our evaluation's
inline, the imitator's resolved checkpoints), so a changed spec re-plays exactly its cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ime.evaluate.om_experiment import MODEL_CELLS, PLAYER, cell_spec
from ime.workflow import paths as P
from ime.workflow.errors import ConfigError
from ime.workflow.tags import SAFE, digest, fmt_value, params_tag
from ime.workflow.variants import Variant

PLAIN = "plain"
WRONG = "om_wrong"
"""Cell (d). Its files are named by the model too (``om_wrong-rev5.csv``): two runs that differ
only in ``om_search.misspecified`` then keep both cells instead of overwriting one file."""
"""``omdir`` of the cells that use no imitator."""
SPEC_KEYS = ("depth", "nodes", "plain_nodes", "mode", "mix", "min_prob", "batch")
"""The ``om_search`` keys our player's spec is built from (besides ``evaluation``)."""


def _tag(pieces: Sequence[tuple[str, Any]]) -> str:
    """``<prefix><value>`` pieces joined by ``_`` (a hash when a value cannot name a folder)."""
    out = []
    for prefix, value in pieces:
        v = fmt_value(value)
        if v is None or "_" in v:
            return "h" + digest(list(pieces))
        out.append(f"{prefix}{v}")
    s = "_".join(out)
    return s if SAFE.match(s) else "h" + digest(list(pieces))


def cell_stem(cell: str, model: str | None = None) -> str:
    """A cell's file stem (the cell rule's ``{cell}`` wildcard): the cell, and for cell (d) its
    model's bot after a dash."""
    return f"{WRONG}-{model}" if cell == WRONG else cell


def parse_stem(stem: str) -> tuple[str, str | None]:
    """``(cell, model)`` of a file stem (:func:`cell_stem`); the model only for cell (d)."""
    if stem.startswith(WRONG + "-"):
        return WRONG, stem[len(WRONG) + 1:]
    return stem, None


class OmPlan:
    """The experiment of one variant (see the module doc)."""

    def __init__(self, variant: Variant, bot_specs: Mapping[str, Mapping[str, Any]]):
        self.v = variant
        self.cfg = variant.cfg
        self.game = variant.game
        self.game_params = variant.game_params
        self.specs = {k: dict(s) for k, s in bot_specs.items()}
        self.s = dict(self.cfg["om_search"])
        e = self.cfg["evaluate"]
        self.net = str(e["imitator"]["net"])
        fold = e["imitator"]["fold"]
        self.fold: int | str = "ensemble" if fold == "ensemble" else int(fold)
        self.ens = "ensemble" if fold == "ensemble" else f"fold{int(fold)}"
        self.netdir = variant.net_dirs.get(self.net, self.net)
        t = e["tournament"]
        plies = self.s["opening_plies"]
        self.opening_plies = int(t["opening_plies"] if plies is None else plies)
        self.openings = dict(self.cfg["game"]["openings"])
        s = self.s
        self.player = dict(s.get("player") or {})
        """The game's player template (``om_search.player``; empty: ``om_search`` search)."""
        self.seats = 2
        """Seats of the game: a round's start is played once with our player in each."""
        if self.player:  # only a template game can have more seats (om_search plays two)
            from ime.core.registry import get_game

            g = get_game(self.game, self.game_params) if self.game_params else get_game(
                self.game)
            self.seats = int(g.num_players)
        self.rounds = int(s["games"]) // self.seats
        self.targets = [b for b in variant.targets if b in s["targets"]]
        board = params_tag(self.openings) + (f"_b{digest(self.game_params, 6)}"
                                             if self.game_params else "")
        if self.player:  # a template player: its kind and a hash of its spec name the games
            self.ptag = f"{self.player['kind']}-h{digest(self.player, 8)}_" + _tag(
                [("r", self.rounds), ("p", self.opening_plies), ("s", s["seed"])]) + board
        else:
            self.ptag = f"{s['evaluation']}-" + _tag(
                [("d", s["depth"]), ("n", s["nodes"]), ("a", s["plain_nodes"]),
                 ("r", self.rounds), ("p", self.opening_plies), ("s", s["seed"])]) + board
        mode = [("", s["mode"])] + ([("m", s["mix"]), ("q", s["min_prob"])]
                                    if s["mode"] == "prom" else [])
        # k: the accuracy record's sample (recorded while the model cells play: a new sample
        # re-plays them, so it names their folder)
        self.mtag = _tag([*mode, ("b", s["batch"]), ("e", s["equal_nodes"]),
                          ("k", s["accuracy_sample"])])
        self.model_dir = f"{variant.train_tag}/{self.netdir}/{self.ens}/{self.mtag}"

    # --- checks ------------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`ConfigError` when this variant has no experiment to run."""
        s = self.s
        where = f"config/game/{self.game}.yaml's overrides"
        if not s["targets"]:
            raise ConfigError(f"om_search.targets is empty for {self.game}: it has no "
                              f"opponent-model search experiment (set om_search.targets and "
                              f"om_search.evaluation in {where})")
        wrong = dict(s["misspecified"] or {})
        unknown = [b for b in [*s["targets"], *wrong.values()]
                   if b not in self.specs]
        if unknown:
            raise ConfigError(f"om_search: bots {unknown} are not in config/bots/{self.game}"
                              f".yaml")
        if not self.targets:
            raise ConfigError(f"om_search.targets={s['targets']}: none of them is a target of "
                              f"this variant (game.targets={self.v.targets}), so none has "
                              f"imitators")
        if not self.player and (s["evaluation"] is None or s["evaluation"] not in self.specs):
            raise ConfigError(f"om_search.evaluation={s['evaluation']!r} must name a search bot "
                              f"of config/bots/{self.game}.yaml (set it in {where})")
        if int(s["games"]) % self.seats:
            raise ConfigError(f"om_search.games={s['games']} must be a multiple of the "
                              f"{self.seats} seats of {self.game} (each deal is played with "
                              f"our player in every seat)")
        untrained = [b for b in wrong.values() if b not in self.v.targets]
        if untrained:
            raise ConfigError(f"om_search.misspecified names {untrained}, which are not targets "
                              f"of this variant: they have no imitators")

    # --- who -----------------------------------------------------------------------------------
    def wrong_model(self, target: str) -> str | None:
        """Cell (d)'s model for ``target``: ``om_search.misspecified``'s, else the next target
        after it in ``game.targets`` (cyclically); None when the variant has no other target."""
        chosen = (self.s["misspecified"] or {}).get(target)
        if chosen is not None:
            return str(chosen)
        ts = list(self.v.targets)
        others = ts[ts.index(target) + 1:] + ts[:ts.index(target)]
        return others[0] if others else None

    def cells(self, target: str) -> list[str]:
        """The configured cells that ``target`` can play (no ``om_wrong`` without another
        target)."""
        return [c for c in self.s["cells"]
                if not (c == "om_wrong" and self.wrong_model(target) is None)]

    def all_cells(self) -> list[tuple[str, str]]:
        return [(t, c) for t in self.targets for c in self.cells(t)]

    # --- paths -------------------------------------------------------------------------------
    def omdir(self, cell: str) -> str:
        return self.model_dir if cell in (*MODEL_CELLS, "plain_nodes") else PLAIN

    def path(self, target: str, cell: str, pattern: str = P.OM_GAMES) -> str:
        stem = cell_stem(cell, self.wrong_model(target) if cell == WRONG else None)
        return P.fill(pattern, game=self.game, ptag=self.ptag, omdir=self.omdir(cell),
                      opp=target, cell=stem)

    def checkpoints(self, bot: str) -> list[str]:
        """The imitator of ``bot``: every trained fold (``ensemble``) or the configured one."""
        folds = range(self.v.folds) if self.fold == "ensemble" else [int(self.fold)]
        return [self.v.checkpoint_path(bot, self.net, k) for k in folds]

    def model_bot(self, target: str, cell: str) -> str | None:
        """The imitator's bot of ``cell`` (a cell or a file stem, :func:`cell_stem`): the
        target's own for (c), the stem's (else the configured) other bot's for (d)."""
        cell, named = parse_stem(cell)
        if cell == WRONG:
            return named or self.wrong_model(target)
        return target if cell == "om" else None

    # --- a cell's job --------------------------------------------------------------------------
    def cell_inputs(self, target: str, cell: str) -> dict[str, list[str]]:
        """A model cell's imitator checkpoints; cell (b)'s, with a measured budget, the games of
        cell (c) it takes the budget from."""
        bot = self.model_bot(target, cell)
        out: dict[str, list[str]] = {"checkpoints": self.checkpoints(bot) if bot else []}
        out["budget"] = ([self.path(target, "om")] if cell == "plain_nodes"
                         and self.s["equal_nodes"] == "measured" else [])
        return out

    def settings(self) -> dict[str, Any]:
        """The ``om_search`` settings a cell's spec is built from (only those: another key
        changes no cell's params), our evaluation inline; with a player template, only it."""
        if self.player:
            return {"player": self.player}
        ev = self.specs[self.s["evaluation"]]
        return {**{k: self.s[k] for k in SPEC_KEYS},
                "evaluation": {"kind": ev["kind"], "params": dict(ev.get("params") or {})}}

    def spec(self, target: str, cell: str, nodes: int | None = None) -> dict[str, Any]:
        """Our player's spec in ``cell`` against ``target`` (checkpoints resolved)."""
        from ime.bots.om_search import resolve_specs

        bot = self.model_bot(target, cell)
        spec = cell_spec(parse_stem(cell)[0], target, self.settings(), model_bot=bot, net=self.net,
                         fold=self.fold, nodes=nodes)
        return resolve_specs({PLAYER: spec}, lambda ref: self.checkpoints(ref.bot))[PLAYER]

    def cell_spec(self, target: str, cell: str) -> dict[str, Any]:
        """The cell job's params: the games, our player's spec (cell (b) with a measured budget:
        built by the job from cell (c)'s games, ``spec: null``), the target's spec, and for a
        model cell the accuracy record's sample (:mod:`ime.evaluate.om_accuracy`). ``cell``: a
        cell or its file stem (the rule's wildcard, :func:`cell_stem`)."""
        stem, cell = cell, parse_stem(cell)[0]
        measured = cell == "plain_nodes" and self.s["equal_nodes"] == "measured"
        fixed = None if measured else (int(self.s["equal_nodes"]) if cell == "plain_nodes"
                                       else None)
        return {"game": self.game, "game_params": self.game_params, "target": target,
                "cell": cell, "rounds": self.rounds, "opening_plies": self.opening_plies,
                "openings": self.openings, "seed": int(self.s["seed"]),
                "accuracy_sample": (int(self.s["accuracy_sample"]) if cell in MODEL_CELLS
                                    else 0),
                "spec": None if measured else self.spec(target, stem, fixed),
                "settings": self.settings() if measured else None,
                "bot_specs": {target: self.specs[target]}}

    # --- the table -----------------------------------------------------------------------------
    def table_inputs(self) -> dict[str, list[str]]:
        self.check()
        cells = self.all_cells()
        return {"games": [self.path(t, c) for t, c in cells],
                "cells": [self.path(t, c, P.OM_CELL) for t, c in cells],
                "timing": [self.path(t, c, P.OM_TIMING) for t, c in cells]}

    def table_spec(self) -> dict[str, Any]:
        self.check()
        return {"game": self.game, "net": self.net, "ci": float(self.cfg["evaluate"]["ci"]),
                "depth": int(self.s["depth"]), "games": int(self.s["games"]),
                **({"player": str(self.player["kind"])} if self.player else {}),
                "cells": [{"target": t, "cell": c, "games": self.path(t, c),
                           "cell_file": self.path(t, c, P.OM_CELL),
                           "timing": self.path(t, c, P.OM_TIMING)}
                          for t, c in self.all_cells()]}


class OmIndex:
    """Wildcards of the cell rule -> the variant's :class:`OmPlan`; results dirs -> plans."""

    def __init__(self, variants: Sequence[Variant],
                 bot_specs: Mapping[str, Mapping[str, Mapping[str, Any]]]):
        self.plans: dict[str, OmPlan] = {}
        self.by_cell: dict[tuple[str, str, str], OmPlan] = {}
        for v in variants:
            if v.results_dir in self.plans:
                continue
            plan = OmPlan(v, bot_specs.get(v.game, {}))
            self.plans[v.results_dir] = plan
            for omdir in (PLAIN, plan.model_dir):
                self.by_cell.setdefault((v.game, plan.ptag, omdir), plan)

    def for_rdir(self, rdir: str) -> OmPlan:
        return self.plans[rdir]

    def for_cell(self, game: str, ptag: str, omdir: str) -> OmPlan:
        return self.by_cell[(game, ptag, omdir)]

    def games(self, wc: Any) -> int:
        """Games of the cell rule's job with wildcards ``wc`` (the most workers it can use)."""
        plan = self.for_cell(wc.game, wc.ptag, wc.omdir)
        return plan.seats * plan.rounds

    def constraints(self) -> dict[str, str]:
        """Regexes of the cell rule's own wildcards."""
        from ime.evaluate.om_experiment import CELLS
        from ime.workflow.index import alternatives

        ps = list(self.plans.values())
        return {"ptag": alternatives(p.ptag for p in ps) or "(?!)",
                "omdir": alternatives([PLAIN, *(p.model_dir for p in ps)]),
                "opp": alternatives(t for p in ps for t in p.targets) or "(?!)",
                "cell": alternatives([*(c for c in CELLS if c != WRONG),
                                      *(cell_stem(WRONG, b) for p in ps for b in p.specs)])}
