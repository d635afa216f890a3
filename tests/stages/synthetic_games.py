"""Three tiny synthetic games that exercise what Reversi cannot: N seats, simultaneous moves and
a two-head action. They are registered with :mod:`ime.core.registry` by the fixture
:func:`registered` (and removed again afterwards), so the stages find them by name exactly as
they find a real plug-in.

* ``synthetic_trio``: 3 seats in turn add 1..3 to a shared total (never the number the previous
  seat added); whoever reaches ``TARGET`` ends the game. Seat 0 plays alone against seats 1 and
  2, who share a side: seat 0 reaching the target scores ``[2, 0, 0]``, a partner ``[0, 1, 1]``.
* ``synthetic_duel``: 2 seats choose 0..2 *at the same time* (never their own previous choice)
  for ``TURNS`` turns; seat 0 scores a point when the choices match, seat 1 when they differ;
  more points wins 2-0, equal 1-1.
* ``synthetic_heads``: 2 seats in turn play ``(major,)`` for major 0 or 1, or
  ``(major, minor)`` for major 2 or 3 with a minor 0..2, never the major the opponent just
  played; ``3 * major + minor`` adds to the mover's points over ``TURNS`` turns. The encoder
  has two heads: ``major`` (4 codes) and ``minor`` (3 codes, used only when major >= 2, its mask
  given the major played) and chooses head by head.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from ime.core import registry
from ime.core.encoding import ActionHead, Encoder, Observation, Policy, Symmetry
from ime.core.game import Action, Game, GameType, IllegalMoveError, State

TARGET = 12
TURNS = 6


class _Base(State):
    """History, faults and the Botzone bits every synthetic state shares."""

    def __init__(self, game: Game, n: int):
        self.game = game
        self.history: list[Any] = []
        self._returns: list[float] | None = None
        self._n = n

    def forfeit(self, player: int, reason: str) -> None:
        self._returns = self.fault_scores(player)

    def fault_scores(self, player: int) -> list[float]:
        out = [2.0] * self._n
        out[player] = 0.0
        return out

    def is_terminal(self) -> bool:
        return self._returns is not None

    def returns(self) -> list[float]:
        return list(self._returns) if self._returns is not None else [0.0] * self._n

    @property
    def ply(self) -> int:
        return len(self.history)

    def initdata(self) -> Any:
        return ""

    def _check(self, player: int, action: Any) -> Any:
        if action not in self.legal_actions(player):
            raise IllegalMoveError(player, "INVALID_MOVE", action)
        return action


# --- synthetic_trio: three seats, two sides -----------------------------------------------------
class TrioState(_Base):
    def __init__(self, game: Game):
        super().__init__(game, 3)
        self.total = 0

    def current_players(self) -> list[int]:
        return [] if self.is_terminal() else [self.ply % 3]

    def legal_actions(self, player: int) -> list[int]:
        if player not in self.current_players():
            return []
        return [k for k in (1, 2, 3) if not self.history or k != self.history[-1]]

    def apply_action(self, action: Action) -> None:
        (p,) = self.current_players()
        self.total += self._check(p, action)
        self.history.append(action)
        if self.total >= TARGET:
            self._returns = [2.0, 0.0, 0.0] if p == 0 else [0.0, 1.0, 1.0]

    def fault_scores(self, player: int) -> list[float]:
        return [0.0, 1.0, 1.0] if player == 0 else [2.0, 0.0, 0.0]

    def clone(self) -> TrioState:
        s = TrioState(self.game)
        s.total, s.history, s._returns = self.total, list(self.history), self._returns
        return s

    def request_for(self, player: int) -> Any:
        return {"total": self.total, "last": self.history[-1] if self.history else 0}

    def decode_response(self, player: int, response: Any) -> Action:
        if not isinstance(response, int) or isinstance(response, bool):
            raise IllegalMoveError(player, "INVALID_MOVE", response)
        return response

    def encode_response(self, player: int, action: Action) -> Any:
        return int(action)


class TrioEncoder(Encoder):
    """Planes ``[3, 1, TARGET]``: the total, the seat, the last number added (one-hot)."""

    def __init__(self) -> None:
        super().__init__("synthetic-trio-v1", (ActionHead("add", 3),), (3, 1, TARGET))

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        players = [s.current_players()[0] for s in states] if players is None else players
        planes = np.zeros((len(states), 3, 1, TARGET), np.uint8)
        mask = np.zeros((len(states), 3), np.uint8)
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            planes[i, 0, 0, min(s.total, TARGET - 1)] = 1
            planes[i, 1, 0, p] = 1
            if s.history:
                planes[i, 2, 0, s.history[-1] - 1] = 1
            for k in s.legal_actions(p):
                mask[i, k - 1] = 1
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        return np.asarray([int(a) - 1 for a in actions], np.int64).reshape(-1, 1)

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0]) + 1


class TrioGame(Game):
    game_type = GameType("synthetic_trio", "three seats, two sides", 3)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> TrioState:
        return TrioState(self)


# --- synthetic_duel: simultaneous moves -----------------------------------------------------------
class DuelState(_Base):
    def __init__(self, game: Game):
        super().__init__(game, 2)
        self.points = [0, 0]

    def current_players(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1]

    def legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        last = self.history[-1][player] if self.history else None
        return [c for c in (0, 1, 2) if c != last]

    def apply_action(self, action: Action) -> None:
        raise IllegalMoveError(0, "both seats move at once: use apply_actions", action)

    def apply_actions(self, actions: Any) -> None:
        a0, a1 = self._check(0, actions[0]), self._check(1, actions[1])
        self.points[0 if a0 == a1 else 1] += 1
        self.history.append((a0, a1))
        if self.ply >= TURNS:
            p0, p1 = self.points
            self._returns = [2.0, 0.0] if p0 > p1 else [0.0, 2.0] if p1 > p0 else [1.0, 1.0]

    def clone(self) -> DuelState:
        s = DuelState(self.game)
        s.points, s.history, s._returns = list(self.points), list(self.history), self._returns
        return s

    def request_for(self, player: int) -> Any:
        return {"opponent": self.history[-1][1 - player] if self.history else -1}

    def decode_response(self, player: int, response: Any) -> Action:
        c = response.get("choice") if isinstance(response, dict) else None
        if not isinstance(c, int) or isinstance(c, bool):
            raise IllegalMoveError(player, "INVALID_MOVE", response)
        return c

    def encode_response(self, player: int, action: Action) -> Any:
        return {"choice": int(action)}


class DuelEncoder(Encoder):
    """Planes ``[2, 1, 3]``: the seat's own and the opponent's previous choice (one-hot)."""

    def __init__(self) -> None:
        super().__init__("synthetic-duel-v1", (ActionHead("choice", 3),), (2, 1, 3))

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            raise ValueError("a simultaneous game needs the deciding seat")
        planes = np.zeros((len(states), 2, 1, 3), np.uint8)
        mask = np.zeros((len(states), 3), np.uint8)
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            if s.history:
                planes[i, 0, 0, s.history[-1][p]] = 1
                planes[i, 1, 0, s.history[-1][1 - p]] = 1
            mask[i, s.legal_actions(p)] = 1
        return Observation(planes, [mask])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        return np.asarray([int(a) for a in actions], np.int64).reshape(-1, 1)

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return int(codes[0])


class DuelGame(Game):
    game_type = GameType("synthetic_duel", "simultaneous choices", 2, simultaneous=True)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> DuelState:
        return DuelState(self)


# --- synthetic_heads: a two-head action ---------------------------------------------------------
class HeadsState(_Base):
    def __init__(self, game: Game):
        super().__init__(game, 2)
        self.points = [0, 0]

    def current_players(self) -> list[int]:
        return [] if self.is_terminal() else [self.ply % 2]

    def majors(self) -> list[int]:
        banned = self.history[-1][0] if self.history else None
        return [m for m in range(4) if m != banned]

    def legal_actions(self, player: int) -> list[tuple[int, ...]]:
        if player not in self.current_players():
            return []
        return [(m,) if m < 2 else (m, k) for m in self.majors() for k in range(3 if m >= 2
                                                                                    else 1)]

    def apply_action(self, action: Action) -> None:
        (p,) = self.current_players()
        a = self._check(p, tuple(action))  # type: ignore[arg-type]
        self.points[p] += 3 * a[0] + (a[1] if len(a) > 1 else 0)
        self.history.append(a)
        if self.ply >= TURNS:
            p0, p1 = self.points
            self._returns = [2.0, 0.0] if p0 > p1 else [0.0, 2.0] if p1 > p0 else [1.0, 1.0]

    def clone(self) -> HeadsState:
        s = HeadsState(self.game)
        s.points, s.history, s._returns = list(self.points), list(self.history), self._returns
        return s

    def request_for(self, player: int) -> Any:
        return {"last": list(self.history[-1]) if self.history else []}

    def decode_response(self, player: int, response: Any) -> Action:
        if not isinstance(response, list) or not all(isinstance(x, int) for x in response):
            raise IllegalMoveError(player, "INVALID_MOVE", response)
        return tuple(response)

    def encode_response(self, player: int, action: Action) -> Any:
        return list(action)  # type: ignore[call-overload]


class HeadsEncoder(Encoder):
    """Planes ``[2, 1, 4]``: the opponent's last major and the seat's own last major (one-hot).
    Heads: ``major`` (4), ``minor`` (3, given the major played). Group ``mirror`` swaps minor
    codes 0 and 2 and reverses the cells (for augmentation mechanics, not a game symmetry)."""

    def __init__(self) -> None:
        super().__init__("synthetic-heads-v1", (ActionHead("major", 4), ActionHead("minor", 3)),
                         (2, 1, 4), ("none", "mirror"))

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        players = [s.current_players()[0] for s in states] if players is None else players
        planes = np.zeros((len(states), 2, 1, 4), np.uint8)
        major = np.zeros((len(states), 4), np.uint8)
        minor = np.zeros((len(states), 3), np.uint8)
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            for back, plane in ((1, 0), (2, 1)):
                if len(s.history) >= back:
                    planes[i, plane, 0, s.history[-back][0]] = 1
            legal = s.legal_actions(p)
            for a in legal:
                major[i, a[0]] = 1
            if actions is not None and actions[i] is not None:
                m = tuple(actions[i])[0]
                for a in legal:
                    if a[0] == m and len(a) > 1:
                        minor[i, a[1]] = 1
        return Observation(planes, [major, minor])

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        out = np.full((len(actions), 2), -1, np.int64)
        for i, a in enumerate(actions):
            t = tuple(a)  # type: ignore[arg-type]
            out[i, 0] = t[0]
            if len(t) > 1:
                out[i, 1] = t[1]
        return out

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        return (int(codes[0]),) if codes[0] < 2 else (int(codes[0]), int(codes[1]))

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """Head by head: the major first, then the minor given that major (if it takes one)."""
        major = int(np.argmax(policy(self.encode([state], [player]))[0][0]))
        if major < 2:
            return (major,)
        probs = policy(self.encode([state], [player], [(major, 0)]))
        return (major, int(np.argmax(probs[1][0])))

    def symmetries(self, group: str) -> list[Symmetry]:
        if group == "none":
            return super().symmetries(group)
        if group != "mirror":
            raise ValueError(f"no symmetry group {group!r}")
        ident = Symmetry("id", np.arange(4), (np.arange(4), np.arange(3)))
        return [ident, Symmetry("mirror", np.arange(4)[::-1].copy(),
                                (np.arange(4), np.array([2, 1, 0])))]


class HeadsGame(Game):
    game_type = GameType("synthetic_heads", "a two-head action", 2)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> HeadsState:
        return HeadsState(self)


PLUGINS = [
    registry.GamePlugin(TrioGame.game_type, lambda: TrioGame(), lambda g: TrioEncoder()),
    registry.GamePlugin(DuelGame.game_type, lambda: DuelGame(), lambda g: DuelEncoder()),
    registry.GamePlugin(HeadsGame.game_type, lambda: HeadsGame(), lambda g: HeadsEncoder()),
]


@pytest.fixture(scope="module")
def registered() -> Iterator[None]:
    """The synthetic games, findable by name for the tests of one module, then gone again."""
    for p in PLUGINS:
        registry.register_game(p)
    yield
    for p in PLUGINS:
        registry._PLUGINS.pop(p.name, None)
        for cache in (registry._GAMES, registry._ENCODERS):
            for key in [k for k in cache if k[0] == p.name]:
                del cache[key]
