"""Variants: one composed config each, and where each of its stages reads and writes.

Different variants never overwrite each other because every stage writes under a directory
named after the config keys that stage depends on (:mod:`ime.workflow.tags`,
:mod:`ime.workflow.paths`): match logs under the logs' tag, datasets under the dataset's, models
under the training's and the net's folder, and tables in ``results/<game>/`` for the default
composition, else ``results/<game>/<name>/``. ``run.name`` names the results directory.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ime.workflow import paths as P
from ime.workflow.compose import (
    bind_game,
    compose_plain,
    default_config_dir,
    load_net_file,
    override_value,
)
from ime.workflow.compose_cache import config_stamp
from ime.workflow.errors import ConfigError
from ime.workflow.sweeps import NEUTRAL as SWEEP_NEUTRAL
from ime.workflow.sweeps import Sweep, axes_of, point_overrides, sweep_dir_name
from ime.workflow.tags import (
    SAFE,
    dataset_key,
    digest,
    flatten,
    logs_key,
    results_key,
    sparring_pool,
    split_game_params,
    tag,
    train_key,
    without_idle_options,
)

RAW_PATTERNS = ("*.jsonl", "*.matches", "*.json")


def unique(items: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


@dataclass
class Variant:
    """One composed config and where each of its stages reads and writes."""

    name: str
    cfg: dict[str, Any]
    logs_tag: str
    dataset_tag: str
    train_tag: str
    net_dirs: dict[str, str]
    results_dir: str
    raw_files: list[str] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.cfg["game"]["name"]

    @property
    def game_params(self) -> dict[str, Any]:
        """The board options every job that builds the game or its encoder gets."""
        return dict(self.cfg["game"].get("params") or {})

    @property
    def log_game_params(self) -> dict[str, Any]:
        """The board options the match logs depend on: :attr:`game_params` without the encoder's
        own (:func:`ime.workflow.tags.split_game_params`)."""
        return split_game_params(self.game, self.game_params)[0]

    @property
    def encoder_game_params(self) -> dict[str, Any]:
        """The encoder's own game params (they name the decisions directory)."""
        return split_game_params(self.game, self.game_params)[1]

    @property
    def targets(self) -> list[str]:
        return list(self.cfg["game"]["targets"])

    @property
    def folds(self) -> int:
        """How many folds are trained (checkpoints ``fold0 .. fold{folds-1}`` exist).

        ``train.folds`` is k of the k-fold split; ``train.run_folds`` (when set) trains only the
        first folds of that split (the quick scale's time saver); ``train.split=holdout`` trains
        one model, ``fold0`` (:func:`ime.train.folds.trained_models`).
        """
        from ime.train.folds import trained_models

        return trained_models(self.cfg["train"])

    @property
    def source(self) -> str:
        return self.cfg["matches"]["source"]

    def sparring(self, target: str) -> list[str]:
        """``target``'s sparring partners (see :func:`ime.workflow.tags.sparring_pool`)."""
        return sparring_pool(self.cfg, target)

    def players_of(self, target: str) -> list[str] | None:
        """The bots that can sit in ``target``'s generated matches (the target, the opponents,
        its sparring partners); ``None`` for raw logs, where any part may hold anyone."""
        if self.source == "raw":
            return None
        return unique([target, *self.cfg["game"]["opponents"], *self.sparring(target)])

    # --- paths ------------------------------------------------------------------------------
    def parts(self, target: str | None = None) -> list[str]:
        """Names of the log parts: ``<target>/shardNNN`` per target for generated logs (only
        ``target``'s when given), or the stems of the raw files (every part, for any target:
        a raw part feeds every target's dataset)."""
        if self.source == "raw":
            return [raw_part_name(p) for p in self.raw_files]
        shards = int(self.cfg["matches"]["shards"])
        targets = self.targets if target is None else [target]
        return [f"{t}/shard{i:03d}" for t in targets for i in range(shards)]

    def log_paths(self, target: str | None = None) -> list[str]:
        """The match-log files (Botzone JSON lines) of this variant, or those that hold
        ``target``'s matches (its own parts; every raw file)."""
        if self.source == "raw":
            return list(self.raw_files)
        return [self.log_path(p) for p in self.parts(target)]

    def log_path(self, part: str) -> str:
        """The file of one generated part (``<target>/shardNNN``)."""
        return P.fill(P.LOG, game=self.game, ltag=self.logs_tag, part=part)

    def decisions_path(self, part: str, pattern: str = P.DECISIONS) -> str:
        """A decisions part (or, with ``pattern=P.DECISIONS_REPORT``, its report)."""
        return P.fill(pattern, game=self.game, ltag=self.logs_tag,
                      mode=self.decisions_label, part=part)

    @property
    def decisions_label(self) -> str:
        """The ``{mode}`` directory of this variant's decisions
        (:func:`ime.datasets.labels.decisions_label`)."""
        from ime.datasets.labels import decisions_label

        d = self.cfg["dataset"]
        return decisions_label(d["mode"], bool(d.get("keep_forced")), self.encoder_game_params)

    def dataset_path(self, bot: str) -> str:
        """Parquet dataset of ``bot`` (one row per decision)."""
        return P.fill(P.DATASET, game=self.game, dtag=self.dataset_tag, bot=bot)

    def dataset_stats_path(self, bot: str) -> str:
        return P.fill(P.DATASET_STATS, game=self.game, dtag=self.dataset_tag, bot=bot)

    @property
    def ceiling_tag(self) -> str | None:
        """``n<decisions>_s<seed>`` of the self-agreement sample, with ``_r<repeats>`` when a
        stochastic bot is re-asked more than once (``evaluate.ceiling_repeats``; a file of one
        re-ask keeps the tag it had before the top-1 ceiling), None when it is off."""
        e = self.cfg["evaluate"]
        n = int(e.get("self_agreement") or 0)
        r = int(e.get("ceiling_repeats") or 1)
        return (f"n{n}_s{int(e['seed'])}" + (f"_r{r}" if r != 1 else "")) if n > 0 else None

    def ceiling_path(self, bot: str) -> str:
        """``bot``'s self-agreement (Table 4.4's ceiling column); needs ``ceiling_tag``."""
        if self.ceiling_tag is None:
            raise ValueError("evaluate.self_agreement is 0: no ceiling")
        return P.fill(P.CEILING, game=self.game, dtag=self.dataset_tag, ctag=self.ceiling_tag,
                      bot=bot)

    def model_dir(self, net: str) -> str:
        return P.fill(P.MODEL_DIR, game=self.game, ttag=self.train_tag, netdir=self.net_dirs[net])

    def checkpoint_path(self, bot: str, net: str | None = None, fold: int = 0,
                        pattern: str = P.CHECKPOINT) -> str:
        """Checkpoint of (bot, net, fold); ``net`` defaults to the selected ``net``."""
        net = net or self.cfg["net"]["name"]
        return P.fill(pattern, game=self.game, ttag=self.train_tag, netdir=self.net_dirs[net],
                      bot=bot, fold=fold)

    def metrics_path(self, bot: str, net: str | None = None, fold: int = 0) -> str:
        return self.checkpoint_path(bot, net, fold, P.METRICS)

    def table_path(self, name: str) -> str:
        return P.fill(P.RESULT, rdir=self.results_dir, name=name)


