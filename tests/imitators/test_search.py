"""The search: equal to a plain minimax, deterministic, budgets, tie rules, exact endgame."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ime.games.reversi.bitboard import BLACK_START, PASS, WHITE_START
from ime.games.reversi.solver import solve
from ime.imitators.reversi_features import features, num_features
from ime.imitators.reversi_search import (
    DECIDE,
    TERMINAL,
    TIE_RULES,
    LinearSearch,
    SearchSettings,
    endgame_moves,
    pick,
    solver_pick_moves,
)
from ime.imitators.search_fit import choices, predict, search_all
from imitators.helpers import moves_of, play, random_positions


def minimax(P: int, O: int, depth: int, w: np.ndarray, phases: int) -> float:
    """Plain negamax without pruning, the same conventions (a pass costs no depth)."""
    mv = moves_of(P, O)
    if not mv:
        if not moves_of(O, P):
            d = bin(P).count("1") - bin(O).count("1")
            return float(np.sign(d)) * TERMINAL + d
        return -minimax(O, P, depth, w, phases)
    if depth == 0:
        return float(features(P, O, phases) @ w)
    return max(-minimax(*play(P, O, s), depth - 1, w, phases) for s in mv)


def root_minimax(P: int, O: int, depth: int, w: np.ndarray, phases: int) -> list[float]:
    return [-minimax(*play(P, O, s), depth - 1, w, phases) for s in moves_of(P, O)]


@pytest.mark.parametrize("depth,phases", [(1, 1), (2, 2), (3, 1)])
def test_root_values_equal_plain_minimax(depth: int, phases: int) -> None:
    w = np.random.default_rng(depth).normal(size=num_features(phases))
    search = LinearSearch(w, SearchSettings(depth=depth, phases=phases))
    positions = random_positions(6, seed=depth) + random_positions(3, seed=9, with_pass=True)
    positions += random_positions(3, seed=4, min_ply=52, max_ply=60)  # near the end
    for P, O in positions:
        r = search.root(P, O)
        assert list(r.squares) == moves_of(P, O)
        np.testing.assert_allclose(r.values, root_minimax(P, O, depth, w, phases),
                                   rtol=1e-12, atol=1e-9)


def test_move_ordering_changes_nodes_not_values() -> None:
    w = np.random.default_rng(0).normal(size=num_features(1))
    sorted_ = LinearSearch(w, SearchSettings(depth=4, order_min=2))
    plain = LinearSearch(w, SearchSettings(depth=4, order_min=99))
    for P, O in random_positions(5, seed=3):
        a, b = sorted_.root(P, O), plain.root(P, O)
        np.testing.assert_allclose(a.values, b.values, rtol=1e-12)


def test_deterministic() -> None:
    w = np.random.default_rng(7).normal(size=num_features(2))
    s = SearchSettings(depth=3, phases=2, budget=400)
    positions = random_positions(20, seed=8)
    first = [LinearSearch(w, s).choose(P, O) for P, O in positions]
    again = LinearSearch(w, s)
    assert [again.choose(P, O) for P, O in positions] == first
    assert [again.choose(P, O) for P, O in positions] == first
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    assert list(predict(w, s, P, O)) == first  # the batch path decides alike
    fixed = SearchSettings(depth=3, phases=2)  # without a budget the window changes nothing
    assert list(choices(search_all(P, O, w, fixed), fixed.tie)) == list(predict(w, fixed, P, O))


def test_pv_leaf_features_are_the_value_gradient() -> None:
    """value = w . (signed leaf features) for every root move not ending the game."""
    w = np.random.default_rng(1).normal(size=num_features(1))
    positions = random_positions(15, seed=12) + random_positions(5, seed=13, with_pass=True)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    res = search_all(P, O, w, SearchSettings(depth=3))
    live = ~res.terminal
    np.testing.assert_allclose(res.features[live] @ w, res.values[live], rtol=1e-9, atol=1e-9)


def test_node_budget_keeps_the_deepest_finished_iteration() -> None:
    w = np.random.default_rng(2).normal(size=num_features(1))
    P, O = random_positions(1, seed=21, min_ply=20, max_ply=21)[0]
    full = LinearSearch(w, SearchSettings(depth=4, budget=10**9)).root(P, O)
    fixed = LinearSearch(w, SearchSettings(depth=4)).root(P, O)
    assert full.depth == 4
    np.testing.assert_allclose(full.values, fixed.values)
    small = LinearSearch(w, SearchSettings(depth=6, budget=fixed.nodes)).root(P, O)
    assert 1 <= small.depth < 6
    shallow = LinearSearch(w, SearchSettings(depth=small.depth)).root(P, O)
    np.testing.assert_allclose(small.values, shallow.values)
    tiny = LinearSearch(w, SearchSettings(depth=5, budget=1)).root(P, O)
    assert tiny.depth == 1  # the first iteration always finishes


def test_tie_rules_on_the_symmetric_opening() -> None:
    """The four opening moves are symmetric, so every depth values them equally."""
    P, O = int(BLACK_START), int(WHITE_START)
    w = np.random.default_rng(3).normal(size=num_features(1))
    expect = {"first": 19, "last": 44, "first_col": 26, "last_col": 37}
    for depth in (1, 2, 3):
        for tie, sq in expect.items():
            assert LinearSearch(w, SearchSettings(depth=depth, tie=tie)).choose(P, O) == sq
    assert pick([3, 5, 9], [1.0, 2.0, 2.0], "first") == 5
    assert pick([3, 5, 9], [1.0, 2.0, 2.0], "last") == 9


def test_exact_endgame_and_pass() -> None:
    w = np.zeros(num_features(1))
    for P, O in random_positions(3, seed=30, min_ply=52, max_ply=53):
        empties = 64 - bin(P | O).count("1")
        best = solve(P, O).best_moves
        got = LinearSearch(w, SearchSettings(depth=1, endgame=empties, tie="last")).choose(P, O)
        assert got == max(best)
        # win/draw/loss: every move's exact score, by sign (zero weights: the tie rule decides)
        sign = {s: int(np.sign(-solve(*play(P, O, s)).score)) for s in moves_of(P, O)}
        wins = [s for s, v in sign.items() if v == max(sign.values())]
        wld = SearchSettings(depth=1, endgame=empties, tie="first", endgame_mode="wld")
        assert LinearSearch(w, wld).choose(P, O) == min(wins)
    # no legal move: a pass
    for P, O in random_positions(40, seed=31, min_ply=40, max_ply=60, with_pass=True):
        for s in moves_of(P, O):
            cP, cO = play(P, O, s)
            if not moves_of(cP, cO) and moves_of(cO, cP):
                assert LinearSearch(w, SearchSettings()).choose(cP, cO) == PASS
                return
    pytest.fail("no position with a forced pass found")


def test_a_solver_pick_takes_the_first_or_last_winning_move_in_fastest_first_order() -> None:
    checked = 0
    for P, O in random_positions(60, seed=32, min_ply=50, max_ply=56):
        wins = endgame_moves(P, O, "wld")
        if len(wins) < 3:
            continue
        replies = {s: len(moves_of(*play(P, O, s))) for s in wins}  # the opponent's, after s
        fewest, most = min(replies.values()), max(replies.values())
        first = solver_pick_moves(P, O, wins, "fastest_first", "first")
        last = solver_pick_moves(P, O, wins, "fastest_last", "first")
        assert len(first) == len(last) == 1 and first | last <= wins
        (a,), (b,) = first, last
        assert replies[a] == fewest and a == min(s for s in wins if replies[s] == fewest)
        # the last of the order: most replies, and of those the last in the tie rule's order
        assert replies[b] == most and b == max(s for s in wins if replies[s] == most)
        assert solver_pick_moves(P, O, wins, "value", "first") == wins
        # the search follows it: a solve from here plays the picked move whatever its values
        w = np.random.default_rng(checked).normal(size=num_features(1))
        empties = 64 - bin(P | O).count("1")
        for pick_, move in (("fastest_first", a), ("fastest_last", b)):
            st = SearchSettings(depth=1, endgame=empties, endgame_mode="wld", endgame_pick=pick_)
            assert LinearSearch(w, st).choose(P, O) == move
        checked += 1
    assert checked >= 5, checked
    assert solver_pick_moves(0, 0, {7}, "fastest_last", "first") == {7}  # one move: itself
    with pytest.raises(ValueError, match="endgame_pick"):
        SearchSettings(endgame_pick="slowest")


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        SearchSettings(depth=0)
    with pytest.raises(ValueError):
        SearchSettings(tie="random")
    with pytest.raises(ValueError):
        SearchSettings(endgame_mode="maybe")
    with pytest.raises(ValueError):
        LinearSearch(np.zeros(3), SearchSettings())


@pytest.mark.parametrize("depth", [2, 4])
def test_narrowed_root_windows_give_the_same_answers(depth: int) -> None:
    """DECIDE chooses what the full window chooses under every tie rule; the fit's window is
    exact for the target's move and for every move within the margin of the best."""
    w = np.random.default_rng(depth).normal(size=num_features(2))
    search = LinearSearch(w, SearchSettings(depth=depth, phases=2))
    positions = random_positions(25, seed=40 + depth) + random_positions(5, seed=6, with_pass=True)
    for P, O in positions:
        full = search.root(P, O)
        dec = search.root(P, O, DECIDE)
        assert full.exact.all()
        for tie in TIE_RULES:  # each with its own deciding window (searched_first: strict)
            d = search.root(P, O, SearchSettings(tie=tie).decide_margin)
            assert (d.ranks == full.ranks).all()  # no PV at a fixed depth: the ordering's ranks
            assert (pick(d.squares, d.values, tie, ranks=d.ranks)
                    == pick(full.squares, full.values, tie, ranks=full.ranks))
        np.testing.assert_allclose(dec.values[dec.exact], full.values[dec.exact], rtol=1e-12)
        assert (dec.values[~dec.exact] >= full.values[~dec.exact] - 1e-9).all()  # upper bounds
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    targets = np.array([moves_of(p, o)[-1] for p, o in positions])
    margin = 1.5
    fitres = search_all(P, O, w, SearchSettings(depth=depth, phases=2), margin=margin,
                        targets=targets)
    ref = search_all(P, O, w, SearchSettings(depth=depth, phases=2))
    assert ref.exact.all()
    pos = np.repeat(np.arange(len(P)), np.diff(ref.offsets))
    best = np.maximum.reduceat(ref.values, ref.offsets[:-1])[pos]
    must = (ref.squares == targets[pos]) | (ref.values > best - margin + 1e-9)
    assert fitres.exact[must].all()
    np.testing.assert_allclose(fitres.values[fitres.exact], ref.values[fitres.exact],
                               rtol=1e-12)
    assert fitres.nodes.sum() < ref.nodes.sum()


