"""The workflow index: the wildcards of the rules' paths -> the variant and a job's plain params.

Several variants (every game's main variant, sweep points) can share a stage directory when their
keys for that stage agree; the index keeps one entry per directory and refuses two variants that
would write different things into the same one. Params hold only what a job uses: Snakemake
re-runs a job whose params change, so adding a target or editing another bot re-runs nothing
that does not depend on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ime.workflow import paths as P
from ime.workflow.errors import ConfigError
from ime.workflow.identify import extra_bots
from ime.workflow.sweeps import Sweep
from ime.workflow.tags import (
    RUNTIME_TRAIN_KEYS,
    dataset_key,
    dataset_settings,
    logs_key,
    plays_team_seats,
    results_key,
    train_key,
    unused_split_keys,
    without_idle_options,
    without_runtime,
)
from ime.workflow.variants import Plan, Variant, unique


def without_idle_stages(arch: Mapping[str, Any]) -> dict[str, Any]:
    """A search family's settings without the Monte-Carlo stage's keys when that stage is off
    (``mcts_sims: []``), and without each key of :data:`ime.workflow.tags.IDLE_SEARCH_KEYS` at
    its idle value: the fit reads the same defaults, and models fitted before the stage or
    option existed keep their train jobs' params (nothing re-trains)."""
    arch = without_idle_options(arch)
    search = arch.get("search")
    if not isinstance(search, Mapping) or search.get("mcts_sims"):
        return arch
    return {**arch, "search": {k: x for k, x in search.items() if not k.startswith("mcts_")}}

BotSpecs = Mapping[str, Mapping[str, Any]]


def alternatives(values: Iterable[str]) -> str:
    """A regex matching exactly one of ``values``, longest first: their prefix tree
    (``b2_(?:negamax|smallest)/shard00[01]``), not a flat ``a|b|...`` list.

    Why the tree: Python compiles a regex in pure Python at about a microsecond a character,
    and Snakemake compiles every rule's output, log and benchmark pattern with these
    constraints written in on every call, a no-op rerun included (issue 31: 80,000 characters,
    0.07 s of its CPU, most of it shared prefixes such as ``imit_`` and ``/shard00``). The tree
    matches the same strings and, as the flat list (longest first) did, tries the longer of
    two values that both match first: a value matching at a position is a prefix of the text,
    so the candidates lie on one path of the tree, which a greedy ``(...)?`` walks deepest
    first; so a path splits into the same wildcard values."""
    return regex_tree([re.escape(ch) for ch in value] for value in set(values))


def regex_tree(sequences: Iterable[Sequence[str]]) -> str:
    """A regex matching exactly one of ``sequences``, each a sequence of regex atoms (an
    escaped character, a group), as their prefix tree (:func:`alternatives`); ``""`` when there
    are none."""
    trie: dict[str, Any] = {}
    for atoms in sequences:
        node = trie
        for atom in atoms:
            node = node.setdefault(atom, {})
        node[""] = {}  # the end of a value
    return _render(trie) if trie else ""


def _render(node: dict[str, Any]) -> str:
    """The regex of a prefix-tree node (``""`` marks a value's end; see :func:`alternatives`)."""
    branches = []
    for atom in sorted(k for k in node if k):
        child, text = node[atom], atom
        while len(child) == 1 and "" not in child:  # a chain: one literal run
            (nxt, child), = child.items()
            text += nxt
        if child != {"": {}}:  # not a value's last atom: what may follow
            text += _render(child)
        branches.append(text)
    ends = "" in node
    if not branches:
        return ""
    if len(branches) == 1:
        body = branches[0]
        if ends:  # greedy: the longer value first, then the end here
            return f"(?:{body})?" if len(body) > 1 else f"{body}?"
        return body
    if all(len(b) == 1 or (len(b) == 2 and b[0] == "\\") for b in branches):
        body = "[" + "".join(branches) + "]"  # single (escaped) characters
    else:
        body = "(?:" + "|".join(branches) + ")"
    return body + "?" if ends else body


