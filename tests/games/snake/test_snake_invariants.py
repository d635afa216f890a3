"""Random-game invariants of the Snake kernels, and the kernels against the plain-Python
transcription of the judge (``ime.games.snake.reference``) move by move."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from ime.games.snake import GAME
from ime.games.snake import board as B
from ime.games.snake.reference import RefGame
from ime.games.snake.reference import judge_board as ref_board


@njit(cache=True)
def _check_position(S, obs_count) -> int:
    """0 if the grid, the rings and the lengths agree; else a code saying what broke."""
    stride = S[B.I_STRIDE]
    h, w = S[B.I_H], S[B.I_W]
    counts = np.zeros(5, np.int64)
    for x in range(h + 2):
        for y in range(w + 2):
            v = S[B.OFF_CELLS + x * stride + y]
            border = x == 0 or y == 0 or x == h + 1 or y == w + 1
            if border != (v == B.BORDER):
                return 1
            counts[v] += 1
    if counts[B.OBSTACLE] != obs_count:
        return 2
    for p in range(2):
        n = S[B.I_LEN + p]
        if counts[B.SNAKE0 + p] != n:
            return 3
        for k in range(n):
            c = B.segment(S, p, k)
            if S[B.OFF_CELLS + c] != B.SNAKE0 + p:
                return 4
            if k:
                d = abs(c - B.segment(S, p, k - 1))
                if d != 1 and d != stride:
                    return 5
    # the valid mask is what the grid says once this turn's tails are gone
    for p in range(2):
        hd = B.head(S, p)
        for d in range(4):
            c = hd + B.delta(d, stride)
            free = S[B.OFF_CELLS + c] == B.EMPTY or (
                not B.grows(S[B.I_PLY]) and (c == B.tail(S, 0) or c == B.tail(S, 1)))
            if free != bool((B.valid_mask(S, p) >> d) & 1):
                return 6
    return 0


@njit(cache=True)
def _invariant_games(n: int, seed: int) -> np.ndarray:
    """``n`` random games (mostly valid moves, sometimes any direction); returns
    ``[games, turns, errors, first error code]``."""
    st = np.zeros(1, np.uint64)
    st[0] = np.uint64(seed)
    out = np.zeros(4, np.int64)
    for i in range(n):
        width, height, obs = B.judge_board(seed + i, B.NO_OPTION, B.NO_OPTION)
        S = B.new_state(height, width, obs)
        grown = 1
        while S[B.I_DEAD] == 0:
            err = _check_position(S, obs.shape[0])
            expect = [grown, grown]
            for p in range(2):
                if S[B.I_LEN + p] != expect[p]:
                    err = 7
            if err:
                out[2] += 1
                if out[3] == 0:
                    out[3] = err
                break
            a = np.zeros(2, np.int64)
            for p in range(2):
                a[p] = B.below(st, 4) if B.below(st, 20) == 0 else B.random_move(S, p, st)
            before = S.copy()
            code = B.step(S, a[0], a[1])
            B.undo(S, code)
            if not np.array_equal(S, before):
                out[2] += 1
                out[3] = 8
                break
            B.step(S, a[0], a[1])
            if B.grows(S[B.I_PLY] - 1):
                grown += 1
            out[1] += 1
        out[0] += 1
    return out


@pytest.mark.slow
def test_two_thousand_random_games_keep_every_invariant():
    games, turns, errors, first = _invariant_games(2000, 7)
    assert games == 2000 and errors == 0, f"invariant {first} broken"
    assert turns > 2000 * 10


@pytest.mark.slow
def test_random_games_kernel_counts():
    out = B.random_games(2000, 11, B.NO_OPTION, B.NO_OPTION)
    assert out[0] == 2000 and out[2] + out[3] + out[4] == 2000
    assert min(out[2], out[3], out[4]) > 0
    fixed = B.random_games(50, 11, 11, 14)
    assert fixed[0] == 50


def _ref_body(S, p, width):
    n = int(S[B.I_LEN + p])
    return [divmod(int(B.segment(S, p, k)), width + 2) for k in range(n - 1, -1, -1)]


def test_kernels_play_as_the_reference_judge():
    rng = np.random.default_rng(3)
    turns, longest = 0, 0
    for _ in range(200):
        seed = int(rng.integers(-(2**31), 2**31))
        w, h, obs = ref_board(seed)
        assert (w, h, obs) == GAME.board(seed)
        st = GAME.new_initial_state(seed=seed)
        ref = RefGame(h, w, set(obs))
        while not ref.over:
            moves = []
            for p in (0, 1):
                valid = ref.valid_now(p)
                assert valid == st.valid_actions(p)
                r = rng.random()
                if r < 0.01 or not valid:
                    moves.append(int(rng.integers(-1, 5)))
                elif r < 0.9:  # roomy moves make long games (tails removed, long bodies)
                    moves.append(max(valid, key=lambda d, p=p: st.area_after(p, d)))
                else:
                    moves.append(int(valid[int(rng.integers(len(valid)))]))
            ref.play(*(m if 0 <= m <= 3 else (m if m != -1 else None) for m in moves))
            B.step(st.S, moves[0], moves[1])
            turns += 1
            assert list(B.scores(int(st.S[B.I_DEAD]))) == list(ref.scores())
            if not ref.over:
                for p in (0, 1):
                    assert _ref_body(st.S, p, w) == [tuple(c) for c in ref.snakes[p]]
        longest = max(longest, ref.num)
    assert turns > 3000 and longest > 60, (turns, longest)