def overridden_net_dir(name: str, arch: dict[str, Any]) -> str:
    """The model folder of net ``name`` whose resolved settings ``arch`` differ from the
    scale's own (an override): ``<name>-<digest>``, so two settings never share a folder. The
    digest leaves out the search options at their idle values
    (:func:`ime.workflow.tags.without_idle_options`), so adding one renames no folder."""
    return f"{name}-{digest(without_idle_options(arch), 8)}"


def raw_part_name(path: str) -> str:
    """A raw log file's part name: its file name made safe (``a.matches`` -> ``a_matches``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", Path(path).name)


def find_raw_files(raw_dir: str | Path, base: str | Path = ".") -> list[str]:
    """Raw log files under ``raw_dir`` (relative to ``base``), sorted."""
    root = Path(base) / raw_dir
    found = sorted({p for pat in RAW_PATTERNS for p in root.glob(pat) if p.is_file()})
    return [str(Path(raw_dir) / p.name) for p in found]


@dataclass
class Plan:
    """The main variant (what ``all`` builds without a sweep) plus the sweep, if any.

    With a sweep, ``main`` is the base variant (the overrides without the sweep) and ``all``
    builds only the sweep's files; the base's own results are built when asked for.
    """

    main: Variant
    sweep: Sweep | None = None

    def variants(self) -> list[Variant]:
        points = [v for _, v in self.sweep.points] if self.sweep else []
        return [self.main, *points]


_COMPOSED: dict[tuple, dict[str, Any]] = {}
"""Composed configs by (config dir, overrides, config files' mtimes): composing is ~0.2 s."""


def _plain_copy(value: Any) -> Any:
    """A deep copy of a composed config (dicts, lists and scalars, as JSON gives them): 4x
    faster than ``copy.deepcopy``, which a setup calls 24 times (issue 31); anything else is
    deep-copied."""
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_copy(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return copy.deepcopy(value)


def make_variant(
    overrides: Sequence[str],
    config_dir: str | Path | None = None,
    *,
    base: str | Path = ".",
    keep_nets: Sequence[str] = (),
    derive_name: bool = False,
    _cache: dict | None = None,
) -> Variant:
    """Compose ``overrides`` and work out the variant's tags and directories.

    The variant's config carries no sweep (:func:`as_point`); ``keep_nets`` are nets a sweep
    trains at this point besides ``train.nets`` and ``net``, and ``derive_name`` ignores
    ``run.name`` (which names the sweep, not its points).
    """
    cache = _COMPOSED if _cache is None else _cache
    cdir = str(Path(config_dir or default_config_dir()).resolve())

    def composed(ovr: tuple[str, ...]) -> dict[str, Any]:
        key = (cdir, ovr, config_stamp(cdir))
        if key not in cache:
            cache[key] = compose_plain(ovr, cdir)
        return _plain_copy(cache[key])

    c = composed(tuple(overrides))
    c = as_point(c, keep_nets, derive_name)
    game = c["run"]["choices"]["game"]
    scale = c["run"]["choices"]["scale"]
    ref = composed((f"game={game}", f"scale={scale}"))
    default = composed((f"game={game}",))
    ltag = tag(logs_key(c), logs_key(ref), scale)
    dtag = tag(dataset_key(c), dataset_key(ref), scale)
    ttag = tag(train_key(c), train_key(ref), scale)
    net_dirs = {}
    ref_nets = dict(ref["nets"])
    for name, arch in c["nets"].items():
        if name not in ref_nets:
            ref_nets[name] = bind_game(load_net_file(cdir, name), c["game"])
        net_dirs[name] = name if arch == ref_nets[name] else overridden_net_dir(name, arch)
    rname = c["run"]["name"]
    if rname is None:
        key = results_key(c)
        if key == results_key(default):
            rname = ""
        else:
            rname = tag(key, reference_key(key, ref, ref_nets), scale)
    if rname and not SAFE.match(rname):
        raise ConfigError(f"run.name {rname!r} must be a plain directory name ([A-Za-z0-9._-])")
    raw_files: list[str] = []
    if c["matches"]["source"] == "raw":
        raw_files = find_raw_files(c["matches"]["raw_dir"], base)
        if not raw_files:
            raise ConfigError(
                f"matches.source=raw but {Path(base) / c['matches']['raw_dir']} holds no "
                f"{' / '.join(RAW_PATTERNS)} files: drop Botzone match logs there"
            )
    return Variant(rname, c, ltag, dtag, ttag, net_dirs, P.results_dir(c["game"]["name"], rname),
                   raw_files)


def reference_key(key: dict[str, Any], ref: dict[str, Any],
                  ref_nets: dict[str, Any]) -> dict[str, Any]:
    """The reference's :func:`results_key` to name a variant whose key is ``key``: a net the
    reference does not use (``net=resnet``) is compared with its config file as it stands, as
    its model directory is, so the name says ``net-resnet`` and not every key of its
    architecture (or a hash)."""
    out = results_key(ref)
    for k, v in flatten(ref_nets, "nets").items():
        if k in key and k not in out:
            out[k] = v
    return out


def as_point(c: dict[str, Any], keep_nets: Sequence[str] = (),
             derive_name: bool = False) -> dict[str, Any]:
    """A composed config as one variant sees it: no sweep, no ``experiment`` choice (the
    experiment's effect is in the keys), and ``nets`` holding only the nets trained here, so
    that the same point reached by another composition has the same config and params."""
    c["sweep"] = dict(SWEEP_NEUTRAL)
    c["run"]["choices"].pop("experiment", None)
    if derive_name:
        c["run"]["name"] = None
    wanted = {*c["train"]["nets"], c["net"]["name"], *keep_nets}
    c["nets"] = {n: arch for n, arch in c["nets"].items() if n in wanted}
    return c


def make_plan(
    overrides: Sequence[str],
    config_dir: str | Path | None = None,
    *,
    base: str | Path = ".",
) -> Plan:
    """The main variant and, when the config sweeps (``sweep.key`` or ``sweep.grid``), the
    sweep: one variant per value (per cell of a grid)."""
    cache = _COMPOSED
    cdir = str(Path(config_dir or default_config_dir()).resolve())
    raw = _raw(overrides, cdir)
    sw = raw["sweep"]
    axes = axes_of(sw)
    if not axes:
        return Plan(make_variant(overrides, config_dir, base=base, _cache=cache))
    main = make_variant(overrides, config_dir, base=base, derive_name=True, _cache=cache)
    points = []
    for labels in point_overrides(axes):
        extra = [f"{k}={override_value(v)}" for k, v in labels.items()]
        try:
            v = make_variant([*overrides, *extra], config_dir, base=base,
                             keep_nets=sw["nets"] or (), derive_name=True, _cache=cache)
        except ConfigError as e:
            raise ConfigError(f"sweep point {', '.join(extra)}: {e}") from None
        points.append((labels, v))
    rname = raw["run"]["name"] or sweep_dir_name(main.name, axes, sw["nets"])
    if not SAFE.match(rname):
        raise ConfigError(f"run.name {rname!r} must be a plain directory name ([A-Za-z0-9._-])")
    return Plan(main, Sweep(axes, sw["nets"], points, P.results_dir(main.game, rname),
                            sw["fit_target"]))


def _raw(overrides: Sequence[str], cdir: str) -> dict[str, Any]:
    """The composed config before :func:`as_point` (cached like the variants' compositions)."""
    key = (cdir, tuple(overrides), config_stamp(cdir))
    if key not in _COMPOSED:
        _COMPOSED[key] = compose_plain(tuple(overrides), cdir)
    return _COMPOSED[key]
