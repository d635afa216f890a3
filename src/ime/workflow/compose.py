"""Hydra composition: ``--config overrides=[...]`` -> one validated, plain config.

Why here and not in the Snakefile: everything that can go wrong before a job runs (an unknown
group option, a misspelt key, a string where a number belongs) must fail with one clear message,
and that is unit-testable only outside the Snakefile.

Composition is Hydra's (``config/config.yaml`` and its groups), plus one step of ours: a game's
file may hold per-scale settings (``game.scales.<scale>``: overrides of any key, such as the tiny
scale's two Reversi targets), so that scale files never name a game's bots. They are applied as
overrides placed before the command line's (so the command line wins), skipping any key the
chosen ``experiment`` file sets (an experiment is the more specific choice: Snake's dataset-size
study sets ``matches.per_target`` above its quick scale's), and ``game.scales`` is then removed
from the composed config. Precedence, lowest first: ``config.yaml`` and its groups,
``game.overrides``, ``game.scales.<scale>``, ``experiment/<name>.yaml``, the command line.

**The composition cache.** Composing every game's plans takes Hydra 5-12 s (21 compositions for
the default run), which every ``snakemake`` call, a no-op included, paid while parsing the
Snakefile. A composition is a pure function of the config directory's files, the overrides and
the code that composes and validates, so :func:`compose` keeps each validated result on disk
(:func:`~ime.workflow.compose_cache.cache_dir`, one JSON file per key) keyed by a digest of
all of them (:func:`~ime.workflow.compose_cache.cache_key`) and reuses it
(:mod:`ime.workflow.compose_cache`). Failures are never stored, so a bad override raises the same
error every time; ``IME_COMPOSE_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ime.workflow.compose_cache import (
    HYDRA_ARGS,
    cache_dir,
    cache_key,
    config_stamp,
    read_entry,
    write_entry,
)
from ime.workflow.errors import ConfigError, did_you_mean, nearest, nearest_keys
from ime.workflow.tags import flatten

if TYPE_CHECKING:
    from omegaconf import DictConfig

# OmegaConf and the schemas (pydantic) are imported where a composition is made or rebuilt: a
# cache hit of compose_plain, all that a no-op rerun composes, needs neither (0.25 s, issue 31).

GROUPS = ("game", "net", "scale", "experiment", "evaluate", "identify", "om_search")
"""Config groups whose chosen option is recorded under ``run.choices``."""


def default_config_dir() -> Path:
    """The repository's ``config/`` folder (``IME_CONFIG_DIR`` overrides it)."""
    from ime.paths import config_dir

    return config_dir()


def parse_overrides(value: Any) -> list[str]:
    """Overrides as given to ``snakemake --config overrides=...``: a YAML list or one string.

    ``--config`` parses ``'[scale=quick,net=conv]'`` into a list; a bare ``scale=tiny`` arrives
    as a string. ``None``/empty means no overrides.
    """
    if value is None or value == "" or value == []:
        return []
    if isinstance(value, str):
        v = value.strip()
        if v.startswith("[") and v.endswith("]"):
            import yaml

            try:
                parsed = yaml.load(v, Loader=yaml.BaseLoader)
            except yaml.YAMLError as e:
                raise ConfigError(
                    f"cannot read overrides {value!r} as a list ({e.problem}); quote any override "
                    "whose value holds brackets or commas: "
                    "overrides='[scale=quick,\"game.targets=[rev1,rev2]\"]'"
                ) from None
            return parse_overrides(parsed)
        return [v]
    if isinstance(value, Sequence):
        out = []
        for item in value:
            if not isinstance(item, str):
                raise ConfigError(
                    f"bad overrides {value!r}: each override must be a string like "
                    "'scale=quick' (quote values holding brackets or commas: "
                    "overrides='[\"game.targets=[rev1,rev2]\"]')"
                )
            out.append(item.strip())
        return [o for o in out if o]
    raise ConfigError(f"bad overrides {value!r}: expected a list of Hydra override strings")


SWEEP_HINT = ("sweep with sweep.key/sweep.values instead, e.g. "
              "overrides='[sweep.key={key},\"sweep.values=[{values}]\"]' (several keys at once: "
              "\"sweep.grid={{train.lr:[0.0005,0.002],net:[mlp1,conv]}}\"; docs/pipeline.md, "
              "'Sweeps'); "
              "for a list value write {key}=[a,b]")