def test_a_win_draw_loss_solve_above_the_exact_one() -> None:
    """``endgame_wld``: above the exact threshold and up to it, the outcome's best moves compete;
    at or below the exact threshold the disc difference's; above both, the search alone."""
    from ime.imitators.reversi_search import endgame_moves, solver_mode
    from ime.imitators.search_fit import predict

    w = np.zeros(num_features(1))
    hybrid = SearchSettings(depth=1, endgame=4, endgame_wld=12, tie="last")
    assert [solver_mode(hybrid, e) for e in (3, 4, 5, 12, 13)] == ["exact", "exact", "wld",
                                                                  "wld", None]
    positions = random_positions(6, seed=32, min_ply=52, max_ply=55)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    for (p, o), got in zip(positions, predict(w, hybrid, P, O), strict=True):
        empties = 64 - bin(p | o).count("1")
        assert 5 <= empties <= 12
        wins = endgame_moves(p, o, "wld")
        assert got == max(wins) == LinearSearch(w, hybrid).choose(p, o)
    with pytest.raises(ValueError, match="endgame_wld"):
        SearchSettings(endgame=10, endgame_wld=8)


@pytest.mark.parametrize("ordering", ["static", "none", "square", "fastest"])
def test_orderings_change_nodes_not_values(ordering: str) -> None:
    """Every ordering (and PV-first) gives the fixed depth's exact values; only the nodes
    differ, which is what a budget counts."""
    w = np.random.default_rng(5).normal(size=num_features(2))
    ref = LinearSearch(w, SearchSettings(depth=4, phases=2))
    other = LinearSearch(w, SearchSettings(depth=4, phases=2, ordering=ordering))
    nodes = []
    for P, O in random_positions(6, seed=31, min_ply=10, max_ply=30):
        a, b = ref.root(P, O), other.root(P, O)
        np.testing.assert_allclose(a.values, b.values, rtol=1e-12)
        nodes.append(b.nodes - a.nodes)
        deep = LinearSearch(w, SearchSettings(depth=4, phases=2, budget=10**9,
                                              ordering=ordering, pv_first=True)).root(P, O)
        assert deep.depth == 4
        np.testing.assert_allclose(deep.values, a.values, rtol=1e-12)
    assert (ordering == "static") == all(n == 0 for n in nodes)


