"""Configuration: Hydra composition, validation, and the workflow plan (variants and their paths).

Why this module exists: the Snakefile must turn a list of Hydra overrides into plain Python
values and file paths *before* any job runs, and everything that can go wrong there (an unknown
group option, a misspelt key, a string where a number belongs) must fail with one clear message.
Keeping that logic here, not in the Snakefile, makes it unit-testable.

Variants. A *variant* is one composed config. Different variants never overwrite each other
because every stage writes under a directory named after the config keys that stage depends on:

* match logs     ``data/<game>/logs/<logs_tag>/<target>/``  (game settings, ``matches.*``; one
  set of parts per target, so the tag does not depend on the list of targets when the sparring
  pool ``game.sparring`` is pinned)
* decisions      ``data/<game>/decisions/<logs_tag>/<mode>/`` (+ ``dataset.mode``)
* datasets       ``data/<game>/datasets/<dataset_tag>/``   (+ ``dataset.*``)
* models         ``data/<game>/models/<train_tag>/<net>/`` (+ ``train.*``, the net's architecture)
* tables         ``results/<game>/`` for the default composition, else ``results/<game>/<name>/``

A tag is the scale's name (``quick``, ``thesis``, ``tiny``) when the stage's keys equal those of
the plain ``scale=<scale>`` composition, else the scale plus a readable slug of the differing keys
(``quick__dataset.matches-100``), or a hash when that slug would be long. So a dataset-size sweep
reuses the match logs, and a learning-rate sweep reuses the datasets. ``run.name`` names the
results directory explicitly.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

GROUPS = ("game", "net", "scale", "experiment", "evaluate")
"""Config groups whose chosen option is recorded under ``run.choices``."""

RUNTIME_TRAIN_KEYS = ("nets", "device", "gpu", "threads", "run_folds")
"""``train`` keys that do not change what one (bot, net, fold) job computes (not in its tag):
how it runs, and which nets / how many folds are trained at all."""

SLUG_MAX = 80


class ConfigError(ValueError):
    """A config that cannot be used; the message names the offending override or key."""


# --- composition --------------------------------------------------------------------------------
def default_config_dir() -> Path:
    """The repository's ``config/`` folder (``IME_CONFIG_DIR`` overrides it)."""
    try:
        from ime.paths import config_dir

        return config_dir()
    except ImportError:  # pragma: no cover - paths.py is part of the package
        return Path(__file__).resolve().parents[2] / "config"


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


def compose(overrides: Sequence[str] = (), config_dir: str | Path | None = None) -> DictConfig:
    """Compose ``config.yaml`` with Hydra overrides and validate it.

    Returns a DictConfig without the ``hydra`` node, with ``run.choices`` recording the option
    chosen in every group and ``nets`` holding the architecture of every net to train.
    Raises :class:`ConfigError` naming the bad override.
    """
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    cdir = Path(config_dir or default_config_dir()).resolve()
    if not (cdir / "config.yaml").is_file():
        raise ConfigError(f"no config.yaml in {cdir}")
    overrides = list(overrides)
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(cdir), version_base="1.3"):
            cfg = hydra_compose("config", overrides=overrides, return_hydra_config=True)
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        msg = " ".join(m.strip() for m in str(e).strip().splitlines())
        msg = msg.split(" Config search path:")[0]  # Hydra's search-path dump is noise here
        raise ConfigError(f"bad override in {overrides}: {msg}") from None
    finally:
        GlobalHydra.instance().clear()
    choices = {g: cfg.hydra.runtime.choices.get(g) for g in GROUPS}
    with _open(cfg):
        del cfg["hydra"]
        cfg.run.choices = {g: c for g, c in choices.items() if c is not None}
    try:
        OmegaConf.to_container(cfg, resolve=True)
    except OmegaConfBaseException as e:
        raise ConfigError(f"config with overrides {overrides} does not resolve: {e}") from None
    validate(cfg, overrides)
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
    wanted = list(dict.fromkeys([*cfg.train.nets, *cfg.sweep.nets, cfg.net.name]))
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
        _check_net(nets[name], f"config/net/{name}.yaml", overrides)
    with _open(cfg):
        cfg.nets = nets


# --- validation ---------------------------------------------------------------------------------
_INT = "int"
_NUM = "number"
_STR = "str"
_BOOL = "bool"
_STRLIST = "list of str"