def could_sweep(item: str) -> bool:
    """Whether an override could be Hydra's multirun: every sweep form (``a,b``, ``choice(..)``,
    ``range(..)``, ``interval(..)``, ``glob(..)``) has a comma or a parenthesis in its value, so
    ``scale=thesis`` or ``game.targets=[rev5]`` need not meet Hydra's parser (0.1 s to import,
    on every Snakemake start with such overrides)."""
    value = item.partition("=")[2]
    return "," in value or "(" in value


def refuse_hydra_sweeps(overrides: Sequence[str]) -> None:
    """Raise on Hydra's multirun syntax (``train.lr=0.001,0.002``, ``choice(...)``,
    ``range(...)``), pointing at ``sweep.key``/``sweep.values``.

    Why: the workflow composes one config per game and sweeps through its own ``sweep.*`` keys
    (every point a cached variant); Hydra's multirun does not exist here, and unquoted in the
    ``--config`` list its commas split one override into pieces (``train.lr=0.001``, ``0.002``)
    whose error from Hydra's lexer says nothing about what was meant.
    """
    if not overrides:
        return  # nothing to check; spares the no-override run Hydra's parser (0.1 s to import)
    parser = None  # Hydra's parser, imported only for an item that could be a sweep
    previous: str | None = None
    for i, item in enumerate(overrides):
        if "=" not in item and not item.startswith("~"):
            if previous is not None:  # the rest of ``key=a,b`` split by the list's commas
                key, _, first = previous.partition("=")
                values = [first, *(o for o in overrides[i:] if "=" not in o)]
                raise ConfigError(
                    f"{item!r} is not an override (no '='): Hydra's comma sweep "
                    f"{previous},{','.join(values[1:])} is not supported; "
                    + SWEEP_HINT.format(key=key.lstrip("+~"), values=",".join(values)))
            raise ConfigError(f"{item!r} is not an override: write key=value (e.g. scale=tiny)")
        previous = item if "=" in item else None
        if not could_sweep(item):
            continue
        if parser is None:
            from hydra.core.override_parser.overrides_parser import OverridesParser
            from hydra.errors import HydraException

            parser = OverridesParser.create()
        try:
            parsed = parser.parse_override(item)
        except HydraException:
            continue  # compose reports Hydra's own error for it
        if parsed.is_sweep_override():
            key = parsed.key_or_group
            values = list(parsed.sweep_string_iterator())
            raise ConfigError(
                f"{item!r} is Hydra's multirun (sweep) syntax, which the workflow does not "
                "support; " + SWEEP_HINT.format(key=key, values=",".join(values)))


def config_arg(overrides: Sequence[str]) -> str:
    """The ``--config`` words a user types for ``overrides`` (empty for none), for messages that
    say which command to run: ``--config overrides='[net=mlp2,"game.targets=[rev1,rev2]"]'``
    (an override holding brackets, braces, commas or spaces is quoted, as the list needs)."""
    if not overrides:
        return ""
    items = [f'"{o}"' if any(c in o for c in "[]{},: ") else o for o in overrides]
    return "--config overrides='[" + ",".join(items) + "]'"


def override_value(value: Any) -> str:
    """A plain value written as a Hydra override's right-hand side."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):  # Hydra's dict syntax: unquoted keys (JSON's are refused)
        return "{" + ",".join(f"{k}:{override_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def game_options(config_dir: str | Path | None = None) -> list[str]:
    """The games that have a ``config/game/<game>.yaml``."""
    cdir = Path(config_dir or default_config_dir())
    return sorted(p.stem for p in (cdir / "game").glob("*.yaml"))



def _hydra(cdir: Path, overrides: list[str]) -> DictConfig:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(cdir),
                                   version_base=HYDRA_ARGS["version_base"]):
            return hydra_compose(HYDRA_ARGS["config_name"], overrides=overrides,
                                 return_hydra_config=HYDRA_ARGS["return_hydra_config"])
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        msg = " ".join(m.strip() for m in str(e).strip().splitlines())
        msg = msg.split(" Config search path:")[0]  # Hydra's search-path dump is noise here
    finally:
        GlobalHydra.instance().clear()
    raise ConfigError(f"bad override in {overrides}: {_explain(cdir, overrides, msg)}")


_EXPLAINING: list[bool] = []
"""Non-empty while :func:`_explain` composes on the way to its message (no recursion)."""


def _explain(cdir: Path, overrides: list[str], msg: str) -> str:
    """Hydra's error ``msg`` in words that name the fix.

    Hydra answers an unknown key with "Could not override 'train.learning_rate'. To append to
    your config use +train.learning_rate=...", which sends the user to an append that the schema
    then refuses; so a key the config does not have gets the nearest keys it does have, and the
    ``+`` form only where appending really composes (a free mapping such as ``sweep.grid``). An
    unknown group option gets the nearest options after Hydra's list."""
    unknown = re.search(r"Could not override '([^']+)'", msg)
    if unknown and not _EXPLAINING:
        _EXPLAINING.append(True)  # the compositions asked below explain nothing themselves
        try:
            return _unknown_key(cdir, overrides, unknown.group(1))
        finally:
            _EXPLAINING.pop()
    option = re.search(r"Could not find '(\w+)/([^']+)'.*Available options in '\w+':(.*)", msg)
    if option:
        group, name, listed = option.groups()
        hint = did_you_mean(nearest(name, listed.split()), prefix=f"{group}=")
        return f"{msg.rstrip()}; {hint}" if hint else msg
    return msg