def encoder_shape(game: str, params: Mapping[str, Any]) -> tuple[list[int], int]:
    """``(state shape, actions of the first head)`` of a game's encoder."""
    from ime.workflow.plugins import encoder_info

    enc = encoder_info(game, params)  # cached: a no-op rerun imports no engine
    return list(enc["state_shape"]), int(enc["num_actions"])


def encoder_heads(game: str, params: Mapping[str, Any]) -> int | list[int]:
    """Every head's size (a plain int for a one-head encoder: the nets' ``num_actions``)."""
    from ime.workflow.plugins import encoder_info

    sizes = encoder_info(game, params)["head_sizes"]
    return sizes[0] if len(sizes) == 1 else list(sizes)


class WorkflowIndex:
    """Every variant of every composed game, by the directories its stages write."""

    def __init__(self, plans: Sequence[Plan], bot_specs: Mapping[str, BotSpecs]):
        self.plans = list(plans)
        self.bot_specs = {g: dict(s) for g, s in bot_specs.items()}
        self.logs: dict[tuple[str, str], Variant] = {}
        self.datasets: dict[tuple[str, str], Variant] = {}
        self.trains: dict[tuple[str, str], Variant] = {}
        self.nets: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.fold_counts: dict[tuple[str, str], int] = {}
        """Folds trained per (game, train tag): the most any variant with that tag trains."""
        self.train_bots: dict[tuple[str, str], list[str]] = {}
        """Every target trained per (game, train tag), over the variants that share the tag."""
        self.stacked: set[tuple[str, str]] = set()
        """(game, train tag) whose bots train in one job per net (``train.stack_bots``)."""
        self.results: dict[str, Variant] = {}
        for v in self.variants():
            key = (v.game, v.train_tag)
            self.fold_counts[key] = max(self.fold_counts.get(key, 0), v.folds)
            self.train_bots[key] = unique([*self.train_bots.get(key, []), *v.targets,
                                           *extra_bots(v.cfg)])
            if v.cfg["train"].get("stack_bots"):
                self.stacked.add(key)
            self._add(self.logs, (v.game, v.logs_tag), v, logs_key)
            self._add(self.datasets, (v.game, v.dataset_tag), v, dataset_key)
            self._add(self.trains, (v.game, v.train_tag), v, train_key)
            for name, d in v.net_dirs.items():
                key = (v.game, v.train_tag, d)
                if key in self.nets and self.nets[key] != v.cfg["nets"][name]:
                    raise ConfigError(f"two architectures for {v.model_dir(name)}")
                self.nets[key] = v.cfg["nets"][name]
            if v.results_dir not in self.results:
                self.results[v.results_dir] = v
            elif results_key(self.results[v.results_dir].cfg) != results_key(v.cfg):
                raise ConfigError(f"two different variants write {v.results_dir} (run.name?)")
        self.sweeps: dict[str, Sweep] = {}
        for p in self.plans:
            if p.sweep is None:
                continue
            rdir = p.sweep.results_dir
            if rdir in self.results:
                raise ConfigError(f"the sweep's results directory {rdir} is a variant's "
                                  "(run.name?)")
            self.sweeps[rdir] = p.sweep
        self.check_bots()

    def variants(self) -> list[Variant]:
        return [v for p in self.plans for v in p.variants()]

    @staticmethod
    def _add(table: dict, key: tuple, v: Variant, keyfn: Any) -> None:
        if key not in table:
            table[key] = v
        elif keyfn(table[key].cfg) != keyfn(v.cfg):
            raise ConfigError(f"variants {table[key].name!r} and {v.name!r} collide on {key}")

    def specs(self, game: str) -> dict[str, Mapping[str, Any]]:
        """``config/bots/<game>.yaml``'s bot specs."""
        return dict(self.bot_specs.get(game, {}))

    def check_bots(self) -> None:
        """Every target and opponent of a generated variant must be in its game's bot zoo."""
        for v in self.variants():
            if v.source != "generated":
                if extra_bots(v.cfg):
                    raise ConfigError(
                        f"identify.extra_bots={extra_bots(v.cfg)} needs generated matches "
                        "(matches.source=generated): with raw logs, list the bots in "
                        "game.targets instead")
                continue
            g = v.cfg["game"]
            want = unique([*g["targets"], *g["opponents"], *(g.get("sparring") or []),
                           *extra_bots(v.cfg)])
            known = self.specs(v.game)
            missing = [b for b in want if b not in known]
            if missing:
                raise ConfigError(
                    f"bots {missing} are not in config/bots/{v.game}.yaml (known: "
                    f"{sorted(known)}); fix game.targets / game.opponents / game.sparring / "
                    "identify.extra_bots"
                )

    # --- wildcard constraints ---------------------------------------------------------------
    def constraints(self) -> dict[str, str]:
        """Regexes restricting every wildcard to the values this index knows."""
        vs = self.variants()
        return {
            "game": alternatives(v.game for v in vs),
            "ltag": alternatives(t for _, t in self.logs),
            "dtag": alternatives(t for _, t in self.datasets),
            "ctag": alternatives(v.ceiling_tag for v in vs if v.ceiling_tag) or "(?!)",
            "ttag": alternatives(t for _, t in self.trains),
            "netdir": alternatives(d for _, _, d in self.nets),
            "part": alternatives([*(p for v in vs for p in v.parts()),
                                  *(p for v in vs for b in extra_bots(v.cfg)
                                    for p in v.parts(b))]),
            "bot": alternatives(b for v in vs for b in [*v.targets, *extra_bots(v.cfg)]),
            "mode": alternatives(v.decisions_label for v in vs),
            "fold": r"\d+",
            "rdir": alternatives([*self.results, *self.sweeps]),
        }

    # --- per-rule params and inputs ---------------------------------------------------------
    @staticmethod
    def split_part(part: str) -> tuple[str | None, str]:
        """``"<target>/shardNNN"`` -> (target, "shardNNN"); a raw part -> (None, part)."""
        target, sep, rest = part.rpartition("/")
        return (target, rest) if sep else (None, part)

    def matches_spec(self, game: str, ltag: str, part: str) -> dict[str, Any]:
        """One generated part: a shard of one target's own schedule. It names only what that
        target's matches depend on (its bot spec and its opponents' and sparring partners'), so
        adding a target or editing another bot re-runs none of it."""
        v = self.logs[(game, ltag)]
        m = v.cfg["matches"]
        target, shard = self.split_part(part)
        if target is None:
            raise ValueError(f"{part!r} is not a generated part (<target>/shardNNN)")
        opponents = list(v.cfg["game"]["opponents"])
        sparring = v.sparring(target)
        used = unique([target, *opponents, *sparring])
        specs = self.specs(game)
        out = {
            "game": game, "game_params": v.log_game_params, "target": target,
            "opponents": opponents, "sparring": sparring,
            "per_target": m["per_target"], "vs_targets": m["vs_targets"], "seed": m["seed"],
            "shards": m["shards"], "shard": int(shard.removeprefix("shard")),
            "bot_specs": {b: specs[b] for b in sorted(used)},
        }
        if plays_team_seats(v.cfg):  # absent otherwise: the parts of `one` keep their params
            out["team_seats"] = "all"
        return out

    def decisions_input(self, game: str, ltag: str, part: str) -> str:
        v = self.logs[(game, ltag)]
        if v.source == "raw":
            return dict(zip(v.parts(), v.log_paths(), strict=True))[part]
        return v.log_path(part)

    def decisions_spec(self, game: str, ltag: str, mode: str,
                       part: str | None = None) -> dict[str, Any]:
        """A generated part keeps its own target's decisions only (the matches scheduled for
        it); a raw part keeps every target's."""
        from ime.datasets.labels import parse_decisions_label

        v = self.logs[(game, ltag)]
        target = self.split_part(part)[0] if part is not None and v.source != "raw" else None
        replay, keep_forced, enc = parse_decisions_label(mode)
        params = {**v.log_game_params, **enc}  # the logs' variant may be another observation's
        out = {"game": game, "game_params": params,
               "targets": [target] if target else v.targets, "mode": replay,
               "num_actions": encoder_shape(game, params)[1]}
        if keep_forced:  # absent otherwise: the default parts keep their params
            from ime.datasets.extract import dataset_encoder

            dataset_encoder(game, params, keep_forced=True)  # an encoder without: fail now
            out["keep_forced"] = True
        return out

    def dataset_inputs(self, game: str, dtag: str, bot: str | None = None) -> dict[str, list[str]]:
        """The decision parts (and their reports) ``bot``'s dataset reads: its own generated
        parts, or every raw part; every part when ``bot`` is None (the run report)."""
        v = self.datasets[(game, dtag)]
        return {"parts": [v.decisions_path(p) for p in v.parts(bot)],
                "reports": [v.decisions_path(p, P.DECISIONS_REPORT) for p in v.parts(bot)]}

    def dataset_spec(self, game: str, dtag: str, bot: str) -> dict[str, Any]:
        v = self.datasets[(game, dtag)]
        d = v.cfg["dataset"]
        return {"game": game, "game_params": v.game_params, "bot": bot,
                "max_matches": d["matches"], "dedup": d["dedup"],
                "config": {"dataset": dataset_settings(v.cfg), "logs": logs_key(v.cfg)}}

    def train_input(self, game: str, ttag: str, bot: str) -> str:
        return self.trains[(game, ttag)].dataset_path(bot)

    def main_train_tags(self) -> set[tuple[str, str]]:
        """(game, train tag) of every plan's main variant: the composition asked for."""
        return {(p.main.game, p.main.train_tag) for p in self.plans}

    def _rule_names(self, base: str, groups: Mapping[Any, tuple[str, int, list[str]]]
                    ) -> dict[Any, str]:
        """A rule name per group of train tags (``(game, folds, tags)``): ``base`` for the group
        holding the game's main variant, whatever its scale (profiles name the rule), and
        ``<base>_<k>folds`` (then ``_2``, ``_3``) for the others, which only a sweep that
        changes the folds or the targets adds."""
        main = self.main_train_tags()
        order = sorted(groups, key=lambda g: (not any((groups[g][0], t) in main
                                                      for t in groups[g][2]), groups[g][1],
                                              groups[g][2]))
        names: dict[Any, str] = {}
        for g in order:
            game, folds, _ = groups[g]
            stem = base.format(game=game)
            name = stem if stem not in names.values() else f"{stem}_{folds}folds"
            n = 1
            while name in names.values():
                n += 1
                name = f"{stem}_{folds}folds_{n}"
            names[g] = name
        return names

    def train_groups(self) -> dict[str, tuple[str, int, list[str]]]:
        """The per-(bot, net) train rules: rule name -> (game, folds, train tags). A job trains
        every fold of one (bot, net) at once and so writes that many files, and a rule's outputs
        are fixed patterns: one rule per (game, number of folds). Its name does not say the
        scale (:meth:`_rule_names`: ``train_<game>``). Stacked tags (:meth:`train_stacks`) are
        not here."""
        groups: dict[tuple[str, int], tuple[str, int, list[str]]] = {}
        for (game, ttag), k in sorted(self.fold_counts.items()):
            if (game, ttag) not in self.stacked:
                groups.setdefault((game, k), (game, k, []))[2].append(ttag)
        names = self._rule_names("train_{game}", groups)
        return {names[g]: groups[g] for g in groups}

    def train_stacks(self) -> dict[str, tuple[str, int, list[str], list[str]]]:
        """``train.stack_bots``: rule name -> (game, folds, bots, train tags) of the rules whose
        one job per (tag, net) trains every bot's folds at once
        (:func:`ime.train.ensemble.train_bots`). Its outputs name every bot, so one rule per
        (game, folds, bots); named ``train_<game>_stacked`` whatever the scale
        (:meth:`_rule_names`)."""
        groups: dict[tuple[str, int, tuple[str, ...]], tuple[str, int, list[str]]] = {}
        bots: dict[tuple[str, int, tuple[str, ...]], list[str]] = {}
        for game, ttag in sorted(self.stacked):
            b = tuple(self.train_bots[(game, ttag)])
            key = (game, self.fold_counts[(game, ttag)], b)
            groups.setdefault(key, (game, key[1], []))[2].append(ttag)
            bots[key] = list(b)
        names = self._rule_names("train_{game}_stacked", groups)
        return {names[g]: (groups[g][0], groups[g][1], bots[g], groups[g][2]) for g in groups}

    def train_stack_inputs(self, game: str, ttag: str) -> list[str]:
        """Every stacked bot's dataset, in the order of :meth:`train_stacks`."""
        return [self.train_input(game, ttag, b) for b in self.train_bots[(game, ttag)]]

    def train_stack_spec(self, game: str, ttag: str, netdir: str) -> dict[str, Any]:
        """:meth:`train_spec` for every bot of the tag at once (``bots`` instead of ``bot``)."""
        spec = self.train_spec(game, ttag, netdir, "")
        del spec["bot"]
        return {"bots": list(self.train_bots[(game, ttag)]), **spec}

    def train_stack_nets(self, game: str, ttags: Sequence[str]) -> list[str]:
        """The net folders trained under the tags (a stacked rule's ``netdir`` values)."""
        return unique([d for g, t, d in self.nets if g == game and t in ttags])

    def train_spec(self, game: str, ttag: str, netdir: str, bot: str) -> dict[str, Any]:
        """Only what the job uses: adding a net or changing the thread count re-runs nothing.
        The game's symmetries (``game.augment``) reach training as ``train.augment``. The job
        trains ``folds`` (every trained fold of the net) together (:mod:`ime.train.ensemble`)."""
        v = self.trains[(game, ttag)]
        unused = unused_split_keys(v.cfg["train"])  # k-fold: no split keys (params as before)
        train = {k: x for k, x in v.cfg["train"].items()
                 if (k not in RUNTIME_TRAIN_KEYS or k == "device")  # the job picks its device
                 and k not in unused}
        train["augment"] = v.cfg["game"]["augment"]
        return {"bot": bot, "folds": list(range(self.fold_counts[(game, ttag)])),
                "net": without_idle_stages(self.nets[(game, ttag, netdir)]), "train": train}

    def variant(self, rdir: str) -> Variant:
        return self.results[rdir]

    def table_nets(self, v: Variant) -> list[str]:
        """Table 4.4's nets: ``train.nets``, and the imitators' own when it is another imitator
        family (``imitator=search`` or ``lookahead``: its rows beside the nets they are
        compared with)."""
        from ime.imitators.kinds import IMITATOR_FAMILIES

        nets = list(v.cfg["train"]["nets"])
        own = v.cfg["evaluate"]["imitator"]["net"]
        arch = v.cfg["nets"][own]
        if own not in nets and arch.get("kind") in IMITATOR_FAMILIES:
            nets.append(own)
        return nets

    def metrics_paths(self, v: Variant, nets: Sequence[str] | None = None) -> list[str]:
        nets = list(nets) if nets is not None else self.table_nets(v)
        return [v.metrics_path(b, n, k) for b in v.targets for n in nets for k in range(v.folds)]

    def stats_paths(self, v: Variant) -> list[str]:
        return [v.dataset_stats_path(b) for b in v.targets]

    def ceiling_paths(self, v: Variant) -> list[str]:
        """Every target's self-agreement file (none when ``evaluate.self_agreement`` is 0)."""
        return [v.ceiling_path(b) for b in v.targets] if v.ceiling_tag else []

    def unseen_ceiling_datasets(self, v: Variant) -> list[str]:
        """Every target's dataset, which the accuracy table splits as training did to find the
        sampled decisions on unseen positions (none when no ceiling is measured)."""
        return [v.dataset_path(b) for b in v.targets] if v.ceiling_tag else []

    def ceiling_inputs(self, game: str, dtag: str, bot: str) -> dict[str, Any]:
        """The bot's dataset (which decisions) and the logs that hold them (the positions)."""
        v = self.datasets[(game, dtag)]
        return {"dataset": v.dataset_path(bot), "logs": v.log_paths(bot)}

    def ceiling_spec(self, game: str, dtag: str, ctag: str, bot: str) -> dict[str, Any]:
        """What re-asking ``bot`` needs: its spec (None: a raw log's player no config
        rebuilds), the sample size, seed and re-asks (from ``ctag``), the logs' default seed."""
        v = self.datasets[(game, dtag)]
        rest, _, r = ctag.partition("_r")
        n, s = rest.removeprefix("n").split("_s")
        spec = self.specs(game).get(bot)
        return {"game": game, "game_params": v.game_params, "bot": bot,
                "bot_spec": dict(spec) if spec is not None else None,
                "decisions": int(n), "seed": int(s), "repeats": int(r or 1),
                "default_seed": int(v.cfg["matches"]["seed"])}

    def sweep(self, rdir: str) -> Sweep:
        """The sweep whose results directory is ``rdir``."""
        if rdir not in self.sweeps:
            raise KeyError(f"no sweep writes to {rdir}")
        return self.sweeps[rdir]

    def sweep_inputs(self, rdir: str) -> dict[str, list[str]]:
        """Every point's training metrics and dataset stats (what the sweep's table reads)."""
        spec = self.sweep_spec(rdir)
        return {"metrics": [m for p in spec["points"] for m in p["metrics"]],
                "stats": [s for p in spec["points"] for s in p["stats"]]}

    def sweep_spec(self, rdir: str) -> dict[str, Any]:
        """The sweep's table job: per point its labels (``{key: value}``), nets and files."""
        sw = self.sweep(rdir)
        points = [{"labels": labels, "nets": sw.nets_of(v), "stats": self.stats_paths(v),
                   "metrics": self.metrics_paths(v, sw.nets_of(v))}
                  for labels, v in sw.points]
        return {"keys": sw.keys, "bots": sw.points[0][1].targets, "points": points}

    def sweep_figure_spec(self, rdir: str) -> dict[str, Any]:
        """The sweep's figure job: which keys are numeric (a curve) or categorical (bars)."""
        from ime.workflow.sweeps import is_numeric

        sw = self.sweep(rdir)
        return {"keys": sw.keys, "numeric": {k: is_numeric(vals) for k, vals in sw.axes},
                "title": f"{sw.game}: {sw.describe_axes()}", "fit_target": sw.fit_target}

    def table4_3_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        shape, _ = encoder_shape(v.game, v.game_params)
        return {"nets": {n: v.cfg["nets"][n] for n in self.table_nets(v)},
                "in_shape": shape, "num_actions": encoder_heads(v.game, v.game_params)}

    def table4_4_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        e = v.cfg["evaluate"]
        t = v.cfg["train"]
        return {"bots": v.targets, "nets": self.table_nets(v),
                "bootstrap": int(e["bootstrap"]), "ci": float(e["ci"]), "seed": int(e["seed"]),
                "split": {k: t.get(k) for k in ("split", "folds", "holdout", "seed")}}

    def accuracy_spec(self, rdir: str) -> dict[str, Any]:
        """The accuracy clustering (Fig 2.7's shape): the targets in order, and k."""
        v = self.variant(rdir)
        return {"bots": v.targets, "k": int(v.cfg["evaluate"]["clusters"]),
                "title": f"{v.game}: validation accuracy (mean over "
                         f"{len(self.table_nets(v))} nets) and random baseline"}

    def run_report_inputs(self, rdir: str) -> dict[str, list[str]]:
        v = self.variant(rdir)
        reports = [v.decisions_path(p, P.DECISIONS_REPORT) for p in v.parts()]
        return {"reports": reports, "stats": self.stats_paths(v)}

    def run_report_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        return {"variant": v.name, "results_dir": rdir, "config": without_runtime(v.cfg),
                "tags": {"logs": v.logs_tag, "dataset": v.dataset_tag, "train": v.train_tag},
                "log_files": v.log_paths()}
