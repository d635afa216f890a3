"""Big-2's command-line tools (``ime perft/solve/bench big2``), found via its plug-in.

* ``perft``: leaves of the game tree ``depth`` plies from the deal of seed 0 (26 + 26 cards),
  one move per legal rank multiset, a pass being a move (a game that ends early is one leaf);
  the reference walks the same tree with :func:`ime.games.big2.reference.table_moves`.
* ``solve``: the exact value of a position ``"OWN/OPP"`` or ``"OWN/OPP/LAST"`` in rank text
  (``"33344456/7789/5"``: to move with 33344456 against 7789, following a single 5), every
  optimal play by name, nodes and seconds.
* ``positions``: seeded mid-game positions of random games (bot benchmarks).
* ``bench``: ``movegen`` (generations/s, kernel and ``legal_actions``) and ``search``
  (the agent's nodes/s on opening positions).
"""

from __future__ import annotations

import time

import numpy as np

from ime.core.registry import GameTools, SolveOutcome
from ime.games.big2.cards import counts_of, deal, parse_ranks
from ime.games.big2.hands import classify, from_meta
from ime.games.big2.movegen import generate_moves
from ime.games.shedding.positions import bench_legal_actions
from ime.games.shedding.positions import random_positions as shedding_positions


def perft_leaves(depth: int, reference: bool = False, seed: int = 0) -> int:
    """Leaves ``depth`` plies from the 26 + 26 deal of ``seed`` (see the module doc)."""
    hands = [tuple(int(x) for x in counts_of(h)) for h in deal(seed)]
    return _perft(hands, 0, None, -1, depth, reference)


def _plays(hand: tuple[int, ...], last, reference: bool) -> list[tuple[tuple[int, ...], tuple]]:
    if reference:
        from ime.games.big2.reference import table_moves

        out = []
        for mv in sorted(table_moves(hand, last)):
            t = classify(mv)
            assert t is not None
            out.append((mv, t.key))
        return out
    m = generate_moves(np.array(hand, np.int64), last)
    return [(tuple(m.counts[i].tolist()), tuple(m.meta[i].tolist())) for i in range(m.n)]


def _perft(hands: list[tuple[int, ...]], p: int, last, last_player: int, depth: int,
           reference: bool) -> int:
    lead = last_player in (-1, p)
    beat = None if lead else last
    plays = _plays(hands[p], beat, reference)
    if depth == 1:
        return len(plays) + (0 if lead else 1)
    total = 0 if lead else _perft(hands, 1 - p, last, last_player, depth - 1, reference)
    for mv, key in plays:
        rest = tuple(a - b for a, b in zip(hands[p], mv, strict=True))
        if not any(rest):
            total += 1
            continue
        child = list(hands)
        child[p] = rest
        total += _perft(child, 1 - p, key, p, depth - 1, reference)
    return total


POSITION_HELP = ('"OWN/OPP[/LAST]" in rank text 3456789TJQKA2: the hands of the player to move '
                 'and of its opponent, and the play to beat (leading when omitted), e.g. '
                 '"33344456/7789/5"')


def parse_position(position: str) -> tuple[np.ndarray, np.ndarray, tuple | None]:
    """``(own counts, opponent counts, quadruple to beat or None)`` of a position text."""
    parts = [p.strip() for p in position.split("/")]
    if len(parts) not in (2, 3):
        raise ValueError(f"big2 position {position!r}: expected {POSITION_HELP}")
    own, opp = parse_ranks(parts[0]), parse_ranks(parts[1])
    if ((own + opp) > 4).any():
        raise ValueError(f"big2 position {position!r}: more than 4 cards of a rank")
    last = None
    if len(parts) == 3 and parts[2]:
        t = classify(parse_ranks(parts[2]))
        if t is None or t.is_pass:
            raise ValueError(f"big2 position {position!r}: {parts[2]!r} is no hand type")
        last = t.key
    return own, opp, last


def solve(position: str, to_move: str = "") -> SolveOutcome:
    """Exact solve of a position (``to_move`` is unused: the first hand moves)."""
    from ime.games.big2.search import solve_values

    own, opp, last = parse_position(position)
    t = time.perf_counter()
    values, nodes = solve_values(own, opp, last)
    dt = time.perf_counter() - t
    m = generate_moves(own, last)
    names = [str(from_meta(*m.meta[i].tolist(), m.counts[i].tolist())) for i in range(m.n)]
    if last is not None:
        names.append("pass")
    best = int(values.max())
    return SolveOutcome(score=best, best=[n for n, v in zip(names, values, strict=True)
                                          if v == best], nodes=nodes, seconds=dt)


def random_positions(n: int, seed: int, game=None) -> list:
    """``n`` seeded mid-game positions: random games stopped after 2 to 30 plies (not over)."""
    from ime.games.big2.game import GAME

    return shedding_positions(game or GAME, n, seed, (2, 30))


def _bench_movegen(quick: bool) -> dict:
    """Generations/s of the compiled DP on random positions, and ``legal_actions`` on fresh
    states (card-id tuples included)."""
    states = random_positions(100 if quick else 500, 11)
    tables = [(st.hand_counts(st.to_move), None if st.to_beat() is None else st.to_beat().key)
              for st in states]
    generate_moves(*tables[0])
    reps = 5 if quick else 20
    moves = 0
    t = time.perf_counter()
    for _ in range(reps):
        for h, last in tables:
            moves += generate_moves(h, last).n
    dt = time.perf_counter() - t
    return {"positions": len(states), "generations_per_s": reps * len(states) / dt,
            "moves_per_generation": moves / (reps * len(states)), **bench_legal_actions(states)}


def _bench_search(quick: bool) -> dict:
    """The seed agent's first decision on 26 + 26 deals: nodes/s and the depth reached."""
    from ime.games.big2.movegen import pack
    from ime.games.big2.search import SearchParams, decide

    params = SearchParams(nodes=50_000 if quick else 200_000)
    deals = [deal(s) for s in range(5 if quick else 20)]
    h = deal(99)
    decide(pack(counts_of(h[0])), pack(counts_of(h[1])), 26, 26, None, params)  # warm up
    nodes, depth = 0, 0
    t = time.perf_counter()
    for a, b in deals:
        r = decide(pack(counts_of(a)), pack(counts_of(b)), 26, 26, None, params)
        nodes += r.nodes
        depth += r.depth
    dt = time.perf_counter() - t
    return {"decisions": len(deals), "nodes_per_s": nodes / dt,
            "nodes_per_decision": nodes / len(deals), "mean_depth": depth / len(deals),
            "seconds_per_decision": dt / len(deals)}


TOOLS = GameTools(perft=perft_leaves, solve=solve, position_help=POSITION_HELP,
                  positions=lambda n, seed: random_positions(n, seed),
                  bench={"movegen": _bench_movegen, "search": _bench_search},
                  default_bots=("b2_negamax", "b2_lite", "b2_smallest", "b2_random"))
