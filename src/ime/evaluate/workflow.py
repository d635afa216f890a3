"""Where the evaluation stage reads and writes, and the plain params of its jobs.

The Snakefile composes the config into variants (:mod:`ime.config`); this module adds, per
variant, the evaluation's directories and job specs, so that ``rules/evaluate.smk`` and
``rules/report.smk`` stay declarative and everything here is unit-testable.

Paths (every directory names what its files depend on, so variants never overwrite each other):

* key sets     ``data/<game>/eval/<ltag>/<ktag>/keys/<target>.parquet`` (+ ``.candidates.parquet``,
  ``.json`` stats, ``.timing.json``), where ``ltag`` is the match logs' tag and ``ktag`` names the
  mining settings (``n100_l2_s0``);
* zoo scores   ``data/<game>/eval/<ltag>/<ktag>/scores/zoo/<agent>/<target>.parquet``;
* imitator scores ``.../scores/imit/<ttag>/<netdir>/<ens>/<agent>/<target>.parquet`` (``ttag``:
  the models' tag, ``netdir``: the net, ``ens``: ``ensemble`` or ``fold<k>``);
* tournament   ``data/<game>/eval/tournament/<ttag>/<netdir>/<ens>/<otag>/<a>__<b>.csv``
  (``otag``: rounds, opening plies, balance, seed);
* tables and figures in the variant's results directory.

Bot specs go into params (not paths), as in the match rules: changing a bot's parameters re-runs
exactly the jobs that play it. Adding an agent to ``evaluate.agents`` adds only its score jobs
(and re-runs the aggregate tables).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ime.evaluate.agents import imitated_target, imitator_id, imitator_spec

DEFAULTS: dict[str, Any] = {
    "n_keys": 1000,
    "max_candidates": None,
    "min_legal": 2,
    "references": None,
    "agents": [],
    "workers": 2,
    "seed": 0,
    "bootstrap": 1000,
    "ci": 0.95,
    "imitator": {"net": "conv", "fold": "ensemble", "heldout": True},
    "tournament": {"rounds": 50, "opening_plies": 4, "max_mobility_gap": 3,
                   "points": [3, 1, 0]},
    "clusters": 2,
}


class EvalConfigError(ValueError):
    """An unusable ``evaluate`` config; the message names the key."""


def default_eval_config() -> dict[str, Any]:
    """``config/evaluate/default.yaml`` (used when a composed config has no ``evaluate`` node)."""
    import yaml

    from ime.paths import config_dir

    path = config_dir() / "evaluate" / "default.yaml"
    if path.is_file():
        return _merge(DEFAULTS, yaml.safe_load(path.read_text()) or {})
    return _merge(DEFAULTS, {})


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in base.items()}
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) and k != "references":
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def eval_config(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The validated ``evaluate`` node of a composed (plain) config, defaults filled in."""
    node = cfg.get("evaluate")
    ecfg = _merge(DEFAULTS, node) if node is not None else default_eval_config()
    validate_eval_config(ecfg, cfg)
    return ecfg


def validate_eval_config(e: Mapping[str, Any], cfg: Mapping[str, Any] | None = None) -> None:
    """Raise :class:`EvalConfigError` listing every problem."""
    p: list[str] = []

    def pos_int(key: str, v: Any, minimum: int = 1) -> None:
        if not (isinstance(v, int) and not isinstance(v, bool) and v >= minimum):
            p.append(f"evaluate.{key} must be an int >= {minimum}, got {v!r}")

    pos_int("n_keys", e["n_keys"])
    if e["max_candidates"] is not None:
        pos_int("max_candidates", e["max_candidates"])
    pos_int("min_legal", e["min_legal"])
    pos_int("workers", e["workers"])
    pos_int("seed", e["seed"], 0)
    pos_int("bootstrap", e["bootstrap"], 0)
    pos_int("clusters", e["clusters"])
    if not (isinstance(e["ci"], float) and 0 < e["ci"] < 1):
        p.append(f"evaluate.ci must be a float in (0, 1), got {e['ci']!r}")
    if not (isinstance(e["agents"], list) and all(isinstance(a, str) for a in e["agents"])):
        p.append(f"evaluate.agents must be a list of bot ids, got {e['agents']!r}")
    refs = e["references"]
    if refs is not None and not isinstance(refs, (list, Mapping)):
        p.append("evaluate.references must be null, a list of bot ids, or {game: [ids]}")
    im = e["imitator"]
    fold = im.get("fold")
    if not (fold == "ensemble" or (isinstance(fold, int) and not isinstance(fold, bool)
                                   and fold >= 0)):
        p.append(f"evaluate.imitator.fold must be 'ensemble' or a fold number, got {fold!r}")
    if not isinstance(im.get("heldout", True), bool):
        p.append(f"evaluate.imitator.heldout must be true/false, got {im.get('heldout')!r}")
    if not isinstance(im.get("net"), str):
        p.append(f"evaluate.imitator.net must be a net name, got {im.get('net')!r}")
    t = e["tournament"]
    pos_int("tournament.rounds", t["rounds"])
    pos_int("tournament.opening_plies", t["opening_plies"], 0)
    if t.get("max_mobility_gap") is not None:
        pos_int("tournament.max_mobility_gap", t["max_mobility_gap"], 0)
    pts = t["points"]
    if not (isinstance(pts, list) and len(pts) == 3):
        p.append(f"evaluate.tournament.points must be [win, draw, loss], got {pts!r}")
    if cfg is not None and not p:
        tr = cfg.get("train", {})
        folds = int(tr.get("run_folds") or tr.get("folds") or 0)  # folds actually trained
        if isinstance(fold, int) and folds and fold >= folds:
            p.append(f"evaluate.imitator.fold={fold} but only folds 0..{folds - 1} are trained "
                     "(train.folds / train.run_folds)")
        nets = cfg.get("train", {}).get("nets")
        if nets is not None and im["net"] not in nets and im["net"] != cfg.get("net", {}).get(
                "name"):
            p.append(f"evaluate.imitator.net={im['net']!r} is not trained (train.nets={nets})")
    if p:
        raise EvalConfigError("bad evaluate config:\n  " + "\n  ".join(p))