def _unknown_key(cdir: Path, overrides: list[str], key: str) -> str:
    """The message for an override of a key the config does not have (see :func:`_explain`)."""
    item = next((o for o in overrides if o.split("=", 1)[0] == key), None)
    others = [o for o in overrides if o != item]
    if item is not None and _composes(cdir, [*others, f"+{item}"]):
        return f"{key} is not in the config yet; add it with +{item}"
    if key.startswith("sweep.grid.") and item is not None:
        inner, value = key.removeprefix("sweep.grid."), item.split("=", 1)[1]
        return (f"{key}: a grid's keys are dotted keys themselves, so give the grid whole: "
                f"\"sweep.grid={{{inner}:{value}}}\" (docs/pipeline.md, 'Sweeps')")
    close = nearest_keys(key, settable_keys(cdir, others))
    if close:
        return f"{key} is not a config key; {did_you_mean(close)}"
    return f"{key} is not a config key (`ime pipeline show` prints the composed config)"


def settable_keys(cdir: Path, overrides: list[str]) -> list[str]:
    """Every dotted key (and section) of the config composed with ``overrides`` (without them
    when they do not compose), and the config groups: what an override can set. The keys the
    workflow fills in itself (``run.choices``, the resolved ``nets``) are left out."""
    for attempt in (overrides, []):
        try:
            plain = compose_plain(attempt, cdir)
            break
        except ConfigError:
            continue
    else:
        return list(GROUPS)
    return config_keys(plain)


def config_keys(plain: Mapping[str, Any]) -> list[str]:
    """The config groups, then every section and dotted key of a composed config, for the
    nearest-key suggestions; the keys the workflow fills in itself (``run.choices``, the
    resolved ``nets``) are left out, no override sets them."""
    keys = [k for k in flatten(plain) if not k.startswith(("run.choices.", "nets."))]
    sections = {k.rsplit(".", i)[0] for k in keys for i in range(1, k.count(".") + 1)}
    return [*GROUPS, *sorted(sections - {"nets"}), *keys]


def _composes(cdir: Path, overrides: list[str]) -> bool:
    """Whether ``overrides`` compose and validate (asked only on the way to an error)."""
    try:
        compose_plain(overrides, cdir)
    except ConfigError:
        return False
    return True


def _scale_overrides(cfg: DictConfig, scale: str | None) -> list[str]:
    """The game's settings of other sections as Hydra overrides: ``game.overrides`` (every
    scale), then ``game.scales.<scale>``. A config group is set by its option name
    (``net: ddz_conv1``)."""
    from omegaconf import OmegaConf

    game = OmegaConf.to_container(cfg.game, resolve=True)
    assert isinstance(game, Mapping)
    out = []
    for where, node in (("game.overrides", game.get("overrides") or {}),
                        (f"game.scales.{scale}", (game.get("scales") or {}).get(scale, {}))):
        if not isinstance(node, Mapping):
            raise ConfigError(f"{where} must be a mapping of config keys, got {node!r}")
        flat = _flatten_to_keys(cfg, node)
        groups = [k for k in flat if k in GROUPS]
        out += [f"{k}={override_value(flat[k])}" for k in groups]
        out += [f"{k}={override_value(v)}" for k, v in flat.items() if k not in GROUPS]
    return out


