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
(:func:`cache_dir`, one JSON file per key) keyed by a digest of all of them
(:func:`cache_key`) and reuses it. Failures are never stored, so a bad override raises the same
error every time; ``IME_COMPOSE_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


HYDRA_ARGS: dict[str, Any] = {"config_name": "config", "version_base": "1.3",
                              "return_hydra_config": True}
"""How :func:`_hydra` calls Hydra (part of the cache key: another call composes differently)."""


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
    entry = _cache_read(path)
    if entry is not None:
        return None, entry
    cfg = _compose(cdir, overrides)
    if not _EXPLAINING:  # what an error's explanation composes on the side is not kept
        _cache_write(path, overrides, cfg)
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


# --- the composition cache ------------------------------------------------------------------

CACHE_ENV = "IME_COMPOSE_CACHE"
"""``0``/``off``/``false``/``no``: no cache; a path: the cache's directory; unset (or empty):
``$XDG_CACHE_HOME/ime/compose`` (``~/.cache/ime/compose``), beside numba's ``ime/numba``."""
CACHE_FORMAT = 1
"""Bumped when an entry's layout changes (part of the key, so old entries are never read)."""
CACHE_MAX_ENTRIES = 2048
"""Entries kept (the least recently used go first); one is 5-20 KB, a run of every game ~21,
the docs' dry runs 353, the whole test suite more than 512."""
_OFF = {"0", "off", "false", "no"}


def cache_dir() -> Path | None:
    """Where composed configs are cached, or None when ``IME_COMPOSE_CACHE`` turns it off.

    Why the user's cache directory and not ``.snakemake/`` of the working directory: compose is
    called from Snakemake, the ``ime`` command and the tests, from any directory, and what it
    caches does not depend on where it runs; the run's own directories stay as Snakemake
    leaves them, and a new checkout or a copied run reuses what another composed.
    """
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in _OFF:
        return None
    if value:
        return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "ime" / "compose"


def _file_version(module: str, relpath: str) -> str:
    """``__version__`` as written in ``module``'s file ``relpath``, read without importing it
    (importing Hydra costs 0.1 s, which a cache hit should not pay)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return "absent"
    text = (Path(spec.origin).parent / relpath).read_text(encoding="utf-8")
    m = re.search(r"^__version__\s*=\s*[\"']([^\"']+)", text, re.MULTILINE)
    return m.group(1) if m else "unknown"


def _dist_version(name: str) -> str:
    """An installed distribution's version from its metadata: importing OmegaConf and pydantic
    for their ``__version__`` cost a cache hit 0.1 s."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


@cache
def _code_digest() -> str:
    """A digest of the code a composition depends on: every ``.py`` file of the ``ime`` package
    (paths and bytes: compose, the schemas, the games' plug-ins that validation builds; ime's
    version string alone does not change when that code does), the versions of Python, Hydra,
    OmegaConf, PyYAML and pydantic, and the arguments Hydra is called with. Computed once per
    process (the code a process runs is the code it loaded)."""
    import yaml

    import ime

    h = hashlib.blake2b(digest_size=16)
    package = Path(ime.__file__).resolve().parent
    for rel, path in _files_below(package, ".py"):
        _add(h, rel.encode())
        _add(h, path.read_bytes())
    versions = {"python": sys.version, "ime": ime.__version__,
                "hydra": _file_version("hydra", "__init__.py"),
                "omegaconf": _dist_version("omegaconf"), "yaml": yaml.__version__,
                "pydantic": _dist_version("pydantic"),
                "pydantic_core": _dist_version("pydantic_core"),
                "hydra_args": HYDRA_ARGS, "format": CACHE_FORMAT}
    _add(h, json.dumps(versions, sort_keys=True).encode())
    return h.hexdigest()


def _add(h: Any, data: bytes) -> None:
    """Feed ``data`` with its length, so that no two sequences of parts hash alike."""
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)


def cache_key(cdir: str | Path, overrides: Sequence[str]) -> str:
    """The digest a composition is cached under: the config directory's files (every file
    below it, hidden ones included: relative path and bytes), the overrides in order, and
    :func:`_code_digest`. Any changed, added or removed file, or another override, is another
    key; the file contents are read every call (37 files, ~2 ms), never trusted to mtimes,
    except within one :func:`config_snapshot` (one setup of the workflow), which reads them
    once. Not the directory's path: a composition holds no path of it (tested), so a copy of
    the workflow or a new checkout reuses what another composed (the tests' copied workflows
    composed every config again: about 4 CPU-s a ``snakemake`` start on 2 cores)."""
    cdir = Path(cdir).resolve()
    h = hashlib.blake2b(digest_size=20)
    _add(h, _code_digest().encode())
    _add(h, json.dumps(list(overrides)).encode())
    _add(h, snapshot_memo("config files", str(cdir), lambda: _dir_digest(cdir)))
    return h.hexdigest()


def _dir_digest(cdir: Path) -> bytes:
    """A digest of every file below ``cdir`` (hidden ones included): relative path and bytes."""
    h = hashlib.blake2b(digest_size=20)
    for rel, path in _files_below(cdir):
        _add(h, rel.encode())
        _add(h, path.read_bytes())
    return h.digest()