_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


class EvalPlan:
    """The evaluation stage of one variant (see the module doc for the paths)."""

    def __init__(self, variant: Any, bot_specs: Mapping[str, Mapping[str, Any]]):
        self.v = variant
        self.cfg = variant.cfg
        self.e = eval_config(self.cfg)
        self.game = variant.game
        self.targets = list(variant.targets)
        self.specs = {k: dict(v) for k, v in bot_specs.items()}
        e = self.e
        self.ktag = f"n{e['n_keys']}_l{e['min_legal']}_s{e['seed']}" + (
            f"_c{e['max_candidates']}" if e["max_candidates"] is not None else "")
        fold = e["imitator"]["fold"]
        self.ens = "ensemble" if fold == "ensemble" else f"fold{int(fold)}"
        self.net = e["imitator"]["net"]
        self.netdir = variant.net_dirs.get(self.net, self.net)
        t = e["tournament"]
        gap = t.get("max_mobility_gap")
        self.otag = (f"r{t['rounds']}_p{t['opening_plies']}_g{'x' if gap is None else gap}"
                     f"_s{e['seed']}")
        self.eval_dir = f"data/{self.game}/eval/{variant.logs_tag}/{self.ktag}"
        self.imit_dir = f"{variant.train_tag}/{self.netdir}/{self.ens}"
        self.tour_dir = f"data/{self.game}/eval/tournament/{self.imit_dir}/{self.otag}"
        for b in [*self.targets, *self.extra_agents()]:
            if not _SAFE.match(b) or "__" in b:
                raise EvalConfigError(f"bot id {b!r} cannot name a file ([A-Za-z0-9._-], no '__')")

    # --- who -------------------------------------------------------------------------------------
    def references(self, target: str) -> list[str]:
        """The reference pool minus ``target`` (the other targets unless configured)."""
        refs = self.e["references"]
        if isinstance(refs, Mapping):
            refs = refs.get(self.game)
        pool = list(refs) if refs is not None else list(self.targets)
        return [r for r in pool if r != target]

    def imitators(self) -> list[str]:
        return [imitator_id(t) for t in self.targets]

    def extra_agents(self) -> list[str]:
        return [a for a in self.e["agents"] if a not in self.targets]

    def agents(self) -> list[str]:
        """Everyone scored on every target's key set: originals, imitators, extra agents."""
        return [*self.targets, *self.imitators(), *self.extra_agents()]

    def players(self) -> list[str]:
        """Tournament field (Table 4.8): the originals and their imitators."""
        return [*self.targets, *self.imitators()]

    def pairs(self) -> list[tuple[str, str]]:
        from ime.evaluate.tournament import round_robin_pairs

        return round_robin_pairs(self.players())

    # --- paths -----------------------------------------------------------------------------------
    def keys_path(self, target: str, suffix: str = ".parquet") -> str:
        return f"{self.eval_dir}/keys/{target}{suffix}"

    def score_path(self, agent: str, target: str) -> str:
        if imitated_target(agent) in self.targets:
            return f"{self.eval_dir}/scores/imit/{self.imit_dir}/{agent}/{target}.parquet"
        return f"{self.eval_dir}/scores/zoo/{agent}/{target}.parquet"

    def stored(self, agent: str, target: str) -> bool:
        """True when ``agent`` was forked while mining ``target``'s keys (a reference): its
        scores are read from the key set, no job needed."""
        return agent in self.references(target)

    def scored_pairs(self) -> list[tuple[str, str]]:
        """(agent, target) pairs that need a score job (forks)."""
        return [(a, t) for a in self.agents() for t in self.targets
                if a != t and not self.stored(a, t)]

    def score_paths(self) -> list[str]:
        return [self.score_path(a, t) for a, t in self.scored_pairs()]

    def pair_path(self, a: str, b: str, suffix: str = ".csv") -> str:
        return f"{self.tour_dir}/{a}__{b}{suffix}"

    def checkpoints(self, target: str) -> list[str]:
        """The imitator's checkpoint files: every fold (ensemble) or the configured one."""
        folds = range(self.v.folds) if self.ens == "ensemble" else [int(self.ens[4:])]
        return [self.v.checkpoint_path(target, self.net, k) for k in folds]

    # --- held-out scoring (ime.evaluate.heldout) --------------------------------------------------
    def heldout(self) -> bool:
        return bool(self.e["imitator"].get("heldout", True))

    def heldout_path(self, target: str) -> str:
        agent = imitator_id(target)
        return (f"{self.eval_dir}/scores/heldout/{self.v.train_tag}/{self.netdir}/{agent}/"
                f"{target}.parquet")

    def heldout_inputs(self, target: str) -> dict[str, Any]:
        return {"keyset": self.keys_path(target), "dataset": self.v.dataset_path(target),
                "checkpoints": [self.v.checkpoint_path(target, self.net, k)
                                for k in range(self.v.folds)]}

    def heldout_spec(self, target: str) -> dict[str, Any]:
        from ime.evaluate.heldout import fold_agent_id

        agent = imitator_id(target)
        trained = list(range(self.v.folds))
        specs = self.own_specs(target)
        specs[agent] = imitator_spec([self.v.checkpoint_path(target, self.net, k)
                                      for k in trained], target=target, net=self.net,
                                     fold="ensemble")
        for k in trained:
            specs[fold_agent_id(agent, k)] = imitator_spec(
                [self.v.checkpoint_path(target, self.net, k)], target=target, net=self.net,
                fold=k)
        t = self.cfg["train"]
        return {"game": self.game, "target": target, "imitator": agent, "trained": trained,
                "folds": int(t["folds"]), "train_seed": int(t["seed"]),
                "bot_specs": {b: specs[b] for b in sorted(specs)}}

    def agent_inputs(self, agent: str) -> list[str]:
        t = imitated_target(agent)
        return self.checkpoints(t) if t in self.targets else []

    # --- specs -----------------------------------------------------------------------------------
    def match_players(self, target: str) -> list[str]:
        """The bots that can sit in ``target``'s matches: the target, the opponents and its
        sparring partners for generated logs (``Variant.players_of``); for raw logs, where a
        part may hold anyone, every target and opponent of the config."""
        players = self.v.players_of(target)
        if players is None:
            g = self.cfg["game"]
            players = [*g["targets"], *g.get("opponents", [])]
        return list(dict.fromkeys(players))

    def own_specs(self, target: str, extra: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
        """Specs of the bots a job of ``target`` can meet (its match players plus ``extra``:
        references, the scored agent), sorted by id. Nothing of another target's goes in, so
        these params, which Snakemake fingerprints, stay the same when a target is added."""
        specs = self.specs_for([*self.match_players(target), *extra])
        return {b: specs[b] for b in sorted(specs)}

    def specs_for(self, bots: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Zoo and imitator specs of ``bots`` (ids the zoo lacks are left out: external logs)."""
        out = {}
        for b in bots:
            t = imitated_target(b)
            if t in self.targets and b not in self.specs:
                out[b] = imitator_spec(self.checkpoints(t), target=t, net=self.net,
                                       fold=self.e["imitator"]["fold"])
            elif b in self.specs:
                out[b] = self.specs[b]
        return out

    def keys_spec(self, target: str) -> dict[str, Any]:
        e = self.e
        refs = self.references(target)
        return {
            "game": self.game, "target": target, "references": refs,
            "n_keys": e["n_keys"], "max_candidates": e["max_candidates"],
            "min_legal": e["min_legal"], "seed": e["seed"],
            "match_seed": int(self.cfg["matches"]["seed"]),
            "bot_specs": self.own_specs(target, refs),
        }

    def score_spec(self, agent: str, target: str) -> dict[str, Any]:
        return {"game": self.game, "agent": agent, "target": target,
                "bot_specs": self.own_specs(target, [agent])}

    def pair_spec(self, a: str, b: str) -> dict[str, Any]:
        t = self.e["tournament"]
        return {"game": self.game, "a": a, "b": b, "rounds": t["rounds"],
                "opening_plies": t["opening_plies"],
                "max_mobility_gap": t.get("max_mobility_gap"), "seed": self.e["seed"],
                "bot_specs": self.specs_for([a, b])}

    def similarity_spec(self) -> dict[str, Any]:
        return {"game": self.game, "targets": self.targets, "agents": self.agents(),
                "keys": {t: self.keys_path(t) for t in self.targets},
                "scores": {f"{a}|{t}": self.score_path(a, t) for a, t in self.scored_pairs()},
                "stored": [f"{a}|{t}" for a in self.agents() for t in self.targets
                           if a != t and self.stored(a, t)],
                "heldout": ({t: self.heldout_path(t) for t in self.targets}
                            if self.heldout() else {}),
                "bootstrap": self.e["bootstrap"], "ci": self.e["ci"], "seed": self.e["seed"]}

    def tables_spec(self) -> dict[str, Any]:
        return {"game": self.game, "targets": self.targets,
                "specs": self.specs_for(self.targets), "clusters": self.e["clusters"]}

    def tournament_spec(self) -> dict[str, Any]:
        return {"game": self.game, "targets": self.targets, "players": self.players(),
                "points": self.e["tournament"]["points"], "bootstrap": self.e["bootstrap"],
                "ci": self.e["ci"], "seed": self.e["seed"],
                "pairs": [self.pair_path(a, b) for a, b in self.pairs()]}

    def moves_spec(self) -> dict[str, Any]:
        """Fig 4.2 compares thesis bots 1 and 5 (else the first and last target)."""
        num = {int((self.specs.get(t, {}).get("thesis") or {}).get("bot", 0) or 0): t
               for t in self.targets}
        pair = [num.get(1, self.targets[0]), num.get(5, self.targets[-1])]
        return {"game": self.game, "bots": self.targets, "pair": pair}

    # --- results ---------------------------------------------------------------------------------
    def result(self, name: str) -> str:
        return self.v.table_path(name)


class EvalIndex:
    """Wildcards of the evaluation rules -> the variant's :class:`EvalPlan`."""

    def __init__(self, plan: Any, bot_specs: Mapping[str, Mapping[str, Any]]):
        self.plans: dict[str, EvalPlan] = {}
        self.by_eval_dir: dict[str, EvalPlan] = {}
        self.by_imit: dict[tuple[str, str], EvalPlan] = {}
        self.by_heldout: dict[tuple[str, str], EvalPlan] = {}
        self.by_tour_dir: dict[str, EvalPlan] = {}
        for v in plan.variants():
            if v.results_dir in self.plans:
                continue
            ep = EvalPlan(v, bot_specs)
            self.plans[v.results_dir] = ep
            self.by_eval_dir.setdefault(ep.eval_dir, ep)
            self.by_imit.setdefault((ep.eval_dir, ep.imit_dir), ep)
            self.by_heldout.setdefault((ep.eval_dir, f"{v.train_tag}/{ep.netdir}"), ep)
            self.by_tour_dir.setdefault(ep.tour_dir, ep)

    def for_rdir(self, rdir: str) -> EvalPlan:
        return self.plans[rdir]

    def for_keys(self, game: str, ltag: str, ktag: str) -> EvalPlan:
        return self.by_eval_dir[f"data/{game}/eval/{ltag}/{ktag}"]

    def for_imitator(self, game: str, ltag: str, ktag: str, ttag: str, netdir: str,
                     ens: str) -> EvalPlan:
        return self.by_imit[(f"data/{game}/eval/{ltag}/{ktag}", f"{ttag}/{netdir}/{ens}")]

    def for_heldout(self, game: str, ltag: str, ktag: str, ttag: str, netdir: str) -> EvalPlan:
        return self.by_heldout[(f"data/{game}/eval/{ltag}/{ktag}", f"{ttag}/{netdir}")]

    def for_tour(self, game: str, ttag: str, netdir: str, ens: str, otag: str) -> EvalPlan:
        return self.by_tour_dir[f"data/{game}/eval/tournament/{ttag}/{netdir}/{ens}/{otag}"]

    def constraints(self) -> dict[str, str]:
        """Regexes for the evaluation's own wildcards."""
        ps = list(self.plans.values())
        targets = {t for p in ps for t in p.targets}
        agents = {a for p in ps for a in p.agents()}
        players = {b for p in ps for b in p.players()}

        def alt(vals: set[str]) -> str:
            return "|".join(re.escape(x) for x in sorted(vals, key=lambda s: (-len(s), s)))

        return {"target": alt(targets), "agent": alt(agents), "pa": alt(players),
                "pb": alt(players), "ktag": alt({p.ktag for p in ps}),
                "ens": alt({p.ens for p in ps}), "otag": alt({p.otag for p in ps})}

