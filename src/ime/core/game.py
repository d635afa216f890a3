"""The game interface every stage programs against: ``GameType``, ``Game`` and ``State``.

Shaped after OpenSpiel's ``GameType`` + Game/State split so that very different games fit one API:

* Reversi: 2 players, perfect information, one mover per turn, an action is one square (or pass).
* Doudizhu (FightTheLandlord): 3 players, hidden hands, an action is a *set of cards* (major combo
  plus kickers); the net-side encoding into major/minor codes lives in the game's encoder, not here.
* Snake: 2 players moving *simultaneously*; ``current_players()`` returns both and the state
  advances with ``apply_actions({0: a0, 1: a1})``.
* Connect Four: 2 players, perfect information, a configurable board.

A game declares what it is in a :class:`GameType` (players, simultaneous or sequential, hidden
information, Botzone ids and interaction modes); stages read those flags instead of asking which
game they run.

Actions are game-specific hashable values (``int`` for Reversi and Snake, ``tuple[int, ...]`` of
card ids for Doudizhu). The Botzone codec (``request_for`` / ``decode_response`` /
``encode_response``) is part of the state because the bot protocol and the match logs are
defined per game by the platform's judges, and an engine that cannot speak them cannot replay a
platform log.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Action = Hashable


class IllegalMoveError(ValueError):
    """A response that the judge rejects (illegal move, wrong pass, unparsable response)."""

    def __init__(self, player: int, reason: str, response: Any = None):
        super().__init__(f"player {player}: {reason} (response={response!r})")
        self.player = player
        self.reason = reason
        self.response = response


def json_response(player: int, response: Any) -> Any:
    """``response`` with a JSON string parsed (logs may store responses as text); other values
    as they are. ``IllegalMoveError`` (``BAD_FORMAT``, the judges' code) when the string is not
    JSON. The card games' codecs share this first step and then check the shape themselves."""
    if not isinstance(response, str):
        return response
    try:
        return json.loads(response)
    except json.JSONDecodeError:
        raise IllegalMoveError(player, "BAD_FORMAT: the response is not JSON", response) from None


class State(ABC):
    """A game position plus the history needed to replay it and to talk Botzone."""

    game: Game

    @abstractmethod
    def current_players(self) -> list[int]:
        """Players who must act now; two for a simultaneous move, empty when terminal."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """Legal actions of ``player`` in a deterministic order."""

    @abstractmethod
    def apply_action(self, action: Action) -> None:
        """Apply the single current player's action (raises IllegalMoveError if illegal)."""

    def apply_actions(self, actions: Mapping[int, Action]) -> None:
        """Apply one action per current player (simultaneous games override this)."""
        (player,) = self.current_players()
        self.apply_action(actions[player])

    @abstractmethod
    def forfeit(self, player: int, reason: str) -> None:
        """End the game on a fault by ``player`` with the scores the game's judge gives."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Final per-player scores exactly as the Botzone judge's ``finish`` gives them."""

    @abstractmethod
    def clone(self) -> State: ...

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of turns played so far (a pass counts as a turn)."""

    # --- Botzone codec -------------------------------------------------------------------------
    @abstractmethod
    def request_for(self, player: int) -> Any:
        """The JSON request the judge sends ``player`` now (must be a current player)."""

    @abstractmethod
    def decode_response(self, player: int, response: Any) -> Action:
        """Parse a bot's Botzone response into an action; raises IllegalMoveError."""

    @abstractmethod
    def encode_response(self, player: int, action: Action) -> Any:
        """The Botzone response a bot would print for ``action``."""

    @abstractmethod
    def initdata(self) -> Any:
        """The ``initdata`` that recreates this game's start (deal, board, seed...)."""

    def display(self) -> Any:
        """What the judge puts in ``display`` for the last transition."""
        return ""

    def position_key(self) -> Hashable | None:
        """A hashable key of everything a position-pure bot's decision may read here (the
        board and the side to move), or ``None`` when the game has none (the default). Equal
        keys must mean positions no such bot can tell apart: :mod:`ime.core.memo` answers a
        position it has seen with the decision taken there."""
        return None


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once by its plug-in (OpenSpiel's ``GameType``, trimmed).

    ``simultaneous``: every player in ``current_players()`` acts at once (Snake).
    ``hidden_information``: ``observe(state, player)`` must not show other players' secrets
    (Doudizhu hands); forks of logged matches then re-deal nothing, they replay the log's deal.
    ``botzone_game_id``: the platform's game id (``None`` for games not on Botzone).
    ``simple_interaction``: Botzone's line-based "simple" bot protocol exists for this game.
    ``teams``: the seats that play as one side (Doudizhu: ``((0,), (1, 2))``, the landlord
    against the two farmers); empty: every seat is its own side. Stages read it through
    :func:`team_of` when one program is to fill every seat of its side (``matches.team_seats``).
    """

    short_name: str
    long_name: str
    num_players: int
    simultaneous: bool = False
    hidden_information: bool = False
    botzone_game_id: str | None = None
    simple_interaction: bool = False
    teams: tuple[tuple[int, ...], ...] = ()


def team_of(game_type: GameType, seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s side, ascending (``(seat,)`` when the game declares no teams or
    leaves the seat out of them)."""
    for team in game_type.teams:
        if seat in team:
            return tuple(sorted(team))
    return (seat,)


def num_sides(game_type: GameType) -> int:
    """How many sides a game has, so how many agents meet in one game when each side is one
    program (Doudizhu 2: the landlord and both farmers; a game without teams: its seats)."""
    return len({team_of(game_type, s) for s in range(game_type.num_players)})


class Game(ABC):
    """Static facts about a game and a factory for initial states."""

    game_type: GameType

    @property
    def name(self) -> str:
        return self.game_type.short_name

    @property
    def num_players(self) -> int:
        return self.game_type.num_players

    @property
    def botzone_game_id(self) -> str | None:
        return self.game_type.botzone_game_id

    @abstractmethod
    def new_initial_state(self, initdata: Any = None, seed: int | None = None) -> State:
        """Initial state, from a log's ``initdata`` or generated from ``seed``."""


def legal_mask(actions: Sequence[int], size: int) -> np.ndarray:
    """A 0/1 mask over a fixed integer action space."""
    mask = np.zeros(size, dtype=np.uint8)
    mask[list(actions)] = 1
    return mask
