"""Why snk14's and snk19's held-out S2 read 0 at quick scale (run from the run's clone root).

Quick trains folds 0 and 1 of a 5-fold split by match, so a key is held out only when its match
is in fold 0's or fold 1's validation fifth. Every held-out key of each bot comes from ONE match:
the score files are one observation, not 23 or 24. This replays one held-out key with the zoo bot,
the ensemble and both fold imitators, and prints the first turn where the fold imitator's
continuation leaves the bot's.
"""

import sys

import pandas as pd

from ime.core.registry import get_game
from ime.evaluate.agents import Provider, imitator_spec
from ime.evaluate.forks import agent_seats, fork
from ime.evaluate.heldout import dataset_match_folds
from ime.evaluate.keyset import read_keyset

EVAL = "data/snake/eval/quick/n1000_l2_s0"
for bot in sys.argv[1:] or ["snk14", "snk19"]:
    ks = read_keyset(f"{EVAL}/keys/{bot}.parquet")
    fold_of = dataset_match_folds(f"data/snake/datasets/quick/{bot}.parquet", 5, 0)
    held = pd.read_parquet(f"{EVAL}/scores/heldout/quick/search/imit_{bot}/{bot}.parquet")
    folds = pd.Series([fold_of.get(m) for m in ks.df.match_id]).value_counts().to_dict()
    print(f"{bot}: keys by validation fold {folds}; held-out keys {len(held)} from "
          f"{held.match_id.nunique()} match(es) {sorted(held.match_id.unique())}; "
          f"outcomes {held.outcome.value_counts().to_dict()}")
    cp = [f"data/snake/models/quick/search/{bot}/fold{k}.pt" for k in (0, 1)]
    imit = f"imit_{bot}"
    extra = {imit: imitator_spec(cp, target=bot, net="search", fold="ensemble"),
             **{f"{imit}@fold{k}": imitator_spec([cp[k]], target=bot, net="search", fold=k)
                for k in (0, 1)}}
    prov = Provider("snake", None, extra)
    game = get_game(ks.game, ks.game_params)
    i = int(ks.df.index[ks.df.match_id == held.match_id.iloc[0]][0])
    m, ply, seat = ks.logged_match(i), int(ks.df.ply.iloc[i]), int(ks.df.seat.iloc[i])
    mine = agent_seats(game, m.players, seat)
    turns = {}
    for a in (bot, imit, f"{imit}@fold0", f"{imit}@fold1"):
        res = fork(game, m, ply, [prov(a) if p in mine else prov(pid)
                                  for p, pid in enumerate(m.players)], player_ids=list(m.players))
        turns[a] = [e for k, e in enumerate(res.log) if k % 2 == 1]
        print(f"  key ply {ply} seat {seat} vs {m.players[1 - seat]}: {a:16s} scores "
              f"{res.scores} after {len(turns[a])} turns")
    k = fold_of[m.match_id]
    a = f"{imit}@fold{k}"
    diff = next((t for t, (x, y) in enumerate(zip(turns[bot], turns[a])) if x != y), None)
    print(f"  the match is fold {k}'s validation: {a} plays it held out; its continuation "
          f"first differs from {bot}'s at turn {diff}: {turns[bot][diff]} vs {turns[a][diff]}"
          if diff is not None else f"  {a} plays {bot}'s continuation exactly")
