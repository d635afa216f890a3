"""``net`` and ``config/net/<name>.yaml``: one imitation net's architecture."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from ime.workflow.schema.common import Section


class BranchLayers(Section):
    """A branch's layers: a ``kind: branches`` net's branch (:class:`Branch`), or the policy
    branch a lookahead net shares among the later heads of a play chosen in steps (Doudizhu's
    kickers, ``later_heads``: :mod:`ime.nets.lookahead`), over the planes the encoder gives
    each."""

    kind: Literal["mlp", "conv"]
    hidden: list[PositiveInt] = []
    channels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    kernel: int | None = Field(default=None, ge=1)
    batch_norm: Literal["each", "last", "none"] | bool | None = None
    init_std: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _layers_fit(self) -> BranchLayers:
        if self.kind == "conv" and (not self.channels or self.kernel is None
                                    or self.kernel % 2 != 1):
            raise ValueError("a conv branch needs channels and an odd kernel")
        return self


class Branch(BranchLayers):
    """One branch of a ``kind: branches`` net (:mod:`ime.nets.branches`)."""

    name: str | None = None
    planes: Annotated[list[NonNegativeInt], Field(min_length=2, max_length=2)]
    """``[start, end)``: the input planes of the branch's first head."""
    heads: PositiveInt = 1
    plane_stride: PositiveInt | None = None

    @model_validator(mode="after")
    def _planes_fit(self) -> Branch:
        if self.planes[1] <= self.planes[0]:
            raise ValueError(f"planes {self.planes} must be [start, end) with start < end")
        return self


