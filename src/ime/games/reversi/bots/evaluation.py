"""Evaluation parameters of the Reversi search bots: weight tables and the packed parameter vector.

The numba kernels take every knob as one ``int64`` vector (``SearchParams.pack``) plus two weight
arrays, because a numba function cannot take a Python dataclass and because a flat vector keeps
one compiled specialisation for all bots. Everything is an integer so that equal evaluations are
*exactly* equal: tie-breaking is one of the things that tells the five thesis bots apart, and
float round-off would make "a tie" depend on summation order.

Table 4.1 of the thesis says bots 1-4 share one positional table and bot 5's differs at the corners
and stresses corners and edges; ``STANDARD`` and ``CORNER_EDGE`` are those two tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

# Rows are y = 0..7 (Botzone y), columns x = 0..7; square index y * 8 + x.
STANDARD_ROWS = [
    [100, -20, 10, 5, 5, 10, -20, 100],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [10, -2, 1, 1, 1, 1, -2, 10],
    [5, -2, 1, 0, 0, 1, -2, 5],
    [5, -2, 1, 0, 0, 1, -2, 5],
    [10, -2, 1, 1, 1, 1, -2, 10],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [100, -20, 10, 5, 5, 10, -20, 100],
]

# A naive "corners and edges are good" table: huge corners, *every* edge square positive (the C
# squares too), X squares mildly negative. It makes bot 5 grab edges and corners (thesis Fig 4.2)
# and is weaker than STANDARD because it walks into C-square traps.
CORNER_EDGE_ROWS = [
    [500, 40, 60, 50, 50, 60, 40, 500],
    [40, -30, 2, 2, 2, 2, -30, 40],
    [60, 2, 5, 3, 3, 5, 2, 60],
    [50, 2, 3, 1, 1, 3, 2, 50],
    [50, 2, 3, 1, 1, 3, 2, 50],
    [60, 2, 5, 3, 3, 5, 2, 60],
    [40, -30, 2, 2, 2, 2, -30, 40],
    [500, 40, 60, 50, 50, 60, 40, 500],
]

NAMED_TABLES: dict[str, list[list[int]]] = {
    "standard": STANDARD_ROWS,
    "corner_edge": CORNER_EDGE_ROWS,
    "flat": [[0] * 8 for _ in range(8)],
}

ORDERINGS = {"none": 0, "table": 1, "mobility": 2}
TIES = {"first": 0, "last": 1, "random": 2}
ENDGAME_MODES = {"exact": 0, "wld": 1}

# Index of each field in the packed int64 vector (kept in sync with search.py).
P_MAX_DEPTH = 0
P_NODES = 1
P_MOBILITY = 2
P_FRONTIER = 3
P_CORNER = 4
P_PARITY = 5
P_DISC = 6
P_STABLE = 7
P_ORDER = 8
P_PV_FIRST = 9
P_TIE = 10
P_END_EMPTIES = 11
P_END_NODES = 12
P_END_MODE = 13
N_PARAMS = 14


def weight_table(spec: str | Sequence[Any]) -> np.ndarray:
    """A 64-entry int64 table from a table name, 64 numbers, or 8 rows of 8."""
    if isinstance(spec, str):
        if spec not in NAMED_TABLES:
            raise KeyError(f"unknown weight table {spec!r}; known: {sorted(NAMED_TABLES)}")
        spec = NAMED_TABLES[spec]
    arr = np.asarray(spec, dtype=np.int64).reshape(-1)
    if arr.shape != (64,):
        raise ValueError(f"a weight table needs 64 entries, got {arr.size}")
    return arr


def row_tables(weights: np.ndarray) -> np.ndarray:
    """``T[r, byte]`` = sum of the weights of row ``r`` squares set in ``byte``.

    The positional term then costs 16 table look-ups per leaf instead of a 64-bit loop.
    """
    t = np.zeros((8, 256), dtype=np.int64)
    for r in range(8):
        for b in range(256):
            t[r, b] = sum(int(weights[r * 8 + x]) for x in range(8) if (b >> x) & 1)
    return t


@dataclass(frozen=True)
class SearchParams:
    """Every knob of the alpha-beta bots (see docs/zoo.md for what each bot sets).

    ``max_depth = 0`` means no cap (iterative deepening runs until the node budget is spent or the
    search reaches the end of the game). ``nodes`` is the node budget of the mid-game search;
    ``endgame_nodes`` that of the exact solver, which is tried first when at most
    ``endgame_empties`` squares are empty and falls back to the mid-game search if it runs out.
    """

    weights: str | tuple[int, ...] = "standard"
    max_depth: int = 0
    nodes: int = 20000
    mobility: int = 0
    frontier: int = 0
    corner: int = 0
    parity: int = 0
    disc: int = 0
    stable: int = 0
    ordering: str = "table"
    pv_first: bool = True
    tie: str = "first"
    endgame_empties: int = 0
    endgame_nodes: int = 0
    endgame_mode: str = "exact"

    @classmethod
    def from_mapping(cls, params: Mapping[str, Any]) -> SearchParams:
        known = {f.name for f in fields(cls)}
        unknown = set(params) - known
        if unknown:
            raise KeyError(f"unknown search parameters {sorted(unknown)}; known: {sorted(known)}")
        p = dict(params)
        if "weights" in p and not isinstance(p["weights"], str):
            p["weights"] = tuple(int(v) for v in np.asarray(p["weights"]).reshape(-1))
        return cls(**p)

    def pack(self) -> np.ndarray:
        """The int64 vector the numba kernels read (indices ``P_*``)."""
        for name, table in (
            ("ordering", ORDERINGS),
            ("tie", TIES),
            ("endgame_mode", ENDGAME_MODES),
        ):
            if getattr(self, name) not in table:
                raise ValueError(f"{name}={getattr(self, name)!r}; choose from {sorted(table)}")
        if self.nodes < 1:
            raise ValueError("nodes must be >= 1")
        v = np.zeros(N_PARAMS, dtype=np.int64)
        v[P_MAX_DEPTH] = self.max_depth if self.max_depth > 0 else 64
        v[P_NODES] = self.nodes
        v[P_MOBILITY] = self.mobility
        v[P_FRONTIER] = self.frontier
        v[P_CORNER] = self.corner
        v[P_PARITY] = self.parity
        v[P_DISC] = self.disc
        v[P_STABLE] = self.stable
        v[P_ORDER] = ORDERINGS[self.ordering]
        v[P_PV_FIRST] = int(self.pv_first)
        v[P_TIE] = TIES[self.tie]
        v[P_END_EMPTIES] = self.endgame_empties
        v[P_END_NODES] = self.endgame_nodes
        v[P_END_MODE] = ENDGAME_MODES[self.endgame_mode]
        return v

    def table(self) -> np.ndarray:
        return weight_table(self.weights)
