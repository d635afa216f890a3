"""What the Snakefile does first: compose every game's config, index it, and name the targets.

**The game comes from the target path.** Every game that has a plug-in and a
``config/game/<game>.yaml`` is composed with ``game=<game>`` plus the user's overrides, so
``snakemake results/<game>/<file>`` builds that game with no override; rule ``all`` (no target)
builds the default game's results (``config.yaml``'s ``game``, or the ``game=`` override) and rule
``all_games`` every game's. A config error of the default game stops the workflow at once; another
game's error is kept and raised only when a target of that game is asked for, so one game's
broken config or an override meant for another game (``game.targets=[rev1]``) never blocks the
rest. Either way it happens while the DAG is built, before any job runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ime.workflow import artifacts as A
from ime.workflow import paths as P
from ime.workflow.compose import game_options, parse_overrides
from ime.workflow.errors import ConfigError
from ime.workflow.evalplan import EvalIndex
from ime.workflow.index import WorkflowIndex, alternatives
from ime.workflow.variants import Plan, Variant, make_plan


def load_specs(game: str) -> dict[str, dict[str, Any]]:
    """``config/bots/<game>.yaml`` checked against the bot-spec schema ({} when absent)."""
    from ime.bots.registry import bot_config_path, load_bot_specs
    from ime.workflow.schema.bots import validate_bot_specs

    path = bot_config_path(game)
    if not path.is_file():
        return {}
    try:
        specs = load_bot_specs(game)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    validate_bot_specs(game, specs, str(path))
    return specs


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

    @staticmethod
    def checked(fn: Any, *args: Any) -> Any:
        """Call ``fn`` (a rule's input or params function), turning a :class:`ConfigError` of a
        game that is asked for into Snakemake's ``IME config error: ...``."""
        try:
            return fn(*args)
        except ConfigError as e:
            from snakemake.exceptions import WorkflowError

            raise WorkflowError(f"IME config error: {e}") from None

    def plan(self, game: str | None = None) -> Plan:
        game = game or self.default_game
        if game in self.errors:
            raise ConfigError(f"game {game}: {self.errors[game]}")
        return self.plans[game]

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
        return [v.table_path(n) for n in A.variant_results(v.game)]

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
        return {**self.index.constraints(), **self.evals.constraints(),
                "artifact": alternatives(renamed) or "(?!)",
                "result": alternatives(r for g in games for r in A.game_results(g)) or "(?!)",
                "swkey": alternatives(sw.file_key for sw in self.index.sweeps.values())
                or "(?!)"}

    def workers(self, game: str) -> int:
        """Worker processes of the evaluation's jobs (``evaluate.workers``)."""
        return int(self.cfg(game)["evaluate"]["workers"])

    def result_threads(self, rdir: str) -> int:
        """A plug-in result's job may use as many processes as the evaluation's jobs."""
        return self.workers(self.index.variant(rdir).game)

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
        """Raise: ``results/<game>/<name>`` is not a file of this composition."""
        v = self.main(game)
        first, _, rest = name.partition("/")
        if rest and first != "figures":  # another variant's directory (names differ in tags)
            raise ConfigError(
                f"results/{game}/{first}/ is not a results directory of this composition; with "
                f"the overrides {self.overrides} {game}'s results are in {v.results_dir}/: ask "
                f"for {v.results_dir}/{rest} (docs/pipeline.md, 'Variants')")
        raise ConfigError(
            f"results/{game}/{name} is the default composition's file; with the overrides "
            f"{self.overrides} {game}'s results are in {v.results_dir}/: ask for "
            f"{v.results_dir}/{name} (docs/pipeline.md, 'Variants')")

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
        from ime.core.registry import get_plugin, result_needs

        v = self.index.variant(rdir)
        hook = get_plugin(v.game).results.get(name)
        return [v.table_path(n) for n in result_needs(hook)] if hook is not None else []

    def result_spec(self, rdir: str, name: str) -> dict[str, Any]:
        """A plug-in result's job: the game, the result's name and the variant's config."""
        v = self.index.variant(rdir)
        if name not in A.game_results(v.game):
            raise ConfigError(f"{v.game} has no result {name!r}; its own results: "
                              f"{A.game_results(v.game)}")
        return {"game": v.game, "name": name, "config": v.cfg}


def setup_workflow(snakemake_config: Mapping[str, Any], config_dir: str | Path,
                   base: str | Path = ".") -> Workflow:
    """Overrides from ``--config``, every game's plan, the indexes.

    Only the ``overrides`` key is accepted in ``--config`` (it cannot set nested keys, and a
    stray ``--config scale=thesis`` would otherwise be silently ignored).
    """
    unknown = sorted(set(snakemake_config) - {"overrides"})
    if unknown:
        raise ConfigError(
            f"unknown --config key(s) {unknown}: pass Hydra overrides as one list, e.g. "
            "--config overrides='[scale=quick,net=conv]'"
        )
    overrides = parse_overrides(snakemake_config.get("overrides"))
    main_plan, main_specs = _game_plan(overrides, config_dir, base)
    first = main_plan.main.game
    plans: dict[str, Plan] = {first: main_plan}
    specs: dict[str, dict[str, Any]] = {first: main_specs}
    errors: dict[str, str] = {}
    rest = [o for o in overrides if not o.startswith("game=")]
    for game in game_options(config_dir):
        if game == first:
            continue
        try:
            plans[game], specs[game] = _game_plan([f"game={game}", *rest], config_dir, base)
        except Exception as e:  # noqa: BLE001 - kept, raised when a target of this game is asked
            errors[game] = f"{e}" if isinstance(e, ConfigError) else f"{type(e).__name__}: {e}"
    index = WorkflowIndex(list(plans.values()), specs)
    evals = EvalIndex(index.variants(), specs)
    return Workflow(overrides, first, plans, errors, index, evals)
