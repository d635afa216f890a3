"""The whole composed config: one model per section, and the checks that span sections."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ime.imitators.kinds import FITTED_KINDS
from ime.train.folds import trained_models
from ime.workflow.schema.common import Section
from ime.workflow.schema.dataset import Dataset
from ime.workflow.schema.evaluate import Evaluate
from ime.workflow.schema.game import Game
from ime.workflow.schema.identify import Identify
from ime.workflow.schema.matches import Matches
from ime.workflow.schema.net import Net
from ime.workflow.schema.om_search import OmSearch
from ime.workflow.schema.run import Run
from ime.workflow.schema.sweep import Sweep
from ime.workflow.schema.train import Train

SWEEPABLE_GROUPS = ("net", "scale", "evaluate")
"""Config groups a sweep may vary by option name (``net=mlp1``), besides any config key."""


class Config(Section):
    seed: int
    run: Run
    game: Game
    matches: Matches
    dataset: Dataset
    train: Train
    net: Net
    evaluate: Evaluate
    identify: Identify
    om_search: OmSearch
    sweep: Sweep
    nets: dict[str, Net] = {}
    """Every trained net's architecture (added by composition from config/net/)."""


def get_dotted(c: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted key of a nested config (``KeyError(dotted)`` when a level is
    missing)."""
    node: Any = c
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            raise KeyError(dotted)
        node = node[part]
    return node


def cross_section_problems(c: Mapping[str, Any]) -> list[str]:
    """Checks between sections of a config whose sections are each valid."""
    problems = []
    g, m, t = c["game"], c["matches"], c["train"]
    if m["source"] == "generated":
        alone = []
        for target in g["targets"]:
            pool = g["sparring"] if g["sparring"] is not None else g["targets"]
            if not [b for b in pool if b != target] and not [
                    o for o in g["opponents"] if o != target]:
                alone.append(target)
        if alone:
            problems.append(f"generated matches need game.opponents or sparring partners: "
                            f"{alone} would have nobody to play (game.sparring)")
    choice = c["run"]["choices"].get("net")
    if c["net"]["name"] != choice:
        problems.append(f"net.name {c['net']['name']!r} differs from the chosen net option "
                        f"{choice!r}; select nets with net=<name>")
    sw = c["sweep"]
    for key in ([sw["key"]] if sw["key"] is not None else []) + list(sw.get("grid") or {}):
        if key in SWEEPABLE_GROUPS:
            continue
        try:
            get_dotted(c, key)
        except KeyError:
            from ime.workflow.compose import config_keys
            from ime.workflow.errors import did_you_mean, nearest_keys

            close = did_you_mean(nearest_keys(key, config_keys(c)))
            problems.append(f"sweep key {key!r} is not a config key (nor a config group: "
                            f"{', '.join(SWEEPABLE_GROUPS)})" + (f"; {close}" if close else ""))
    im = c["evaluate"]["imitator"]
    folds = trained_models(t)  # the folds actually trained (a hold-out: one)
    if isinstance(im["fold"], int) and im["fold"] >= folds:
        problems.append(f"evaluate.imitator.fold={im['fold']} but only folds 0..{folds - 1} "
                        "are trained (train.folds / train.run_folds / train.split)")
    kind = c["net"].get("kind")
    if kind in FITTED_KINDS:
        from ime.core.registry import get_plugin

        try:
            plugin = get_plugin(g["name"])
        except KeyError:  # an unknown game: reported where the game is validated
            plugin = None
        if plugin is not None and kind not in plugin.imitators:
            problems.append(f"net={c['net']['name']} (imitator={kind}): game {g['name']!r} "
                            f"offers no {kind!r} imitator family (its families: "
                            f"{', '.join(sorted(plugin.imitators)) or 'none'}); use "
                            f"imitator=policy, its policy nets")
    if kind == "lookahead":
        from ime.core.registry import get_encoder

        try:
            enc = get_encoder(g["name"], g.get("params") or None)
        except (KeyError, ValueError):  # an unknown game or bad options: reported elsewhere
            enc = None
        if enc is not None and enc.afterstate_shape is None:
            problems.append(f"net={c['net']['name']} (imitator=lookahead): game {g['name']!r} "
                            f"offers no afterstates (the lookahead imitator's needs; Reversi, "
                            f"Connect Four, Snake, Doudizhu and Big 2 do); use imitator=policy, "
                            f"its policy nets")
        elif enc is not None and c["net"].get("depth") == 2 and not enc.reply_lookahead:
            problems.append(f"net.depth=2: game {g['name']!r} offers no replies to an "
                            f"afterstate (a two-ply lookahead; Reversi does); use net.depth=1")
        features = c["net"].get("features") or []
        features = [] if features == "all" else list(features)
        if enc is not None and any(f not in enc.afterstate_features for f in features):
            problems.append(f"net.features={features}: game {g['name']!r} offers the "
                            f"afterstate features {list(enc.afterstate_features)}")
        if features and c["net"].get("depth") == 2:
            problems.append("net.features are for net.depth=1")
    if im["net"] not in t["nets"] and im["net"] != c["net"]["name"]:
        problems.append(f"evaluate.imitator.net={im['net']!r} is not trained "
                        f"(train.nets={t['nets']})")
    bad = [b for b in [*g["targets"], *c["evaluate"]["agents"]] if "__" in b]
    if bad:
        problems.append(f"bot ids {bad} cannot name tournament files (no '__')")
    return problems