class SearchFit(Section):
    """``kind: search``: how a search imitator is fitted (:mod:`ime.imitators.search_fit`,
    docs/imitators.md). Every list is tried; the selection fold chooses."""

    depths: Annotated[list[PositiveInt], Field(min_length=1)]
    """Search depths fitted in turn, each warm-started from the previous."""
    passes: PositiveInt | Annotated[list[PositiveInt], Field(min_length=1)]
    """MMTO passes per depth above 1: one number, or one per depth."""
    patience: PositiveInt | None
    """Stop deepening after this many depths without a better selection agreement."""
    pass_patience: PositiveInt | None
    """At one depth, stop its passes after this many without a better selection agreement."""
    phases: Annotated[list[Literal[1, 2, 3, 4]], Field(min_length=1)]
    """Evaluation phase counts tried (2: a tapered opening/endgame evaluation)."""
    ties: Annotated[list[Literal["first", "last", "first_col", "last_col", "searched_first",
                                 "searched_last"]], Field(min_length=1)]
    """Tie rules tried (Reversi): among equal root moves the lowest / highest square in row-major
    or column-major order, or the first / last in the search's own order (its move ordering,
    the last iteration's best first)."""
    endgames: Annotated[list[NonNegativeInt], Field(min_length=1)]
    """Exact-solve thresholds in empty squares tried (0: never solve)."""
    endgame_modes: Annotated[list[Literal["exact", "wld"]], Field(min_length=1)]
    endgames_wld: Annotated[list[NonNegativeInt], Field(min_length=1)]
    """Win/draw/loss-solve thresholds tried above the endgame's (0: none)."""
    endgame_picks: Annotated[list[Literal["value", "fastest_first", "fastest_last",
                                          "solver_first", "solver_last"]],
                             Field(min_length=1)]
    """How a solve chooses among its best moves, tried in turn (Reversi; value: by the
    search's values; fastest_first / fastest_last: the first / last in fastest-first order,
    equal replies by the tie rule's squares; solver_first / solver_last: the same, equal replies
    by the fitted square weight, then the square)."""
    budgets: Annotated[list[NonNegativeInt], Field(min_length=1)]
    """Node budgets tried after the fixed depths (0: none; else iterative deepening within that
    many nodes, the budget stage)."""
    orderings: Annotated[list[Literal["static", "none", "square", "fastest"]], Field(min_length=1)]
    """Move orderings tried with a budget (they change the depth each position reaches)."""
    pv_firsts: Annotated[list[bool], Field(min_length=1)]
    """With a budget: search the previous iteration's best move first (tried both ways)."""
    budget_depth: PositiveInt
    """The deepest iteration of a budgeted search (64: as deep as the empties allow)."""
    budget_passes: NonNegativeInt
    """MMTO passes under the best budgeted search (each position at its decision's depth)."""
    budget_kinds: Annotated[list[Literal["deepen", "leaves"]], Field(min_length=1)]
    """Snake: what a node budget does, each tried: ``deepen`` (iterations deeper while it
    lasts), ``leaves`` (one search ``budget_depth`` plies deep, every node past it a leaf)."""
    budget_screen: PositiveInt
    """Selection positions on which every (budget, ordering, pv_first) is screened first."""
    budget_keep: PositiveInt
    """How many screened variants are then scored on the whole selection fold."""
    loss: Literal["softmax", "hinge"]
    """Each pass's objective: the cross-entropy of the target's move, or a tie-aware ranking."""
    hinge_margin: float = Field(gt=0)
    """The ranking loss's margin over the moves the tie rule prefers to the target's."""
    max_fit: PositiveInt | None
    """At most this many fit positions per pass (a seeded subsample; null: all)."""
    round_evals: NonNegativeInt
    """Reversi: scorings of the round-value stage (0: none; ime.imitators.round_values)."""
    round_positions: PositiveInt
    """Fit positions each scoring of the round-value stage searches."""
    round_extra_share: float = Field(ge=0, le=1)
    """Reversi: the round-value stage's sparse start holds the square table and the features
    weighing at least this share of the most any weighs (0: no such start)."""
    round_refit_positions: NonNegativeInt
    """Reversi: fit positions (a seeded sample) on which the round-value stage's table and sparse
    starts are refitted by the surrogate (0: the climb's own round_positions)."""
    round_refit_passes: PositiveInt
    """Reversi: surrogate passes of those refits (each scored on the climb's positions, the best
    kept)."""
    round_repeats: PositiveInt
    """Reversi: the round-value stage runs again from its own result, at most this many times in
    all, while the selection fold agrees more."""
    round_settings: bool
    round_enter_shares: list[Annotated[float, Field(gt=0, le=1)]]
    """Reversi: the round-value climb's near moves of a weight at 0 also try these shares of the
    largest weight, either sign, so a term enters at its size ([]: off; e.g. [0.05, 0.1, 0.2];
    ime.imitators.round_values)."""
    """Reversi, with a node budget: the round-value climb also moves the budget a rung of
    ``budgets`` and the round numbers between them, the move ordering, ``pv_first`` and the tie
    rule among ``ties`` (its settings round; ime.imitators.climb_settings)."""
    mcts_sims: list[PositiveInt]
    """Reversi and Connect Four: the Monte-Carlo stage's simulation counts ([]: no stage;
    ime.imitators.mcts_fit, ime.imitators.connect4_fit.fit_mcts): UCT over the fitted evaluation
    above ``mcts_aboves`` empties (Connect Four: UCT playing out to the end, every position),
    kept if the selection fold agrees more. Each ``mcts_*`` list's first value is the ascent's
    start; Connect Four reads ``mcts_sims``, ``mcts_cs``, ``mcts_positions`` and
    ``mcts_rounds`` only, and tries its own move rules."""
    mcts_cs: Annotated[list[Annotated[float, Field(ge=0)]], Field(min_length=1)]
    """UCB1 exploration constants tried."""
    mcts_depths: Annotated[list[NonNegativeInt], Field(min_length=1)]
    """Playout moves before the evaluation is read (0: play out to the end)."""
    mcts_playouts: Annotated[list[Literal["corners_xc", "corners", "random"]],
                             Field(min_length=1)]
    """Playout rules tried (a corner when legal; corners_xc also avoids the X and C squares
    next to an empty corner when another move exists)."""
    mcts_scales: Annotated[list[Annotated[float, Field(gt=0)]], Field(min_length=1)]
    """A leaf's value is ``1 / (1 + exp(-evaluation / scale))``."""
    mcts_aboves: Annotated[list[NonNegativeInt], Field(min_length=1)]
    """UCT decides the positions with more empties than this (the search the others)."""
    mcts_positions: PositiveInt
    """Selection positions (a seeded sample) each candidate is scored on."""
    mcts_rounds: PositiveInt
    """The coordinate ascent's most rounds."""
    mcts_climb_evals: NonNegativeInt
    """Scorings of the climb of the weights on UCT's own agreement, after the settings (0: none;
    ime.imitators.round_values.climb), kept if the selection fold agrees more."""
    mcts_climb_positions: PositiveInt
    """Fit positions (a seeded sample of those UCT decides) each climb scoring plays."""
    mcts_tree_iters: NonNegativeInt
    """Steps of the weights fitted through UCT's own tree, after the settings (0: none;
    ime.imitators.mcts_tree_fit), then the settings' ascent again; kept if the selection fold
    agrees more."""
    mcts_tree_positions: PositiveInt
    """Fit positions (a seeded sample of those UCT decides) the tree fit reads."""
    mcts_tree_l2: Annotated[float, Field(ge=0)]
    """The tree fit's penalty on a step, each weight measured in its gradient's spread."""
    mcts_tree_repeats: PositiveInt
    """The tree fit and the ascent run again from their own result, at most this many runs in
    all, while the selection fold agrees more."""
    inner_iters: PositiveInt
    l2: float = Field(ge=0)
    margin: float = Field(gt=0)
    order_min: PositiveInt
    select_share: float = Field(gt=0, lt=1)
    """Share of the fold's training matches held out of the fit to choose the settings."""
    max_select: PositiveInt | None
    """At most this many of those matches' positions score the settings (a seeded sample;
    null: all)."""
    book: bool
    """Answer a position the fold trained on with the target's most frequent move there, the
    rest by the search (ime.imitators.book; no unseen figure changes)."""
    max_train_acc: PositiveInt | None
    """At most this many of the fold's training rows score its train_acc (a seeded sample;
    null: all); the metrics then give their count as train_acc_rows."""

    @model_validator(mode="after")
    def _passes_fit(self) -> SearchFit:
        if isinstance(self.passes, list) and len(self.passes) != len(self.depths):
            raise ValueError(f"passes {self.passes} needs one entry per depth {self.depths}")
        return self


