#!/usr/bin/env python
"""How often the opponent model predicts the original bot where opponent-model search asks it.

A diagnostic of issue 49 (docs/opponent_model.md, "Why the imitators lose"): the experiment's
cell (c) searches with the target's imitator at the target's nodes. An imitator is trained on the
positions of the target's own games; the search asks it about the positions *its own tree*
reaches, most of them after moves nobody played. This script plays the cell's games (our
``om_search`` player, ``mode: policy``, against the target from seeded balanced openings, both
seats) and records every position the model is asked about and every position where the target
really moved; then it asks the target itself (a deterministic bot: its move is the truth) on a
seeded sample of each and reports the model's top-1 agreement on both, and on the search
positions by their depth in the tree.

Example (the quick run's rev4 CONV ensemble, the experiment's settings)::

    python scripts/om_model_accuracy.py reversi rev4 \\
        data/reversi/models/quick/conv/rev4/fold0.pt data/reversi/models/quick/conv/rev4/fold1.pt \\
        --evaluation rev1 --depth 4 --rounds 10 --opening-plies 4
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

import numpy as np

from ime.bots.imitator import ImitatorBot
from ime.bots.om_search import ImitatorModel, OpponentModelSearchBot, build_evaluation
from ime.bots.registry import load_bot_specs, make_bot
from ime.core.bot import Bot, DecisionContext
from ime.core.registry import get_game
from ime.evaluate.schedule import pair_schedule
from ime.evaluate.tournament import balanced_openings, opening_prefix
from ime.matches.judge import run_match


class Recording(ImitatorModel):
    """The imitator as the search's model, keeping every position it is asked about (with the
    number of plies below the search's root)."""

    def __init__(self, imitator: ImitatorBot):
        super().__init__(imitator)
        self.asked: list[tuple] = []
        self.root_ply = 0

    def distributions(self, states, players):
        self.asked += [(s.clone(), p, s.ply - self.root_ply) for s, p in
                       zip(states, players, strict=True)]
        return super().distributions(states, players)


class Ours(Bot):
    """Our player: tells the model the root's ply before each search."""

    def __init__(self, bot: OpponentModelSearchBot, model: Recording):
        self.bot, self.model, self.bot_id = bot, model, "om_player"

    def act(self, state, ctx):
        self.model.root_ply = state.ply
        return self.bot.act(state, ctx)


class Watched(Bot):
    """The target, keeping every position where it moved and its move."""

    def __init__(self, bot: Bot):
        self.bot, self.bot_id, self.moves = bot, bot.bot_id, []

    def act(self, state, ctx):
        move = self.bot.act(state, ctx)
        self.moves.append((state.clone(), ctx.player, move))
        return move


def agreement(model: Recording, target: Bot, states: list, players: list[int],
              moves: list | None, seed: int) -> list[bool]:
    """Per position: the model's top move is the target's move there (``moves``, or, when
    None, the target's decision asked now)."""
    ctxs = [DecisionContext(seed=seed, match_id="om-accuracy", ply=s.ply, player=p)
            for s, p in zip(states, players, strict=True)]
    predicted = ImitatorModel.replies(model, states, players, ctxs)
    if moves is None:
        moves = [target.act(s.clone(), c) for s, c in zip(states, ctxs, strict=True)]
    return [a == b for a, b in zip(predicted, moves, strict=True)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("target", help="the original bot (deterministic; its zoo id)")
    ap.add_argument("checkpoints", nargs="+", help="the model: an imitator's checkpoint files")
    ap.add_argument("--evaluation", required=True, help="our evaluation's zoo search bot")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=10, help="openings, each in both seats")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--openings", default="{}", help="game.openings as JSON")
    ap.add_argument("--game-params", default="{}", help="game.params as JSON")
    ap.add_argument("--sample", type=int, default=2000, help="positions asked of the target")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    params = json.loads(a.game_params) or None
    game = get_game(a.game, params) if params else get_game(a.game)
    specs = load_bot_specs(a.game)
    imitator = ImitatorBot.from_checkpoints("model", a.checkpoints, game=a.game,
                                            game_params=params)
    model = Recording(imitator)
    ours = Ours(OpponentModelSearchBot("om_player", build_evaluation(a.game, "om_player",
                                                                     a.evaluation),
                                       model=model, mode="policy", depth=a.depth,
                                       nodes=a.nodes), model)
    target = Watched(make_bot(a.game, a.target, specs))
    openings = [(init, opening_prefix(game, o, a.seed, initdata=init)) for init, o in
                balanced_openings(game, a.rounds, a.opening_plies, seed=a.seed,
                                  openings=json.loads(a.openings), starts=True)]
    for g in pair_schedule("om_player", a.target, a.rounds):
        init, prefix = openings[g.round]
        bots = [ours if p == "om_player" else target for p in g.players]
        run_match(game, bots, match_id=f"om-accuracy-r{g.round}-{g.players[0]}", seed=a.seed,
                  initdata=init, prefix=prefix)
    rng = np.random.default_rng(a.seed)
    truth = make_bot(a.game, a.target, specs)
    played = [m for m in target.moves if len(m[0].legal_actions(m[1])) > 1]
    asked = [m for m in model.asked if len(m[0].legal_actions(m[1])) > 1]
    pick = sorted(rng.choice(len(asked), size=min(a.sample, len(asked)), replace=False))
    sample = [asked[i] for i in pick]
    on_games = agreement(model, truth, [m[0] for m in played], [m[1] for m in played],
                         [m[2] for m in played], a.seed)
    on_search = agreement(model, truth, [m[0] for m in sample], [m[1] for m in sample], None,
                          a.seed)
    by_depth: dict[int, list[bool]] = defaultdict(list)
    for (_, _, d), ok in zip(sample, on_search, strict=True):
        by_depth[d].append(ok)
    out = {"game": a.game, "target": a.target, "checkpoints": a.checkpoints,
           "games": 2 * a.rounds,
           "game_positions": len(played), "top1_game_positions": float(np.mean(on_games)),
           "search_positions_asked": len(asked), "search_positions_sampled": len(sample),
           "top1_search_positions": float(np.mean(on_search)),
           "top1_by_plies_below_root": {d: [len(v), float(np.mean(v))]
                                        for d, v in sorted(by_depth.items())}}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
