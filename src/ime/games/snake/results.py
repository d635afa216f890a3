"""Snake's own result: our two-way split of the zoo by imitation accuracy beside the thesis's.

The thesis (2.1.3, Fig 2.7) splits its 22 ladder bots by how well they are imitated into
{1, 2, 3, 4, 5, 6, 7, 10, 13, 15, 16} (the MCTS and Nash-equilibrium bots: harder to imitate)
and the rest (DFS and expert bots: easier). Our zoo's ``snkNN`` is the thesis's bot NN (its spec
says so: ``thesis.bot`` in ``config/bots/snake.yaml``), so the two splits can be laid side by
side, bot by bot. The generic ``accuracy_clusters.csv`` holds our clusters; of two, the one with
the lower mean accuracy is the "harder" group.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ime.bots.registry import load_bot_specs

THESIS_HARDER = frozenset({1, 2, 3, 4, 5, 6, 7, 10, 13, 15, 16})
"""The thesis's harder-to-imitate group (its bot numbers, Fig 2.7)."""

SPLIT_COLUMNS = ["bot", "thesis_bot", "family", "val_acc", "baseline", "cluster", "group",
                 "thesis_group", "agrees"]


def thesis_bot(spec: Mapping[str, Any]) -> int | None:
    """The thesis's bot number of a zoo spec (``thesis: {bot: N}``), if it has one."""
    thesis = spec.get("thesis")
    return int(thesis["bot"]) if isinstance(thesis, Mapping) and "bot" in thesis else None


def split_vs_thesis(clusters: pd.DataFrame, specs: Mapping[str, Mapping[str, Any]]
                    ) -> pd.DataFrame:
    """Per bot: our accuracy cluster and group beside the thesis's group.

    Needs exactly two clusters (``evaluate.clusters=2``, the default); bots without a thesis
    number (extra bots) get an empty ``thesis_group``.
    """
    if clusters["cluster"].nunique() != 2:
        raise ValueError("the thesis's split has two groups: run with evaluate.clusters=2 "
                         f"(got {clusters['cluster'].nunique()} clusters)")
    means = clusters.groupby("cluster")["val_acc"].mean()
    harder = int(means.idxmin())
    out = clusters[["bot", "val_acc", "baseline", "cluster"]].copy()
    numbers = [thesis_bot(specs.get(b, {})) for b in out["bot"]]
    out["thesis_bot"] = pd.array(numbers, dtype="Int64")
    out["family"] = [str((specs.get(b, {}).get("thesis") or {}).get("fig2_4", "")).split(",")[0]
                     for b in out["bot"]]
    out["group"] = ["harder" if int(c) == harder else "easier" for c in out["cluster"]]
    out["thesis_group"] = ["" if n is None else ("harder" if n in THESIS_HARDER else "easier")
                           for n in numbers]
    out["agrees"] = [g == t if t else pd.NA for g, t in zip(out["group"], out["thesis_group"],
                                                            strict=True)]
    return out[SPLIT_COLUMNS]


def split_vs_thesis_hook(plain_cfg: Mapping[str, Any], out_path: str) -> None:
    """Our two-way split of the zoo by imitation accuracy beside the thesis's split
    {1,2,3,4,5,6,7,10,13,15,16} vs the rest (2.1.3), bot by bot."""
    rdir = Path(out_path).parent
    table = split_vs_thesis(pd.read_csv(rdir / "accuracy_clusters.csv"),
                            load_bot_specs("snake"))
    tmp = Path(out_path).with_suffix(".csv.tmp")
    table.to_csv(tmp, index=False, lineterminator="\n")
    tmp.replace(out_path)


split_vs_thesis_hook.needs = ("accuracy_clusters.csv",)  # type: ignore[attr-defined]
