"""The evaluation stage of one variant: who is scored on whose key endgames, and the job specs.

Per variant, :class:`EvalPlan` names the evaluation's files (patterns in
:mod:`ime.workflow.paths`: key sets under the logs' tag and the mining settings ``ktag``,
imitator scores under the models' tag, tournament pairs under the tournament settings ``otag``)
and the plain params of its jobs, so that ``rules/evaluate.smk`` and ``rules/report.smk`` stay
declarative. :class:`EvalIndex` routes the rules' wildcards back to the plan.

Bot specs go into params (not paths), as in the match rules: changing a bot's parameters re-runs
exactly the jobs that play it. Adding an agent to ``evaluate.agents`` adds only its score jobs
(and re-runs the aggregate tables). The game's reference pool (``game.references``) and opening
parameters (``game.openings``) come from the game's config.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ime.evaluate.agents import imitated_target, imitator_id, imitator_spec
from ime.workflow import paths as P
from ime.workflow.errors import ConfigError
from ime.workflow.tags import SAFE, params_tag
from ime.workflow.variants import Variant


def keys_tag(e: Mapping[str, Any]) -> str:
    """The key sets' folder name under ``data/<game>/eval/<logs tag>/`` for the resolved
    ``evaluate`` section ``e``: what the keys depend on (their count, the legal-move floor, the
    seed and the candidate cap), so a change to any of them mines new keys."""
    return f"n{e['n_keys']}_l{e['min_legal']}_s{e['seed']}" + (
        f"_c{e['max_candidates']}" if e["max_candidates"] is not None else "")


class EvalPlan:
    """The evaluation stage of one variant (see the module doc)."""

    def __init__(self, variant: Variant, bot_specs: Mapping[str, Mapping[str, Any]]):
        self.v = variant
        self.cfg = variant.cfg
        self.e = self.cfg["evaluate"]
        self.game = variant.game
        self.game_params = variant.game_params
        self.specs = {k: dict(v) for k, v in bot_specs.items()}
        self._seats: tuple[int, Any] | None = None  # (seats, teams), once pair_games asks
        self.targets = self._evaluated(list(variant.targets), self.e.get("targets"))
        e = self.e
        self.ktag = keys_tag(e)
        fold = e["imitator"]["fold"]
        self.ens = "ensemble" if fold == "ensemble" else f"fold{int(fold)}"
        self.net = e["imitator"]["net"]
        self.netdir = variant.net_dirs.get(self.net, self.net)
        t = e["tournament"]
        self.openings = dict(self.cfg["game"]["openings"])
        self.otag = (f"r{t['rounds']}_p{t['opening_plies']}{params_tag(self.openings)}"
                     f"_s{e['seed']}" + ("_sides" if t["lineups"] == "sides" else ""))
        if t["lineups"] == "sides":
            from ime.workflow.plugins import plugin_info

            teams = plugin_info(self.game).teams
            if len(teams) != 2:
                raise ConfigError(f"evaluate.tournament.lineups=sides needs a game of two sides; "
                                  f"{self.game} declares the teams {teams or '()'}: use "
                                  "lineups=rotations")
        self.where = {"game": self.game, "ltag": variant.logs_tag, "ktag": self.ktag,
                      "ttag": variant.train_tag, "netdir": self.netdir, "ens": self.ens,
                      "otag": self.otag}
        for b in [*self.targets, *self.extra_agents()]:
            if not SAFE.match(b) or "__" in b:
                raise ConfigError(f"bot id {b!r} cannot name a file ([A-Za-z0-9._-], no '__')")

    def _evaluated(self, targets: list[str], chosen: list[str] | None) -> list[str]:
        """The targets in ``evaluate.targets`` (in game.targets' order). A listed bot that is
        not a target is skipped, so that a scale's list survives ``game.targets=[...]``; when
        none of the listed bots is a target, every target is evaluated."""
        if chosen is None:
            return targets
        unknown = [t for t in chosen if t not in self.specs and t not in targets]
        if unknown:
            raise ConfigError(f"evaluate.targets={list(chosen)}: {unknown} are not bots of "
                              f"config/bots/{self.game}.yaml")
        return [t for t in targets if t in chosen] or targets

    def path(self, pattern: str, **wildcards: Any) -> str:
        """``pattern`` (of :mod:`ime.workflow.paths`) filled for this plan."""
        return P.fill(pattern, **self.where, **wildcards)

    # --- who -------------------------------------------------------------------------------------
    def references(self, target: str) -> list[str]:
        """The reference pool minus ``target`` (the other targets unless configured)."""
        refs = self.cfg["game"]["references"]
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
        from ime.evaluate.schedule import round_robin_pairs

        return round_robin_pairs(self.players())

    # --- paths -----------------------------------------------------------------------------------
    def keys_path(self, target: str, pattern: str = P.KEYS) -> str:
        return self.path(pattern, target=target)

    def is_imitator(self, agent: str) -> bool:
        return imitated_target(agent) in self.targets

    def score_path(self, agent: str, target: str, timing: bool = False) -> str:
        if self.is_imitator(agent):
            pattern = P.SCORES_IMIT_TIMING if timing else P.SCORES_IMIT
        else:
            pattern = P.SCORES_ZOO_TIMING if timing else P.SCORES_ZOO
        return self.path(pattern, agent=agent, target=target)

    def stored(self, agent: str, target: str) -> bool:
        """True when ``agent`` was forked while mining ``target``'s keys (a reference): its
        scores are read from the key set, no job needed."""
        return agent in self.references(target)

    def scored_pairs(self) -> list[tuple[str, str]]:
        """(agent, target) pairs that need a score job (forks)."""
        return [(a, t) for a in self.agents() for t in self.targets
                if a != t and not self.stored(a, t)]

    def score_paths(self, timing: bool = False) -> list[str]:
        return [self.score_path(a, t, timing) for a, t in self.scored_pairs()]

    def pair_path(self, a: str, b: str, pattern: str = P.PAIR) -> str:
        return self.path(pattern, pa=a, pb=b)

    def checkpoints(self, target: str) -> list[str]:
        """The imitator's checkpoint files: every fold (ensemble) or the configured one."""
        folds = range(self.v.folds) if self.ens == "ensemble" else [int(self.ens[4:])]
        return [self.v.checkpoint_path(target, self.net, k) for k in folds]

    # --- held-out scoring (ime.evaluate.heldout) --------------------------------------------------
    def heldout(self) -> bool:
        return bool(self.e["imitator"]["heldout"])

    def heldout_path(self, target: str, timing: bool = False) -> str:
        pattern = P.SCORES_HELDOUT_TIMING if timing else P.SCORES_HELDOUT
        return self.path(pattern, agent=imitator_id(target), target=target)

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
        # a hold-out's share (ime.evaluate.heldout); absent under k-fold (params as before)
        split = {"holdout": float(t["holdout"])} if t.get("split") == "holdout" else {}
        return {"game": self.game, "game_params": self.game_params, "target": target,
                "imitator": agent, "trained": trained, "folds": int(t["folds"]),
                "train_seed": int(t["seed"]), **split,
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
            "game": self.game, "game_params": self.game_params, "target": target,
            "references": refs, "n_keys": e["n_keys"], "max_candidates": e["max_candidates"],
            "min_legal": e["min_legal"], "seed": e["seed"],
            "match_seed": int(self.cfg["matches"]["seed"]),
            "bot_specs": self.own_specs(target, refs),
        }

    def score_spec(self, agent: str, target: str) -> dict[str, Any]:
        return {"game": self.game, "game_params": self.game_params, "agent": agent,
                "target": target, "bot_specs": self.own_specs(target, [agent])}

    def pair_games(self, a: str, b: str) -> int:
        """How many games the pair ``a``-``b`` plays (its rounds times its lineups), the most
        workers its job can keep busy (the seats as the job counts them: the game built with
        its board options)."""
        from ime.core.registry import get_game
        from ime.evaluate.schedule import pair_schedule

        if self._seats is None:
            g = get_game(self.game, self.game_params)
            self._seats = (g.num_players, g.game_type.teams)
        seats, teams = self._seats
        t = self.e["tournament"]
        return len(pair_schedule(a, b, int(t["rounds"]), seats=seats,
                                 teams=teams if t["lineups"] == "sides" else None))

    def pair_spec(self, a: str, b: str) -> dict[str, Any]:
        t = self.e["tournament"]
        return {"game": self.game, "game_params": self.game_params, "a": a, "b": b,
                "rounds": t["rounds"], "opening_plies": t["opening_plies"],
                "openings": self.openings, "seed": self.e["seed"],
                **({"lineups": "sides"} if t["lineups"] == "sides" else {}),
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

    # --- metrics beside S1/S2 (issue 48: ime.evaluate.agreement, distributions, clones) --------
    def samples(self) -> int:
        return int(self.e["agreement"]["samples"])

    def dists_path(self, target: str, timing: bool = False) -> str:
        return self.path(P.DISTS_TIMING if timing else P.DISTS, target=target,
                         samples=self.samples())

    def dists_agents(self, target: str) -> list[str]:
        """Who is sampled on ``target``'s keys: the target, its references (so that every
        pair of originals meets on both key sets when the pool is the targets) and its
        imitator."""
        return list(dict.fromkeys([target, *self.references(target), imitator_id(target)]))

    def dists_inputs(self, target: str) -> list[str]:
        """The checkpoints of the sampled imitator (the only agent with files)."""
        return self.agent_inputs(imitator_id(target))

    def dists_spec(self, target: str) -> dict[str, Any]:
        agents = self.dists_agents(target)
        return {"game": self.game, "game_params": self.game_params, "target": target,
                "agents": agents, "samples": self.samples(),
                "bot_specs": self.own_specs(target, agents)}

    def agreement_spec(self) -> dict[str, Any]:
        """The metrics job's params: S1's own inputs, plus the sampled distributions (whose
        files say which agents are stochastic), the imitators and the clone test's threshold."""
        sim = self.similarity_spec()
        return {**sim, "dists": {t: self.dists_path(t) for t in self.targets},
                "imitators": {t: imitator_id(t) for t in self.targets},
                "clone_sigma": float(self.e["agreement"]["clone_sigma"])}

    def timing_inputs(self) -> dict[str, list[str]]:
        """The timing files of every mining, scoring and tournament job (the cost table)."""
        return {"keysets": [self.keys_path(t, P.KEYS_TIMING) for t in self.targets],
                "scores": [*self.score_paths(timing=True),
                           *([self.heldout_path(t, timing=True) for t in self.targets]
                             if self.heldout() else [])],
                "pairs": [self.pair_path(a, b, P.PAIR_TIMING) for a, b in self.pairs()]}

    def tables_spec(self) -> dict[str, Any]:
        return {"game": self.game, "targets": self.targets,
                "specs": self.specs_for(self.targets), "clusters": self.e["clusters"]}

    def tournament_spec(self) -> dict[str, Any]:
        return {"game": self.game, "targets": self.targets, "players": self.players(),
                "points": self.e["tournament"]["points"], "bootstrap": self.e["bootstrap"],
                "ci": self.e["ci"], "seed": self.e["seed"],
                "pairs": [self.pair_path(a, b) for a, b in self.pairs()]}

    def moves_spec(self) -> dict[str, Any]:
        """The move-choice figure compares thesis bots 1 and 5 (else the first and last
        target)."""
        num = {int((self.specs.get(t, {}).get("thesis") or {}).get("bot", 0) or 0): t
               for t in self.targets}
        pair = [num.get(1, self.targets[0]), num.get(5, self.targets[-1])]
        return {"game": self.game, "game_params": self.game_params, "bots": self.targets,
                "pair": pair}

    def case_study_inputs(self) -> dict[str, list[str]]:
        """Every target's key set and its imitator's scores on it (the key is chosen among
        them), and the imitators' checkpoints (the chosen key is re-played)."""
        return {"keysets": [self.keys_path(t) for t in self.targets],
                "scores": [self.score_path(imitator_id(t), t) for t in self.targets],
                "checkpoints": [c for t in self.targets for c in self.checkpoints(t)]}

    def case_study_spec(self) -> dict[str, Any]:
        """The case study (thesis 5.5.2): the targets in order (the key is the first target's
        that fits the rule), each one's imitator, and the specs of every bot a trace can meet:
        the targets' match players, their references and imitators (as the score jobs' own)."""
        bots = [b for t in self.targets
                for b in (*self.match_players(t), *self.references(t), imitator_id(t))]
        specs = self.specs_for(list(dict.fromkeys(bots)))
        return {"game": self.game, "game_params": self.game_params, "targets": self.targets,
                "imitators": {t: imitator_id(t) for t in self.targets},
                "bot_specs": {b: specs[b] for b in sorted(specs)}}

    # --- results ---------------------------------------------------------------------------------
    def result(self, name: str) -> str:
        return self.v.table_path(name)


class EvalIndex:
    """Wildcards of the evaluation rules -> the variant's :class:`EvalPlan`."""

    def __init__(self, variants: Sequence[Variant],
                 bot_specs: Mapping[str, Mapping[str, Mapping[str, Any]]]):
        self.plans: dict[str, EvalPlan] = {}
        self.by_keys: dict[tuple[str, str, str], EvalPlan] = {}
        self.by_imit: dict[tuple[str, ...], EvalPlan] = {}
        self.by_heldout: dict[tuple[str, ...], EvalPlan] = {}
        self.by_tour: dict[tuple[str, ...], EvalPlan] = {}
        for v in variants:
            if v.results_dir in self.plans:
                continue
            ep = EvalPlan(v, bot_specs.get(v.game, {}))
            self.plans[v.results_dir] = ep
            w = ep.where
            keys = (w["game"], w["ltag"], w["ktag"])
            self.by_keys.setdefault(keys, ep)
            self.by_imit.setdefault((*keys, w["ttag"], w["netdir"], w["ens"]), ep)
            self.by_heldout.setdefault((*keys, w["ttag"], w["netdir"]), ep)
            self.by_tour.setdefault((w["game"], w["ttag"], w["netdir"], w["ens"], w["otag"]), ep)

    def for_rdir(self, rdir: str) -> EvalPlan:
        return self.plans[rdir]

    def for_keys(self, game: str, ltag: str, ktag: str) -> EvalPlan:
        return self.by_keys[(game, ltag, ktag)]

    def for_imitator(self, game: str, ltag: str, ktag: str, ttag: str, netdir: str,
                     ens: str) -> EvalPlan:
        return self.by_imit[(game, ltag, ktag, ttag, netdir, ens)]

    def for_heldout(self, game: str, ltag: str, ktag: str, ttag: str, netdir: str) -> EvalPlan:
        return self.by_heldout[(game, ltag, ktag, ttag, netdir)]

    def for_tour(self, game: str, ttag: str, netdir: str, ens: str, otag: str) -> EvalPlan:
        return self.by_tour[(game, ttag, netdir, ens, otag)]

    def constraints(self) -> dict[str, str]:
        """Regexes for the evaluation's own wildcards."""
        from ime.workflow.index import alternatives

        ps = list(self.plans.values())
        players = {b for p in ps for b in p.players()}
        return {"target": alternatives(t for p in ps for t in p.targets),
                "agent": alternatives(a for p in ps for a in p.agents()),
                "pa": alternatives(players), "pb": alternatives(players),
                "ktag": alternatives(p.ktag for p in ps), "ens": alternatives(p.ens for p in ps),
                "otag": alternatives(p.otag for p in ps)}
