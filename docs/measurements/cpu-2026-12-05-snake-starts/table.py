"""The README's table from this folder's JSON (scripts/family_vs_net.py's output): unseen top-1
per bot and fold for the three variants, and their mean gain over the base."""

import json
from pathlib import Path

HERE = Path(__file__).parent
VARIANTS = {"base": "base (695351e, no budget)", "budget": "budget stage (695351e)",
            "units": "one-feature starts (3958381, default)"}


def rows(bot: str, variant: str) -> list[dict]:
    return json.loads((HERE / f"{bot}_{variant}.json").read_text())["rows"]


print("| bot | fold | unseen rows | " + " | ".join(VARIANTS.values()) + " | settings (starts) |")
print("|---|---|---|---|---|---|---|")
gains: dict[str, list[float]] = {"budget": [], "units": []}
for bot in ("snk04", "snk07", "snk08", "snk09"):
    per = {v: {r["fold"]: r for r in rows(bot, v)} for v in VARIANTS}
    for fold in sorted(per["base"]):
        base = per["base"][fold]["val_acc_unseen"]
        cells = []
        for v in VARIANTS:
            r = per[v][fold]
            s = r["settings"]
            extra = f" (budget {s['budget']}, {s['order']})" if s.get("budget") else ""
            cells.append(f"{r['val_acc_unseen']:.2f}{extra}")
            if v != "base":
                gains[v].append(r["val_acc_unseen"] - base)
        s = per["units"][fold]["settings"]
        print(f"| {bot} | {fold} | {per['base'][fold]['val_unseen_rows']} | " + " | ".join(cells)
              + f" | depth {s['depth']}, tie {s['tie']} |")
for v, g in gains.items():
    print(f"\n{VARIANTS[v]}: mean gain {sum(g) / len(g):+.2f} points over {len(g)} folds "
          f"(min {min(g):+.2f}, max {max(g):+.2f})")
