"""What the Snakefile does first: compose every game's config, index it, and name the targets.

**The game comes from the target path.** Every game that has a plug-in and a
``config/game/<game>.yaml`` is composed with ``game=<game>`` plus the user's overrides, so
``snakemake results/<game>/<file>`` builds that game with no override; rule ``all`` (no target)
builds the default game's results (``config.yaml``'s ``game``, or the ``game=`` override) and rule
``all_games`` every game's; rule ``<game>_tables`` builds what rule ``all`` builds for that game,
wherever the overrides put it (a variant's directory is named after its overrides).

**Config errors are raised for the game that is asked for.** An error that every game shares (an
unknown key, Hydra's sweep syntax) stops the workflow at once. A game's own error is kept and
raised only when a target of that game is asked for (rule ``all`` asks for the default game's),
so one game's broken config or an override meant for another game (``game.targets=[rev1]``)
never blocks the rest, and ``results/doudizhu/...`` with a bad Doudizhu override names Doudizhu's
bots file, not Reversi's. A ``game=`` override composes that game only: a target of another game
is an error saying so (the game comes from the path). Either way it happens while the DAG is
built, before any job runs.

**A path no rule writes says why.** A file under ``results/`` that matches no rule's output
(an unknown game, a mistyped file name, another composition's directory) reaches
``misplaced_result`` or ``unknown_result`` (rules/results.smk), whose input function raises a
:class:`ConfigError` naming the games, this composition's results directory and the nearest file
names, instead of Snakemake's bare "No rule to produce".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ime.thesis.names import GAMES as THESIS_GAMES
from ime.workflow import artifacts as A
from ime.workflow import paths as P
from ime.workflow.compose import (
    config_arg,
    game_options,
    override_value,
    parse_overrides,
    refuse_hydra_sweeps,
)
from ime.workflow.compose_cache import config_snapshot
from ime.workflow.errors import ConfigError, config_exit, did_you_mean, nearest
from ime.workflow.evalplan import EvalIndex
from ime.workflow.index import WorkflowIndex, alternatives, regex_tree
from ime.workflow.tags import without_runtime
from ime.workflow.variants import Plan, Variant, make_plan


def load_specs(game: str) -> dict[str, dict[str, Any]]:
    """``config/bots/<game>.yaml`` checked against the bot-spec schema ({} when absent); the
    checked specs are cached for this code and file
    (:func:`ime.workflow.plugins.checked_bot_specs`)."""
    from ime.bots.registry import bot_config_path
    from ime.workflow.plugins import checked_bot_specs

    path = bot_config_path(game)
    if not path.is_file():
        return {}

    def check() -> dict[str, dict[str, Any]]:
        from ime.bots.registry import load_bot_specs
        from ime.workflow.schema.bots import validate_bot_specs

        try:
            specs = load_bot_specs(game)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        validate_bot_specs(game, specs, str(path))
        return specs

    return checked_bot_specs(game, path, check)


def _game_plan(overrides: list[str], config_dir: str | Path,
               base: str | Path) -> tuple[Plan, dict[str, Any]]:
    """One game's plan and bot specs, with that game's own checks (bots, colliding variants)."""
    plan = make_plan(overrides, config_dir, base=base)
    game = plan.main.game
    specs = load_specs(game) if any(v.source == "generated" for v in plan.variants()) else {}
    WorkflowIndex([plan], {game: specs})
    EvalIndex(plan.variants(), {game: specs})
    return plan, specs


@dataclass
class Workflow:
    """Every composed game's plan, the indexes over all of them, and the games that failed."""

    overrides: list[str]
    default_game: str
    plans: dict[str, Plan]
    errors: dict[str, str]
    index: WorkflowIndex
    evals: EvalIndex
    thesis_games: tuple[str, ...] = THESIS_GAMES
    """The games the reproduction report covers (``--config thesis_games=...``;
    :mod:`ime.workflow.thesis`)."""

    @staticmethod
    def checked(fn: Any, *args: Any) -> Any:
        """Call ``fn`` (a rule's input or params function), turning a :class:`ConfigError` of a
        game that is asked for into ``IME config error: ...`` printed alone, not inside
        Snakemake's InputFunctionException with the rule's wildcards and a traceback
        (:class:`ime.workflow.errors.ConfigExit` says why)."""
        try:
            return fn(*args)
        except ConfigError as e:
            raise config_exit(e) from None

    def plan(self, game: str | None = None) -> Plan:
        """``game``'s plan (the default game's without one); its config error if it failed."""
        game = game or self.default_game
        if game in self.errors:
            hint = ""
            if game == self.default_game and self.plans:
                hint = (f" (these overrides do compose for {', '.join(self.plans)}: ask for "
                        f"one of their files, e.g. snakemake -j8 {next(iter(self.plans))}_tables"
                        f" {config_arg(self.overrides)})")
            raise ConfigError(f"game {game}: {self.errors[game]}{hint}")
        return self.plans[game]

    @property
    def games(self) -> list[str]:
        """Every game the workflow knows: composed or failed (each has a ``<game>_tables``)."""
        return sorted({*self.plans, *self.errors})

    def main(self, game: str | None = None) -> Variant:
        return self.plan(game).main

    def cfg(self, game: str | None = None) -> dict[str, Any]:
        return self.main(game).cfg

    def targets(self, game: str | None = None) -> list[str]:
        """What rule ``all`` builds for ``game``: every result of its main variant, or, when
        the overrides sweep, only the sweep's files (in the sweep's own results directory)."""
        plan = self.plan(game)
        if plan.sweep is not None:
            sw = plan.sweep
            return [P.fill(P.RESULT, rdir=sw.results_dir, name=n)
                    for n in A.sweep_results(sw.game, sw.files())]
        v = plan.main
        from ime.workflow.identify import identify_pool  # which bot played this: needs two

        return [v.table_path(n)
                for n in A.variant_results(v.game, identify=len(identify_pool(v.cfg)) >= 2)]

    def all_games_targets(self) -> list[str]:
        """What rule ``all_games`` builds: every game's results at the composed scale."""
        for game in self.errors:
            self.plan(game)  # raises that game's config error
        return [t for g in self.plans for t in self.targets(g)]

    def constraints(self) -> dict[str, str]:
        """Every wildcard's regex: the stages' (:meth:`WorkflowIndex.constraints`), the
        evaluation's, and the results' file names."""
        games = list(self.plans)
        renamed = {n for g in games for n in A.game_names(g).values()}
        out = {**self.index.constraints(), **self.evals.constraints(),
               "artifact": alternatives(renamed) or "(?!)",
               "result": alternatives(r for g in games for r in A.game_results(g)) or "(?!)",
               "swkey": alternatives(sw.file_key for sw in self.index.sweeps.values())
               or "(?!)"}
        return {k: v or "(?!)" for k, v in out.items()}  # no game composed: nothing matches

    def workers(self, game: str, cores: int | None = None, items: int | None = None) -> int:
        """Worker processes (the rule's ``threads:``) of one evaluation job of ``game``:
        ``evaluate.workers`` resolved against Snakemake's ``--cores`` (``cores``; ``auto``
        leaves a core to the jobs that feed training, and the cores of the game's stacked train
        jobs, :meth:`stacked_train_cores`) and the job's ``items`` when known
        (:func:`ime.core.workers.job_workers`)."""
        from ime.core.workers import RESERVED_CORES, job_workers

        return job_workers(self.cfg(game)["evaluate"]["workers"], cores, items=items,
                           reserve=RESERVED_CORES + self.stacked_train_cores(game))

    def stacked_train_cores(self, game: str) -> int:
        """The threads ``train.stack_bots``'s jobs of ``game`` hold when they all run at once
        (one job per net, ``train.threads`` each; 0 when its training is not stacked).

        Those few jobs are long (200 s each on the H200) and are the path to every scoring and
        tournament job; ``auto`` leaves them their cores. Without that, on the H200's 16 cores
        three key-mining jobs of 5 workers took 15 of them, so one of the three stacked GPU
        train jobs ran and the other two waited 160 s for a mining job to end (BENCHMARKS.md,
        "The whole thesis-scale Reversi run on one H200, again")."""
        ttags = [t for g, t in self.index.stacked if g == game]
        if not ttags:
            return 0
        return len(self.index.train_stack_nets(game, ttags)) * self.train_threads(game)

    def pair_threads(self, wc: Any, cores: int | None = None) -> int:
        """A tournament pair's workers (rule ``eval_tournament_pair``'s wildcards ``wc``):
        :meth:`workers`, at most the pair's games."""
        plan = self.evals.for_tour(wc.game, wc.ttag, wc.netdir, wc.ens, wc.otag)
        return self.workers(wc.game, cores, items=plan.pair_games(wc.pa, wc.pb))

    def result_threads(self, rdir: str, cores: int | None = None) -> int:
        """A plug-in result's job may use as many processes as the evaluation's jobs."""
        return self.workers(self.index.variant(rdir).game, cores)

    def train_threads(self, game: str) -> int:
        return int(self.cfg(game)["train"]["threads"])

    def train_gpus(self, game: str) -> int:
        return 1 if self.cfg(game)["train"]["gpu"] else 0

    def misplaced_constraints(self) -> dict[str, str]:
        """Regexes of the files under ``results/<game>/`` that no composed variant writes (a
        game whose own ``results/<game>`` is not composed, a file outside its variants'
        directories), so that asking for one says where this composition's results are."""
        games, subdirs = [], set()
        for game in self.plans:
            top = P.results_dir(game)
            rdirs = [r for r in [*self.index.results, *self.index.sweeps]
                     if r == top or r.startswith(top + "/")]
            if top not in rdirs:
                games.append(game)
                subdirs.update(r[len(top) + 1:] for r in rdirs)
        return {"misplaced": alternatives(games) or "(?!)",
                "anything": f"(?!({alternatives(subdirs)})/).+" if subdirs else ".+"}

    def misplaced(self, game: str, name: str) -> None:
        """Raise: ``results/<game>/<name>`` is not a file of this composition (another
        composition's directory, the default's file, or no result at all), saying where this
        composition's results are and how to build them without knowing the directory."""
        v = self.main(game)
        parts = name.split("/")
        cut = -2 if len(parts) >= 2 and parts[-2] == "figures" else -1
        subdir, file = "/".join(parts[:cut]), "/".join(parts[cut:])
        wrong_dir = bool(subdir)  # another variant's directory (their names differ in tags)
        known = self.result_names(v.results_dir)
        if file not in known:
            close = nearest(file, known)
            raise ConfigError(
                f"results/{game}/{name}: {game} has no result {file!r}"
                + (f" (nearest: {', '.join(close)})" if close else "")
                + f"; {self._where(game)}")
        what = (f"results/{game}/{subdir}/ is not a results directory of this composition"
                if wrong_dir else f"results/{game}/{name} is the default composition's file")
        raise ConfigError(f"{what}; with the overrides {self.overrides} {game}'s results are "
                          f"in {v.results_dir}/: ask for {v.results_dir}/{file} or "
                          + self._build_hint(game))

    def _build_hint(self, game: str) -> str:
        """How to build ``game``'s results and find their directory, as commands to type."""
        cfg = config_arg(self.overrides)
        show = [o for o in self.overrides if not o.startswith("game=")]
        if game != self.default_game or any(o.startswith("game=") for o in self.overrides):
            show = [f"game={game}", *show]
        build = f"snakemake -j8 {game}_tables {cfg}".rstrip()
        show_cmd = f"ime pipeline show {' '.join(show)}".rstrip()
        return (f"build them all with: {build} (`{show_cmd}` prints the directory; "
                "docs/pipeline.md, 'Variants')")

    def _where(self, game: str) -> str:
        v = self.main(game)
        return (f"with the overrides {self.overrides} {game}'s results are in "
                f"{v.results_dir}/ ({v.results_dir}/index.md lists every file once built); "
                + self._build_hint(game))

    def result_names(self, rdir: str) -> list[str]:
        """Every file name a results directory of this composition can hold (the game's names,
        the generic ones, the game's own results, a sweep's files), for suggestions."""
        if rdir in self.index.sweeps:
            sw = self.index.sweeps[rdir]
            return sorted(A.sweep_results(sw.game, sw.files()))
        game = self.index.results[rdir].game if rdir in self.index.results else rdir.split("/")[1]
        names = {*A.variant_results(game), *A.game_names(game), *A.TRAIN_RESULTS,
                 *A.EVAL_RESULTS, *A.OTHER_RESULTS}
        names |= {n.removesuffix(".png") + ".pdf" for n in names if n.startswith("figures/")
                  and n.endswith(".png")}
        return sorted(names)

    @staticmethod
    def unknown_constraint(outputs: Iterable[str]) -> str:
        """The regex of a path under ``results/`` that none of ``outputs`` matches.

        ``outputs`` are the other rules' output patterns as Snakemake holds them, with their
        wildcards' constraints written in (``{rdir,results/reversi|...}/table4_4.csv``); a
        wildcard without one matches ``.+``, as in Snakemake. A path that any rule can write is
        excluded, so the catch-all rule never competes with a real one (an overlap would be
        Snakemake's AmbiguousRuleException, which the dry runs of every target would show).
        """
        wildcard = re.compile(r"\{\s*(\w+)\s*(?:,\s*((?:[^{}]+|\{\d+(?:,\d+)?\})*))?\s*\}")
        alts = []
        for pattern in dict.fromkeys(outputs):
            if not pattern.startswith(("results/", "{")):
                continue
            atoms, pos = [], 0  # an escaped character or a wildcard's group each
            for m in wildcard.finditer(pattern):
                atoms += [re.escape(ch) for ch in pattern[pos:m.start()]]
                atoms.append(f"(?:{m.group(2) or '.+'})")
                pos = m.end()
            atoms += [re.escape(ch) for ch in pattern[pos:]]
            alts.append(atoms)
        if not alts:
            return "results/.+"
        # one prefix tree of the outputs (ime.workflow.index.regex_tree), not a flat list: the
        # outputs share their directory's pattern, and Snakemake compiles this regex twice
        # per call (1,250 instead of 5,400 characters each, issue 31); the lookahead needs
        # only the set of paths they match, which is the same
        return "(?!(?:" + regex_tree(alts) + ")$)results/.+"

    def unknown_result(self, path: str) -> None:
        """Raise: ``path`` (under ``results/``) is a file no rule writes: an unknown game, a
        file the game's results directory does not have, or a directory not composed."""
        games = self.games
        _, _, rest = path.partition("/")
        game, _, name = rest.partition("/")
        if game == "thesis":
            from ime.workflow.thesis import ThesisPlan

            where = ThesisPlan(self).directory()
            raise ConfigError(f"{path}: no file of the reproduction report; with the overrides "
                              f"{self.overrides} it is {where}/reproduction.md (beside it: "
                              "numbers.csv, conclusions.csv, protocol.csv, table6_1.csv); "
                              f"build it with: snakemake -j8 reproduction "
                              f"{config_arg(self.overrides)}".rstrip())
        listed = f"the games: {', '.join(games)}"
        if game not in games or not name:
            close = nearest(game, games, n=1, cutoff=0.5)
            guess = f"; {did_you_mean([f'results/{close[0]}/{name}'])}" if close and name else ""
            raise ConfigError(f"{path}: no game {game!r} ({listed}){guess} Results are "
                              "results/<game>/<file>, e.g. results/reversi/table4_4.csv")
        self.plan(game)  # that game's config error, if it has one
        mine = [r for r in [*self.index.results, *self.index.sweeps]
                if r.startswith(f"results/{game}/") or r == f"results/{game}"]
        rdir = max((r for r in mine if path.startswith(r + "/")), key=len, default=None)
        file = path[len(rdir) + 1:] if rdir is not None else ""
        if rdir is None or "/" in file.removeprefix("figures/"):
            self.misplaced(game, name)  # a directory this composition does not write
        known = self.result_names(rdir)
        close = nearest(file, known)
        raise ConfigError(
            f"{path}: {rdir}/ has no file {file!r}"
            + (f" (nearest: {', '.join(close)})" if close else "")
            + f"; {self._where(game)}; {listed}")

    # --- results-directory jobs ------------------------------------------------------------
    def artifact_source(self, rdir: str, name: str) -> str:
        """The generic file that the game's result ``name`` copies."""
        game = (self.index.sweeps[rdir].game if rdir in self.index.sweeps
                else self.index.variant(rdir).game)
        return P.fill(P.RESULT, rdir=rdir, name=A.generic_of(game, name))

    def index_spec(self, rdir: str) -> dict[str, Any]:
        if rdir in self.index.sweeps:
            sw = self.index.sweeps[rdir]
            base = self.plan(sw.game).main
            return {"game": sw.game, "rdir": rdir, "variant": rdir.rsplit("/", 1)[-1],
                    "tags": {"base variant": base.name or "(default)"},
                    "rows": A.describe_sweep(sw.game, sw.table_name, sw.figure_name,
                                             sw.describe_axes(), sw.fit_name)}
        v = self.index.variant(rdir)
        return {"game": v.game, "rdir": rdir, "variant": v.name,
                "tags": {"logs": v.logs_tag, "dataset": v.dataset_tag, "train": v.train_tag},
                "rows": A.describe(v.game)}

    def result_inputs(self, rdir: str, name: str) -> list[str]:
        """The generic results a plug-in result reads (its hook's ``needs``)."""
        from ime.workflow.plugins import plugin_info

        v = self.index.variant(rdir)
        needs = plugin_info(v.game).results.get(name, ((), ""))[0]
        return [v.table_path(n) for n in needs]

    def result_spec(self, rdir: str, name: str) -> dict[str, Any]:
        """A plug-in result's job: the game, the result's name and the variant's config without
        its runtime keys (the job hands the hook its thread count as ``evaluate.workers``)."""
        v = self.index.variant(rdir)
        if name not in A.game_results(v.game):
            raise ConfigError(f"{v.game} has no result {name!r}; its own results: "
                              f"{A.game_results(v.game)}")
        return {"game": v.game, "name": name, "config": without_runtime(v.cfg)}


