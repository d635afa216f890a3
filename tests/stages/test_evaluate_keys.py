"""Key-endgame mining on a tiny synthetic setup (toy bots that differ), forks and scoring."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ime.core.registry import get_game
from ime.evaluate.forks import DRAW, LOSS, WIN, LoggedMatch, finish_as, outcome, state_at
from ime.evaluate.keys import mine_keys, read_keyset, write_keyset
from ime.evaluate.scoring import read_scores, score_agent, write_scores
from ime.evaluate.similarity import similarity
from ime.evaluate.toy import ToyProvider, ToyProviderFactory
from ime.games.reversi.encode import encode_states
from ime.matches.judge import run_match
from ime.matches.logs import write_matches

GAME = get_game("reversi")
MATCH_SEED = 7


def _logs(tmp_path, target="toy_first", opponent="toy_random", n=16, name="m.jsonl"):
    prov = ToyProvider()
    ms = []
    for k in range(n):
        seats = [prov(target), prov(opponent)] if k % 2 == 0 else [prov(opponent), prov(target)]
        ms.append(run_match(GAME, seats, match_id=f"{name}-{k}", seed=MATCH_SEED))
    path = tmp_path / name
    write_matches(path, ms)
    return path


def test_outcome_reads_botzone_scores():
    assert outcome([2, 0], 0) == WIN and outcome([2, 0], 1) == LOSS
    assert outcome([1, 1], 0) == DRAW
    # Doudizhu-style: both farmers share the top score
    assert outcome([0.1, 2.3, 2.3], 1) == WIN and outcome([0.1, 2.3, 2.3], 0) == LOSS


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("keys")
    path = _logs(tmp)
    res = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [path], ToyProviderFactory(),
                    n_keys=12, seed=3, match_seed=MATCH_SEED, workers=1, progress=False)
    return tmp, path, res


def test_mining_finds_keys_and_self_forks_reproduce(mined):
    _, _, res = mined
    st = res.stats
    assert st.n_keys == 12 and len(res.keys) == 12
    assert st.self_fork_failed == 0 and st.self_fork_rate == 1.0
    assert st.self_fork_checked == st.n_keys  # every would-be key was self-forked, and was one
    assert 0 < st.key_rate <= 1 and st.candidates_forked >= 12
    assert st.forks == st.candidates_forked * 2 + st.self_fork_checked  # 2 refs (+ self)
    assert st.matches_total == 16 and st.matches_with_keys >= 4  # spread over matches
    assert (res.keys["n_legal"] >= 2).all()
    # every key: some reference's result differs from the target's logged result
    k = res.keys
    differs = (k["outcome__toy_last"] != k["target_outcome"]) | (
        k["outcome__toy_random"] != k["target_outcome"])
    assert differs.all()
    assert (k["self_outcome"] == k["target_outcome"]).all()


def test_keys_are_what_an_independent_fork_says(mined):
    tmp, _, res = mined
    write_keyset(res, tmp / "k.parquet", tmp / "c.parquet", tmp / "s.json")
    ks = read_keyset(tmp / "k.parquet")
    prov = ToyProvider()
    for i in range(len(ks.df)):
        row = ks.df.iloc[i]
        m = ks.logged_match(i)
        st = state_at(GAME, m, int(row["ply"]))
        assert st.current_players() == [int(row["seat"])]
        planes, mask = encode_states([st])
        assert np.array_equal(planes[0], ks.planes[i]) and np.array_equal(mask[0], ks.mask[i])
        assert ks.mask[i][int(row["action"])] == 1  # the target's action is legal there
        fo = finish_as(GAME, m, int(row["ply"]), int(row["seat"]), prov("toy_last"), prov)
        assert fo.outcome == row["outcome__toy_last"] and fo.action == row["action__toy_last"]
        assert fo.action == st.legal_actions(int(row["seat"]))[-1]
        assert row["action"] == st.legal_actions(int(row["seat"]))[0]  # toy_first's choice


def test_mining_is_worker_independent_and_prefix_stable(mined):
    _, path, res = mined
    par = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [path], ToyProviderFactory(),
                    n_keys=12, seed=3, match_seed=MATCH_SEED, workers=2, progress=False)
    cols = ["match_id", "ply", "action", "outcome__toy_last", "outcome__toy_random"]
    assert par.keys[cols].equals(res.keys[cols])
    small = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [path],
                      ToyProviderFactory(), n_keys=5, seed=3, match_seed=MATCH_SEED,
                      progress=False)
    assert small.keys[cols].equals(res.keys[cols].iloc[:5].reset_index(drop=True))


def test_keys_do_not_depend_on_how_the_logs_are_sharded(mined, tmp_path):
    """The same matches split into 2 or 3 files (any order) give the same keys."""
    _, path, res = mined
    lines = path.read_text().splitlines(keepends=True)
    parts = []
    for k in range(3):  # every 3rd match, last file first
        part = tmp_path / f"shard{k}.jsonl"
        part.write_text("".join(lines[k::3]))
        parts.insert(0, part)
    split = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], parts, ToyProviderFactory(),
                      n_keys=12, seed=3, match_seed=MATCH_SEED, workers=1, progress=False)
    cols = ["match_id", "ply", "action", "outcome__toy_last", "outcome__toy_random"]
    assert split.keys[cols].equals(res.keys[cols])


def test_self_fork_of_every_candidate_on_request(mined):
    _, path, res = mined
    full = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [path],
                     ToyProviderFactory(), n_keys=12, seed=3, match_seed=MATCH_SEED,
                     progress=False, check_all_self=True)
    assert full.stats.self_fork_checked == full.stats.candidates_forked
    assert full.stats.self_fork_failed == 0
    assert full.keys["match_id"].tolist() == res.keys["match_id"].tolist()


def test_self_fork_failure_is_counted_and_excluded(tmp_path):
    # a bot with a shared random stream breaks the contract: its forks do not replay
    path = _logs(tmp_path, target="toy_unseeded", opponent="toy_first", n=4)
    res = mine_keys(GAME, "toy_unseeded", ["toy_last"], [path], ToyProviderFactory(), n_keys=3,
                    max_candidates=15, seed=0, match_seed=MATCH_SEED, progress=False,
                    check_all_self=True)
    assert res.stats.self_fork_failed > 0 and res.stats.self_fork_rate < 1.0
    ok = res.candidates["self_moves_same"] & (
        res.candidates["self_outcome"] == res.candidates["target_outcome"])
    assert (res.candidates.loc[res.candidates["is_key"], "self_moves_same"]).all()
    assert res.stats.n_keys <= int(ok.sum())


def test_wrong_match_seed_breaks_reproduction(tmp_path):
    # the opponent is random per (seed, match, ply): forking with another seed changes its play.
    # A log line's own `seed` (our judge writes it) wins over the default `match_seed`, which
    # only applies to lines without one (older logs, platform packs).
    path = _logs(tmp_path, n=4)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert all(d["seed"] == MATCH_SEED for d in lines)

    def mine(match_seed):
        return mine_keys(GAME, "toy_first", ["toy_last"], [path], ToyProviderFactory(),
                         n_keys=50, max_candidates=20, seed=0, match_seed=match_seed,
                         progress=False, check_all_self=True).stats

    assert mine(MATCH_SEED + 1).self_fork_failed == 0  # the lines' seed is used
    path.write_text("".join(json.dumps({k: v for k, v in d.items() if k != "seed"}) + "\n"
                            for d in lines))
    assert mine(MATCH_SEED).self_fork_failed == 0
    assert mine(MATCH_SEED + 1).self_fork_failed > 0
    path.write_text("".join(json.dumps({**d, "seed": MATCH_SEED + 1}) + "\n" for d in lines))
    assert mine(MATCH_SEED).self_fork_failed > 0  # a wrong seed in the line breaks it too


def test_unknown_players_are_skipped_and_counted(tmp_path):
    path = _logs(tmp_path, n=4)
    text = path.read_text().replace('"bot":"toy_random"', '"bot":"somebody_else"', 2)
    path.write_text(text)
    res = mine_keys(GAME, "toy_first", ["toy_last"], [path], ToyProviderFactory(), n_keys=2,
                    seed=0, match_seed=MATCH_SEED, progress=False)
    assert res.stats.matches_skipped == {"unknown_player": 2}
    assert res.stats.matches_total == 2


def test_scoring_reuses_stored_references_and_matches_forks(mined, tmp_path):
    tmp, _, res = mined
    write_keyset(res, tmp / "k2.parquet")
    ks = read_keyset(tmp / "k2.parquet")
    stored, info = score_agent(ks, "toy_last", ToyProviderFactory(), progress=False)
    assert info["source"] == "stored reference" and info["forks"] == 0
    forked, info2 = score_agent(ks, "toy_last", ToyProviderFactory(), force_fork=True,
                                workers=2, progress=False)
    assert info2["forks"] == len(ks.df)
    assert stored.equals(forked)
    # the target forked on its own keys is itself: S1 = S2 = 1
    me, _ = score_agent(ks, "toy_first", ToyProviderFactory(), force_fork=True, progress=False)
    sim = similarity(ks.df, me, agent="toy_first", target="toy_first", n_boot=50)
    assert sim.s1 == 1.0 and sim.s2 == 1.0
    # a bot that never agrees on the move (toy_last vs toy_first with >= 2 legal moves)
    sim_last = similarity(ks.df, stored, agent="toy_last", target="toy_first", n_boot=50)
    assert sim_last.s1 == 0.0 and 0.0 <= sim_last.s2 < 1.0
    write_scores(stored, info, tmp_path / "s.parquet")
    back, info_back = read_scores(tmp_path / "s.parquet")
    assert back.equals(stored) and info_back["source"] == "stored reference"


def test_logged_match_reads_seed_from_line_when_present():
    data = {"_id": "x", "players": [{"bot": "a"}, {"bot": "b"}], "seed": 42,
            "log": [{"output": {"command": "request", "content": {"0": {"x": -1, "y": -1}}}},
                    {"0": {"verdict": "OK", "response": {"x": 2, "y": 3}}},
                    {"output": {"command": "finish", "content": {"0": 2, "1": 0}}}]}
    m = LoggedMatch.from_json(data, default_seed=0)
    assert m.seed == 42 and m.players == ("a", "b") and not m.faulted


def test_score_per_key_plays_each_key_with_its_own_agent(mined, tmp_path):
    from ime.evaluate.scoring import score_per_key

    tmp, _, res = mined
    write_keyset(res, tmp / "k3.parquet")
    ks = read_keyset(tmp / "k3.parquet")
    n = len(ks.df)
    agents = [("toy_last" if i % 3 == 0 else "toy_first" if i % 3 == 1 else None)
              for i in range(n)]
    df, info = score_per_key(ks, agents, ToyProviderFactory(), progress=False)
    assert list(df["agent"]) == [a for a in agents if a is not None]
    assert info["forks"] == len(df) == sum(a is not None for a in agents)
    first = df["agent"] == "toy_first"
    keys_first = ks.df.iloc[[i for i, a in enumerate(agents) if a == "toy_first"]]
    assert (df.loc[first, "action"].to_numpy() == keys_first["action"].to_numpy()).all()
    with pytest.raises(ValueError, match="agents for"):
        score_per_key(ks, agents[:-1], ToyProviderFactory(), progress=False)


def test_heldout_agents_use_the_fold_that_did_not_train_on_the_match(tmp_path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ime.evaluate.heldout import dataset_match_folds, fold_agent_id, heldout_agents
    from ime.train.folds import split_indices

    ids = [f"m{i}" for i in range(20) for _ in range(3)]  # 20 matches, 3 rows each
    pq.write_table(pa.table({"match_id": ids}), tmp_path / "d.parquet")
    fold_of = dataset_match_folds(tmp_path / "d.parquet", 5, seed=3)
    for f in range(5):  # same split as training
        _, va = split_indices(ids, 5, f, 3)
        assert {ids[i] for i in va} == {m for m, k in fold_of.items() if k == f}
    keys = pd.DataFrame({"match_id": ["m0", "m1", "m2", "m3", "zz"]})
    agents = heldout_agents(keys, fold_of, trained=[0, 1], imitator="imit_x")
    for m, a in zip(keys["match_id"], agents, strict=True):
        if m == "zz":
            assert a == "imit_x"  # in no training set: the ensemble plays it
        elif fold_of[m] in (0, 1):
            assert a == fold_agent_id("imit_x", fold_of[m])
        else:
            assert a is None
