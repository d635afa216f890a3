"""The IME bot around a rule style of :mod:`.rulebots`.

:class:`RuleStyleBot` asks :func:`~ime.games.gongzhu.bots.rulebots.rule_action` for the seat to
move, with a generator keyed by (seed, match, ply, seat) (``decision_rng``), so every decision
replays bit for bit from the match history (forks, key endgames). ``epsilon`` > 0 plays a
uniformly random legal action with that probability (drawn from the same keyed generator): a
noisier variant of a style for the imitation studies.
"""

from __future__ import annotations

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.games.gongzhu.bots.rulebots import RULE_STYLES, rule_action


class RuleStyleBot(Bot):
    """A Gongzhu rule style (``duck``, ``shoot``, ``low``, ``random``) as an IME bot."""

    def __init__(self, bot_id: str, style: str, epsilon: float = 0.0):
        if style not in RULE_STYLES:
            raise ValueError(f"unknown Gongzhu rule style {style!r}; known: {RULE_STYLES}")
        if not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        self.bot_id = bot_id
        self.style = style
        self.epsilon = float(epsilon)
        self.deterministic = style != "random" and self.epsilon == 0.0

    def act(self, state, ctx: DecisionContext) -> int:
        rng = decision_rng(ctx, self.style)
        core = state.core
        if self.epsilon > 0.0 and rng.random() < self.epsilon:
            return rule_action("random", core, ctx.player, rng)
        return rule_action(self.style, core, ctx.player, rng)
