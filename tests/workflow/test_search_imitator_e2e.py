"""The search and lookahead imitators through the pipeline (issue 46): ``imitator=search`` and
``imitator=lookahead`` on a copy of the shared tiny run fit (train) those imitators with the
train rule, list them in Table 4.4 beside the nets, and the evaluation (Table 4.5's S1/S2,
in-sample and held-out) plays them as it plays the nets.

The margins are set from measurement: on the tiny run (12 matches per target, 2 folds, about
180 training rows per fold) the search imitators' unseen agreement (Table 4.4's
``val_acc_unseen_mean``) was 60.9 % for rev1 and 52.7 % for rev2, CONV's 29.6 and 23.6 %:
MEASURED points more; the test asserts about half of the smaller gap. On so few rows the
lookahead nets only match CONV (+1.6 and +5.2 points); tests/stages/test_lookahead.py shows their
lead on a search target (+23 points).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from workflow_helpers import ROOT, copy_run, overrides_arg, snakemake

MEASURED = {"search": {"rev1": 31.3, "rev2": 29.1},  # points over CONV (at e030bb6, tiny)
            "lookahead": {"rev1": 1.6, "rev2": 5.2}}  # (at 455425a, tiny)
MARGIN = {"search": 14.0, "lookahead": 0.0}
"""Points: the family's unseen agreement over CONV's, per deterministic target."""


@pytest.mark.slow
@pytest.mark.parametrize("family", ["search", "lookahead"])
def test_imitator_families_beat_the_policy_net_on_unseen_positions(family: str, tiny_run: Path,
                                                                   tmp_path: Path) -> None:
    variant = f"results/reversi/tiny__net-{family}"
    run = copy_run(tiny_run, tmp_path / "run")
    proc = snakemake(run, "-j2", f"{variant}/table4_4.csv", f"{variant}/table4_5.csv",
                     "--config", overrides_arg(["scale=tiny", f"imitator={family}"]),
                     timeout=1800, snakefile=ROOT / "Snakefile")
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    # only the family's imitators were fitted: the nets are the tiny run's own
    fitted = sorted(p.parent.name for p in (run / f"data/reversi/models/tiny/{family}").glob(
        "*/fold1.pt"))
    assert fitted == ["rev1", "rev2"]
    acc = pd.read_csv(run / variant / "table4_4.csv")
    assert set(acc.net) == {"mlp1", "mlp2", "conv", family}
    for bot in ("rev1", "rev2"):  # deterministic alpha-beta targets
        row = acc[(acc.bot == bot)].set_index("net")
        gap = row.loc[family, "val_acc_unseen_mean"] - row.loc["conv", "val_acc_unseen_mean"]
        assert gap >= MARGIN[family], (bot, row[["val_acc_mean",
                                                 "val_acc_unseen_mean"]].to_dict())
        assert row.loc[family, "val_acc_unseen_mean"] <= row.loc[family, "self_agreement_hi"]
    s = pd.read_csv(run / variant / "table4_5.csv")
    assert set(s.bot) == {"rev1", "rev2"} and s.S1.notna().all()
