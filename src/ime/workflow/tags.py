"""What each stage depends on, and the directory tags made from it.

Every stage writes under a directory named after the config keys it depends on (see
:mod:`ime.workflow.paths`): a tag is the scale's name (``quick``, ``thesis``, ``tiny``) when the
stage's keys equal those of the plain ``scale=<scale>`` composition, else the scale plus a
readable slug of the differing keys (``quick__dataset.matches-100``), or a hash when that slug
would be long. So a dataset-size sweep reuses the match logs, and a learning-rate sweep reuses the
datasets.

The logs' key is also written into every dataset's Parquet metadata, so for a given game it must
not change when config keys that do not touch the logs are added to the game's file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

HOW_TRAIN_RUNS = ("device", "gpu", "threads", "stack_bots")
"""``train`` keys that say only how a job runs (no result changes with them)."""
RUNTIME_TRAIN_KEYS = ("nets", "run_folds", *HOW_TRAIN_RUNS)
"""``train`` keys that do not change what one (bot, net, fold) job computes (not in its tag):
how it runs (``stack_bots``: several bots' folds in one job, the same files), and which nets /
how many folds are trained at all."""


RUNTIME_KEYS = ("evaluate.workers", *(f"train.{k}" for k in HOW_TRAIN_RUNS))
"""Dotted keys that say only how jobs run, never what they compute: worker and thread counts
(:mod:`ime.core.workers`) and the training device. They enter no variant name, no data tag and
no job's ``params`` (Snakemake re-runs a job whose params changed), so raising a worker count
re-runs nothing; the rules pass them as ``threads:`` and ``resources:``."""


def without_runtime(c: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a composed config without :data:`RUNTIME_KEYS`: what a job's params and the
    results' key may hold (the sections are copied, the rest is shared)."""
    out = dict(c)
    for key in RUNTIME_KEYS:
        section, _, name = key.partition(".")
        if isinstance(out.get(section), Mapping) and name in out[section]:
            out[section] = {k: v for k, v in out[section].items() if k != name}
    return out


def is_runtime_override(override: str) -> bool:
    """True for a Hydra override of one of :data:`RUNTIME_KEYS` (``evaluate.workers=16``,
    ``+train.threads=2``), which a job's params must not repeat."""
    key = override.split("=", 1)[0].lstrip("+~")
    return key in RUNTIME_KEYS


def unused_split_keys(t: Mapping[str, Any]) -> tuple[str, ...]:
    """``train`` keys left out of the models' key and the train jobs' settings: under k-fold
    (the default) ``split`` and ``holdout``, which it does not read. So k-fold models keep the
    tags, hashes and params they had before the option existed (nothing re-trains), and changing
    ``train.holdout`` under k-fold re-trains nothing. A hold-out keeps every key: its tag says
    ``train.holdout-0.1__train.split-holdout`` (never a k-fold model's), and ``train.folds``,
    which it ignores, stays too, since a missing key would read ``train.folds-unset`` in every
    hold-out tag (the price: changing ``train.folds`` under a hold-out re-trains it)."""
    if t.get("split", "kfold") == "kfold":
        return ("split", "holdout")
    return ()


LEFT_OUT_READS = {"train.split": "kfold", "train.holdout": None}
"""How a key that :func:`unused_split_keys` leaves out reads in a tag, where the reference has
it (a game whose scale trains a hold-out, e.g. Doudizhu at ``scale=thesis``, run as k-fold):
``train.split-kfold``, and no piece for ``train.holdout``, which k-fold does not read."""


GAME_NON_LOG_KEYS = ("augment", "references", "openings", "scales", "extra")
"""``game`` keys the match logs do not depend on: training's symmetries, the evaluation's
references and tournament openings (each in the key of the stage that uses them), the
per-scale settings (already applied by composition) and the plug-in's own settings."""

SLUG_MAX = 80
SAFE = re.compile(r"^[A-Za-z0-9._-]+$")
"""What may name a file or directory (bot ids, tags, run names)."""


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


def encoder_only_params(game: str) -> tuple[str, ...]:
    """``game.params`` keys only ``game``'s encoder reads (:attr:`GamePlugin.encoder_params`)."""
    from ime.workflow.plugins import plugin_info

    return plugin_info(game).encoder_params


def split_game_params(game: str, params: Mapping[str, Any] | None
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    """``game.params`` as ``(the rules' options, the encoder's only)``: the logs depend on the
    first, the decisions on both."""
    enc = set(encoder_only_params(game)) if params else set()
    params = dict(params or {})
    return ({k: v for k, v in params.items() if k not in enc},
            {k: v for k, v in params.items() if k in enc})


def game_log_settings(c: Mapping[str, Any]) -> dict[str, Any]:
    """The ``game`` node minus the keys the logs do not depend on (and an empty ``params``;
    the encoder's own params: :func:`split_game_params`)."""
    out = {k: v for k, v in c["game"].items() if k not in GAME_NON_LOG_KEYS}
    out["params"] = split_game_params(c["game"]["name"], out.get("params"))[0]
    if not out["params"]:
        del out["params"]
    return out


def plays_team_seats(c: Mapping[str, Any]) -> bool:
    """True when a target fills every seat of its side in its generated matches:
    ``matches.team_seats: all`` and the game declares sides (``GameType.teams``). Otherwise the
    key changes no log and stays out of the logs' key, so the logs of ``one`` (and of a game
    without sides) keep the tags and metadata they had before the option existed."""
    if c["matches"].get("team_seats", "one") != "all":
        return False
    from ime.workflow.plugins import plugin_info

    return bool(plugin_info(c["game"]["name"]).teams)


def dataset_settings(c: Mapping[str, Any]) -> dict[str, Any]:
    """The ``dataset`` section as the datasets depend on it: ``keep_forced: false`` (the
    default, the datasets made before the option existed) is left out, so those datasets keep
    their tags, metadata and params."""
    return {k: v for k, v in c["dataset"].items() if not (k == "keep_forced" and not v)}


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
        out = {"game.name": c["game"]["name"], "game.targets": c["game"]["targets"],
               "matches.source": "raw", "matches.raw_dir": m["raw_dir"]}
        rules = split_game_params(c["game"]["name"], c["game"].get("params"))[0]
        if rules:
            out["game.params"] = rules
        return out
    out = flatten(game_log_settings(c), "game")
    if not _targets_couple(c):
        del out["game.targets"]
    skip = {"raw_dir"} | (set() if plays_team_seats(c) else {"team_seats"})
    out.update(flatten({k: v for k, v in m.items() if k not in skip}, "matches"))
    return out


def dataset_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """The keys a dataset depends on: the logs' plus ``dataset.*`` (:func:`dataset_settings`)
    and the encoder's own ``game.params`` (:func:`split_game_params`)."""
    enc = split_game_params(c["game"]["name"], c["game"].get("params"))[1]
    return {**logs_key(c), **flatten(dataset_settings(c), "dataset"),
            **(flatten(enc, "game.params") if enc else {})}


def train_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """The keys a trained model depends on (besides its architecture, which names its folder):
    the dataset's, ``train.*`` (the split's own keys: :func:`unused_split_keys`) and the game's
    training symmetries ``game.augment``."""
    unused = unused_split_keys(c["train"])
    t = {k: v for k, v in c["train"].items() if k not in RUNTIME_TRAIN_KEYS and k not in unused}
    return {**dataset_key(c), **flatten(t, "train"), "game.augment": c["game"]["augment"]}


def results_key(c: Mapping[str, Any]) -> dict[str, Any]:
    """Everything that changes a result table (not how jobs run: :data:`RUNTIME_KEYS`; not the
    sweep), so that a variant's directory is named after what changed in its results.

    The imitators' net is the key ``net`` (``quick__net-mlp2``): ``evaluate.imitator.net``
    follows the selected ``net`` (config/evaluate/default.yaml), so ``net=mlp2`` and the
    directory say the same. The selection itself is no key: with the imitators' net set apart
    it changes no result. Of the architectures (``nets.*``), only those of the nets trained for
    the tables (``train.nets``) and of the imitators' net count."""
    imitator = c["evaluate"]["imitator"]["net"]
    used = {*c["train"]["nets"], imitator}
    out = flatten({k: v for k, v in without_runtime(c).items()
                   if k not in ("run", "sweep", "train", "net", "nets")})
    del out["evaluate.imitator.net"]
    out.update(flatten({n: a for n, a in (c.get("nets") or {}).items() if n in used}, "nets"))
    out.update(train_key(c))
    out["train.nets"] = c["train"]["nets"]
    out["train.run_folds"] = c["train"].get("run_folds")
    out["net"] = imitator
    return out


IDLE_SEARCH_KEYS = {"round_enter_shares": []}
"""Keys of a search family's settings (``net.search``) that count as absent at these values (an
option off): a train job's params and a model folder's digest leave them out, so adding such an
option to ``config/net/search.yaml`` re-trains and renames nothing."""


def without_idle_options(arch: Mapping[str, Any]) -> dict[str, Any]:
    """A net's settings without the :data:`IDLE_SEARCH_KEYS` at their idle values."""
    search = arch.get("search")
    if not isinstance(search, Mapping):
        return dict(arch)
    return {**arch, "search": {k: x for k, x in search.items()
                               if not (k in IDLE_SEARCH_KEYS
                                       and list(x or []) == IDLE_SEARCH_KEYS[k])}}


def digest(obj: Any, n: int = 10) -> str:
    """A short stable hash of a JSON-able value."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()[:n]


def flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}} -> {"a.b": 1}`` (lists and empty mappings are leaves)."""
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


def fmt_value(v: Any) -> str | None:
    """A value as it may appear in a directory name, or None when it cannot."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, str) and SAFE.match(v):
        return v
    if isinstance(v, list) and all(isinstance(x, int | str) and not isinstance(x, bool)
                                   for x in v):
        s = "-".join(str(x) for x in v)
        return s if SAFE.match(s or "x") else None
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
        if k not in a and b.get(k) == {} and any(x.startswith(f"{k}.") for x in a):
            continue  # an empty mapping given keys (+game.params.x=1): those keys say it
        if k not in a and k in LEFT_OUT_READS:
            if LEFT_OUT_READS[k] is None:
                continue
            val = LEFT_OUT_READS[k]
        else:
            val = fmt_value(a.get(k)) if k in a else "unset"
        if val is None:
            readable = False
            break
        pieces.append(f"{k}-{val}")
    slug = "__".join([scale, *pieces])
    if readable and len(slug) <= SLUG_MAX and SAFE.match(slug):
        return slug
    return f"{scale}__h{digest(key)}"


def params_tag(params: Mapping[str, Any]) -> str:
    """A short readable tag of a game's opening parameters (``game.openings``), for the
    tournament's directory: per key, in order, the initial of its last word and its value
    (``{max_mobility_gap: 3}`` -> ``_g3``, null -> ``x``); empty for no parameters, and
    ``_o<hash>`` when two keys share an initial or a value cannot name a directory."""
    pieces, initials = [], set()
    for k, v in params.items():
        initial = str(k).rsplit("_", 1)[-1][:1]
        val = "x" if v is None else fmt_value(v)
        if not initial or initial in initials or val is None or "_" in val:
            return f"_o{digest(dict(params), 8)}"
        initials.add(initial)
        pieces.append(f"_{initial}{val}")
    return "".join(pieces)