def _flatten_to_keys(cfg: DictConfig, node: Mapping[str, Any], prefix: str = ""
                     ) -> dict[str, Any]:
    """``node`` as dotted keys, except that a mapping given to a key whose default is null
    (``om_search.misspecified``, ``om_search.player``) stays one value: Hydra knows no keys
    below a null, so the game's config sets the whole mapping there."""
    from omegaconf import OmegaConf

    out: dict[str, Any] = {}
    for k, v in node.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping) and v:
            if OmegaConf.select(cfg, key, default="missing") is None:
                out[key] = dict(v)
            else:
                out.update(_flatten_to_keys(cfg, v, key))
        else:
            out[key] = v
    return out


def _experiment_keys(cdir: Path, choice: str | None) -> set[str]:
    """The dotted keys the experiment file ``choice`` sets (none without an experiment)."""
    from omegaconf import OmegaConf

    if not choice:
        return set()
    path = cdir / "experiment" / f"{choice}.yaml"
    node = OmegaConf.to_container(OmegaConf.load(path)) if path.is_file() else {}
    if not isinstance(node, Mapping):
        return set()
    # a group chosen in the experiment (``net: x``) is a key too
    return set(flatten({k: v for k, v in node.items() if k != "defaults"}))


def compose(overrides: Sequence[str] = (), config_dir: str | Path | None = None) -> DictConfig:
    """Compose ``config.yaml`` with Hydra overrides and validate it.

    Returns a DictConfig without the ``hydra`` node, with ``run.choices`` recording the option
    chosen in every group and ``nets`` holding the architecture of every net to train.
    Raises :class:`ConfigError` naming the bad override. A result composed before from the same
    files, overrides and code comes from the cache (the module doc); an error is never cached.
    """
    cfg, entry = _lookup(overrides, config_dir)
    return cfg if cfg is not None else _from_container(entry["config"])


def compose_plain(overrides: Sequence[str] = (),
                  config_dir: str | Path | None = None) -> dict[str, Any]:
    """``to_plain(compose(overrides, config_dir))``, what the workflow's variants hold.

    A cache hit returns the stored resolved values without building a DictConfig (0.1 s per
    composition, most of a hit's cost), when that is exact: the config's interpolations refer
    only to its own keys (``${seed}``); one that calls a resolver (``${oc.env:...}``) is resolved
    again from the stored container every time.
    """
    cfg, entry = _lookup(overrides, config_dir)
    if cfg is None and entry.get("plain") is not None:
        return entry["plain"]
    return to_plain(cfg if cfg is not None else _from_container(entry["config"]))


def _lookup(overrides: Sequence[str],
            config_dir: str | Path | None) -> tuple[DictConfig | None, dict[str, Any]]:
    """``(config, {})`` composed now (and stored), or ``(None, entry)`` from the cache."""
    cdir = Path(config_dir or default_config_dir()).resolve()
    if not (cdir / "config.yaml").is_file():
        raise ConfigError(f"no config.yaml in {cdir}")
    overrides = list(overrides)
    where = cache_dir()
    if where is None:
        return _compose(cdir, overrides), {}
    path = where / f"{cache_key(cdir, overrides)}.json"
    entry = read_entry(path)
    if entry is not None:
        return None, entry
    cfg = _compose(cdir, overrides)
    if not _EXPLAINING:  # what an error's explanation composes on the side is not kept
        from omegaconf import OmegaConf

        container = OmegaConf.to_container(cfg, resolve=False)
        assert isinstance(container, dict)
        write_entry(path, overrides, container, lambda: to_plain(cfg))
    return cfg, {}


@dataclass(frozen=True)
class _GameFacts:
    """What :func:`_compose`'s first Hydra call is for: the choices and the game's settings of
    other sections (``game.overrides``, ``game.scales.<scale>``) as overrides."""

    game: str
    scale: str | None
    experiment_keys: frozenset[str]
    imitator: str | None
    scale_overrides: tuple[str, ...]


_FACTS: dict[tuple, _GameFacts] = {}
""":class:`_GameFacts` by (config directory, its files' stamp, :func:`_facts_key`): a sweep's
points differ in values only, so all but the first of them compose once, not twice."""