SCHEMA: dict[str, tuple[str, bool]] = {
    # key: (type, nullable)
    "seed": (_INT, False),
    "game.name": (_STR, False),
    "game.targets": (_STRLIST, False),
    "game.opponents": (_STRLIST, False),
    "game.sparring": (_STRLIST, True),
    "game.num_actions": (_INT, False),
    "game.planes": (_INT, False),
    "matches.source": (_STR, False),
    "matches.raw_dir": (_STR, False),
    "matches.per_target": (_INT, False),
    "matches.vs_targets": (_NUM, False),
    "matches.shards": (_INT, False),
    "matches.seed": (_INT, False),
    "dataset.matches": (_INT, True),
    "dataset.mode": (_STR, False),
    "dataset.dedup": (_STR, False),
    "train.nets": (_STRLIST, False),
    "train.folds": (_INT, False),
    "train.run_folds": (_INT, True),
    "train.max_epochs": (_INT, False),
    "train.patience": (_INT, False),
    "train.batch_size": (_INT, False),
    "train.lr": (_NUM, False),
    "train.weight_decay": (_NUM, False),
    "train.monitor": (_STR, False),
    "train.augment": (_STR, False),
    "train.seed": (_INT, False),
    "train.device": (_STR, False),
    "train.gpu": (_BOOL, False),
    "train.threads": (_INT, False),
    "sweep.key": (_STR, True),
    "sweep.nets": (_STRLIST, False),
    "net.name": (_STR, False),
    "net.kind": (_STR, False),
    "run.name": (_STR, True),
}

ENUMS: dict[str, tuple[str, ...]] = {
    "matches.source": ("generated", "raw"),
    "dataset.mode": ("strict", "lenient"),
    "dataset.dedup": ("keep", "drop_exact"),
    "train.device": ("auto", "cpu", "cuda", "mps"),
    "train.monitor": ("val_acc", "val_loss"),
    "train.augment": ("none", "sym4", "sym8"),
    "net.kind": ("mlp", "conv"),
}

MINIMA: dict[str, float] = {
    "matches.per_target": 1, "matches.shards": 1, "matches.vs_targets": 0, "dataset.matches": 1,
    "train.folds": 2, "train.run_folds": 1, "train.max_epochs": 1, "train.patience": 0,
    "train.batch_size": 1,
    "train.weight_decay": 0, "train.threads": 1, "game.num_actions": 1, "game.planes": 1,
}


def _type_ok(value: Any, kind: str) -> bool:
    if kind == _INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == _NUM:
        return (isinstance(value, int | float) and not isinstance(value, bool)
                and math.isfinite(value))
    if kind == _STR:
        return isinstance(value, str)
    if kind == _BOOL:
        return isinstance(value, bool)
    if kind == _STRLIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise AssertionError(kind)


def _get(c: Mapping[str, Any], dotted: str) -> Any:
    node: Any = c
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            raise KeyError(dotted)
        node = node[part]
    return node


def validate(cfg: DictConfig, overrides: Sequence[str] = ()) -> None:
    """Check types, allowed values and ranges; raise :class:`ConfigError` listing every problem."""
    c = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(c, dict)
    problems: list[str] = []
    for key, (kind, nullable) in SCHEMA.items():
        try:
            v = _get(c, key)
        except KeyError:
            problems.append(f"{key} is missing")
            continue
        if v is None:
            if not nullable:
                problems.append(f"{key} must be set ({kind})")
            continue
        if not _type_ok(v, kind):
            problems.append(f"{key} must be {'an' if kind == _INT else 'a'} {kind}, "
                            f"got {v!r} ({type(v).__name__})")
            continue
        if key in ENUMS and v not in ENUMS[key]:
            problems.append(f"{key} must be one of {list(ENUMS[key])}, got {v!r}")
        if key in MINIMA and v < MINIMA[key]:
            problems.append(f"{key} must be >= {MINIMA[key]:g}, got {v!r}")
    if not problems:
        problems += _semantic_problems(c)
    if problems:
        raise ConfigError(f"bad config (overrides {list(overrides)}):\n  " + "\n  ".join(problems))
    _check_net(c["net"], f"net={c['run']['choices'].get('net')}", overrides)


