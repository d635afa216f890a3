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
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from ime.workflow.errors import ConfigError
from ime.workflow.schema import validate, validate_net
from ime.workflow.tags import flatten

GROUPS = ("game", "net", "scale", "experiment", "evaluate")
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


def refuse_hydra_sweeps(overrides: Sequence[str]) -> None:
    """Raise on Hydra's multirun syntax (``train.lr=0.001,0.002``, ``choice(...)``,
    ``range(...)``), pointing at ``sweep.key``/``sweep.values``.

    Why: the workflow composes one config per game and sweeps through its own ``sweep.*`` keys
    (every point a cached variant); Hydra's multirun does not exist here, and unquoted in the
    ``--config`` list its commas split one override into pieces (``train.lr=0.001``, ``0.002``)
    whose error from Hydra's lexer says nothing about what was meant.
    """
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
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
    if isinstance(value, list | dict):
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
        with initialize_config_dir(config_dir=str(cdir), version_base="1.3"):
            return hydra_compose("config", overrides=overrides, return_hydra_config=True)
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        msg = " ".join(m.strip() for m in str(e).strip().splitlines())
        msg = msg.split(" Config search path:")[0]  # Hydra's search-path dump is noise here
        raise ConfigError(f"bad override in {overrides}: {msg}") from None
    finally:
        GlobalHydra.instance().clear()


def _scale_overrides(cfg: DictConfig, scale: str | None) -> list[str]:
    """The game's settings of other sections as Hydra overrides: ``game.overrides`` (every
    scale), then ``game.scales.<scale>``. A config group is set by its option name
    (``net: ddz_conv1``)."""
    game = OmegaConf.to_container(cfg.game, resolve=True)
    assert isinstance(game, Mapping)
    out = []
    for where, node in (("game.overrides", game.get("overrides") or {}),
                        (f"game.scales.{scale}", (game.get("scales") or {}).get(scale, {}))):
        if not isinstance(node, Mapping):
            raise ConfigError(f"{where} must be a mapping of config keys, got {node!r}")
        flat = flatten(node)
        groups = [k for k in flat if k in GROUPS]
        out += [f"{k}={override_value(flat[k])}" for k in groups]
        out += [f"{k}={override_value(v)}" for k, v in flat.items() if k not in GROUPS]
    return out


def _experiment_keys(cdir: Path, choice: str | None) -> set[str]:
    """The dotted keys the experiment file ``choice`` sets (none without an experiment)."""
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
    Raises :class:`ConfigError` naming the bad override.
    """
    from omegaconf.errors import OmegaConfBaseException

    cdir = Path(config_dir or default_config_dir()).resolve()
    if not (cdir / "config.yaml").is_file():
        raise ConfigError(f"no config.yaml in {cdir}")
    overrides = list(overrides)
    refuse_hydra_sweeps(overrides)
    cfg = _hydra(cdir, overrides)
    scale = cfg.hydra.runtime.choices.get("scale")
    given = {o.lstrip("+~").split("=", 1)[0] for o in overrides}
    given |= _experiment_keys(cdir, cfg.hydra.runtime.choices.get("experiment"))
    per_scale = [o for o in _scale_overrides(cfg, scale) if o.split("=", 1)[0] not in given]
    if per_scale:
        try:
            cfg = _hydra(cdir, [*per_scale, *overrides])
        except ConfigError as e:
            raise ConfigError(f"game.overrides / game.scales.{scale} of "
                              f"config/game/{cfg.game.name}.yaml: {e}") from None
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


class _open:
    """Temporarily lift struct mode (Hydra composes in struct mode)."""

    def __init__(self, cfg: DictConfig):
        self.cfg = cfg

    def __enter__(self) -> DictConfig:
        OmegaConf.set_struct(self.cfg, False)
        return self.cfg

    def __exit__(self, *exc: object) -> None:
        OmegaConf.set_struct(self.cfg, True)


def to_plain(cfg: DictConfig) -> dict[str, Any]:
    """The resolved config as plain Python values (what rules pass as ``params``)."""
    out = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(out, dict)
    return out


def load_net_file(config_dir: str | Path, name: str) -> dict[str, Any]:
    """The architecture in ``<config_dir>/net/<name>.yaml`` as it stands, named ``name``."""
    arch = OmegaConf.to_container(OmegaConf.load(Path(config_dir) / "net" / f"{name}.yaml"),
                                  resolve=True)
    assert isinstance(arch, dict)
    arch.setdefault("name", name)
    return arch


def _resolve_nets(cfg: DictConfig, cdir: Path, overrides: Sequence[str]) -> None:
    """``cfg.nets[name]`` for every net trained: the selected ``net`` (with its overrides) or the
    group file ``config/net/<name>.yaml`` as it stands."""
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
    with _open(cfg):
        cfg.nets = nets