def _facts_key(overrides: Sequence[str], local: frozenset[str]) -> tuple[str, ...]:
    """The overrides that can change :class:`_GameFacts`: a top-level key (no dot) other than the
    option of a group whose files all stay in their own node (``net=conv``: no
    ``@package _global_``, so it cannot set ``game`` or another choice), and any ``game.*`` or
    ``hydra.*`` value (``game.overrides.train.nets=...``). A value of another section changes
    neither the defaults list (the choices) nor ``game``. ``local``: :func:`_local_groups`."""
    keys = [_override_key(o) for o in overrides]
    return tuple(o for o, k in zip(overrides, keys, strict=True)
                 if ("." not in k and k not in local) or k.startswith(("game.", "hydra.")))


def _override_key(override: str) -> str:
    """The dotted key an override sets (``+train.lr=1`` -> ``train.lr``)."""
    return override.lstrip("+~").split("=", 1)[0]


_LOCAL_GROUPS: dict[tuple, frozenset[str]] = {}
""":func:`_local_groups` by (config directory, its files' stamp)."""


def _local_groups(cdir: Path, stamp: tuple) -> frozenset[str]:
    """The config groups whose option cannot change :class:`_GameFacts`: none of their files is
    ``# @package _global_`` (so it sets only the group's own node), the group is not ``game``
    (the node the facts read), and no game's settings give a mapping under the group's node
    (``om_search: {...}``: :func:`_flatten_to_keys` reads the chosen option's values there)."""
    import yaml

    def compute() -> frozenset[str]:
        nested: set[str] = set()
        for path in (cdir / "game").glob("*.yaml"):
            doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            scales = doc.get("scales") or {}
            for node in [doc.get("overrides") or {},
                         *(scales.values() if isinstance(scales, Mapping) else [])]:
                if isinstance(node, Mapping):
                    nested |= {str(k) for k, v in node.items() if isinstance(v, Mapping)}
        return frozenset(d.name for d in cdir.iterdir() if d.is_dir() and d.name != "game"
                         and d.name not in nested
                         and not any("@package _global_" in f.read_text(encoding="utf-8")
                                     for f in d.glob("*.yaml")))

    key = (str(cdir), stamp)
    if key not in _LOCAL_GROUPS:
        _LOCAL_GROUPS[key] = compute()
    return _LOCAL_GROUPS[key]


def _game_facts(cfg: DictConfig, cdir: Path) -> tuple[_GameFacts, bool]:
    """The facts of a composed config, and whether they may be kept: not where its ``game``
    node interpolates (it could then read a value that :func:`_facts_key` leaves out)."""
    from omegaconf import OmegaConf

    choices = cfg.hydra.runtime.choices
    scale = choices.get("scale")
    facts = _GameFacts(str(cfg.game.name), scale,
                       frozenset(_experiment_keys(cdir, choices.get("experiment"))),
                       choices.get("imitator"), tuple(_scale_overrides(cfg, scale)))
    unresolved = json.dumps(OmegaConf.to_container(cfg.game, resolve=False), default=str)
    return facts, "${" not in unresolved


def _compose(cdir: Path, overrides: list[str]) -> DictConfig:
    """:func:`compose` without the cache: Hydra, the game's per-scale overrides, validation.

    Hydra runs twice where the game has settings for the scale: first to learn the game and the
    scale, then with those settings before the user's overrides. The first run's findings are
    kept per process (:data:`_FACTS`), so a sweep's later points skip it; an error in the second
    run then runs the first after all, so that a bad override of the user's is named as such."""
    from omegaconf.errors import OmegaConfBaseException

    from ime.workflow.schema import validate

    refuse_hydra_sweeps(overrides)
    stamp = config_stamp(str(cdir))
    memo = (str(cdir), stamp, _facts_key(overrides, _local_groups(cdir, stamp)))
    cfg = None
    facts = _FACTS.get(memo)
    if facts is None:
        cfg = _hydra(cdir, overrides)
        facts, keep = _game_facts(cfg, cdir)
        if keep:
            _FACTS[memo] = facts
    scale = facts.scale
    given = {_override_key(o) for o in overrides}
    given |= facts.experiment_keys
    if facts.imitator not in (None, "policy"):
        given.add("net")  # imitator=search selects net=search: a game's own net must not win
    per_scale = [o for o in facts.scale_overrides if o.split("=", 1)[0] not in given]
    if per_scale:
        try:
            cfg = _hydra(cdir, [*per_scale, *overrides])
        except ConfigError as e:
            if cfg is None:  # the first run was skipped: it names a bad override of the user's
                _hydra(cdir, overrides)
            raise ConfigError(f"game.overrides / game.scales.{scale} of "
                              f"config/game/{facts.game}.yaml: {e}") from None
    elif cfg is None:
        cfg = _hydra(cdir, overrides)
    choices = {g: cfg.hydra.runtime.choices.get(g) for g in GROUPS}
    with _open(cfg):
        del cfg["hydra"]
        cfg.run.choices = {g: c for g, c in choices.items() if c is not None}
        for key in ("scales", "overrides"):
            if key in cfg.game:
                del cfg.game[key]
    try:
        plain = to_plain(cfg)
    except OmegaConfBaseException as e:
        raise ConfigError(f"config with overrides {overrides} does not resolve: {e}") from None
    validate(plain, overrides)
    _resolve_nets(cfg, cdir, overrides)
    return cfg