def _semantic_problems(c: dict) -> list[str]:
    problems = []
    g = c["game"]
    if not g["targets"]:
        problems.append("game.targets is empty: name at least one bot to imitate")
    if len(set(g["targets"])) != len(g["targets"]):
        problems.append(f"game.targets has duplicates: {g['targets']}")
    bad_ids = [t for t in g["targets"] if not _SAFE.match(t) or t in (".", "..")]
    if bad_ids:
        problems.append(f"game.targets {bad_ids} cannot name files and directories: use "
                        "[A-Za-z0-9._-]")
    if c["matches"]["source"] == "generated":
        alone = [t for t in g["targets"]
                 if not sparring_pool(c, t) and not [o for o in g["opponents"] if o != t]]
        if alone:
            problems.append(f"generated matches need game.opponents or sparring partners: "
                            f"{alone} would have nobody to play (game.sparring)")
    if c["matches"]["vs_targets"] > 1:
        problems.append("matches.vs_targets is a fraction in [0, 1]")
    rf = c["train"].get("run_folds")
    if rf is not None and rf > c["train"]["folds"]:
        problems.append(f"train.run_folds={rf} exceeds train.folds={c['train']['folds']}")
    if not c["train"]["lr"] > 0:
        problems.append(f"train.lr must be > 0, got {c['train']['lr']}")
    if not c["train"]["nets"]:
        problems.append("train.nets is empty")
    if c["net"]["name"] != c["run"]["choices"].get("net"):
        problems.append(f"net.name {c['net']['name']!r} differs from the chosen net option "
                        f"{c['run']['choices'].get('net')!r}; select nets with net=<name>")
    sw = c["sweep"]
    if sw["key"] is not None:
        try:
            _get(c, sw["key"])
        except KeyError:
            problems.append(f"sweep.key {sw['key']!r} is not a config key")
        if not isinstance(sw["values"], list) or not sw["values"]:
            problems.append("sweep.values must be a non-empty list when sweep.key is set")
        if not sw["nets"]:
            problems.append("sweep.nets is empty")
    return problems


def _check_net(net: Mapping[str, Any], where: str, overrides: Sequence[str]) -> None:
    problems = []
    kind = net.get("kind")
    if kind not in ENUMS["net.kind"]:
        problems.append(f"kind must be one of {list(ENUMS['net.kind'])}, got {kind!r}")
    hidden = net.get("hidden", [])
    if not (isinstance(hidden, list) and all(_type_ok(h, _INT) and h > 0 for h in hidden)):
        problems.append(f"hidden must be a list of positive ints, got {hidden!r}")
    if kind == "mlp" and not hidden:
        problems.append("an mlp needs at least one hidden layer")
    if kind == "conv":
        ch = net.get("channels")
        if not (isinstance(ch, list) and ch and all(_type_ok(h, _INT) and h > 0 for h in ch)):
            problems.append(f"channels must be a non-empty list of positive ints, got {ch!r}")
        k = net.get("kernel", 3)
        if not (_type_ok(k, _INT) and k >= 1 and k % 2 == 1):
            problems.append(f"kernel must be an odd int >= 1 (same padding), got {k!r}")
    if not isinstance(net.get("mask_input", False), bool):
        problems.append(f"mask_input must be true or false, got {net.get('mask_input')!r}")
    drop = net.get("dropout", 0.0)
    if not (_type_ok(drop, _NUM) and 0 <= drop < 1):
        problems.append(f"dropout must be a number in [0, 1), got {drop!r}")
    std = net.get("init_std")
    if std is not None and not (_type_ok(std, _NUM) and std > 0):
        problems.append(f"init_std must be null or a positive number, got {std!r}")
    if problems:
        raise ConfigError(f"bad net config {where} (overrides {list(overrides)}):\n  "
                          + "\n  ".join(problems))


# --- tags and variants --------------------------------------------------------------------------
def to_plain(cfg: DictConfig) -> dict[str, Any]:
    """The resolved config as plain Python values (what rules pass as ``params``)."""
    out = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(out, dict)
    return out


def sparring_pool(c: Mapping[str, Any], target: str) -> list[str]:
    """Who ``target`` plays its ``matches.vs_targets`` share against: ``game.sparring`` (a pinned
    pool) or, when that is null, the other targets; never ``target`` itself."""
    g = c["game"]
    pool = g.get("sparring")
    if pool is None:
        pool = g["targets"]
    return [b for b in dict.fromkeys(pool) if b != target]


def _targets_couple(c: Mapping[str, Any]) -> bool:
    """True when a target's generated matches depend on the list of targets: the sparring pool
    is "the other targets" (``game.sparring: null``) and some matches are sparring matches."""
    g, m = c["game"], c["matches"]
    return g.get("sparring") is None and (m["vs_targets"] > 0 or not g["opponents"])


