"""The identification target of one variant (issue 48): its inputs and its job's plain params.

The pool is every target of the variant plus ``identify.extra_bots`` (each has imitators of
the evaluation's net, ``evaluate.imitator.net``, for every trained fold); the held-out matches
are each pool bot's own dataset split as its models were trained
(:class:`ime.train.folds.Split`). Params hold only plain values (Snakemake re-runs the job when
they change): the paths, the split, the ``identify`` section and the evaluation's CI level and
bootstrap replicates.
:mod:`ime.evaluate.identify` explains the method; ``rules/identify.smk`` is the rule.
"""

from __future__ import annotations

from typing import Any

from ime.workflow.variants import Variant, unique


def extra_bots(cfg: dict[str, Any]) -> list[str]:
    """``identify.extra_bots`` that are not targets already: the bots a hard pool adds, each
    played, extracted and imitated by the targets' own rules (the same wildcards and paths)."""
    targets = set(cfg["game"]["targets"])
    return [b for b in unique(cfg.get("identify", {}).get("extra_bots") or [])
            if b not in targets]


def identify_pool(cfg: dict[str, Any]) -> list[str]:
    """The identification pool: ``game.targets`` then :func:`extra_bots`."""
    return [*cfg["game"]["targets"], *extra_bots(cfg)]


class IdentifyPlan:
    """Inputs and params of rule ``identify`` per results directory (``rdir``)."""

    def __init__(self, workflow: Any):
        self.wf = workflow

    def variant(self, rdir: str) -> Variant:
        return self.wf.index.variant(rdir)

    @staticmethod
    def net(v: Variant) -> str:
        return str(v.cfg["evaluate"]["imitator"]["net"])

    def checkpoints(self, v: Variant) -> dict[str, list[str]]:
        """Every target's checkpoints of the evaluation's net, one per trained fold."""
        net = self.net(v)
        return {b: [v.checkpoint_path(b, net, k) for k in range(v.folds)]
                for b in identify_pool(v.cfg)}

    def inputs(self, rdir: str) -> dict[str, list[str]]:
        v = self.variant(rdir)
        return {"datasets": [v.dataset_path(b) for b in identify_pool(v.cfg)],
                "checkpoints": [c for cs in self.checkpoints(v).values() for c in cs]}

    def spec(self, rdir: str) -> dict[str, Any]:
        from ime.train.folds import Split

        v = self.variant(rdir)
        split = Split.of(v.cfg["train"])
        e = v.cfg["evaluate"]
        pool = identify_pool(v.cfg)
        return {"game": v.game, "game_params": v.game_params, "bots": pool,
                "net": self.net(v),
                "datasets": {b: v.dataset_path(b) for b in pool},
                "checkpoints": self.checkpoints(v),
                "split": {"kind": split.kind, "folds": split.folds, "holdout": split.holdout,
                          "seed": split.seed},
                "identify": dict(v.cfg["identify"]), "ci": e["ci"],
                "bootstrap": e["bootstrap"]}
