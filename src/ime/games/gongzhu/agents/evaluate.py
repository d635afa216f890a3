"""Seat-rotated evaluation of Gongzhu agents (the seed's DMC-vs-CNN match, and more).

Each of ``deals`` seeded deals is played four times, the evaluated agent sitting in each seat in
turn and the three opponents in the other seats in a fixed order (``opponents[j]`` sits ``j + 1``
seats after the agent), so every agent sees every hand. Reported per game (agent's view):

* win share: the agent has the highest score; a tie between ``k`` top scorers counts ``1/k``
  (so four equal players share 1 and an equal agent expects 0.25);
* strict win: the agent alone has the highest score;
* positive score: the agent's score is ``> 0`` (the seed's "win rate" reads this way: 7,830
  positive-score games of 10,000 = 78.3%);
* the score itself (rules' points).

95% confidence intervals treat a deal (its four rotations averaged) as the independent unit:
``mean +- 1.96 * sd / sqrt(deals)``.

Command::

    python -m ime.games.gongzhu.agents.evaluate --agent dmc --opponents cnn --deals 1000
    python -m ime.games.gongzhu.agents.evaluate --suite --deals 500   # the three standard matches

Player specs: ``dmc`` / ``cnn`` (the shipped checkpoints), ``dmc=PATH`` / ``cnn=PATH``, a rule
style (``duck``, ``shoot``, ``low``, ``random``), ``rules`` (= ``duck,shoot,low``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from ime.core.seeding import derive_seed
from ime.games.gongzhu import rules as R
from ime.games.gongzhu.bots.rulebots import RULE_STYLES, rule_action

CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"
DEFAULT_DMC = CHECKPOINTS / "gz_dmc.pt"
DEFAULT_CNN = CHECKPOINTS / "gz_cnn.pt"


class Player(Protocol):
    """Something that picks the action of ``seat`` (to move) from ``state``; ``rng`` is keyed by
    (seed, deal, rotation, ply, seat) for players that draw."""

    name: str

    def act(self, state: R.GongzhuState, seat: int, rng: np.random.Generator) -> int: ...


class RulePlayer:
    """A rule style of ``bots/rulebots.py``."""

    def __init__(self, style: str):
        if style not in RULE_STYLES:
            raise ValueError(f"unknown rule style {style!r}; known: {RULE_STYLES}")
        self.style = style
        self.name = style

    def act(self, state, seat, rng):
        return rule_action(self.style, state, seat, rng)


class DMCPlayer:
    """The greedy DMC agent."""

    def __init__(self, agent, name: str = "dmc"):
        self.agent = agent
        self.name = name

    def act(self, state, seat, rng):
        return self.agent.act(state, seat)


class CNNPlayer:
    """The CNN baseline, greedy (``temperature`` 0) or sampling."""

    def __init__(self, agent, name: str = "cnn", temperature: float = 0.0):
        self.agent = agent
        self.name = name
        self.temperature = temperature

    def act(self, state, seat, rng):
        return self.agent.act(state, seat, rng, self.temperature)


def make_player(spec: str) -> Player:
    """A player from a spec (see the module doc)."""
    kind, _, path = spec.partition("=")
    name = f"{kind}({Path(path).stem})" if path else kind
    if kind == "dmc":
        from ime.games.gongzhu.agents.agent import DMCAgent

        return DMCPlayer(DMCAgent.load(str(path or DEFAULT_DMC)), name=name)
    if kind == "cnn":
        from ime.games.gongzhu.agents.cnn import CNNAgent

        return CNNPlayer(CNNAgent.load(path or DEFAULT_CNN), name=name)
    return RulePlayer(kind)


def make_opponents(spec: str) -> list[Player]:
    """Three opponents from ``rules``, one spec (three copies) or three comma-separated specs."""
    if spec == "rules":
        spec = "duck,shoot,low"
    parts = spec.split(",")
    if len(parts) == 1:
        p = make_player(parts[0])
        return [p, p, p]
    if len(parts) != 3:
        raise ValueError(f"need 1 or 3 opponent specs, got {spec!r}")
    return [make_player(s) for s in parts]


def play_deal(players: list[Player], deal_seed: int, key: tuple) -> list[int]:
    """Play one deal with ``players[seat]`` in each seat; the four scores."""
    state = R.deal(deal_seed)
    ply = 0
    while not R.is_terminal(state):
        seat = state.to_move
        rng = np.random.default_rng(derive_seed(*key, ply, seat))
        a = players[seat].act(state, seat, rng)
        R.apply(state, a)
        ply += 1
    return R.scores(state)


@dataclass
class MatchResult:
    agent: str
    opponents: list[str]
    deals: int
    games: int
    win_rate: float
    win_ci: float
    strict_win_rate: float
    positive_rate: float
    positive_ci: float
    mean_score: float
    score_ci: float
    opponent_mean_score: float
    seconds: float

    def line(self) -> str:
        return (f"{self.agent} vs {'/'.join(self.opponents)}: {self.games} games "
                f"({self.deals} deals x 4 seats): win {100 * self.win_rate:.1f}% "
                f"+- {100 * self.win_ci:.1f} (ties shared; "
                f"strict {100 * self.strict_win_rate:.1f}%), "
                f"score>0 {100 * self.positive_rate:.1f}% +- {100 * self.positive_ci:.1f}, "
                f"mean score {self.mean_score:.1f} +- {self.score_ci:.1f} "
                f"(opponents {self.opponent_mean_score:.1f}) [{self.seconds:.0f} s]")


def _ci(per_deal: np.ndarray) -> float:
    n = len(per_deal)
    return 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")


def rotated_match(agent: Player, opponents: list[Player], deals: int, seed: int) -> MatchResult:
    """``agent`` against ``opponents`` (three), each deal in all four seats (module doc)."""
    t0 = time.perf_counter()
    win = np.zeros((deals, 4))
    strict = np.zeros((deals, 4))
    pos = np.zeros((deals, 4))
    score = np.zeros((deals, 4))
    opp = np.zeros((deals, 4))
    for d in range(deals):
        deal_seed = derive_seed(seed, "gz-eval-deal", d)
        for rot in range(4):
            players: list[Player] = [agent] * 4
            for j in range(3):
                players[(rot + 1 + j) % 4] = opponents[j]
            s = play_deal(players, deal_seed, (seed, "gz-eval", d, rot))
            top = max(s)
            k = s.count(top)
            win[d, rot] = 1.0 / k if s[rot] == top else 0.0
            strict[d, rot] = float(s[rot] == top and k == 1)
            pos[d, rot] = float(s[rot] > 0)
            score[d, rot] = s[rot]
            opp[d, rot] = (sum(s) - s[rot]) / 3
    return MatchResult(
        agent=agent.name, opponents=[o.name for o in opponents], deals=deals, games=4 * deals,
        win_rate=float(win.mean()), win_ci=_ci(win.mean(1)),
        strict_win_rate=float(strict.mean()),
        positive_rate=float(pos.mean()), positive_ci=_ci(pos.mean(1)),
        mean_score=float(score.mean()), score_ci=_ci(score.mean(1)),
        opponent_mean_score=float(opp.mean()), seconds=time.perf_counter() - t0,
    )


SUITE = (("dmc", "cnn"), ("dmc", "rules"), ("cnn", "rules"), ("duck", "rules"))
"""The standard matches: the seed's DMC vs three CNNs, each agent vs the three rule styles, and a
rule bot (duck) vs the rule styles as a yardstick."""


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m ime.games.gongzhu.agents.evaluate",
                                description="seat-rotated Gongzhu evaluation with 95% CIs")
    p.add_argument("--agent", default="dmc")
    p.add_argument("--opponents", default="cnn")
    p.add_argument("--suite", action="store_true", help="run the standard matches (SUITE)")
    p.add_argument("--dmc", default=str(DEFAULT_DMC), help="checkpoint for 'dmc' in the suite")
    p.add_argument("--cnn", default=str(DEFAULT_CNN), help="checkpoint for 'cnn' in the suite")
    p.add_argument("--deals", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", help="write the results here")
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    matches = SUITE if a.suite else ((a.agent, a.opponents),)
    out = []
    for agent_spec, opp_spec in matches:
        agent_spec = {"dmc": f"dmc={a.dmc}", "cnn": f"cnn={a.cnn}"}.get(agent_spec, agent_spec)
        opp_spec = {"dmc": f"dmc={a.dmc}", "cnn": f"cnn={a.cnn}"}.get(opp_spec, opp_spec)
        res = rotated_match(make_player(agent_spec), make_opponents(opp_spec), a.deals, a.seed)
        print(res.line(), flush=True)
        out.append(asdict(res))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