def logs_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """The config keys (flat, dotted) the match logs depend on.

    Generated logs are one set of parts per target, each a function of the target, the game
    settings and ``matches.*``, so ``game.targets`` is not part of the key (adding a target adds
    its parts, nothing else changes), unless ``game.sparring`` is null: then every target's
    sparring partners are the other targets and the whole set of logs depends on the list.
    Raw logs are read for every target (a raw part's decisions are extracted for all targets).
    """
    m = c["matches"]
    if m["source"] == "raw":
        return {"game.name": c["game"]["name"], "game.targets": c["game"]["targets"],
                "matches.source": "raw", "matches.raw_dir": m["raw_dir"]}
    out = flatten(c["game"], "game")
    if not _targets_couple(c):
        del out["game.targets"]
    out.update(flatten({k: v for k, v in m.items() if k != "raw_dir"}, "matches"))
    return out


def dataset_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """The keys a dataset depends on: the logs' plus ``dataset.*``."""
    return {**logs_key(c), **flatten(c["dataset"], "dataset")}


def train_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """The keys a trained model depends on (besides its architecture, which names its folder)."""
    t = {k: v for k, v in c["train"].items() if k not in RUNTIME_TRAIN_KEYS}
    return {**dataset_key(c), **flatten(t, "train")}


def results_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """Everything that changes a result table (not how jobs run, not the sweep)."""
    out = flatten({k: v for k, v in c.items() if k not in ("run", "sweep", "train", "net")})
    out.update(train_key(c))
    out["train.nets"] = c["train"]["nets"]
    out["train.run_folds"] = c["train"].get("run_folds")
    out["net.name"] = c["net"]["name"]
    return out


def digest(obj: Any, n: int = 10) -> str:
    """A short stable hash of a JSON-able value."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()[:n]


def flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}} -> {"a.b": 1}`` (lists are leaves)."""
    if not isinstance(d, Mapping):
        return {prefix: d}
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out


_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def _fmt(v: Any) -> str | None:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, str) and _SAFE.match(v):
        return v
    if isinstance(v, list) and all(isinstance(x, int | str) and not isinstance(x, bool)
                                   for x in v):
        s = "-".join(str(x) for x in v)
        return s if _SAFE.match(s or "x") else None
    return None


def tag(key: Mapping[str, Any], reference: Mapping[str, Any], scale: str) -> str:
    """``scale`` when ``key == reference``, else a readable slug of the differences (or a hash)."""
    if key == reference:
        return scale
    a, b = dict(key), dict(reference)
    pieces = []
    readable = True
    for k in sorted(set(a) | set(b)):
        if a.get(k, "<missing>") == b.get(k, "<missing>"):
            continue
        val = _fmt(a.get(k)) if k in a else "unset"
        if val is None:
            readable = False
            break
        pieces.append(f"{k}-{val}")
    slug = "__".join([scale, *pieces])
    if readable and len(slug) <= SLUG_MAX and _SAFE.match(slug):
        return slug
    return f"{scale}__h{digest(key)}"


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
    def targets(self) -> list[str]:
        return list(self.cfg["game"]["targets"])

    @property
    def folds(self) -> int:
        """How many folds are trained (checkpoints ``fold0 .. fold{folds-1}`` exist).

        ``train.folds`` is k of the k-fold split; ``train.run_folds`` (when set) trains only the
        first folds of that split (the quick scale's time saver).
        """
        t = self.cfg["train"]
        return int(t["run_folds"]) if t.get("run_folds") is not None else int(t["folds"])

    @property
    def source(self) -> str:
        return self.cfg["matches"]["source"]

    def sparring(self, target: str) -> list[str]:
        """``target``'s sparring partners (see :func:`sparring_pool`)."""
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
        return f"data/{self.game}/logs/{self.logs_tag}/{part}.jsonl"

    def decisions_path(self, part: str) -> str:
        mode = self.cfg["dataset"]["mode"]
        return f"data/{self.game}/decisions/{self.logs_tag}/{mode}/{part}.parquet"

    def dataset_path(self, bot: str) -> str:
        """Parquet dataset of ``bot`` (one row per decision)."""
        return f"data/{self.game}/datasets/{self.dataset_tag}/{bot}.parquet"

    def dataset_stats_path(self, bot: str) -> str:
        return f"data/{self.game}/datasets/{self.dataset_tag}/{bot}.json"

    def model_dir(self, net: str) -> str:
        return f"data/{self.game}/models/{self.train_tag}/{self.net_dirs[net]}"

    def checkpoint_path(self, bot: str, net: str | None = None, fold: int = 0) -> str:
        """Checkpoint of (bot, net, fold); ``net`` defaults to the selected ``net``."""
        net = net or self.cfg["net"]["name"]
        return f"{self.model_dir(net)}/{bot}/fold{fold}.pt"

    def metrics_path(self, bot: str, net: str | None = None, fold: int = 0) -> str:
        net = net or self.cfg["net"]["name"]
        return f"{self.model_dir(net)}/{bot}/fold{fold}.json"

    def table_path(self, name: str) -> str:
        return f"{self.results_dir}/{name}"