def test_square_ordering_searches_the_best_square_first() -> None:
    """``square`` sorts by the fitted weight of the square played: with only a corner weight,
    the corner move comes first, so a budget of one iteration's first child reaches it."""
    from ime.imitators.reversi_features import BASE_NAMES, square_weight

    w = np.zeros(num_features(1))
    w[BASE_NAMES.index("sq0")] = 5.0  # corners
    w[BASE_NAMES.index("sq4")] = -3.0  # X squares
    P, O = random_positions(1, seed=2, min_ply=30, max_ply=31)[0]
    weights = [square_weight(s, np.uint64(P), np.uint64(O), w, 1) for s in range(64)]
    assert weights[0] == weights[63] == 5.0 and weights[9] == -3.0 and weights[27] == 0.0
    w2 = np.concatenate([w, 3 * w])  # two phases: the weight follows the empties
    e = 64 - bin(P | O).count("1")
    expect = 5.0 * (e / 60) + 15.0 * (1 - e / 60)
    assert abs(square_weight(0, np.uint64(P), np.uint64(O), w2, 2) - expect) < 1e-12


def test_budgeted_ordering_decides_the_depth_reached() -> None:
    """Under one node budget, an ordering that cuts more reaches deeper on some positions, and
    PV-first changes the nodes of iterations after the first; decisions stay deterministic."""
    w = np.random.default_rng(11).normal(size=num_features(1))
    positions = random_positions(30, seed=41, min_ply=8, max_ply=40)
    P = np.array([p for p, _ in positions], dtype=np.uint64)
    O = np.array([o for _, o in positions], dtype=np.uint64)
    depths = {}
    for ordering in ("static", "none"):
        for pv in (False, True):
            s = SearchSettings(depth=64, budget=3000, ordering=ordering, pv_first=pv)
            r = search_all(P, O, w, s, margin=DECIDE)
            depths[ordering, pv] = r.depths
            assert (r.depths >= 1).all()
            again = search_all(P, O, w, s, margin=DECIDE)
            np.testing.assert_array_equal(again.depths, r.depths)
            np.testing.assert_array_equal(again.nodes, r.nodes)
            # the values are the fixed-depth search's at the depth each position reached
            for i in range(0, 30, 7):
                fixed = LinearSearch(w, SearchSettings(depth=int(r.depths[i]))).root(
                    int(P[i]), int(O[i]))
                a, b = r.offsets[i], r.offsets[i + 1]
                best = r.values[a:b].max()
                assert abs(best - fixed.values.max()) < 1e-9
    assert (depths["static", False] != depths["none", False]).any()
    assert depths["static", False].mean() > depths["none", False].mean()  # ordering cuts


