# ruff: noqa: E501
"""Generate table.md from this folder's fold metrics and ceilings (no number is typed by hand).

    python docs/measurements/cpu-2026-12-08-snake-thesis-recipe/table.py
"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
old_csv = HERE.parents[2] / "reproduction" / "imitators-thesis-snake" / "imitators.csv"
lines = ["| bot | fold 0 | fold 1 | mean (unseen rows) | ceiling | goal (95 unseen) | fit s a fold | ms a decision | the 2026-11 archive's search |",
         "|---|---|---|---|---|---|---|---|---|"]
for bot in ("snk04", "snk18"):
    folds = [json.loads((HERE / f"{bot}_fold{k}.json").read_text()) for k in (0, 1)]
    ceil = json.loads((HERE / f"{bot}_ceiling.json").read_text())
    n = sum(f["val_unseen_rows"] for f in folds)
    mean = sum(f["val_acc_unseen"] * f["val_unseen_rows"] for f in folds) / n
    header, *rows = [r.split(",") for r in old_csv.read_text().splitlines()]
    old = [r for r in rows if r[header.index("bot")] == bot and r[header.index("family")] == "search"]
    old_unseen = old[0][header.index("val_acc_unseen")] if old else "-"
    lines.append(f"| {bot} | {folds[0]['val_acc_unseen']:.2f} | {folds[1]['val_acc_unseen']:.2f} | "
                 f"**{mean:.2f}** ({n}) | {ceil['self_agreement']} | {'met' if mean >= 95 else 'no'} | "
                 f"{sum(f['timing']['train_seconds'] for f in folds) / 2:.0f} | "
                 f"{sum(f['timing']['ms_per_decision'] for f in folds) / 2:.2f} | {old_unseen} |")
(HERE / "table.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
