"""Tracing a key endgame (thesis 5.5.2): the trace is S2's fork recorded, so every agent's traced
result is its stored S2 verdict; the key is found by index or match@ply, an unknown one is a
clear error; the case study's key follows the thesis's rule; the figure's bytes are stable."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch
from torch import nn

from ime.bots.imitator import ImitatorBot
from ime.cli.main import main
from ime.core.registry import get_game
from ime.evaluate.forks import DRAW, LOSS, WIN, state_at
from ime.evaluate.keys import mine_keys, read_keyset, write_keyset
from ime.evaluate.keyset import KeySet
from ime.evaluate.scoring import score_agent
from ime.evaluate.toy import ToyProvider, ToyProviderFactory
from ime.evaluate.trace import (
    CHOICE_RULES,
    TRACE_COLUMNS,
    UnknownKeyError,
    check_outcomes,
    choose_key,
    find_key,
    key_names,
    stored_outcomes,
    trace_key,
)
from ime.matches.judge import run_match
from ime.matches.logs import write_matches
from ime.report.case_study import plot_case_study

GAME = get_game("reversi")
MATCH_SEED = 5
IMIT = "imit_toy_first"


class Corners(nn.Module):
    """A fixed 'net' preferring the corners, then the edges: a real imitator that plays unlike
    every toy bot on some keys and like the target on others."""

    def __init__(self) -> None:
        super().__init__()
        w = np.zeros(64, np.float32)
        for sq in range(64):
            y, x = divmod(sq, 8)
            w[sq] = (y in (0, 7)) + (x in (0, 7)) - 0.01 * sq
        self.w = torch.as_tensor(w)

    def forward(self, planes, mask):
        return self.w.expand(planes.shape[0], -1) * mask


def _provider_extra() -> dict:
    return {IMIT: ImitatorBot(IMIT, [Corners()], game="reversi")}


@pytest.fixture(scope="module")
def keyset(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trace")
    prov = ToyProvider()
    ms = []
    for k in range(8):
        seats = ([prov("toy_first"), prov("toy_random")] if k % 2 == 0
                 else [prov("toy_random"), prov("toy_first")])
        ms.append(run_match(GAME, seats, match_id=f"tr-{k}", seed=MATCH_SEED))
    logs = tmp / "m.jsonl"
    write_matches(logs, ms)
    res = mine_keys(GAME, "toy_first", ["toy_last", "toy_random"], [logs], ToyProviderFactory(),
                    n_keys=6, seed=1, match_seed=MATCH_SEED, workers=1, progress=False)
    path = tmp / "toy_first.parquet"
    write_keyset(res, path)
    ks = read_keyset(path)
    scores, _ = score_agent(ks, IMIT, ToyProviderFactory(_provider_extra()), progress=False)
    return path, ks, scores


def test_trace_reproduces_every_stored_s2_verdict(keyset):
    _, ks, scores = keyset
    assert len(ks.df) == 6
    provider = ToyProvider(_provider_extra())
    seen_outcomes = set()
    for i in range(len(ks.df)):
        tr = trace_key(ks, i, [*ks.references, IMIT], provider, imitator=IMIT)
        expected = stored_outcomes(ks, i, {IMIT: scores})
        assert set(expected) == {"toy_first", "toy_last", "toy_random", IMIT}
        assert tr.outcomes == expected, i
        check_outcomes(tr, expected)
        seen_outcomes |= set(expected.values())
        rows = tr.rows
        assert list(rows.columns) == TRACE_COLUMNS
        key_ply = int(ks.df["ply"].iloc[i])
        for agent, g in rows.groupby("agent", sort=False):
            assert g["ply"].iloc[0] == key_ply and g["ply"].is_monotonic_increasing
            assert g["seat"].iloc[0] == ks.df["seat"].iloc[i]  # the agent moves first
            assert (g["result"] == {WIN: "win", DRAW: "draw", LOSS: "loss"}[
                expected[agent]]).all()
        me = rows[rows["agent"] == "toy_first"]
        assert me["same_as_target"].all() and tr.divergence("toy_first") is None
        assert set(rows.loc[rows["agent"] == IMIT, "role"]) == {"imitator"}
        # toy_last's first move is never the target's (>= 2 legal moves): it forks at the key
        assert tr.divergence("toy_last") == key_ply
        first_last = rows[rows["agent"] == "toy_last"].iloc[0]
        assert not first_last["same_as_target"]
        response = _response_of(ks, i, "toy_last")  # Reversi's codec line: "x y"
        assert first_last["move"] == f"{response['x']} {response['y']}"
    assert len(seen_outcomes) >= 2  # the keys really tell wins from losses


def _response_of(ks: KeySet, i: int, agent: str) -> dict:
    """The stored first action of ``agent`` on key ``i`` as a Botzone response."""
    state = state_at(GAME, ks.logged_match(i), int(ks.df["ply"].iloc[i]))
    return state.encode_response(int(ks.df["seat"].iloc[i]), int(ks.df[f"action__{agent}"]
                                                                  .iloc[i]))


def test_a_wrong_stored_verdict_is_caught(keyset):
    _, ks, scores = keyset
    tr = trace_key(ks, 0, ks.references, ToyProvider())
    wrong = stored_outcomes(ks, 0)
    wrong["toy_last"] = WIN if wrong["toy_last"] != WIN else LOSS
    with pytest.raises(ValueError, match="toy_last"):
        check_outcomes(tr, wrong)


def test_keys_are_found_by_index_or_match_and_ply(keyset):
    path, ks, _ = keyset
    names = key_names(ks)
    for i, name in enumerate(names):
        assert find_key(ks, name, path) == i == find_key(ks, str(i), path)
    with pytest.raises(UnknownKeyError) as e:
        find_key(ks, "tr-0@999", path)
    assert str(path) in str(e.value) and names[0] in str(e.value)
    with pytest.raises(UnknownKeyError, match="0..5"):
        find_key(ks, "6", path)


def test_cli_unknown_key_names_the_file_and_its_keys(keyset, capsys):
    path, ks, _ = keyset
    assert main(["trace", "reversi", str(path), "no-such-match@3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ime trace: error: ") and str(path) in err
    assert "no-such-match@3" in err and key_names(ks)[0] in err
    assert main(["trace", "doudizhu", str(path), "0"]) == 2
    assert "key set of 'reversi'" in capsys.readouterr().err
    assert main(["trace", "reversi", str(path.with_name("absent.parquet")), "0"]) == 2
    assert "no such key set" in capsys.readouterr().err


def _synthetic(target: str, refs: list[str], tgt: list[int], ref_outcomes: list[list[int]]
               ) -> KeySet:
    df = pd.DataFrame({"match_id": [f"{target}-{i}" for i in range(len(tgt))],
                       "ply": list(range(len(tgt))), "seat": 0, "target_outcome": tgt})
    for j, r in enumerate(refs):
        df[f"outcome__{r}"] = [row[j] for row in ref_outcomes]
    return KeySet(df=df, game="reversi", target=target, references=refs,
                  planes=np.zeros((len(tgt), 1)), mask=np.zeros((len(tgt), 1)), stats={})


def test_the_case_key_follows_the_thesis_rule():
    W, L, D = WIN, LOSS, DRAW
    # a: no key where a and its imitator both win; b: keys 1 and 3 qualify, 3 and 4 have the
    # most losing references but 4 does not qualify, so 3 (not 1, not 4)
    a = _synthetic("a", ["b", "c"], [W, L, W], [[L, L], [W, W], [L, L]])
    b = _synthetic("b", ["a", "c"], [L, W, W, W, W], [[W, W], [L, W], [W, W], [L, L], [L, L]])
    imit = {"a": [L, L, D], "b": [W, W, L, W, L]}
    ch = choose_key([a, b], imit)
    assert (ch.target, ch.index, ch.rule) == ("b", 3, CHOICE_RULES[0])
    # ties go to the earlier key
    b2 = _synthetic("b", ["a"], [W, W, W], [[L], [L], [W]])
    assert choose_key([b2], {"b": [W, W, W]}).index == 0
    # the first target that has such a key, even if a later one has "better" keys
    c = _synthetic("c", ["a", "b"], [W], [[W, W]])
    assert choose_key([c, b], {"c": [W], "b": imit["b"]}).target == "c"
    # no target/imitator win anywhere: the imitator matches the target, most references differ
    d = _synthetic("d", ["x", "y"], [L, L, W], [[L, L], [W, W], [L, L]])
    ch = choose_key([d], {"d": [L, L, L]})
    assert (ch.index, ch.rule) == (1, CHOICE_RULES[1])
    # nor that: the key where the most references differ
    ch = choose_key([d], {"d": [W, W, L]})
    assert (ch.index, ch.rule) == (1, CHOICE_RULES[2])
    with pytest.raises(ValueError, match="imitator outcomes"):
        choose_key([d], {"d": [W]})
    with pytest.raises(ValueError, match="no key endgames"):
        choose_key([_synthetic("e", [], [], [])], {})


def test_case_study_figure_has_stable_bytes(keyset, tmp_path):
    _, ks, _ = keyset
    tr = trace_key(ks, 0, [*ks.references, IMIT], ToyProvider(_provider_extra()), imitator=IMIT)
    for k in (1, 2):
        plot_case_study(tr, tmp_path / f"f{k}.png", tmp_path / f"f{k}.pdf")
    assert (tmp_path / "f1.png").read_bytes() == (tmp_path / "f2.png").read_bytes()
    assert (tmp_path / "f1.pdf").read_bytes() == (tmp_path / "f2.pdf").read_bytes()
    assert (tmp_path / "f1.png").stat().st_size > 5000