@pytest.mark.parametrize("params", [
    # orders by its table, the last iteration's best first, keeps the first of equal moves
    {"ordering": "table", "pv_first": True, "tie": "first", "max_depth": 0, "nodes": 2500,
     "disc": 1, "endgame_empties": 8},
    # no ordering, keeps the last of equal moves, iterations capped at 8 plies
    {"ordering": "none", "pv_first": False, "tie": "last", "max_depth": 8, "nodes": 4000,
     "endgame_empties": 6},
    # fewest replies first (table order near the leaves), mobility, frontier and edge-stability
    # terms (its walks from each corner count a wholly owned edge's inner discs twice)
    {"ordering": "mobility", "pv_first": True, "tie": "first", "max_depth": 0, "nodes": 3000,
     "mobility": 12, "frontier": 4, "stable": 10, "endgame_empties": 8},
])
def test_the_search_plays_a_table_bots_moves_with_its_table(params: dict) -> None:
    """Given a table bot's own table (as square-class weights) and its search's settings, the
    imitator's search chooses the bot's move in every position: the searched_* tie rules (equal
    root moves by the search's own order, the PV first), the strict deciding window (the
    nodes, hence the depth a budget reaches, of a search that keeps only better moves) and the
    solver_* endgame pick (the solver's fastest-first order, then the table). With the square
    order's rules in their place, the same search with the zoo's tables agreed with rev4 and
    rev5 on 98.1 and 95.5 % of 1,000 unseen positions (docs/imitators.md, v9). Not an
    imitator: the bot is built here from a table that no zoo entry holds."""
    from ime.games.reversi.bots.evaluation import SearchParams, row_tables
    from ime.games.reversi.bots.search import search
    from ime.imitators.reversi_features import BASE_NAMES, square_class

    classes = np.array([120, -25, 10, 6, -40, -3, -2, 2, 1, 0])
    table = np.array([classes[square_class(sq)] for sq in range(64)], dtype=np.int64)
    sp = SearchParams(weights=tuple(int(x) for x in table), endgame_nodes=10**7, **params)
    w = np.zeros(num_features(1))
    w[:len(classes)] = classes + sp.disc  # a disc count is a constant on every square
    for name, x in (("mob", sp.mobility), ("frontier", -sp.frontier),  # the bot's: O's - P's
                    ("edge_stable", sp.stable), ("full_edges", 6 * sp.stable)):
        w[BASE_NAMES.index(name)] = x
    tie = "searched_" + sp.tie
    settings = SearchSettings(depth=sp.max_depth or 64, budget=sp.nodes, tie=tie,
                              ordering={"table": "square", "none": "none",
                                        "mobility": "fastest"}[sp.ordering],
                              pv_first=sp.pv_first, endgame=sp.endgame_empties,
                              endgame_pick="solver_" + sp.tie)
    imitator = LinearSearch(w, settings)
    tab, prm = row_tables(table), sp.pack()
    positions = random_positions(70, seed=91, min_ply=6, max_ply=60)
    ends = 0
    for P, O in positions:
        bot = int(search(np.uint64(P), np.uint64(O), tab, table, prm, 0)[0])
        assert imitator.choose(P, O) == bot, (P, O)
        ends += 64 - bin(P | O).count("1") <= sp.endgame_empties
    assert ends >= 5  # the solver's pick was exercised
    # the other end of the order, in the search and in the solve, differs somewhere: the
    # test can fail
    other = {"first": "last", "last": "first"}[sp.tie]
    flipped = LinearSearch(w, replace(settings, tie="searched_" + other,
                                      endgame_pick="solver_" + other))
    assert any(flipped.choose(P, O) != int(search(np.uint64(P), np.uint64(O), tab, table, prm,
                                                  0)[0]) for P, O in positions)