def _files_below(top: Path, suffix: str = "") -> list[tuple[str, Path]]:
    """``(relative posix path, path)`` of every file below ``top`` whose name ends with
    ``suffix``, hidden ones included, in the order of their path parts (as sorting ``Path``
    objects gives). ``os.walk`` rather than ``Path.rglob``: a fifth of the CPU, which every
    workflow setup pays for 270 source files (issue 31); like ``rglob``, it does not descend
    into symlinked directories."""
    out = []
    for where, dirs, names in os.walk(top):
        dirs.sort()
        rel_dir = os.path.relpath(where, top)
        parts = () if rel_dir == "." else tuple(rel_dir.split(os.sep))
        for name in names:
            path = os.path.join(where, name)
            if name.endswith(suffix) and os.path.isfile(path):
                out.append(((*parts, name), Path(path)))
    out.sort(key=lambda item: item[0])
    return [("/".join(parts), path) for parts, path in out]


_SNAPSHOT: dict[tuple[str, str], Any] | None = None
"""Facts of the config directories read once in the current :func:`config_snapshot`."""


@contextmanager
def config_snapshot() -> Iterator[None]:
    """Within it, the config directory's files are read once (for :func:`cache_key` and the
    variants' memo): one setup of the workflow composes 13 configs and made 13 digests of the
    same 37 files, and listed them 24 times more (issue 31). A setup is one moment: a file
    changed while it runs is read by the next setup (Snakemake's next call), as before."""
    global _SNAPSHOT
    outer = _SNAPSHOT
    if outer is None:
        _SNAPSHOT = {}
    try:
        yield
    finally:
        if outer is None:
            _SNAPSHOT = None


def config_stamp(cdir: str) -> tuple:
    """The config files' mtimes (the in-process memos' key); listed once per
    :func:`config_snapshot`."""
    return snapshot_memo("stamp", cdir, lambda: tuple(sorted(
        (str(p), p.stat().st_mtime_ns) for p in Path(cdir).rglob("*.yaml"))))


def snapshot_memo(kind: str, cdir: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, once per ``(kind, cdir)`` within a :func:`config_snapshot` (every call
    outside one)."""
    if _SNAPSHOT is None:
        return compute()
    key = (kind, cdir)
    if key not in _SNAPSHOT:
        _SNAPSHOT[key] = compute()
    return _SNAPSHOT[key]


def _cache_read(path: Path) -> dict[str, Any] | None:
    """The cache entry at ``path`` (``config``: the container, ``plain``: its resolved values
    or None), or None: absent, unreadable, or not an entry of this format."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT
            or not isinstance(entry.get("config"), dict)):
        return None
    try:
        os.utime(path)  # recently used: kept by the pruning
    except OSError:
        pass
    return entry


_SELF_REFERENCE = re.compile(r"\$\{[\w.\[\]-]*\}")
"""An interpolation of another key of the config (``${seed}``, ``${game.name}``): resolving it
needs nothing but the config, so its resolved value can be stored."""


def _self_contained(node: Any) -> bool:
    """Whether every interpolation in ``node`` refers to the config's own keys (no resolver,
    no escaped or nested interpolation)."""
    if isinstance(node, dict):
        return all(_self_contained(v) for v in node.values())
    if isinstance(node, list):
        return all(_self_contained(v) for v in node)
    if isinstance(node, str) and ("$" in node or "\\" in node):
        return "\\" not in node and "$" not in _SELF_REFERENCE.sub("", node)
    return True


def _cache_write(path: Path, overrides: list[str], cfg: DictConfig) -> None:
    """Store ``cfg``'s container with its interpolations (so a resolver such as ``oc.env``
    still resolves when the entry is used) and, when the container is self-contained
    (:func:`_self_contained`), its resolved values; atomically, and only when JSON holds both
    exactly (no non-string key, NaN or object). A cache that cannot be written (a read-only
    home) is skipped."""
    from omegaconf import OmegaConf

    container = OmegaConf.to_container(cfg, resolve=False)
    plain = to_plain(cfg) if _self_contained(container) else None
    try:
        text = json.dumps({"format": CACHE_FORMAT, "overrides": overrides, "config": container,
                           "plain": plain}, allow_nan=False)
    except (TypeError, ValueError):
        return
    back = json.loads(text)
    if not (_same(back["config"], container) and _same(back["plain"], plain)):
        return
    from ime.matches.rawlog import atomic_write_text

    try:
        atomic_write_text(path, text)
        _prune(path.parent)
    except OSError:
        return


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (``==`` alone takes 1 for 1.0 and True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _prune(where: Path) -> None:
    """Keep the :data:`CACHE_MAX_ENTRIES` most recently used entries (a hit touches its file)."""
    entries = list(where.glob("*.json"))
    if len(entries) <= CACHE_MAX_ENTRIES:
        return
    for old in sorted(entries, key=_mtime)[:len(entries) - CACHE_MAX_ENTRIES]:
        old.unlink(missing_ok=True)


def _mtime(path: Path) -> int:
    """``path``'s modification time (0 when another process removed it meanwhile)."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


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
