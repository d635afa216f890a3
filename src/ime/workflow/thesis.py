"""The reproduction report's place in the workflow: its folder, inputs and job spec.

The report (:mod:`ime.thesis.report`) reads the results of the thesis's three games, each
composed with the same overrides as every other target, so that one ``--config`` decides the
scale of everything: ``results/thesis/reproduction.md`` is the default composition's (scale
quick), ``results/thesis/thesis/reproduction.md`` with ``overrides='[scale=thesis]'``, and in
general ``results/thesis/<variant>/`` where ``<variant>`` is the games' results directory name
(``results/<game>/<variant>/``).

A report over a subset of the three games (``--config thesis_games='[reversi]'``, e.g. while
only Reversi's thesis scale has run) is a *partial* report: its folder and archive carry the
games it covers (``results/thesis/<variant or scale>+reversi/``,
``reproduction/<name>+reversi/``), so it never overwrites, nor is taken for, the whole one, and
the games it leaves out are not composed as inputs (no job of theirs is planned).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ime.paths import config_dir
from ime.thesis.names import FILES, GAMES, OPTIONAL_TABLES, REFERENCE, TABLES
from ime.workflow import paths as P
from ime.workflow.compose import config_arg
from ime.workflow.errors import ConfigError
from ime.workflow.tags import is_runtime_override, without_runtime

EXTRA: dict[str, tuple[str, ...]] = {
    "doudizhu": ("table5_10.csv",),
    "snake": ("split_vs_thesis.csv",),
}
"""The games' own results the conclusions read, by the games' names (beside :data:`TABLES`)."""
CASE_STUDY = "case_study.csv"
"""Generic: Table 5.11's case study, read by ``ddz_key_endgame_example``."""


CONFIG_KEY = "thesis_games"
"""The top-level ``--config`` key naming the report's games (a Snakemake ``--config`` cannot set
a nested key, and the subset is the report's, not any game's config, so it is no Hydra key)."""


def parse_thesis_games(value: Any) -> tuple[str, ...]:
    """The games of ``--config thesis_games=...`` in the thesis's order (:data:`GAMES`): a YAML
    list (``'[reversi,snake]'``), one name or a comma-separated string; none given means all
    three. An unknown or empty name is a :class:`ConfigError` naming the known games."""
    if value is None or value == "" or value == []:
        return GAMES
    if isinstance(value, str):
        items = [x.strip() for x in value.strip().strip("[]").split(",")]
    elif isinstance(value, (list, tuple)):
        items = [str(x).strip() for x in value]
    else:
        raise ConfigError(f"--config {CONFIG_KEY}={value!r}: give a list of games, e.g. "
                          f"{CONFIG_KEY}='[reversi]' (the thesis's games: {', '.join(GAMES)})")
    unknown = [x for x in items if x not in GAMES]
    if unknown or not items:
        raise ConfigError(f"--config {CONFIG_KEY}: no thesis game {', '.join(map(repr, unknown))}"
                          f"; the thesis's games are {', '.join(GAMES)}, e.g. "
                          f"{CONFIG_KEY}='[reversi]'")
    return tuple(g for g in GAMES if g in items)


