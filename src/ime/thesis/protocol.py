"""The thesis's protocol beside ours: each item of ``config/thesis/protocol.yaml`` compared with
the composed config of the run, marked same or different, with the reason where it differs.

The thesis side and the reasons are data (the YAML); which items differ is computed here from
the config every job of the run used, so a change of config shows in the report by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ime.paths import config_dir
from ime.workflow.schema.root import get_dotted

SAME = "same"
DIFFERENT = "different"


def _targets(cfg: Mapping[str, Any]) -> list[str]:
    return list(cfg["game"]["targets"])


def _evaluated(cfg: Mapping[str, Any]) -> list[str]:
    return list(cfg["evaluate"].get("targets") or _targets(cfg))


def _references(cfg: Mapping[str, Any]) -> str:
    """``the other targets`` when every target's references are the other evaluated targets,
    else the pool as configured."""
    refs = cfg["game"].get("references")
    if refs is None or set(refs) == set(_evaluated(cfg)):
        return "the other targets"
    return ", ".join(refs)


def _imitator_model(cfg: Mapping[str, Any]) -> str:
    tr, fold = cfg["train"], cfg["evaluate"]["imitator"]["fold"]
    if tr.get("split", "kfold") == "holdout":
        return "one model"
    return (f"mean of {tr['run_folds'] or tr['folds']} folds' softmax" if fold == "ensemble"
            else f"fold {fold} of {tr['folds']}")


def _split(cfg: Mapping[str, Any]) -> str:
    """``5-fold`` (k-fold cross-validation) or ``9:1 hold-out`` (``hold-out 20 %`` ...)."""
    tr = cfg["train"]
    if tr.get("split", "kfold") != "holdout":
        return f"{tr['folds']}-fold"
    share = float(tr["holdout"])
    return "9:1 hold-out" if share == 0.1 else f"hold-out {100 * share:g} %"


def _tournament_agents(cfg: Mapping[str, Any]) -> int:
    """Originals and their imitators, plus the extra agents (``evaluate.agents``)."""
    return 2 * len(_evaluated(cfg)) + len(cfg["evaluate"].get("agents") or [])


DERIVED: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "references": _references,
    "split": _split,
    "imitator_model": _imitator_model,
    "tournament_agents": _tournament_agents,
    "target_count": lambda cfg: len(_targets(cfg)),
    "evaluated_count": lambda cfg: len(_evaluated(cfg)),
}
"""Values computed from several keys (``derive:`` in protocol.yaml)."""


def load(path: str | Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """``config/thesis/protocol.yaml``: game -> items, each checked for the fields it needs."""
    from omegaconf import OmegaConf

    path = Path(path) if path is not None else config_dir() / "thesis" / "protocol.yaml"
    raw = OmegaConf.to_container(OmegaConf.load(path))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a mapping of game -> items")
    for game, items in raw.items():
        for i, it in enumerate(items):
            where = f"{path}: {game} item {i + 1} ({it.get('item', '?')})"
            if "item" not in it or "section" not in it:
                raise ValueError(f"{where}: needs item and section")
            if ("key" in it) == ("derive" in it):
                raise ValueError(f"{where}: needs exactly one of key, derive")
            if ("thesis" in it) == ("within" in it):
                raise ValueError(f"{where}: needs exactly one of thesis, within")
            if "derive" in it and it["derive"] not in DERIVED:
                raise ValueError(f"{where}: unknown derive {it['derive']!r}; known: "
                                 f"{sorted(DERIVED)}")
    return raw


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(map(str, v))
    return "-" if v is None else str(v)


def _equal(thesis: Any, ours: Any) -> bool:
    if isinstance(thesis, list) and isinstance(ours, (list, tuple)):
        return sorted(map(str, thesis)) == sorted(map(str, ours))
    if isinstance(thesis, (int, float)) and isinstance(ours, (int, float)) \
            and not isinstance(ours, bool):
        return float(thesis) == float(ours)
    return thesis == ours


def compare(game: str, cfg: Mapping[str, Any], scale: str,
            items: list[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per protocol item of ``game``: the thesis's value, ours from ``cfg`` (the
    composed config), same or different, and the reason where different."""
    rows = []
    for it in items:
        if "derive" in it:
            ours = DERIVED[it["derive"]](cfg)
            source = f"derived ({it['derive']})"
        else:
            try:
                ours = get_dotted(cfg, it["key"])
            except KeyError:
                ours = None
            source = it["key"]
        if "within" in it:
            lo, hi = it["within"]
            same = isinstance(ours, (int, float)) and lo <= float(ours) <= hi
            thesis = f"searched in [{lo:g}, {hi:g}]"
        else:
            thesis = it["thesis"]
            same = _equal(thesis, ours)
        reason = ""
        if not same:
            if it.get("size") and scale != "thesis":
                reason = (f"scale={scale} is sized down by design (config/scale/{scale}.yaml); "
                          "scale=thesis uses the thesis's size")
            else:
                reason = str(it.get("reason") or "").strip() or "(no reason recorded)"
        rows.append({"game": game, "item": it["item"], "section": it["section"],
                     "thesis": _show(thesis), "ours": _show(ours), "config": source,
                     "status": SAME if same else DIFFERENT, "reason": " ".join(reason.split())})
    return pd.DataFrame(rows, columns=["game", "item", "section", "thesis", "ours", "config",
                                       "status", "reason"])
