"""The net-side view of a game: per-player observations, action heads and symmetries.

A game's :class:`Encoder` is what datasets, nets, training, key-position scoring and the imitator
bot see of the game; none of them knows a board size or an action code.

* **Observation.** ``encode(states, players)`` gives ``uint8`` planes ``[N, *state_shape]``
  that show only what ``player`` may see (OpenSpiel's per-player observer), plus one legal
  mask per head.
* **Action heads.** An action is one code per head (:class:`ActionHead`). Reversi and Connect Four
  have one head (a square, a column). Doudizhu has two: a *major* code (the combination without its
  kickers, 309 codes) and a *minor* code (a kicker, 28 codes) chosen one by one; a head that does
  not apply to a decision has label ``-1`` and an all-zero mask. The mask of a later head is the
  one that applies *given the earlier heads' codes of the action actually played* (teacher
  forcing), so one dataset row holds one decision with one label and one mask per head.
* **Forced decisions.** A row whose first-head mask is empty (Reversi's forced pass) carries no
  choice; datasets drop it and count it.
* **Unencodable decisions.** An action the heads cannot express (Doudizhu's space shuttles,
  which the thesis's 309 major codes omit) gets the first-head label :data:`UNENCODABLE`;
  datasets drop such rows and count them (``unencodable_dropped``), and the encoder's masks
  never offer such an action to an imitator.
* **Selection.** ``select(state, player, policy)`` turns head policies into an action (argmax,
  lowest code on ties); a multi-head encoder overrides it to choose head by head.
* **Symmetries.** ``symmetries(group)`` lists the cell and action permutations that map a
  position to an equivalent one, for optional augmentation (``game.augment``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ime.core.game import Action, State

UNENCODABLE = -2
"""First-head label of a played action the encoder's heads cannot express (dropped, counted)."""


@dataclass(frozen=True)
class ActionHead:
    """One output of the nets: ``size`` codes, each a unit of a softmax."""

    name: str
    size: int
    doc: str = ""


@dataclass
class Observation:
    """Encoded decisions: planes ``uint8[N, *shape]`` and one ``uint8[N, size]`` mask per head."""

    planes: np.ndarray
    masks: list[np.ndarray]

    @property
    def mask(self) -> np.ndarray:
        """The first head's mask (the only one of a one-head game)."""
        return self.masks[0]

    def __len__(self) -> int:
        return int(self.planes.shape[0])


@dataclass(frozen=True)
class Symmetry:
    """A permutation of cells and action codes that maps a position to an equivalent one.

    ``cells[i]`` is where cell ``i`` (flattened spatial index of every plane) goes;
    ``actions[h][c]`` is where code ``c`` of head ``h`` goes. Gathers use their inverses
    (``np.argsort``).
    """

    name: str
    cells: np.ndarray
    actions: tuple[np.ndarray, ...]


Policy = Callable[[Observation], list[np.ndarray]]
"""``policy(obs) -> [probabilities float[N, size] per head]`` (an imitation net, an ensemble)."""


