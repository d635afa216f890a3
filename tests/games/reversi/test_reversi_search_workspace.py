"""The search's speed-ups of issue 31 keep every decision: a reused workspace, the table-driven
edge stability, the rank-space ``table`` order, the ``mobility`` order and the incremental leaf
evaluation are each checked here against a plain reference, on seeded positions and tables that
the zoo does not use (huge and negative weights), where a shortcut would show."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from ime.games.reversi.bitboard import flips, legal_moves, popcount
from ime.games.reversi.bots import search as S
from ime.games.reversi.bots.analysis import random_midgame_positions
from ime.games.reversi.bots.evaluation import SearchParams, row_tables
from ime.games.reversi.bots.search import AlphaBetaBot

ROOT = Path(__file__).resolve().parents[3]


def edge_stable_reference(p: int) -> int:
    """The square-by-square walk the table replaced: each owned corner, then the own discs chained
    from it along both of its edges (at most six a side)."""
    n = 0
    for corner in (0, 7, 56, 63):
        if not (p >> corner) & 1:
            continue
        n += 1
        for step in (1 if corner % 8 == 0 else -1, 8 if corner < 8 else -8):
            sq = corner + step
            for _ in range(6):
                if not (p >> sq) & 1:
                    break
                n += 1
                sq += step
    return n


def random_boards(rng: np.random.Generator, n: int) -> list[int]:
    """Boards of every density, full edges and corners included."""
    out = []
    for _ in range(n):
        density = rng.choice([0.2, 0.5, 0.8, 0.97])
        bits = rng.random(64) < density
        out.append(sum(1 << i for i in range(64) if bits[i]))
    return out


def test_edge_stability_table_equals_the_walk() -> None:
    from numba import njit

    @njit
    def table_edge_stable(p):
        return S._edge_stable(p)

    rng = np.random.default_rng(31)
    boards = random_boards(rng, 3000) + [0, (1 << 64) - 1, 0xFF, 0x8181818181818181]
    for b in boards:
        assert table_edge_stable(np.uint64(b)) == edge_stable_reference(b), hex(b)


def order_key(P: np.uint64, O: np.uint64, w: np.ndarray, sq: int, mode: int) -> int:
    """The ordering key of ``_order``'s docstring, computed the slow way."""
    if mode == 0:
        return -sq
    if mode == 1:
        return int(w[sq]) * 64 - sq
    f = int(flips(P, O, sq))
    replies = np.uint64(legal_moves(np.uint64(int(O) ^ f), np.uint64(int(P) | f | (1 << sq))))
    return -int(popcount(replies)) * 1000000 + int(w[sq]) * 64 - sq


def weights_zoo_does_not_use(rng: np.random.Generator) -> list[np.ndarray]:
    """Tables with ties, negative weights and weights so large that ``w * 64`` outweighs the
    ``mobility`` key's reply term (1,000,000 a reply)."""
    return [
        rng.integers(-3, 4, size=64),
        rng.integers(-100000, 100000, size=64),
        np.zeros(64, dtype=np.int64),
    ]


@pytest.mark.slow
def test_orderings_equal_a_sort_by_the_documented_keys() -> None:
    """``_order`` writes the moves best first by the key of its docstring, whatever the table."""
    from numba import njit

    @njit
    def order(P, O, mode, ws):
        n = S._order(P, O, legal_moves(P, O), S.I0, mode, ws)
        return ws[S.W_MOVES:S.W_MOVES + n].copy()

    rng = np.random.default_rng(7)
    positions = random_midgame_positions(40, seed=5)
    for w in weights_zoo_does_not_use(rng):
        w = np.asarray(w, dtype=np.int64)
        ws = S.workspace(row_tables(w), w, SearchParams().pack())
        for st in positions:
            P, O = st.own_opp(st.to_move)
            squares = [a for a in st.legal_actions() if a < 64]
            for mode in (0, 1, 2):
                got = list(order(P, O, np.int64(mode), ws))
                want = sorted(squares, key=lambda sq, m=mode, P=P, O=O, w=w:
                              order_key(P, O, w, sq, m), reverse=True)
                assert got == want, (mode, got, want)


@pytest.mark.parametrize("params", [
    {"nodes": 3000, "mobility": 12, "frontier": 4, "stable": 10, "ordering": "mobility"},
    {"nodes": 3000, "mobility": 6, "parity": 15, "ordering": "table", "tie": "last"},
    {"nodes": 2000, "max_depth": 8, "ordering": "none", "pv_first": False, "tie": "last"},
    {"nodes": 2000, "corner": 30, "disc": 1, "ordering": "table", "tie": "random"},
])
def test_a_reused_workspace_decides_as_a_fresh_search(params: dict) -> None:
    """A bot keeps one workspace for all its decisions; the buffers left by one search must not
    reach the next: positions forwards then backwards give what a fresh search gives."""
    bot = AlphaBetaBot("t", params)
    p = SearchParams.from_mapping(params)
    w = p.table()
    tab, prm = row_tables(w), p.pack()
    positions = random_midgame_positions(12, seed=3)
    order = list(range(len(positions))) + list(reversed(range(len(positions))))
    for i in order:
        P, O = positions[i].own_opp(positions[i].to_move)
        fresh = S.search(P, O, tab, w, prm, np.int64(i))
        assert list(S.search_in(P, O, bot._ws, np.int64(i))) == list(fresh)
        r = bot.analyse(positions[i], seed=i)
        assert [r["move"], r["score"], r["depth"], r["nodes"], r["solved"]] == list(fresh)