def raw_part_name(path: str) -> str:
    """A raw log file's part name: its file name made safe (``a.matches`` -> ``a_matches``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", Path(path).name)


RAW_PATTERNS = ("*.jsonl", "*.matches", "*.json")


def find_raw_files(raw_dir: str | Path, base: str | Path = ".") -> list[str]:
    """Raw log files under ``raw_dir`` (relative to ``base``), sorted."""
    root = Path(base) / raw_dir
    found = sorted({p for pat in RAW_PATTERNS for p in root.glob(pat) if p.is_file()})
    return [str(Path(raw_dir) / p.name) for p in found]


@dataclass
class Plan:
    """The main variant (what ``all`` builds) plus any sweep points."""

    main: Variant
    sweep: list[tuple[Any, Variant]]

    def variants(self) -> list[Variant]:
        return [self.main, *(v for _, v in self.sweep)]


_COMPOSED: dict[tuple, dict[str, Any]] = {}
"""Composed configs by (config dir, overrides, config files' mtimes): composing is ~0.3 s."""


def _config_stamp(cdir: str) -> tuple:
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in Path(cdir).rglob("*.yaml")))


def make_variant(
    overrides: Sequence[str],
    config_dir: str | Path | None = None,
    *,
    base: str | Path = ".",
    _cache: dict | None = None,
) -> Variant:
    """Compose ``overrides`` and work out the variant's tags and directories."""
    cache = _COMPOSED if _cache is None else _cache
    cdir = str(Path(config_dir or default_config_dir()).resolve())

    def composed(ovr: tuple[str, ...]) -> dict[str, Any]:
        key = (cdir, ovr, _config_stamp(cdir))
        if key not in cache:
            cache[key] = to_plain(compose(ovr, config_dir))
        return copy.deepcopy(cache[key])

    c = composed(tuple(overrides))
    game = c["run"]["choices"]["game"]
    scale = c["run"]["choices"]["scale"]
    ref = composed((f"game={game}", f"scale={scale}"))
    default = composed((f"game={game}",))
    ltag = tag(logs_key(c), logs_key(ref), scale)
    dtag = tag(dataset_key(c), dataset_key(ref), scale)
    ttag = tag(train_key(c), train_key(ref), scale)
    net_dirs = {}
    for name, arch in c["nets"].items():
        ref_arch = ref["nets"].get(name)
        if ref_arch is None:
            ref_arch = load_net_file(config_dir or default_config_dir(), name)
        net_dirs[name] = name if arch == ref_arch else f"{name}-{digest(arch, 8)}"
    rname = c["run"]["name"]
    if rname is None:
        if results_key(c) == results_key(default):
            rname = ""
        else:
            rname = tag(results_key(c), results_key(ref), scale)
    if rname and not _SAFE.match(rname):
        raise ConfigError(f"run.name {rname!r} must be a plain directory name ([A-Za-z0-9._-])")
    results_dir = f"results/{c['game']['name']}" + (f"/{rname}" if rname else "")
    raw_files: list[str] = []
    if c["matches"]["source"] == "raw":
        raw_files = find_raw_files(c["matches"]["raw_dir"], base)
        if not raw_files:
            raise ConfigError(
                f"matches.source=raw but {Path(base) / c['matches']['raw_dir']} holds no "
                f"{' / '.join(RAW_PATTERNS)} files: drop Botzone match logs there"
            )
    return Variant(rname, c, ltag, dtag, ttag, net_dirs, results_dir, raw_files)


