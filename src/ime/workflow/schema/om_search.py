"""``om_search`` (config/om_search/default.yaml): opponent-model search against the original
bots (issue 49, Deliver 3; :mod:`ime.evaluate.om_experiment`, docs/opponent_model.md).

Which bots are played (``targets``) and whose evaluation our player uses (``evaluation``) are
the game's choice (its ``config/game/<game>.yaml`` sets them under ``overrides``); the CI level is
the evaluation's (``evaluate.ci``). Defaults are the YAML file's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, PositiveInt, model_validator

from ime.workflow.schema.common import SAFE, BotIds, NonEmpty, Section

Cell = Literal["plain_depth", "plain_nodes", "om", "om_wrong", "om_true"]


def _distinct(v: list[str]) -> list[str]:
    if len(set(v)) != len(v):
        raise ValueError(f"has duplicates: {v}")
    return v


def _even(v: int) -> int:
    if v % 2:
        raise ValueError(f"must be even (each opening is played with our player in both seats), "
                         f"got {v}")
    return v


def _bot_id(v: str | None) -> str | None:
    if v is not None and not SAFE.match(v):
        raise ValueError(f"{v!r} is no bot id of the game's zoo ([A-Za-z0-9._-])")
    return v


def _player(v: dict[str, Any] | None) -> dict[str, Any] | None:
    if v is None:
        return v
    extra = sorted(set(v) - {"kind", "params"})
    if not isinstance(v.get("kind"), str) or extra:
        raise ValueError(f"must be {{kind, params}} of a bot taking an opponent model (e.g. "
                         f"pimc_om), got {v}")
    if "opponent" in dict(v.get("params") or {}):
        raise ValueError("its params must not hold an opponent: each cell sets its own")
    return v


class OmSearch(Section):
    targets: BotIds
    """The original bots played against (those of ``game.targets``; empty: no experiment)."""
    evaluation: Annotated[str | None, AfterValidator(_bot_id)]
    """Our nodes' evaluation: a zoo search bot of the game (its ``search_evaluation()``)."""
    depth: PositiveInt
    """Every cell's depth cap (plies; Snake: turns)."""
    nodes: PositiveInt
    """The model cells' node budget per decision."""
    plain_nodes: PositiveInt
    """Cell (a)'s node budget (plain search to the depth cap; meant never to bind)."""
    equal_nodes: Literal["measured"] | PositiveInt
    """Cell (b)'s budget: ``measured`` (cell (c)'s nodes per searched decision) or a count."""
    mode: Literal["policy", "search", "prom"]
    """The model cells' opponent nodes (:mod:`ime.bots.om_search`)."""
    mix: float = Field(ge=0, le=1)
    """PrOM: the expectation's weight."""
    min_prob: float = Field(ge=0, lt=1)
    """PrOM: replies less likely than this leave the expectation."""
    batch: PositiveInt
    """Most positions per imitator call."""
    cells: Annotated[list[Cell], NonEmpty, AfterValidator(_distinct)]
    """The cells played against every target."""
    misspecified: dict[str, str] | None
    """Cell (d)'s model per target (null or unlisted: the next bot in ``game.targets``)."""
    games: Annotated[PositiveInt, AfterValidator(_even)]
    """Games per cell and target (half the openings, each in both seats)."""
    opening_plies: Annotated[int, Field(ge=0)] | None
    """Plies of each opening (null: ``evaluate.tournament.opening_plies``)."""
    seed: int = Field(ge=0)
    """The openings' draw and the bots' decision seed."""
    accuracy_sample: int = Field(ge=0)
    """The model cells' accuracy record: positions of each kind sampled (0: none); with a
    player template too (the positions its rollouts ask the imitator to play, the target
    watched in every seat it holds)."""
    player: Annotated[dict[str, Any] | None, AfterValidator(_player)]
    """Our player's ``{kind, params}`` template for a game whose search is not ``om_search``
    (Doudizhu: ``pimc_om``); null: the ``om_search`` cells built from the keys above."""

    @model_validator(mode="after")
    def _cells_agree(self) -> OmSearch:
        if (self.equal_nodes == "measured" and "plain_nodes" in self.cells
                and "om" not in self.cells):
            raise ValueError("cells: plain_nodes with equal_nodes=measured needs cell om (its "
                             "budget is what om used); add om or give equal_nodes a count")
        if self.player is not None and "plain_nodes" in self.cells:
            raise ValueError("cells: plain_nodes needs a node-counting search; a player "
                             "template (om_search.player) has none, leave it out")
        return self