class ThesisPlan:
    """Where the report of this composition goes and what it reads."""

    def __init__(self, wf: Any) -> None:
        self.wf = wf
        self.games: tuple[str, ...] = tuple(getattr(wf, "thesis_games", GAMES))
        """The games the report covers (all three unless ``--config thesis_games=...``)."""
        self.left_out: tuple[str, ...] = tuple(g for g in GAMES if g not in self.games)
        """The thesis's games this report leaves out (empty for the whole report)."""

    def _variants(self) -> dict[str, Any]:
        """Each covered game's main variant (a game whose config failed raises its error)."""
        return {g: self.wf.main(g) for g in self.games if g in self.wf.games}

    def _suffix(self) -> str:
        """``+reversi`` (the covered games) for a partial report, else nothing."""
        return "".join(f"+{g}" for g in self.games) if self.left_out else ""

    def _config_arg(self) -> str:
        """The ``--config`` words of this composition's commands (the subset's key included)."""
        arg = config_arg(self._overrides())
        if not self.left_out:
            return arg
        subset = f"{CONFIG_KEY}='[{','.join(self.games)}]'"
        return f"{arg} {subset}" if arg else f"--config {subset}"

    def directory(self) -> str:
        """``results/thesis`` plus the games' common variant name."""
        names = {g: v.name for g, v in self._variants().items()}
        if len(set(names.values())) > 1:
            raise ConfigError(
                "the reproduction report needs its games composed into one "
                f"variant, but these overrides name them differently: {names}; set run.name "
                "to give them one name")
        name = next(iter(names.values()), "")
        if self.left_out:  # never the whole report's folder: results/thesis/<name>+reversi
            scale = next(iter(self._variants().values())).cfg["run"]["choices"]["scale"]
            return P.thesis_dir((name or str(scale)) + self._suffix())
        return P.thesis_dir(name)

    def report_path(self) -> str:
        """This composition's ``reproduction.md`` (what rule ``reproduction`` builds)."""
        return P.fill(P.THESIS_FILE, trdir=self.directory(), tname="reproduction.md")

    def constraint(self) -> str:
        """The regex of the report's folder (only this composition's)."""
        try:
            return re.escape(self.directory())
        except ConfigError:
            return "(?!)"

    def _check(self, trdir: str) -> dict[str, Any]:
        if trdir != self.directory():
            raise ConfigError(f"{trdir}/ is not this composition's reproduction report: with "
                              f"the overrides {self.wf.overrides} it is {self.directory()}/")
        return self._variants()

    def inputs(self, trdir: str) -> dict[str, list[str]]:
        """Per game, the result tables the report reads (named inputs, one list per game), and
        as ``reference`` the thesis's data it compares them with (:data:`REFERENCE`).

        :data:`OPTIONAL_TABLES` (the opponent-model search's) are inputs only when the game's
        ``om_search.csv`` exists: the report never makes a run play that experiment, and once
        it has been played the report re-runs when its tables change (and a stale one is
        rebuilt first, as any input)."""
        out = {}
        for game, v in self._check(trdir).items():
            names = [*TABLES, *EXTRA.get(game, ()), CASE_STUDY]
            if Path(v.table_path(OPTIONAL_TABLES[0])).is_file():
                names += OPTIONAL_TABLES
            out[game] = [v.table_path(n) for n in names]
        out["reference"] = [str(config_dir() / "thesis" / n) for n in REFERENCE]
        return out

    def _overrides(self) -> list[str]:
        """The overrides a job's command repeats: all but the runtime ones (a worker count
        in the params would re-run the report when only the count changed)."""
        return [o for o in self.wf.overrides if not is_runtime_override(o)]

    def spec(self, trdir: str) -> dict[str, Any]:
        """The report job's parameters: the scale, each game's config, results directory,
        imitator net and matches per target, and the command that rebuilds it."""
        variants = self._check(trdir)
        scales = {v.cfg["run"]["choices"]["scale"] for v in variants.values()}
        games = {}
        for game, v in variants.items():
            games[game] = {"rdir": v.results_dir, "config": without_runtime(v.cfg),
                           "tags": sorted({v.logs_tag, v.dataset_tag, v.train_tag}),
                           "eval_net": v.cfg["evaluate"]["imitator"]["net"],
                           "matches_per_target": (v.cfg["dataset"].get("matches")
                                                  or v.cfg["matches"]["per_target"]),
                           "tables": {n: v.table_path(n) for n in
                                      [*TABLES, *EXTRA.get(game, ()), CASE_STUDY,
                                       *OPTIONAL_TABLES]}}
        cmd = f"snakemake -j8 {trdir}/reproduction.md {self._config_arg()}".rstrip()
        out = {"scale": "/".join(sorted(scales)), "games": games, "command": cmd,
               "files": list(FILES)}
        if self.left_out:  # only then: the whole report's params (and so its jobs) unchanged
            out["left_out"] = list(self.left_out)
        return out

    # --- the archive (reproduction/<name>/, committed) ------------------------------------
    def archive_name(self) -> str:
        """``reproduction/<name>``'s name: the games' variant name, or the scale's name for
        the default composition (``quick``); ``+<game>`` for each covered game of a partial
        report (``thesis+reversi``)."""
        v = next(iter(self._variants().values()))
        return (v.name or str(v.cfg["run"]["choices"]["scale"])) + self._suffix()

    def archive_constraint(self) -> str:
        try:
            return re.escape(self.archive_name())
        except ConfigError:
            return "(?!)"

    def archive_path(self) -> str:
        return P.fill(P.ARCHIVE_MANIFEST, aname=self.archive_name())

    def archive_inputs(self) -> list[str]:
        """The report's files and every result of the covered games' variants."""
        trdir = self.directory()
        out = [P.fill(P.THESIS_FILE, trdir=trdir, tname=f) for f in FILES]
        for game in self._variants():
            out += self.wf.targets(game)
        return out

    def archive_spec(self) -> dict[str, Any]:
        cmd = f"snakemake -j8 archive_reproduction {self._config_arg()}".rstrip()
        from ime.workflow.artifacts import game_names

        out = {"report_dir": self.directory(), "command": cmd,
               "game_dirs": {g: v.results_dir for g, v in self._variants().items()},
               "copies": {g: game_names(g) for g in self._variants()}}
        if self.left_out:
            out["left_out"] = list(self.left_out)
        return out