def make_plan(
    overrides: Sequence[str],
    config_dir: str | Path | None = None,
    *,
    base: str | Path = ".",
) -> Plan:
    """The main variant and, when ``sweep.key`` is set, one variant per sweep value."""
    cache = _COMPOSED
    main = make_variant(overrides, config_dir, base=base, _cache=cache)
    sweep = []
    sw = main.cfg["sweep"]
    if sw["key"] is not None:
        for value in sw["values"]:
            point = [*overrides, f"{sw['key']}={_override_value(value)}"]
            try:
                v = make_variant(point, config_dir, base=base, _cache=cache)
            except ConfigError as e:
                raise ConfigError(f"sweep point {sw['key']}={value!r}: {e}") from None
            sweep.append((value, v))
    return Plan(main, sweep)


def _override_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)


def unique(items: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


# --- the workflow index: wildcards -> plain params ----------------------------------------------
class WorkflowIndex:
    """Maps the wildcards of the rules' paths back to the variant and the plain params of a job.

    Several variants (the main one and sweep points) can share a stage directory when their keys
    for that stage agree; the index keeps one entry per directory and refuses two variants that
    would write different things into the same one.
    """

    def __init__(self, plan: Plan, bot_specs: Mapping[str, Mapping[str, Any]] | None = None):
        self.plan = plan
        self.bot_specs = dict(bot_specs or {})
        self.logs: dict[tuple[str, str], Variant] = {}
        self.datasets: dict[tuple[str, str], Variant] = {}
        self.trains: dict[tuple[str, str], Variant] = {}
        self.nets: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.results: dict[str, Variant] = {}
        for v in plan.variants():
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
        if any(v.source == "generated" for v in plan.variants()):
            self.check_bots()

    @staticmethod
    def _add(table: dict, key: tuple, v: Variant, keyfn: Any) -> None:
        if key not in table:
            table[key] = v
        elif keyfn(table[key].cfg) != keyfn(v.cfg):
            raise ConfigError(f"variants {table[key].name!r} and {v.name!r} collide on {key}")

    def check_bots(self) -> None:
        """Every target and opponent of a generated variant must be in the bot zoo's config."""
        for v in self.plan.variants():
            if v.source != "generated":
                continue
            g = v.cfg["game"]
            want = unique([*g["targets"], *g["opponents"], *(g.get("sparring") or [])])
            missing = [b for b in want if b not in self.bot_specs]
            if missing:
                raise ConfigError(
                    f"bots {missing} are not in config/bots/{v.game}.yaml (known: "
                    f"{sorted(self.bot_specs)}); fix game.targets / game.opponents / "
                    "game.sparring"
                )

    # --- wildcard constraints ---------------------------------------------------------------
    @staticmethod
    def _alt(values: Iterable[str]) -> str:
        vals = sorted(set(values), key=lambda s: (-len(s), s))
        return "|".join(re.escape(x) for x in vals)

    def constraints(self) -> dict[str, str]:
        """Regexes restricting every wildcard to the values this plan knows."""
        vs = self.plan.variants()
        return {
            "game": self._alt(v.game for v in vs),
            "ltag": self._alt(t for _, t in self.logs),
            "dtag": self._alt(t for _, t in self.datasets),
            "ttag": self._alt(t for _, t in self.trains),
            "netdir": self._alt(d for _, _, d in self.nets),
            "part": self._alt(p for v in vs for p in v.parts()),
            "bot": self._alt(b for v in vs for b in v.targets),
            "mode": "strict|lenient",
            "fold": r"\d+",
            "rdir": self._alt(self.results),
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
        return {
            "game": game, "target": target, "opponents": opponents, "sparring": sparring,
            "per_target": m["per_target"], "vs_targets": m["vs_targets"], "seed": m["seed"],
            "shards": m["shards"], "shard": int(shard.removeprefix("shard")),
            "bot_specs": {b: self.bot_specs[b] for b in sorted(used)},
        }

    def decisions_input(self, game: str, ltag: str, part: str) -> str:
        v = self.logs[(game, ltag)]
        if v.source == "raw":
            return dict(zip(v.parts(), v.log_paths(), strict=True))[part]
        return v.log_path(part)

    def decisions_spec(self, game: str, ltag: str, mode: str,
                       part: str | None = None) -> dict[str, Any]:
        """A generated part keeps its own target's decisions only (the matches scheduled for
        it); a raw part keeps every target's."""
        v = self.logs[(game, ltag)]
        target = self.split_part(part)[0] if part is not None and v.source != "raw" else None
        return {"game": game, "targets": [target] if target else v.targets, "mode": mode,
                "num_actions": v.cfg["game"]["num_actions"]}

    def dataset_inputs(self, game: str, dtag: str, bot: str | None = None) -> dict[str, list[str]]:
        """The decision parts (and their reports) ``bot``'s dataset reads: its own generated
        parts, or every raw part; every part when ``bot`` is None (the run report)."""
        v = self.datasets[(game, dtag)]
        parts = [v.decisions_path(p) for p in v.parts(bot)]
        return {"parts": parts, "reports": [p.removesuffix(".parquet") + ".json" for p in parts]}

    def dataset_spec(self, game: str, dtag: str, bot: str) -> dict[str, Any]:
        v = self.datasets[(game, dtag)]
        d = v.cfg["dataset"]
        return {"game": game, "bot": bot, "max_matches": d["matches"], "dedup": d["dedup"],
                "config": {"dataset": d, "logs": logs_key(v.cfg)}}

    def train_input(self, game: str, ttag: str, bot: str) -> str:
        return self.trains[(game, ttag)].dataset_path(bot)

    def train_spec(self, game: str, ttag: str, netdir: str, bot: str,
                   fold: int) -> dict[str, Any]:
        v = self.trains[(game, ttag)]
        # only what the job uses: adding a net or changing the thread count re-runs nothing
        train = {k: x for k, x in v.cfg["train"].items()
                 if k not in ("nets", "run_folds", "gpu", "threads")}
        return {"bot": bot, "fold": int(fold), "net": self.nets[(game, ttag, netdir)],
                "train": train}

    def variant(self, rdir: str) -> Variant:
        return self.results[rdir]

    def table_nets(self, v: Variant) -> list[str]:
        return list(v.cfg["train"]["nets"])

    def metrics_paths(self, v: Variant, nets: Sequence[str] | None = None) -> list[str]:
        nets = list(nets) if nets is not None else self.table_nets(v)
        return [v.metrics_path(b, n, k) for b in v.targets for n in nets for k in range(v.folds)]

    def stats_paths(self, v: Variant) -> list[str]:
        return [v.dataset_stats_path(b) for b in v.targets]

    def sweep_spec(self) -> dict[str, Any]:
        main = self.plan.main
        sw = main.cfg["sweep"]
        points = [{"value": value, "stats": self.stats_paths(v),
                   "metrics": self.metrics_paths(v, sw["nets"])} for value, v in self.plan.sweep]
        return {"key": sw["key"], "bots": main.targets, "nets": list(sw["nets"]),
                "points": points}

    def sweep_path(self) -> str | None:
        key = self.plan.main.cfg["sweep"]["key"]
        if key is None:
            return None
        return self.plan.main.table_path(f"sweep_{key}.csv")

    def table4_3_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        g = v.cfg["game"]
        return {"nets": {n: v.cfg["nets"][n] for n in self.table_nets(v)},
                "in_shape": [g["planes"], *g["board"]], "num_actions": g["num_actions"]}

    def table4_4_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        return {"bots": v.targets, "nets": self.table_nets(v)}

    def run_report_inputs(self, rdir: str) -> dict[str, list[str]]:
        v = self.variant(rdir)
        reports = [v.decisions_path(p).removesuffix(".parquet") + ".json" for p in v.parts()]
        return {"reports": reports, "stats": self.stats_paths(v)}

    def run_report_spec(self, rdir: str) -> dict[str, Any]:
        v = self.variant(rdir)
        cfg = {**v.cfg, "train": {k: x for k, x in v.cfg["train"].items()
                                  if k not in ("device", "gpu", "threads")}}
        return {"variant": v.name, "results_dir": rdir, "config": cfg,
                "tags": {"logs": v.logs_tag, "dataset": v.dataset_tag, "train": v.train_tag},
                "log_files": v.log_paths()}


def setup_workflow(
    snakemake_config: Mapping[str, Any], config_dir: str | Path
) -> tuple[list[str], Plan, WorkflowIndex]:
    """What the Snakefile does first: overrides from ``--config``, the plan, the index.

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
    plan = make_plan(overrides, config_dir)
    specs: dict[str, Any] = {}
    if any(v.source == "generated" for v in plan.variants()):
        from ime.bots.registry import load_bot_specs

        specs = load_bot_specs(plan.main.game)
    return overrides, plan, WorkflowIndex(plan, specs)