def _default_game(overrides: list[str], config_dir: str | Path) -> str:
    """The game rule ``all`` builds: the last ``game=`` override, else ``config.yaml``'s."""
    given = [o.split("=", 1)[1] for o in overrides if o.startswith("game=")]
    if given:
        return given[-1]
    import yaml  # not OmegaConf: a no-op rerun need not import it (issue 31)

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built with it
    top = yaml.load((Path(config_dir) / "config.yaml").read_text(encoding="utf-8"),
                    Loader=loader) or {}
    defaults = top.get("defaults", []) if isinstance(top, Mapping) else []
    for item in defaults:
        if isinstance(item, Mapping) and "game" in item:
            return str(item["game"])
    raise ConfigError(f"{config_dir}/config.yaml chooses no game in its defaults list")


def setup_workflow(snakemake_config: Mapping[str, Any], config_dir: str | Path,
                   base: str | Path = ".") -> Workflow:
    """Overrides from ``--config``, every game's plan, the indexes.

    Only the ``overrides`` key is accepted in ``--config`` (it cannot set nested keys, and a
    stray ``--config scale=thesis`` would otherwise be silently ignored). Errors that do not
    depend on the game (the overrides' syntax, an error every game shares) are raised here; a
    game's own error is kept in :attr:`Workflow.errors` (see the module doc). The config
    directory's files are read once for all the compositions (:func:`config_snapshot`).
    """
    with config_snapshot():
        return _setup(snakemake_config, config_dir, base)


