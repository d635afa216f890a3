"""Big-2 (seed 004, "Shen Suan Zi"): engine, judge, codec, encoder, the seed's negamax agent and
baseline bots; registers ``big2``."""

from ime.games.big2.game import GAME, Big2Game, Big2State
from ime.games.big2.plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "Big2Game", "Big2State"]
