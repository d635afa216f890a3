"""Seat-rotated evaluation of Gongzhu agents (the seed's DMC-vs-CNN match, and more).

Each of ``deals`` seeded deals is played four times, the evaluated agent sitting in each seat in
turn and the three opponents in the other seats in a fixed order (``opponents[j]`` sits ``j + 1``
seats after the agent), so every agent sees every hand. Reported per game (agent's view):

* win share: the agent has the highest score; a tie between ``k`` top scorers counts ``1/k``
  (so four equal players share 1 and an equal agent expects 0.25);
* strict win: the agent alone has the highest score;
* positive score: the agent's score is ``> 0`` (the seed's "win rate" reads this way: 7,830
  positive-score games of 10,000 = 78.3%);
* the score itself (rules' points);
* the seed's metric (GZero's ``compute_player_utility`` / ``update_num_wins_scores``, as issue 33
  reads that code; it could not be fetched here): a game is won when the *relative* score
  ``3 * s_i - sum_{j != i} s_j`` is ``> 0`` (:func:`~ime.games.gongzhu.rules.relative_scores`).
  Ties are not shared: several seats can win one game (three seats on 0 beside one on -100 all
  have a relative score of +100), so four equal players score well above 25% on it (about 57%
  for four ``duck`` bots), and a relative score of exactly 0 is not a win;
* the mean relative score (the seed's "average episode reward" is a score / 100 of this kind).

The equal-player baseline (four copies of the agent, :func:`equal_baseline`) goes in the same
table, so a win rate on the seed's metric can be read against what an equal player gets.

95% confidence intervals treat a deal (its four rotations averaged) as the independent unit:
``mean +- 1.96 * sd / sqrt(deals)``.

Command::

    python -m ime.games.gongzhu.agents.evaluate --agent dmc --opponents cnn --deals 1000
    python -m ime.games.gongzhu.agents.evaluate --suite --deals 500   # the standard matches
    python -m ime.games.gongzhu.agents.evaluate --agent duck --opponents random --deals 150 \
        --rules seed --table      # the seed's rule reading, a markdown table with baselines

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


def play_deal(players: list[Player], deal_seed: int, key: tuple,
              rules: R.RuleOptions | None = None) -> list[int]:
    """Play one deal with ``players[seat]`` in each seat under ``rules``; the four scores."""
    state = R.deal(deal_seed, rules)
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
    rel_win_rate: float = float("nan")
    rel_win_ci: float = float("nan")
    mean_rel: float = float("nan")
    rel_ci: float = float("nan")
    rules: str = "default"

    def line(self) -> str:
        return (f"{self.agent} vs {'/'.join(self.opponents)}: {self.games} games "
                f"({self.deals} deals x 4 seats): win {100 * self.win_rate:.1f}% "
                f"+- {100 * self.win_ci:.1f} (ties shared; "
                f"strict {100 * self.strict_win_rate:.1f}%), "
                f"score>0 {100 * self.positive_rate:.1f}% +- {100 * self.positive_ci:.1f}, "
                f"mean score {self.mean_score:.1f} +- {self.score_ci:.1f} "
                f"(opponents {self.opponent_mean_score:.1f}); seed's metric (relative > 0) "
                f"{100 * self.rel_win_rate:.1f}% +- {100 * self.rel_win_ci:.1f}, mean relative "
                f"{self.mean_rel:.1f} +- {self.rel_ci:.1f} [{self.rules} rules, "
                f"{self.seconds:.0f} s]")


TABLE_HEADER = (
    "| agent | opponents | games | seed's metric: relative > 0 (95% CI) | mean relative score "
    "| win share, ties shared | score > 0 | mean score |\n|---|---|---|---|---|---|---|---|")


def table_row(r: MatchResult) -> str:
    """One markdown row of :data:`TABLE_HEADER`."""
    return (f"| {r.agent} | {'/'.join(r.opponents)} | {r.games} | "
            f"{100 * r.rel_win_rate:.1f}% +- {100 * r.rel_win_ci:.1f} | "
            f"{r.mean_rel:.1f} +- {r.rel_ci:.1f} | {100 * r.win_rate:.1f}% +- "
            f"{100 * r.win_ci:.1f} | {100 * r.positive_rate:.1f}% +- {100 * r.positive_ci:.1f} | "
            f"{r.mean_score:.1f} +- {r.score_ci:.1f} |")


def _ci(per_deal: np.ndarray) -> float:
    n = len(per_deal)
    return 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")


def rotated_match(agent: Player, opponents: list[Player], deals: int, seed: int,
                  rules: R.RuleOptions | None = None) -> MatchResult:
    """``agent`` against ``opponents`` (three), each deal in all four seats (module doc), under
    ``rules`` (default: today's)."""
    rules = R.RuleOptions.of(rules)
    t0 = time.perf_counter()
    rel_win = np.zeros((deals, 4))
    rel = np.zeros((deals, 4))
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
            s = play_deal(players, deal_seed, (seed, "gz-eval", d, rot), rules)
            r = R.relative_scores(s)[rot]
            rel[d, rot] = r
            rel_win[d, rot] = float(r > 0)
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
        rel_win_rate=float(rel_win.mean()), rel_win_ci=_ci(rel_win.mean(1)),
        mean_rel=float(rel.mean()), rel_ci=_ci(rel.mean(1)),
        rules="default" if rules == R.DEFAULT_RULES else
        ("seed" if rules == R.SEED_RULES else str(rules.as_dict())),
    )


def equal_baseline(agent: Player, deals: int, seed: int,
                   rules: R.RuleOptions | None = None) -> MatchResult:
    """Four copies of ``agent`` on the same deals: what an equal player scores on each metric
    (the players here keep no state between decisions, so one object serves all four seats)."""
    return rotated_match(agent, [agent, agent, agent], deals, seed, rules)


RULE_SETS = {"default": R.DEFAULT_RULES, "seed": R.SEED_RULES}
"""``--rules``: today's rules, or the seed's reading (HA-only doubling, free first lead)."""


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
    p.add_argument("--rules", choices=sorted(RULE_SETS), default="default",
                   help="default: today's rules (the shipped agents' training rules); seed: "
                        "HA-only doubling and a free first lead")
    p.add_argument("--no-baseline", action="store_true",
                   help="skip the equal-player baseline (four copies of each agent)")
    p.add_argument("--table", action="store_true", help="also print a markdown table")
    p.add_argument("--json", help="write the results here")
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    rules = RULE_SETS[a.rules]
    matches = SUITE if a.suite else ((a.agent, a.opponents),)
    alias = {"dmc": f"dmc={a.dmc}", "cnn": f"cnn={a.cnn}"}
    out: list[MatchResult] = []
    done_baseline: set[str] = set()
    for agent_spec, opp_spec in matches:
        agent_spec = alias.get(agent_spec, agent_spec)
        opp_spec = ",".join(alias.get(x, x) for x in opp_spec.split(","))
        agent = make_player(agent_spec)
        res = rotated_match(agent, make_opponents(opp_spec), a.deals, a.seed, rules)
        print(res.line(), flush=True)
        out.append(res)
        if not a.no_baseline and agent_spec not in done_baseline:
            done_baseline.add(agent_spec)
            base = equal_baseline(agent, a.deals, a.seed, rules)
            print(base.line(), flush=True)
            out.append(base)
    if a.table:
        print(TABLE_HEADER)
        for r in out:
            print(table_row(r))
    if a.json:
        Path(a.json).write_text(json.dumps([asdict(r) for r in out], indent=1))


if __name__ == "__main__":
    main()