def _setup(snakemake_config: Mapping[str, Any], config_dir: str | Path,
           base: str | Path) -> Workflow:
    """:func:`setup_workflow` within one snapshot of the config directory."""
    from ime.workflow.thesis import CONFIG_KEY, parse_thesis_games

    thesis_games = parse_thesis_games(snakemake_config.get(CONFIG_KEY))
    overrides = parse_overrides(snakemake_config.get("overrides"))
    unknown = [k for k in snakemake_config if k not in ("overrides", CONFIG_KEY)]
    if unknown:
        # ``--config scale=thesis`` is a Hydra override given as a --config entry of its own:
        # say the command that passes it (a dotted key, ``--config train.lr=...``, never gets
        # here: Snakemake's own parser refuses it first, docs/pipeline.md)
        given = [f"{k}={override_value(snakemake_config[k])}" for k in unknown]
        games = f" {CONFIG_KEY}='[{','.join(thesis_games)}]'" if CONFIG_KEY in snakemake_config \
            else ""
        raise ConfigError(
            f"unknown --config key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}: "
            "Hydra overrides go in the one --config key `overrides`, as a list: "
            f"{config_arg([*overrides, *given])}{games} (the only other --config key is "
            f"{CONFIG_KEY}, the reproduction report's games; docs/pipeline.md)")
    refuse_hydra_sweeps(overrides)
    first = _default_game(overrides, config_dir)
    known = game_options(config_dir)
    explicit = any(o.startswith("game=") for o in overrides)
    if explicit and first not in known:
        raise ConfigError(f"game={first}: no config/game/{first}.yaml; the games: "
                          f"{', '.join(known)}")
    rest = [o for o in overrides if not o.startswith("game=")]
    plans: dict[str, Plan] = {}
    specs: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    raised: dict[str, Exception] = {}
    for game in [first, *(g for g in known if g != first)]:
        if explicit and game != first:
            errors[game] = (
                f"the overrides {overrides} set game={first}, so only {first} is composed, "
                f"but results/{game}/... and {game}_tables are {game}'s: drop game={first} "
                f"(the game comes from the target path), or ask for {first}'s files "
                f"(snakemake -j8 {first}_tables {config_arg(overrides)})")
            continue
        try:
            ovr = overrides if game == first else [f"game={game}", *rest]
            plans[game], specs[game] = _game_plan(ovr, config_dir, base)
        except Exception as e:  # noqa: BLE001 - kept, raised when a target of this game is asked
            raised[game] = e
            errors[game] = f"{e}" if isinstance(e, ConfigError) else f"{type(e).__name__}: {e}"
    if first in raised and not isinstance(raised[first], ConfigError):
        raise raised[first]  # a bug, not a config error: never hidden behind another target
    if not plans and first in raised:
        # no game composes: an error they all share (an unknown key) stops the workflow at once
        # (a game's own error, like a bot missing from its bots file, waits for its target)
        shared = {errors[g].replace(f"'game={g}', ", "").replace(g, "<game>") for g in raised}
        if len(shared) == 1:
            raise raised[first]
    index = WorkflowIndex(list(plans.values()), specs)
    evals = EvalIndex(index.variants(), specs)
    return Workflow(overrides, first, plans, errors, index, evals, thesis_games)