class Net(Section):
    name: str
    kind: Literal["mlp", "conv", "resnet", "branches", "lookahead", "search"]
    """A policy net's architecture; ``lookahead``: a value of each legal move's afterstate
    (:mod:`ime.nets.lookahead`; the game's encoder must offer afterstates); or ``search``: an
    imitator family fitted instead of trained (:mod:`ime.imitators.family`; the game must offer
    it)."""
    game: str | None = None
    """lookahead only: the game whose afterstates it values; filled in by the composition."""
    game_params: dict[str, Any] | None = None
    """lookahead only: the game's board options (``game.params``); filled in by the composition."""
    depth: Literal[1, 2] | None = None
    """lookahead only: plies looked ahead (1: each move's afterstate; 2: minus the opponent's best
    reply's value, for alternating-move games: Reversi)."""
    action_bias: bool | None = None
    """lookahead only: learn one bias per action code (a bot's position-independent preferences,
    such as its tie order; default true)."""
    features: list[str] | Literal["all"] | None = None
    """lookahead only: afterstate feature planes the game's encoder offers (Doudizhu:
    ``hand_turns``, ``hand_split``, ``controls``, with the seats observation ``seat_sizes``),
    added to each
    afterstate (:mod:`ime.nets.lookahead`); ``all``: every one it offers (the composition writes
    the list)."""
    later_heads: BranchLayers | None = None
    """lookahead only: the policy branch of the later heads of a play chosen in steps (Doudizhu,
    Big 2: each kicker), shared by them; one-head games ignore it."""
    search: SearchFit | None = None
    """kind: search only: the fit's settings."""
    branches: Annotated[list[Branch], Field(min_length=1)] | None = None
    """branches only: the branches, in head order."""
    hidden: list[PositiveInt] = []
    channels: list[PositiveInt] | None = None
    """conv: the convolutions' output channels (at least one); lookahead: its value net's, and
    ``[]`` for none (the value is then dense over the afterstate planes: linear with
    ``hidden: []``, the one-ply evaluation of docs/imitators.md's "A linear lookahead")."""
    kernel: int | None = Field(default=None, ge=1)
    """conv only: an odd kernel size (same padding)."""
    kernels: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: one kernel size per convolution, any size (:mod:`ime.nets.layers`)."""
    strides: Annotated[list[PositiveInt], Field(min_length=1)] | None = None
    """conv only: one stride per convolution (default 1)."""
    padding: Literal["same", "valid"] | None = None
    """conv only: Keras-style ``same`` (default) or ``valid`` padding."""
    batch_norm: bool | Literal["all"] | None = None
    """``true``: after the last convolution; ``all``: after every hidden layer, without learnt
    scale and shift (:mod:`ime.nets.layers`)."""
    blocks: PositiveInt | None = None
    """resnet only: residual blocks (:mod:`ime.nets.resnet`)."""
    width: PositiveInt | None = None
    """resnet only: the tower's channels."""
    head_channels: PositiveInt | None = None
    """resnet only: channels of the 1x1 policy-head convolution."""
    thesis_params: int | list[int] | None = None
    """The parameter count the thesis lists (Table 4.3), for comparison; a branches net lists
    one per branch (Table 5.5)."""
    init_std: float | None = Field(default=None, gt=0)
    mask_input: bool = False
    dropout: float = Field(default=0.0, ge=0, lt=1)

    @model_validator(mode="after")
    def _kind_fits(self) -> Net:
        if (self.kind == "search") != (self.search is not None):
            raise ValueError("kind: search needs a search: section, and only it takes one")
        if self.kind == "search":
            if self.hidden or self.channels or self.mask_input or self.dropout:
                raise ValueError("a search imitator has no hidden layers, channels, "
                                 "mask_input or dropout")
            return self
        lookahead_keys = (self.game, self.game_params, self.action_bias, self.depth,
                          self.later_heads, self.features)
        if self.kind != "lookahead" and any(k is not None for k in lookahead_keys):
            raise ValueError("game, game_params, action_bias, depth, features and later_heads "
                             "are for kind: lookahead only")
        if self.kind == "lookahead":
            if self.channels is None or self.kernel is None or self.kernel % 2 != 1:
                raise ValueError("a lookahead net needs channels (its value net's convolutions, "
                                 "[] for none) and an odd kernel")
            if not self.channels and self.batch_norm:
                raise ValueError("a lookahead net with channels: [] has no convolution for "
                                 "batch_norm to follow: set batch_norm: false (e.g. "
                                 "net.batch_norm=false)")
            if (self.mask_input or self.dropout or self.kernels or self.strides or self.padding
                    or self.batch_norm == "all"):
                raise ValueError("a lookahead net takes channels, kernel, hidden, batch_norm, "
                                 "action_bias, depth, features and later_heads only (no "
                                 "mask_input, "
                                 "dropout, kernels, strides, padding or batch_norm: all)")
            return self
        if self.kind == "branches":
            if not self.branches:
                raise ValueError("a branches net needs branches: a non-empty list")
            if self.mask_input or self.dropout:
                raise ValueError("a branches net takes no mask_input and no dropout")
        elif self.branches is not None:
            raise ValueError("branches is for kind: branches only")
        if self.kind == "mlp" and not self.hidden:
            raise ValueError("an mlp needs at least one hidden layer")
        if self.kind == "conv":
            if not self.channels:
                raise ValueError("a conv net needs channels: a non-empty list of positive ints")
            if self.kernels is not None:
                if len(self.kernels) != len(self.channels) or (
                        self.strides is not None and len(self.strides) != len(self.channels)):
                    raise ValueError("kernels and strides need one entry per channels entry")
            elif self.kernel is None or self.kernel % 2 != 1:
                raise ValueError(f"kernel must be an odd int >= 1 (same padding), "
                                 f"got {self.kernel!r}")
        elif self.kernels is not None or self.strides is not None or self.padding is not None:
            raise ValueError("kernels, strides and padding are for kind: conv only")
        resnet_keys = (self.blocks, self.width, self.head_channels)
        if self.kind == "resnet":
            if any(k is None for k in resnet_keys):
                raise ValueError("a resnet needs blocks, width and head_channels")
            if self.channels or self.kernels or self.strides or self.padding or self.batch_norm:
                raise ValueError("a resnet takes blocks/width/head_channels, not channels, "
                                 "kernels, strides, padding or batch_norm (it has BN throughout)")
        elif any(k is not None for k in resnet_keys):
            raise ValueError("blocks, width and head_channels are for kind: resnet only")
        if self.batch_norm == "all" and self.mask_input:
            raise ValueError("batch_norm: all takes no mask_input")
        return self