@dataclass
class Encoder(ABC):
    """A game's encoding for the nets; one instance per (game, board configuration)."""

    version: str
    heads: tuple[ActionHead, ...]
    state_shape: tuple[int, ...]
    symmetry_groups: tuple[str, ...] = field(default=("none",))

    position_planes: ClassVar[int | None] = None
    """How many leading planes describe the position (``None``: all of them). An encoder whose
    later planes depend on the action played (Doudizhu's teacher-forced kicker steps) sets it,
    so that "the same position" (duplicates, conflicting states, positions seen in training) is
    judged on the position alone."""

    position_tail_planes: ClassVar[int] = 0
    """How many trailing planes describe the position too (after planes that follow the action:
    Doudizhu's seat planes after its kicker steps); part of "the same position" with the
    leading :attr:`position_planes`."""

    afterstate_planes: ClassVar[int | None] = None
    """Planes of the positions a first-head move leads to (:meth:`afterstates`), which the
    lookahead imitator values (:mod:`ime.nets.lookahead`); ``None``: the game offers none."""

    def afterstates(self, planes: Any, codes: Any) -> Any:
        """The position each move leads to, from the mover's view: ``planes`` (a float
        ``torch.Tensor[M, *state_shape]``) with first-head codes ``codes`` (``int64[M]``, each
        legal) -> ``Tensor[M, afterstate_planes, H, W]`` on the same device. A game that offers
        it sets :attr:`afterstate_planes`; what the planes hold is the game's to say."""
        raise ValueError(f"encoder {self.version} has no afterstates, so the lookahead imitator "
                         f"cannot be used for this game; use a policy net")

    def replies(self, after: Any) -> tuple[Any, Any]:
        """For a two-player game of alternating moves: the opponent's observation and legal mask
        in each afterstate (``Tensor[M, afterstate_planes, H, W]`` from :meth:`afterstates`)
        -> ``(planes[M, *state_shape], mask[M, A])``, an all-zero mask where it cannot move; what
        a two-ply lookahead searches. Games that offer it set :attr:`reply_lookahead`."""
        raise ValueError(f"encoder {self.version} offers no replies to an afterstate, so the "
                         f"lookahead imitator cannot search two plies here (net.depth: 1)")

    afterstate_features: ClassVar[tuple[str, ...]] = ()
    """Feature planes the encoder can add to its afterstates, by name (``features`` of
    ``config/net/lookahead.yaml``: Doudizhu's ``hand_turns``, ``hand_split``, ``controls`` and,
    with its seat planes, ``seat_sizes``); empty: none. An instance may offer more than its
    class (a board option's planes: it sets its own, as the dataclass has no such field)."""

    def afterstate_feature_planes(self, planes: Any, codes: Any, features: Sequence[str]) -> Any:
        """``features`` (names of :attr:`afterstate_features`) of the afterstates of ``planes``
        with first-head codes ``codes`` (as :meth:`afterstates`) -> ``Tensor[M, len(features),
        H, W]``, each feature one plane: derived from the afterstate and the position's planes,
        no new information, but what a small value net would have to learn to compute."""
        raise ValueError(f"encoder {self.version} offers no afterstate features "
                         f"(asked for {list(features)})")

    reply_lookahead: ClassVar[bool] = False
    """Whether :meth:`replies` is offered (a two-ply lookahead is possible)."""

    later_head_planes: ClassVar[tuple[int, int, int] | None] = None
    """For an encoder with later heads that the lookahead imitator may serve (Doudizhu's kicker
    steps): ``(start, width, stride)``, later head ``j``'s input planes being ``planes[start +
    j * stride : start + j * stride + width]``. The lookahead values the first head's
    afterstates and scores the later heads with one policy branch over these planes, shared by
    them (``later_heads`` of ``config/net/lookahead.yaml``); ``None``: no later heads to
    serve."""

    @property
    def afterstate_shape(self) -> tuple[int, ...] | None:
        """``(afterstate_planes, H, W)``, or ``None`` when the game offers no afterstates."""
        if self.afterstate_planes is None:
            return None
        return (int(self.afterstate_planes), *self.state_shape[1:])

    @abstractmethod
    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        """Observations of ``players`` (default: the single player to move of each state).

        ``actions``, when given, are the actions played: later heads' masks are then the ones
        that apply given the earlier heads' codes of those actions.
        """

    @abstractmethod
    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        """``int64[N, len(heads)]`` labels of the played actions (``-1``: head not used)."""

    @abstractmethod
    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        """The game action for one code per head."""

    def observe(self, state: State, player: int) -> np.ndarray:
        """What ``player`` sees of ``state`` (OpenSpiel's observer ``set_from(state, player)``)."""
        return self.encode([state], [player]).planes[0]

    @property
    def num_actions(self) -> int:
        """Codes of the first head."""
        return self.heads[0].size

    @property
    def head_sizes(self) -> list[int]:
        return [h.size for h in self.heads]

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """Argmax of ``policy`` per head (lowest code on ties), decoded into an action.

        One-head games use this as is; games whose later heads depend on earlier choices
        override it to choose head by head.
        """
        obs = self.encode([state], [player])
        probs = policy(obs)
        codes = [int(np.argmax(p[0])) for p in probs]
        return self.decode(state, player, codes)

    def symmetries(self, group: str) -> list[Symmetry]:
        """The permutations of ``group`` (``"none"``: the identity alone)."""
        if group != "none":
            raise ValueError(f"encoder {self.version} has no symmetry group {group!r}; "
                             f"known: {list(self.symmetry_groups)}")
        return [identity_symmetry(self)]


def identity_symmetry(enc: Encoder) -> Symmetry:
    cells = int(np.prod(enc.state_shape[1:])) if len(enc.state_shape) > 1 else 1
    return Symmetry("id", np.arange(cells), tuple(np.arange(h.size) for h in enc.heads))


def shift_cells(cells: Any, dr: int, dc: int) -> Any:
    """Planes ``cells`` (a tensor or array ``[..., H, W]``) moved ``dr`` rows and ``dc`` columns,
    empty (zero) cells moving in: the move of a piece (Snake's head) or a ray's step over a board
    (Reversi's mobility fills), for the games' afterstates."""
    out = cells.new_zeros(cells.shape) if hasattr(cells, "new_zeros") else np.zeros_like(cells)
    h, w = cells.shape[-2:]
    rs, rd = (slice(0, h - dr), slice(dr, h)) if dr >= 0 else (slice(-dr, h), slice(0, h + dr))
    cs, cd = (slice(0, w - dc), slice(dc, w)) if dc >= 0 else (slice(-dc, w), slice(0, w + dc))
    out[..., rd, cd] = cells[..., rs, cs]
    return out


def grid_map(name: str, height: int, width: int) -> np.ndarray:
    """Destination index of every cell of a ``height x width`` grid under a board symmetry.

    Names: ``id``, ``flipx`` (mirror left-right), ``flipy`` (mirror top-bottom), ``rot180``;
    on square grids also ``rot90``, ``rot270``, ``diag``, ``antidiag``.
    """
    y, x = np.divmod(np.arange(height * width), width)
    my, mx = height - 1, width - 1
    maps: dict[str, tuple[Any, Any]] = {
        "id": (y, x), "rot180": (my - y, mx - x), "flipx": (y, mx - x), "flipy": (my - y, x),
    }
    if height == width:
        maps.update({"rot90": (mx - x, y), "rot270": (x, my - y), "diag": (x, y),
                     "antidiag": (mx - x, my - y)})
    if name not in maps:
        raise ValueError(f"no grid symmetry {name!r} on a {height}x{width} board")
    ny, nx = maps[name]
    return ny * width + nx
