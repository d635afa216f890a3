"""The lookahead imitator (issue 46, Deliver 3): each legal move scored by a learned value of the
position it leads to, trained as a softmax over the legal moves.

Why: a search bot chooses the move whose resulting position its evaluation (backed up by its
search) likes best. A policy net must learn the rules' effect of every move from the position
alone (which discs a Reversi move flips, where a Connect Four disc lands); a lookahead net is
*given* the position each move leads to (the game's :meth:`ime.core.encoding.Encoder.afterstates`,
in torch, on the net's device) and learns only the value. It is the neural generalisation of the
search imitator (:mod:`ime.imitators.reversi_family`), and works for every game whose encoder
offers afterstates (Reversi, Connect Four, Snake, and the card games Doudizhu and Big 2).

``model(planes[N, C, H, W], mask[N, A]) -> masked logits[N, A]``, the nets' call signature, so
it trains with :func:`ime.train.loop.train_fold` (its own loop, not stacked: its rows' move counts
differ) and plays in every later stage as any net. The logit of a legal move ``a`` is
``V(afterstate(s, a)) + b[a]``: ``V`` a small conv net (``channels``, ``kernel``, ``hidden`` of
``config/net/lookahead.yaml``; batch norm after the last convolution) and ``b`` a learned bias per
action code (``action_bias``), which lets the net learn position-independent preferences such as a
bot's tie order. Illegal moves get the nets' mask value.

``features`` adds the encoder's afterstate feature planes (:attr:`~ime.core.encoding.Encoder.
afterstate_features`; Doudizhu's ``hand_turns``: the fewest plays the hand left needs) to each
afterstate, for the value net to weigh.

``depth: 2`` looks one ply further where the game alternates moves (Reversi: the encoder's
:meth:`~ime.core.encoding.Encoder.replies`): a move's value is then minus the best value the
opponent's replies reach, the same learned value from the replier's view (negamax), or its own
afterstate's value where the opponent must pass. About 7x the training time of ``depth: 1`` on
the CPU (measured on a Reversi fold: docs/imitators.md).

**Later heads** (a play chosen in steps, Doudizhu's major and then its kickers,
:mod:`ime.games.kickers`): the first head is valued as above, each major by what it leaves of the
hand (the encoder's afterstates); the later heads are scored by one policy branch
(:func:`ime.nets.branches.make_branch`, ``later_heads`` of ``config/net/lookahead.yaml``, as
CONV-1's minor net) shared by them, over each head's planes (the encoder's
:attr:`~ime.core.encoding.Encoder.later_head_planes`). The call is then the branches nets' one,
``model(planes, [mask per head]) -> [logits per head]``.

The net's config names its game (``game``, ``game_params``), filled in by the composition
(:func:`ime.workflow.compose`), so a checkpoint rebuilds its encoder alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import torch
from torch import nn


def value_body(config: Mapping[str, Any], in_shape: Sequence[int],
               seed: int | None = None) -> nn.Sequential:
    """``[M, C, H, W] -> [M, 1]``: the nets' own conv body (:func:`ime.nets.build_net` with
    ``kind: conv`` and one output: convolutions, batch norm after the last, the dense ``hidden``
    layers, the same initialisation for the same seed)."""
    from ime.nets import build_net

    return build_net(_conv(config), in_shape, 1, seed).body


def _conv(config: Mapping[str, Any]) -> dict[str, Any]:
    """The value net's architecture as a ``kind: conv`` net's."""
    return {"name": "value", "kind": "conv", "channels": list(config.get("channels") or []),
            "kernel": int(config.get("kernel") or 3),
            "batch_norm": config.get("batch_norm", True), "hidden": list(config.get("hidden", [])),
            "init_std": config.get("init_std"), "mask_input": False, "dropout": 0.0}


class LookaheadNet(nn.Module):
    """Scores each legal move by the value of its afterstate (module doc)."""

    def __init__(self, config: Mapping[str, Any], in_shape: Sequence[int], num_actions: int,
                 seed: int | None = None):
        super().__init__()
        from ime.core.registry import get_encoder

        game = config.get("game")
        if not game:
            raise ValueError("a lookahead net's config names no game (the composition fills "
                             "net.game; build it through the pipeline or set game:)")
        self.name = str(config.get("name", "lookahead"))
        self.config = dict(config)
        self.encoder = get_encoder(str(game), config.get("game_params") or None)
        shape = self.encoder.afterstate_shape
        if shape is None:
            raise ValueError(f"game {game!r} offers no afterstates (its encoder "
                             f"{self.encoder.version}), so it has no lookahead imitator; "
                             f"use a policy net")
        if tuple(int(x) for x in in_shape) != tuple(self.encoder.state_shape):
            raise ValueError(f"lookahead net for {game!r}: input shape {tuple(in_shape)} is not "
                             f"the encoder's {tuple(self.encoder.state_shape)}")
        self.depth = int(config.get("depth") or 1)
        if self.depth not in (1, 2):
            raise ValueError(f"a lookahead net looks 1 or 2 plies ahead, not {self.depth}")
        if self.depth == 2 and not self.encoder.reply_lookahead:
            raise ValueError(f"game {game!r} offers no replies to an afterstate (a two-ply "
                             f"lookahead needs alternating moves); use depth: 1")
        offered = self.encoder.afterstate_features
        features = config.get("features") or ()
        self.features = offered if features == "all" else tuple(str(f) for f in features)
        if any(f not in offered for f in self.features):
            raise ValueError(f"lookahead net for {game!r}: features {list(self.features)} are "
                             f"not all offered by its encoder (it offers: {list(offered)})")
        if self.features and self.depth == 2:
            raise ValueError("a lookahead net's features are for depth: 1")
        shape = (shape[0] + len(self.features), *shape[1:])
        sizes = [int(x) for x in num_actions] if isinstance(num_actions, Sequence) else [
            int(num_actions)]
        self.value = value_body(config, shape, seed)
        self.bias = nn.Parameter(torch.zeros(sizes[0]),
                                 requires_grad=bool(config.get("action_bias", True)))
        self.later = _later_heads(config, self.encoder, in_shape, sizes[1:], seed)

    @property
    def num_heads(self) -> int:
        return 1 + (len(self.later.starts) if self.later is not None else 0)

    def forward(self, planes: torch.Tensor,
                mask: torch.Tensor | Sequence[torch.Tensor]) -> torch.Tensor | list[torch.Tensor]:
        if self.later is None:
            return self._first(planes, mask)  # type: ignore[arg-type]
        masks = list(mask)  # type: ignore[arg-type]
        if len(masks) != self.num_heads:
            raise ValueError(f"{len(masks)} masks for a net with {self.num_heads} heads")
        return [self._first(planes, masks[0]), *self.later(planes, masks[1:])]

    def _first(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The first head's masked logits: each legal move's afterstate value and bias."""
        from ime.nets import MASK_VALUE

        rows, codes = torch.nonzero(mask > 0, as_tuple=True)
        out = torch.full(mask.shape, MASK_VALUE, dtype=planes.dtype, device=planes.device)
        if len(rows) == 0:
            return out
        after = self.encoder.afterstates(planes[rows], codes).to(planes.dtype)
        if self.features:
            after = torch.cat([after, self.encoder.afterstate_feature_planes(
                planes[rows], codes, self.features).to(planes.dtype)], dim=1)
        v = self.value(after).squeeze(1)
        if self.depth == 2:
            v = self._reply_values(after, v)
        return out.index_put((rows, codes), v + self.bias[codes])

    def _reply_values(self, after: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """Two plies: minus the opponent's best reply's value (negamax over the same learned
        value, from the replier's view); an afterstate where it must pass keeps its own."""
        nxt, nmask = self.encoder.replies(after)
        r2, c2 = torch.nonzero(nmask > 0, as_tuple=True)
        if len(r2) == 0:
            return v
        v2 = self.value(self.encoder.afterstates(nxt[r2], c2).to(after.dtype)).squeeze(1)
        best = torch.full_like(v, float("-inf")).scatter_reduce(0, r2, v2, "amax")
        return torch.where(torch.isfinite(best), -best, v)


def _later_heads(config: Mapping[str, Any], encoder: Any, in_shape: Sequence[int],
                 sizes: Sequence[int], seed: int | None) -> Any:
    """The policy branch of the later heads (module doc), or ``None`` with one head."""
    if not sizes:
        return None
    from ime.nets.branches import make_branch

    slices = encoder.later_head_planes
    if slices is None:
        raise ValueError(f"encoder {encoder.version} has {1 + len(sizes)} heads but no planes "
                         f"for its later heads (later_head_planes), so a lookahead net serves "
                         f"only its first; use a policy net")
    branch = config.get("later_heads")
    if not branch:
        raise ValueError(f"game {config.get('game')!r} chooses a play in {1 + len(sizes)} "
                         f"heads: a lookahead net needs later_heads (the policy branch of the "
                         f"later ones, config/net/lookahead.yaml)")
    if len(set(sizes)) != 1:
        raise ValueError(f"the later heads {list(sizes)} must have one size (one shared branch)")
    gen = torch.Generator().manual_seed(int(seed) + 1) if seed is not None else None
    return make_branch(_later_spec(branch, slices, sizes), int(in_shape[1]), int(in_shape[2]),
                       config.get("init_std"), gen)


def _later_spec(branch: Mapping[str, Any], slices: Sequence[int], sizes: Sequence[int]) -> Any:
    """The later heads' :class:`~ime.nets.branches.BranchSpec`: one per head's planes
    (``slices``: the encoder's ``(start, width, stride)``), batch norm after the last
    convolution unless ``branch`` says otherwise."""
    from ime.nets.branches import BranchSpec

    start, width, stride = (int(x) for x in slices)
    return BranchSpec("later", tuple(start + j * stride for j in range(len(sizes))), width,
                      int(sizes[0]), {"batch_norm": "last", **dict(branch)})


def build_lookahead(config: Mapping[str, Any], in_shape: Sequence[int], sizes: Sequence[int],
                    seed: int | None = None) -> LookaheadNet:
    """:func:`ime.nets.build_net` for ``kind: lookahead``: one head, or a first head and later
    heads that the encoder gives planes for (module doc)."""
    sizes = [int(x) for x in sizes]
    return LookaheadNet(config, in_shape, sizes if len(sizes) > 1 else sizes[0], seed)


def describe_lookahead(config: Mapping[str, Any], in_shape: Sequence[int]) -> str:
    """Table 4.3's one-line description: the value net's (:func:`ime.nets.describe`) over the
    afterstate planes."""
    from ime.core.registry import get_encoder
    from ime.nets import describe

    enc = get_encoder(str(config.get("game")), config.get("game_params") or None)
    shape = enc.afterstate_shape or tuple(in_shape)
    features = config.get("features") or []
    features = list(enc.afterstate_features if features == "all" else features)
    c, h, w = shape[0] + len(features), *shape[1:]
    out = (f"afterstate {c}x{h}x{w}{' with ' + ', '.join(features) if features else ''} -> "
           + describe(_conv(config), (c, h, w), 1) + " per legal move")
    later = config.get("later_heads")
    if later and enc.later_head_planes is not None and len(enc.heads) > 1:
        from ime.nets.branches import branch_layers

        sizes = enc.head_sizes[1:]
        spec = _later_spec(later, enc.later_head_planes, sizes)
        out += f" | later heads x{len(sizes)} shared: {branch_layers(spec, h, w)}"
    return out


__all__ = ["LookaheadNet", "build_lookahead", "describe_lookahead", "value_body"]