def _from_container(container: dict[str, Any]) -> DictConfig:
    """A cached container as :func:`_compose` returns it: a DictConfig in struct mode."""
    from omegaconf import DictConfig, OmegaConf

    cfg = OmegaConf.create(container)
    assert isinstance(cfg, DictConfig)
    OmegaConf.set_struct(cfg, True)
    return cfg


class _open:
    """Temporarily lift struct mode (Hydra composes in struct mode)."""

    def __init__(self, cfg: DictConfig):
        self.cfg = cfg

    def __enter__(self) -> DictConfig:
        from omegaconf import OmegaConf

        OmegaConf.set_struct(self.cfg, False)
        return self.cfg

    def __exit__(self, *exc: object) -> None:
        from omegaconf import OmegaConf

        OmegaConf.set_struct(self.cfg, True)


def to_plain(cfg: DictConfig) -> dict[str, Any]:
    """The resolved config as plain Python values (what rules pass as ``params``)."""
    from omegaconf import OmegaConf

    out = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(out, dict)
    return out


def load_net_file(config_dir: str | Path, name: str) -> dict[str, Any]:
    """The architecture in ``<config_dir>/net/<name>.yaml`` as it stands, named ``name``."""
    from omegaconf import OmegaConf

    arch = OmegaConf.to_container(OmegaConf.load(Path(config_dir) / "net" / f"{name}.yaml"),
                                  resolve=True)
    assert isinstance(arch, dict)
    arch.setdefault("name", name)
    return arch


def bind_game(arch: dict[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    """A net's architecture with what it needs of the game: a lookahead net builds its game's
    encoder (:mod:`ime.nets.lookahead`), so it gets ``game`` and ``game_params`` (the game
    section's ``name`` and ``params``), and ``features: all`` becomes the afterstate features
    that encoder offers (a list, so that a job's params and the variant say which); other nets
    are returned as they are."""
    if arch.get("kind") != "lookahead":
        return arch
    out = {**arch, "game": str(game["name"]), "game_params": game.get("params") or None}
    if out.get("features") == "all":
        from ime.workflow.plugins import encoder_info

        try:
            info = encoder_info(str(game["name"]), game.get("params") or {})
        except (KeyError, ValueError):  # an unknown game or bad options: reported elsewhere
            info = {}
        out["features"] = list(info.get("afterstate_features", []))
    return out


def _resolve_nets(cfg: DictConfig, cdir: Path, overrides: Sequence[str]) -> None:
    """``cfg.nets[name]`` for every net trained: the selected ``net`` (with its overrides) or the
    group file ``config/net/<name>.yaml`` as it stands."""
    from omegaconf import OmegaConf

    from ime.workflow.schema import validate_net

    wanted = list(dict.fromkeys([*cfg.train.nets, *(cfg.sweep.nets or []), cfg.net.name]))
    nets: dict[str, Any] = {}
    for name in wanted:
        if name == cfg.net.name:
            nets[name] = OmegaConf.to_container(cfg.net, resolve=True)
            continue
        path = cdir / "net" / f"{name}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in (cdir / "net").glob("*.yaml"))
            raise ConfigError(f"bad config {list(overrides)}: train.nets/sweep.nets name net "
                              f"{name!r}, but there is no {path}; known nets: {known}")
        nets[name] = load_net_file(cdir, name)
        validate_net(nets[name], f"config/net/{name}.yaml", overrides)
    game = OmegaConf.to_container(cfg.game, resolve=True)
    assert isinstance(game, dict)
    nets = {name: bind_game(arch, game) for name, arch in nets.items()}
    with _open(cfg):
        cfg.nets = nets
