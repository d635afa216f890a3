"""Game plug-ins by name (OpenSpiel's ``register_game``), and what a plug-in declares.

A game package ``ime.games.<name>`` calls :func:`register_game` with a :class:`GamePlugin` when it
is imported. Stages ask :func:`get_plugin` / :func:`get_game` / :func:`get_encoder` by the name in
the config (``game.name``) and never import a game module themselves, so adding a game touches
only its own folders:

* ``src/ime/games/<name>/`` (engine, codec, encoder, openings, its bots, figure hooks, results),
* ``config/game/<name>.yaml`` and ``config/bots/<name>.yaml``,
* ``tests/games/<name>/`` and its docs.

:func:`known_games` finds every package under ``ime.games`` that registers itself.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ime.core.codec import SimpleCodec
from ime.core.encoding import Encoder
from ime.core.game import Action, Game, GameType, State

if TYPE_CHECKING:
    from ime.core.bot import Bot

BotFactory = Callable[[str, str, Mapping[str, Any]], "Bot"]
"""``factory(game_name, bot_id, params) -> Bot`` for one ``kind`` of ``config/bots/<game>.yaml``."""

ResultHook = Callable[[Mapping[str, Any], str], None]
"""``hook(plain_config, out_path)``: writes one game-specific result file (a plug-in's own study,
such as Connect Four's seed-002 table), run by the generic ``game_result`` rule. A hook that
reads generic results of the same results directory (Doudizhu's Table 5.10 reads
``tournament_games.csv``) names them in a ``needs`` attribute (a tuple of generic file names):
the rule then waits for them, and the hook finds them beside ``out_path``."""


def result_needs(hook: ResultHook) -> tuple[str, ...]:
    """The generic results (same results directory) that ``hook`` reads."""
    return tuple(getattr(hook, "needs", ()))


def _never(state: State, legal: list[Action]) -> bool:
    return False


def _always(state: State, params: Mapping[str, Any]) -> bool:
    return True


@dataclass(frozen=True)
class Openings:
    """How a game draws balanced tournament openings (random plies from the start).

    ``rejects(state, legal)``: a ply whose legal actions make the opening unusable (Reversi: a
    forced pass). ``balanced(state, params)``: whether the position after the opening is fair
    enough, with the game's ``game.openings`` config as ``params``.
    """

    rejects: Callable[[State, list[Action]], bool] = _never
    balanced: Callable[[State, Mapping[str, Any]], bool] = _always


@dataclass(frozen=True)
class FigureHooks:
    """What the generic figures need of a game.

    ``grid(game)``: ``(height, width)`` of a board on which the first head's codes lie row by row
    (code ``y * width + x``), for move-choice heat maps; ``None``: the game has no board picture
    and gets bar charts of its most played codes. ``fixed_cells(game)``: cells nobody can ever
    play (Reversi's centre), greyed out. ``code_label(code)``: a code's name on an axis.
    """

    grid: Callable[[Game], tuple[int, int]] | None = None
    fixed_cells: Callable[[Game], list[int]] = field(default=lambda game: [])
    code_label: Callable[[int], str] = field(default=str)


@dataclass(frozen=True)
class SolveOutcome:
    """An exact solve of one position: the game-theoretic score for the side to move (in the
    game's own unit), every optimal move by name, and the effort."""

    score: int
    best: list[str]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class GameTools:
    """Optional command-line tools a game offers; ``ime <tool> <game>`` says when one is missing.

    ``perft(depth, reference)``: leaves of the game tree (``reference``: the slow pure-Python
    kernel). ``solve(position, to_move)``: exact solve of a position written as
    ``position_help`` says. ``positions(n, seed)``: seeded mid-game positions (bot benchmarks,
    ``ime zoo agreement``). ``bench``: extra ``ime bench`` sections, name -> ``f(quick) -> dict``.
    ``zoo``: ``ime zoo`` checks of the game's zoo (``agreement(bots, positions, seed)``,
    ``roundrobin(bots, rounds, seed)``) and ``default_bots`` for them.
    """

    perft: Callable[[int, bool], int] | None = None
    solve: Callable[[str, str], SolveOutcome] | None = None
    position_help: str = ""
    positions: Callable[[int, int], list[State]] | None = None
    bench: Mapping[str, Callable[[bool], dict]] = field(default_factory=dict)
    zoo: Mapping[str, Callable[..., dict]] = field(default_factory=dict)
    default_bots: tuple[str, ...] = ()


def bench_perft(perft: Callable[[int, bool], int], depth: int, python_depth: int) -> dict:
    """Leaves/s of a game's compiled perft at ``depth`` against its pure-Python reference at
    ``python_depth`` (the compiled kernel is warmed up first, outside the timing)."""
    import time

    perft(3, False)
    t = time.perf_counter()
    n = perft(depth, False)
    dt = time.perf_counter() - t
    t = time.perf_counter()
    n_py = perft(python_depth, True)
    dt_py = time.perf_counter() - t
    fast, slow = n / dt, n_py / dt_py
    return {"depth": depth, "leaves": n, "seconds": dt, "leaves_per_s": fast,
            "python_depth": python_depth, "python_leaves_per_s": slow, "speedup": fast / slow}


@dataclass(frozen=True)
class GamePlugin:
    """Everything a game brings. Only ``game_type``, ``make_game`` and ``make_encoder`` are
    required; the rest has generic defaults.

    ``make_game(**params)``: the engine, with the board options of ``game.params`` in the config
    (Connect Four's size and blocked cells; none for Reversi). ``artifacts``: the game's own file
    names for the generic results (``"s1s2_imitator.csv" -> "table4_5.csv"``); see
    :data:`GENERIC_ARTIFACTS`. ``results``: extra, game-specific result files by name.
    """

    game_type: GameType
    make_game: Callable[..., Game]
    make_encoder: Callable[[Game], Encoder]
    simple_codec: SimpleCodec | None = None
    bot_kinds: Mapping[str, BotFactory] = field(default_factory=dict)
    openings: Openings = field(default_factory=Openings)
    figures: FigureHooks = field(default_factory=FigureHooks)
    artifacts: Mapping[str, str] = field(default_factory=dict)
    results: Mapping[str, ResultHook] = field(default_factory=dict)
    tools: GameTools = field(default_factory=GameTools)
    docs: str = ""
    imitators: Mapping[str, str] = field(default_factory=dict)
    """Imitator families the game offers beside the policy nets: family name (a ``kind`` of
    ``config/net/``, e.g. ``search``) -> ``"module:attribute"`` of its
    :class:`ime.imitators.family.ImitatorFamily`, imported only when used."""
    encoder_params: tuple[str, ...] = ()
    """The ``game.params`` keys only the encoder reads (Doudizhu's ``observation``): the rules
    and so the match logs do not depend on them, the decisions and everything after do. The
    workflow leaves them out of the logs' key and the matches' params, so that changing one
    re-encodes the logs instead of replaying them (:mod:`ime.workflow.tags`)."""

    @property
    def name(self) -> str:
        return self.game_type.short_name


@dataclass(frozen=True)
class PluginInfo:
    """What the workflow reads of a plug-in while it builds the DAG, as plain data.

    Why: ``snakemake`` composes every game's plan on every call, a no-op rerun included, and
    needs only these facts of each plug-in; importing the plug-ins for them imports every
    game's engine and numba (0.5 s). As plain data they can be cached by the code's digest
    (:mod:`ime.workflow.plugins`), so that a rerun of unchanged code imports no engine.

    ``teams``: ``GameType.teams``. ``artifacts``: :attr:`GamePlugin.artifacts`. ``results``: each
    result hook's name -> (its ``needs``, the first paragraph of its docstring). ``kinds``: the
    plug-in's bot kinds. ``encoder_params``: :attr:`GamePlugin.encoder_params`.
    """

    name: str
    teams: tuple[tuple[int, ...], ...]
    artifacts: Mapping[str, str]
    results: Mapping[str, tuple[tuple[str, ...], str]]
    kinds: tuple[str, ...]
    encoder_params: tuple[str, ...] = ()

    @classmethod
    def of(cls, plugin: GamePlugin) -> PluginInfo:
        """``plugin``'s facts (read from the plug-in itself)."""
        return cls(
            name=plugin.name,
            teams=tuple(tuple(int(s) for s in team) for team in plugin.game_type.teams),
            artifacts=dict(plugin.artifacts),
            results={n: (result_needs(h),
                         (h.__doc__ or "").strip().split("\n\n")[0].replace("\n", " "))
                     for n, h in sorted(plugin.results.items())},
            kinds=tuple(sorted(plugin.bot_kinds)),
            encoder_params=tuple(plugin.encoder_params))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (:meth:`from_json` gives back an equal object)."""
        return {"name": self.name, "teams": [list(t) for t in self.teams],
                "artifacts": dict(self.artifacts),
                "results": {n: [list(needs), doc] for n, (needs, doc) in self.results.items()},
                "kinds": list(self.kinds), "encoder_params": list(self.encoder_params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PluginInfo:
        return cls(name=str(data["name"]), teams=tuple(tuple(t) for t in data["teams"]),
                   artifacts=dict(data["artifacts"]),
                   results={n: (tuple(needs), str(doc))
                            for n, (needs, doc) in data["results"].items()},
                   kinds=tuple(data["kinds"]),
                   encoder_params=tuple(data.get("encoder_params", ())))


GENERIC_ARTIFACTS: dict[str, str] = {
    "dataset_stats.csv": "decisions, matches and dataset sizes per target (thesis Table 4.2)",
    "net_architectures.csv": "the imitation nets' layers and sizes (Table 4.3)",
    "imitation_accuracy.csv": "train/val accuracy per bot and net, mean +- std over folds (4.4)",
    "s1s2_imitator.csv": "S1/S2 of each imitator against its original, with CIs (Table 4.5)",
    "s1_pairwise.csv": "S1 between every pair of original bots, + IMBOT column (Table 4.6)",
    "s2_pairwise.csv": "S2 between every pair of original bots, + IMBOT column (Table 4.7)",
    "tournament.csv": "round-robin standings and Bradley-Terry Elo of originals + imitators (4.8)",
    "difficulty_by_class.csv": "algorithm class vs imitation difficulty (Table 6.1)",
    "figures/move_choice_pair.png": "two bots' move-choice maps and their difference (Fig 4.2)",
    "accuracy_clusters.csv": "bots clustered by imitation accuracy (mean over nets), with the "
                             "random baseline (the Snake study's two-way split)",
    "figures/accuracy.png": "each bot's imitation accuracy beside its random baseline (Fig 2.7)",
    "case_study.csv": "one key endgame finished move by move by the target, every reference and "
                      "the imitator: moves, forks from the target's line, results (Table 5.11)",
    "figures/case_study.png": "that key endgame's move sequences side by side, forks outlined, "
                              "results below (Figs 5.4-5.8)",
}
"""The generic results whose file names a game may map to its thesis names."""
SWEEP_PREFIXES = ("sweep_", "fig_sweep_")
"""A sweep's table and figure (``sweep_<keys>.csv``, ``fig_sweep_<keys>.png``) may be mapped
too: Snake's Fig 2.6 is its dataset-size sweep."""

_PLUGINS: dict[str, GamePlugin] = {}
_GAMES: dict[tuple[str, tuple], Game] = {}
_ENCODERS: dict[tuple[str, tuple], Encoder] = {}


def register_game(plugin: GamePlugin) -> GamePlugin:
    """Make ``plugin`` findable by its short name (called by ``ime.games.<name>`` on import)."""
    unknown = {a for a in plugin.artifacts
               if a not in GENERIC_ARTIFACTS and not a.startswith(SWEEP_PREFIXES)}
    if unknown:
        raise ValueError(f"game {plugin.name!r} maps unknown artifacts {sorted(unknown)}; "
                         f"generic ones: {sorted(GENERIC_ARTIFACTS)}")
    _PLUGINS[plugin.name] = plugin
    return plugin


def registered(name: str) -> GamePlugin | None:
    """The plug-in ``name`` if it is registered in this process already (nothing imported)."""
    return _PLUGINS.get(name)


def known_games() -> list[str]:
    """Short names of every game package under ``ime.games`` that registers a plug-in."""
    import ime.games

    for info in pkgutil.iter_modules(ime.games.__path__):
        if info.ispkg and info.name not in _PLUGINS:
            try:
                importlib.import_module(f"ime.games.{info.name}")
            except ImportError:  # pragma: no cover - a broken package is reported by get_plugin
                continue
    return sorted(_PLUGINS)


def get_plugin(name: str) -> GamePlugin:
    """The plug-in of game ``name``, importing ``ime.games.<name>`` on first use."""
    if name not in _PLUGINS and name.isidentifier():
        try:
            importlib.import_module(f"ime.games.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"ime.games.{name}":
                raise
    if name not in _PLUGINS:
        raise KeyError(f"unknown game {name!r}; known: {known_games()}")
    return _PLUGINS[name]


def _params_key(params: Mapping[str, Any] | None) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in (params or {}).items()))


def get_game(name: str, params: Mapping[str, Any] | None = None) -> Game:
    """The engine of game ``name`` with board options ``params`` (cached per options)."""
    key = (name, _params_key(params))
    if key not in _GAMES:
        _GAMES[key] = get_plugin(name).make_game(**dict(params or {}))
    return _GAMES[key]


def get_encoder(name: str, params: Mapping[str, Any] | None = None) -> Encoder:
    """The net encoder of game ``name`` with board options ``params`` (cached per options)."""
    key = (name, _params_key(params))
    if key not in _ENCODERS:
        _ENCODERS[key] = get_plugin(name).make_encoder(get_game(name, params))
    return _ENCODERS[key]


def artifact_name(game: str, generic: str) -> str:
    """The file name game ``game`` gives the generic result ``generic`` (itself if unmapped)."""
    return get_plugin(game).artifacts.get(generic, generic)


__all__ = ["BotFactory", "FigureHooks", "GamePlugin", "GameTools", "GameType", "Openings",
           "PluginInfo", "ResultHook", "SolveOutcome", "result_needs", "registered",
           "artifact_name", "get_encoder", "get_game", "get_plugin", "known_games",
           "register_game"]
