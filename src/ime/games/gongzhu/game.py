"""Gongzhu (拱猪) as an IME game: four seats, hidden hands, a show phase then 13 tricks.

The rules live in :mod:`ime.games.gongzhu.rules` (the API shared with the DMC agents); this
module wraps a :class:`~ime.games.gongzhu.rules.GongzhuState` in the core ``State`` contract:

* actions are the rules' ints: ``0..51`` play that card, ``52 + m`` show the subset ``m`` of
  ``SHOWABLE`` (bit i <-> (SQ, DJ, C10, HA)[i]);
* one seat moves at a time: the show phase starts at the club-2 holder and goes round once, then
  that seat leads the club 2, and each trick's winner leads the next;
* ``returns()`` are the deal's scores (``rules.scores``); a fault scores
  :data:`~ime.games.gongzhu.codec.FAULT_SCORE` for the faulting seat and 0 for the others;
* the Botzone-style codec is :mod:`ime.games.gongzhu.codec`.

What a bot may know: :meth:`GongzhuGameState.hand` of its own seat and the public fields of
:attr:`GongzhuGameState.core` (``shown``, ``won``, ``played``, ``trick``, ``led_suits``,
``history``); another seat's ``core.hands`` entry is hidden information.
"""

from __future__ import annotations

from typing import Any

from ime.core.game import Game, GameType, IllegalMoveError, State
from ime.games.gongzhu import codec
from ime.games.gongzhu import rules as R

GAME_TYPE = GameType(
    short_name="gongzhu",
    long_name="Gongzhu (拱猪, Chase the Pig): 4 seats, show phase, 13 tricks",
    num_players=4,
    simultaneous=False,
    hidden_information=True,
    botzone_game_id=None,
    simple_interaction=False,
)


class GongzhuGameState(State):
    """One deal in progress (see the module doc)."""

    __slots__ = ("game", "core", "dealt", "_returns", "_display", "_fault")

    def __init__(self, game: GongzhuGame, core: R.GongzhuState, dealt: list[list[int]]):
        self.game = game
        self.core = core
        self.dealt = dealt
        self._returns: list[float] | None = None
        self._display: Any = ""
        self._fault = False

    # --- what a player may know --------------------------------------------------------------
    def hand(self, player: int) -> list[int]:
        """``player``'s remaining cards, ascending."""
        return R.cards_of_mask(self.core.hands[player])

    @property
    def phase(self) -> str:
        return "done" if self._fault else self.core.phase

    # --- core API ----------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self.is_terminal() else [self.core.to_move]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action ids of the seat to move, ascending (empty for another seat)."""
        if self.is_terminal() or (player is not None and player != self.core.to_move):
            return []
        return R.legal_actions(self.core)

    def apply_action(self, action: Any) -> None:
        p = self.core.to_move
        if self.is_terminal():
            raise IllegalMoveError(p, f"{codec.ILLEGAL_MOVE}: the deal is over", action)
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(p, f"{codec.BAD_FORMAT}: an action is an int 0..67", action)
        try:
            R.apply(self.core, int(action))
        except R.IllegalMove as e:
            raise IllegalMoveError(p, f"{codec.ILLEGAL_MOVE}: {e}", action) from None
        event = {"player": p, "action": codec.encode_response(int(action))}
        if self.core.phase == "done":
            s = self.returns()
            self._display = {"event": event, **{str(i): s[i] for i in range(4)}}
        else:
            self._display = {"event": event}

    def forfeit(self, player: int, reason: str) -> None:
        self._fault = True
        self._returns = [codec.FAULT_SCORE if p == player else 0.0 for p in range(4)]
        s = self._returns
        self._display = {"event": {"player": player}, "errorInfo": reason.split(":", 1)[0],
                         **{str(i): s[i] for i in range(4)}}

    def is_terminal(self) -> bool:
        return self._fault or self.core.phase == "done"

    def returns(self) -> list[float]:
        if self._returns is not None:
            return list(self._returns)
        if self.core.phase != "done":
            return [0.0, 0.0, 0.0, 0.0]
        return [float(x) for x in R.scores(self.core)]

    def clone(self) -> GongzhuGameState:
        s = GongzhuGameState.__new__(GongzhuGameState)
        s.game = self.game
        s.core = self.core.copy()
        s.dealt = self.dealt
        s._returns = None if self._returns is None else list(self._returns)
        s._display = self._display
        s._fault = self._fault
        return s

    @property
    def ply(self) -> int:
        return len(self.core.history)

    # --- Botzone codec -----------------------------------------------------------------------
    def request_for(self, player: int) -> dict:
        return codec.request(player, self.core.history, self.dealt[player])

    def decode_response(self, player: int, response: Any) -> int:
        """The action id of a response (legality checked), or ``IllegalMoveError``."""
        if self.is_terminal() or player != self.core.to_move:
            raise IllegalMoveError(player, "not this player's turn", response)
        action = codec.parse_response(player, response, self.core.phase)
        if action not in R.legal_actions(self.core):
            try:
                R.apply(self.core.copy(), action)
            except R.IllegalMove as e:
                raise IllegalMoveError(player, f"{codec.ILLEGAL_MOVE}: {e}", response) from None
        return action

    def encode_response(self, player: int, action: int) -> list[int]:
        return codec.encode_response(int(action))

    def initdata(self) -> dict:
        return {"hands": [list(h) for h in self.dealt]}

    def display(self) -> Any:
        return self._display

    def __str__(self) -> str:
        rows = [f"{p}{'*' if p == self.core.to_move else ' '} "
                + " ".join(R.card_name(c) for c in self.hand(p))
                + f"  shown={R.action_name(R.SHOW_BASE + self.core.shown[p])}"
                for p in range(4)]
        rows.append("trick: " + " ".join(f"{s}:{R.card_name(c)}" for s, c in self.core.trick))
        rows.append(f"phase {self.phase}, tricks {self.core.tricks_done}, "
                    f"scores {R.scores(self.core)}")
        return "\n".join(rows)


class GongzhuGame(Game):
    """The Gongzhu engine under the rule options ``ha_doubling`` and ``first_lead``
    (:class:`~ime.games.gongzhu.rules.RuleOptions`; the defaults are the rules the shipped agents
    were trained on, ``config/game/gongzhu.yaml`` names them)."""

    game_type = GAME_TYPE

    def __init__(self, ha_doubling: str = "all", first_lead: str = "club2"):
        self.rules = R.RuleOptions(ha_doubling=ha_doubling, first_lead=first_lead)

    def new_initial_state(self, initdata: Any = None, seed: int | None = None
                          ) -> GongzhuGameState:
        """The deal of ``initdata['hands']``, else of ``initdata['seed']``, else of ``seed``
        (``rules.deal``)."""
        hands = codec.hands_from_initdata(initdata)
        if hands is None:
            s = codec.seed_from_initdata(initdata)
            s = seed if s is None else s
            if s is None:
                raise ValueError("gongzhu: a new deal needs initdata hands or a seed")
            core = R.deal(int(s), self.rules)
        else:
            core = R.from_hands(hands, self.rules)
        dealt = [R.cards_of_mask(h) for h in core.hands]
        return GongzhuGameState(self, core, dealt)

    def params(self) -> dict:
        """The rule options that differ from the defaults (empty for today's rules, so runs
        and checkpoints made before the options existed keep their keys)."""
        return {k: v for k, v in self.rules.as_dict().items()
                if v != getattr(R.DEFAULT_RULES, k)}

    def __repr__(self) -> str:
        return "GongzhuGame(" + ", ".join(f"{k}={v!r}" for k, v in self.params().items()) + ")"


GAME = GongzhuGame()