def test_the_leaf_evaluation_is_the_evaluation() -> None:
    """The search scores leaves with an incrementally updated positional term and reads the
    other weights once a node; the public ``evaluate`` (the MCTS bot's) recomputes everything.
    ``evaluate`` equals a plain sum over the squares, and a depth-2 search's score equals a
    plain minimax over ``evaluate`` (the root's children are scored by the incremental path)."""
    rng = np.random.default_rng(11)
    w = rng.integers(-60, 60, size=64).astype(np.int64)
    p = SearchParams(weights=tuple(int(x) for x in w), mobility=5, frontier=3, corner=7,
                     parity=2, disc=1, stable=4, max_depth=2, nodes=10**7)
    tab, prm = row_tables(w), p.pack()

    def evaluate_reference(P, O) -> int:
        pi, oi = int(P), int(O)
        moves = np.uint64(legal_moves(P, O))
        nb = S._neighbours.py_func(~(P | O))
        empties = 64 - popcount(P | O)
        return (sum(int(w[i]) for i in range(64) if (pi >> i) & 1)
                - sum(int(w[i]) for i in range(64) if (oi >> i) & 1)
                + 5 * (popcount(moves) - popcount(np.uint64(legal_moves(O, P))))
                + 3 * (popcount(O & nb) - popcount(P & nb))
                + 7 * (popcount(P & S.CORNERS) - popcount(O & S.CORNERS))
                + (2 if empties % 2 else -2) + popcount(P) - popcount(O)
                + 4 * (edge_stable_reference(pi) - edge_stable_reference(oi)))

    def minimax(P, O, depth: int) -> int:
        moves = int(legal_moves(P, O))
        if moves == 0:
            if int(legal_moves(O, P)) == 0:
                d = popcount(P) - popcount(O)
                return int(np.sign(d)) * int(S.WIN) + d
            return -minimax(O, P, depth)
        if depth <= 0:
            return int(S.evaluate(P, O, np.uint64(moves), tab, prm))
        best = None
        for sq in range(64):
            if (moves >> sq) & 1:
                f = int(flips(P, O, sq))
                v = -minimax(np.uint64(int(O) ^ f), np.uint64(int(P) | f | (1 << sq)),
                             depth - 1)
                best = v if best is None else max(best, v)
        assert best is not None
        return best

    for st in random_midgame_positions(20, seed=8):
        P, O = st.own_opp(st.to_move)
        assert S.evaluate(P, O, np.uint64(legal_moves(P, O)), tab, prm) == evaluate_reference(P, O)
        r = S.search(P, O, tab, w, prm, np.int64(0))
        assert r[S.R_DEPTH] == 2 and r[S.R_SCORE] == minimax(P, O, 2)


def test_bot_cpu_script_times_each_repeat() -> None:
    spec = importlib.util.spec_from_file_location("bot_cpu", ROOT / "scripts" / "bot_cpu.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from ime.cli.games import game_tool

    positions = game_tool("reversi", "positions")(3, 1)
    ms = mod.cpu_ms_per_decision("reversi", "rev4", positions, 2)
    assert len(ms) == 2 and all(m > 0 for m in ms)


@pytest.mark.slow
def test_vector_kernels_equal_the_scalar_bitboard_kernels() -> None:
    """The search's move generation and flips (``bots/simd.py``: the four axes, or four rays, as
    the lanes of one vector) give exactly the bitboard module's scalar results, on boards of
    every density (full, empty, edges and corners included) and every square."""
    from numba import njit

    from ime.games.reversi.bitboard import flips_inline, legal_moves_inline
    from ime.games.reversi.bots.simd import legal_moves_v

    @njit
    def mismatches(ps, os):
        bad = 0
        for i in range(ps.size):
            P, O = ps[i], os[i] & ~ps[i]
            if legal_moves_v(P, O) != legal_moves_inline(P, O):
                bad += 1
            for sq in range(64):
                if S._flips(P, O, np.uint64(sq)) != flips_inline(P, O, np.uint64(sq)):
                    bad += 1
        return bad

    rng = np.random.default_rng(12)
    full = (1 << 64) - 1
    ps = random_boards(rng, 1500) + [0, full, 0xFF, 0x8181818181818181, 0, 0x7E]
    os = random_boards(rng, 1500) + [full, 0, 0xFF00, 0x7E7E7E7E7E7E7E7E, 0x8000000000000001, 0xFF]
    assert mismatches(np.array(ps, dtype=np.uint64), np.array(os, dtype=np.uint64)) == 0
