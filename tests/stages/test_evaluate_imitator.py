"""The imitator bot: masking, tie-breaking, passes, ensembles, registry kind."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from ime.bots.imitator import ImitatorBot
from ime.bots.registry import known_kinds, make_bot
from ime.core.bot import DecisionContext
from ime.core.registry import get_game
from ime.games.reversi.bitboard import PASS

GAME = get_game("reversi")


class FixedLogits(nn.Module):
    """Returns the same logits for every position, multiplied by the mask (a 'masked' net)."""

    def __init__(self, logits):
        super().__init__()
        self.logits = torch.as_tensor(np.asarray(logits, dtype=np.float32))

    def forward(self, planes, mask):
        return self.logits.expand(planes.shape[0], -1) * mask


def _ctx(state):
    return DecisionContext(seed=0, match_id="t", ply=state.ply, player=state.to_move)


def test_plays_best_legal_square_and_ignores_illegal_and_zeroed_outputs():
    st = GAME.new_initial_state()
    legal = st.legal_actions(0)  # 19, 26, 37, 44
    logits = np.full(64, -5.0)
    logits[0] = 100.0            # illegal: must be ignored
    logits[37] = -1.0            # best legal; masked illegal outputs are 0 > -1: must not win
    bot = ImitatorBot("imit", [FixedLogits(logits)], game="reversi")
    a = bot.act(st, _ctx(st))
    assert a == 37 and a in legal


def test_ties_go_to_the_lowest_square():
    st = GAME.new_initial_state()
    bot = ImitatorBot("imit", [FixedLogits(np.zeros(64))], game="reversi")
    assert bot.act(st, _ctx(st)) == min(st.legal_actions(0))


def test_forced_pass_is_played_without_the_net():
    # white to move with no legal square (black still has D1): white must pass
    board = "OOO-OOXXOOOOOXXXOXOOXXXXOXXXOOXXOOOXXOXXOOXOXXOXOXOOOOXXXXXXXXXX"
    st = GAME.state_from_board(board, "O")
    assert st.legal_actions(1) == [PASS]

    class Boom(nn.Module):
        def forward(self, planes, mask):
            raise AssertionError("the net must not be asked on a forced pass")

    assert ImitatorBot("imit", [Boom()], game="reversi").act(st, _ctx(st)) == PASS


def test_ensemble_averages_softmax_not_logits():
    st = GAME.new_initial_state()  # legal: 19, 26, 37, 44
    a = np.full(64, 0.0)
    b = np.full(64, 0.0)
    a[19], a[26] = 10.0, 0.0   # model A: almost surely 19
    b[19], b[26] = 0.0, 9.0    # model B: almost surely 26 ...
    b[37] = 8.9                # ... but splits its mass with 37
    # mean of logits picks 19 (10 vs 9 vs 8.9) but also mean of softmax: A gives 19 ~1.0,
    # B gives 26 ~0.52, 37 ~0.47 -> 19 (0.5) vs 26 (0.26): same here; make A less sure:
    a[44] = 10.0               # A splits 19/44 evenly (~0.5 each)
    bot = ImitatorBot("imit", [FixedLogits(a), FixedLogits(b)], game="reversi")
    planes = np.zeros((1, 2, 8, 8), np.uint8)
    mask = np.zeros((1, 64), np.uint8)
    mask[0, [19, 26, 37, 44]] = 1
    p = bot.policy(planes, mask)[0]
    assert p.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(p > 1e-12)) <= {19, 26, 37, 44}
    # softmax means: 19 ~0.25, 44 ~0.25, 26 ~0.26, 37 ~0.24 -> 26; mean logits would give 19/44
    assert bot.choose(planes, mask)[0] == 26
    assert int(np.argmax((a + b) * mask[0] - 1e9 * (1 - mask[0]))) in (19, 44)
    assert bot.act(st, _ctx(st)) == 26


def test_act_batch_matches_act():
    rng = np.random.default_rng(0)
    bot = ImitatorBot("imit", [FixedLogits(rng.normal(size=64))], game="reversi")
    st = GAME.new_initial_state()
    states = []
    for _ in range(10):
        states.append(st.clone())
        st.apply_action(bot.act(st, _ctx(st)))
    assert list(bot.act_batch(states)) == [bot.act(s, _ctx(s)) for s in states]


def test_registered_kind_and_clear_errors(tmp_path):
    import ime.bots.imitator  # noqa: F401

    assert "imitator" in known_kinds("reversi")
    specs = {"imit_x": {"kind": "imitator", "params": {"checkpoints": [str(tmp_path / "no.pt")]}}}
    with pytest.raises(FileNotFoundError, match="no.pt"):
        make_bot("reversi", "imit_x", specs)
    with pytest.raises(ValueError, match="checkpoints"):
        make_bot("reversi", "imit_y", {"imit_y": {"kind": "imitator"}})
