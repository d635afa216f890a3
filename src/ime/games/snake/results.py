"""Snake's own result: the zoo bisected by imitation accuracy, beside the thesis's split.

The thesis (2.1.3, after Fig 2.7) takes each bot's mean validation accuracy (Fig 2.7's bar: the
average over its five nets, not the margin over the random baseline) and "按照数量进行二分",
bisects the 22 bots *by count*: the 11 least accurately imitated, {1, 2, 3, 4, 5, 6, 7, 10, 13,
15, 16}, are the harder group, the other 11 the easier. ``split_vs_thesis.csv`` makes the same
cut on our zoo (:func:`bisect_by_count`) and lays it beside the thesis's, bot by bot: our
``snkNN`` is the thesis's bot NN (``thesis.bot`` in ``config/bots/snake.yaml``). The generic
``accuracy_clusters.csv`` (a hierarchical cut of the same accuracies, whose groups need not be
of equal size) stays beside it as ``cluster`` / ``cluster_group``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the functions import pandas (0.4 s), as the plug-in is
    import pandas as pd  # imported while the Snakefile is parsed

from ime.bots.registry import load_bot_specs

THESIS_HARDER = frozenset({1, 2, 3, 4, 5, 6, 7, 10, 13, 15, 16})
"""The thesis's harder-to-imitate group (its bot numbers, Fig 2.7)."""

SPLIT_COLUMNS = ["bot", "thesis_bot", "family", "val_acc", "baseline", "rank", "group",
                 "thesis_group", "agrees", "cluster", "cluster_group", "cluster_agrees"]


def thesis_bot(spec: Mapping[str, Any]) -> int | None:
    """The thesis's bot number of a zoo spec (``thesis: {bot: N}``), if it has one."""
    thesis = spec.get("thesis")
    return int(thesis["bot"]) if isinstance(thesis, Mapping) and "bot" in thesis else None


def accuracy_ranks(bots: Sequence[str], val_acc: Sequence[float]) -> list[int]:
    """Per bot, its rank from the least accurately imitated (1) up; ties go to the lower bot
    id first, so the same table always gives the same ranks (``accuracy_clusters.csv`` rounds
    accuracies to 0.01, so equal values do occur)."""
    if len(bots) != len(val_acc):
        raise ValueError(f"{len(bots)} bots but {len(val_acc)} accuracies")
    if len(set(bots)) != len(bots):
        raise ValueError(f"a bot appears twice: {sorted(bots)}")
    order = sorted(range(len(bots)), key=lambda i: (float(val_acc[i]), str(bots[i])))
    ranks = [0] * len(bots)
    for r, i in enumerate(order, start=1):
        ranks[i] = r
    return ranks


def bisect_by_count(bots: Sequence[str], val_acc: Sequence[float]) -> list[str]:
    """The thesis's split of ``n`` bots: the ``n // 2`` least accurately imitated are "harder",
    the rest "easier" (ranks from :func:`accuracy_ranks`). With an odd ``n`` the middle bot goes
    to the easier group: the thesis's 22 give 11 / 11, and nothing in it says where a middle bot
    would go, so the harder group is kept to the bots strictly below the median."""
    n = len(bots)
    return ["harder" if r <= n // 2 else "easier" for r in accuracy_ranks(bots, val_acc)]


def split_vs_thesis(clusters: pd.DataFrame, specs: Mapping[str, Mapping[str, Any]]
                    ) -> pd.DataFrame:
    """Per bot: our by-count group (``group``) beside the thesis's, and the accuracy cluster's.

    ``clusters`` is ``accuracy_clusters.csv`` (``val_acc``: the mean over the nets). Bots without
    a thesis number (extra bots) get an empty ``thesis_group`` and no agreement; they still count
    in the bisection. ``cluster_group`` names the cluster of lower mean accuracy "harder" when
    there are exactly two clusters (``evaluate.clusters=2``, the default) and is empty otherwise.
    """
    import pandas as pd

    out = clusters[["bot", "val_acc", "baseline", "cluster"]].copy()
    bots = [str(b) for b in out["bot"]]
    accs = [float(a) for a in out["val_acc"]]
    numbers = [thesis_bot(specs.get(b, {})) for b in bots]
    out["thesis_bot"] = pd.array(numbers, dtype="Int64")
    out["family"] = [str((specs.get(b, {}).get("thesis") or {}).get("fig2_4", "")).split(",")[0]
                     for b in bots]
    out["rank"] = accuracy_ranks(bots, accs)
    out["group"] = bisect_by_count(bots, accs)
    out["thesis_group"] = ["" if n is None else ("harder" if n in THESIS_HARDER else "easier")
                           for n in numbers]
    if out["cluster"].nunique() == 2:
        harder = int(out.groupby("cluster")["val_acc"].mean().idxmin())
        out["cluster_group"] = ["harder" if int(c) == harder else "easier"
                                for c in out["cluster"]]
    else:
        out["cluster_group"] = ""
    for mine, agrees in (("group", "agrees"), ("cluster_group", "cluster_agrees")):
        out[agrees] = pd.array([g == t if g and t else None
                                for g, t in zip(out[mine], out["thesis_group"], strict=True)],
                               dtype="boolean")
    return out[SPLIT_COLUMNS]


def split_vs_thesis_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """The zoo bisected by count on mean validation accuracy beside the thesis's split
    {1,2,3,4,5,6,7,10,13,15,16} vs the rest (2.1.3), bot by bot, with our accuracy clusters."""
    import pandas as pd

    rdir = Path(out_path).parent
    table = split_vs_thesis(pd.read_csv(rdir / "accuracy_clusters.csv"),
                            load_bot_specs("snake"))
    tmp = Path(out_path).with_suffix(".csv.tmp")
    table.to_csv(tmp, index=False, lineterminator="\n")
    tmp.replace(out_path)


split_vs_thesis_hook.needs = ("accuracy_clusters.csv",)  # type: ignore[attr-defined]
