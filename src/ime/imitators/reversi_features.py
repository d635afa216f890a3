"""Generic Reversi evaluation features over the engine's bitboards (numba).

Why these: the search imitator fits a *linear* evaluation, so its features must be the ones any
Othello evaluation is commonly built from, chosen without looking at any bot of the zoo. They are
the textbook set (e.g. Rosenbloom's IAGO, Buro's Logistello papers, Sannidhanam & Annamalai,
"An analysis of heuristics in Othello"): square weights, mobility, potential mobility, frontier,
stability, corners and their X/C squares, parity, disc count. Each feature is seen from the side
to move (``P``) against the opponent (``O``), as negamax needs: most are ``f(P) - f(O)`` or the
normalised ``(f(P) - f(O)) / (f(P) + f(O))`` form (0 when both are 0).

Base features (:data:`BASE_NAMES`, in this order):

* ``sq0``..``sq9``: disc difference on each of the 10 square classes of the board's 8-fold
  symmetry (corner, C, A, B, X, ...; class ``k`` lists the squares whose folded coordinates
  ``(min(x,7-x), min(y,7-y))`` sorted are the ``k``-th pair of ``a <= b <= 3``). Their sum is the
  disc difference;
* ``mob``, ``mob_ratio``: legal moves of P minus O's, and the normalised form;
* ``corner_mob``: legal corner moves, P minus O;
* ``pot_mob``, ``pot_mob_ratio``: potential mobility, empty squares next to an opponent disc;
* ``frontier``, ``frontier_ratio``: frontier discs, own discs next to an empty square (P - O);
* ``stable``, ``stable_ratio``: discs that can never be flipped (the exact solver's lower bound,
  :func:`ime.games.reversi.solver._stable_count`);
* ``x_empty``, ``c_empty``: own discs on X and C squares next to an *empty* corner (P - O);
* ``disc_ratio``, ``corner_ratio``: the normalised disc and corner counts;
* ``parity``: +1 when the number of empties is odd (the side to move would play last), else -1;
* ``tempo``: the constant 1 (a side-to-move bonus; it cancels between root moves searched to the
  same depth and matters only across passes);
* ``edge_stable``: own discs chained along an edge from an own corner, corners included, each
  disc once (P - O). The cheap, common stand-in for stability in hand-written evaluations: it
  sees only the edges, so it is not ``stable`` (which also counts interior and full-line discs)
  and a linear mix of the two cannot make one from the other;
* ``full_edges``: edges all eight of whose squares are own discs (P - O). With it the linear
  evaluation also expresses the other common way of counting edge stability, a walk from each
  own corner that counts the chain it meets: on a wholly owned edge the two walks count the six
  inner discs twice (``edge_stable + 6 * full_edges``), on any other edge they never meet.

The last two were added in v12: an imitator saved before them weighs them 0
(:data:`ADDED_FEATURES`; files name their weights).

With ``phases=2`` every base feature appears twice, multiplied by ``e`` and ``1 - e`` where
``e = empties / 60`` (a linearly tapered evaluation: opening and endgame weights). With 3 or 4
phases each feature gets one block per anchor (empties 60/30/0 or 60/40/20/0), interpolated
linearly between the two anchors around the position's empties (2 phases is the same rule). Every
feature is invariant under the 8 symmetries of the board (tests/imitators/test_features.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ime.core.bits import ctpop
from ime.games.reversi.bitboard import legal_moves_inline
from ime.games.reversi.solver import _neighbours as neighbours
from ime.games.reversi.solver import _stable_count as stable_count

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
CORNERS = U64((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))

BASE_NAMES: tuple[str, ...] = (
    *(f"sq{k}" for k in range(10)),
    "mob", "mob_ratio", "corner_mob", "pot_mob", "pot_mob_ratio", "frontier", "frontier_ratio",
    "stable", "stable_ratio", "x_empty", "c_empty", "disc_ratio", "corner_ratio", "parity",
    "tempo", "edge_stable", "full_edges",
)
NUM_BASE = len(BASE_NAMES)
ADDED_FEATURES = frozenset({"edge_stable", "full_edges"})
"""Base features added after imitators were first saved: a saved imitator (or checkpoint) that
has no weight for one of them predates it and weighs it 0 (:func:`weights_by_name`)."""
TABLE_FEATURES = np.array([i for i, n in enumerate(BASE_NAMES) if n.startswith("sq")])
"""The base features a square table alone is made of (``sq0``..``sq9``)."""
PHASES = (1, 2, 3, 4)


def phase_anchors(phases: int) -> list[int]:
    """The empties at which each phase's block of weights applies fully (60 ... 0)."""
    if phases not in PHASES:
        raise ValueError(f"phases must be one of {PHASES}, got {phases}")
    if phases == 1:
        return []
    return [round(60 * (1 - j / (phases - 1))) for j in range(phases)]


def feature_names(phases: int) -> list[str]:
    """Names of the ``NUM_BASE * phases`` features: ``name@open``/``name@end`` with 2 phases,
    ``name@e<empties>`` per anchor with 3 or 4."""
    anchors = phase_anchors(phases)
    if phases == 1:
        return list(BASE_NAMES)
    if phases == 2:
        return [f"{n}@open" for n in BASE_NAMES] + [f"{n}@end" for n in BASE_NAMES]
    return [f"{n}@e{a}" for a in anchors for n in BASE_NAMES]


def num_features(phases: int) -> int:
    """Length of the feature vector for ``phases`` (1 to 4)."""
    return len(feature_names(phases))


def square_class(sq: int) -> int:
    """The symmetry class (0..9) of square ``sq`` (``y * 8 + x``)."""
    x, y = sq % 8, sq // 8
    a, b = sorted((min(x, 7 - x), min(y, 7 - y)))
    pairs = [(i, j) for i in range(4) for j in range(i, 4)]
    return pairs.index((a, b))


def _class_masks() -> np.ndarray:
    out = np.zeros(10, dtype=np.uint64)
    for sq in range(64):
        out[square_class(sq)] |= U64(1 << sq)
    return out


CLASS_MASKS = _class_masks()
SQUARE_CLASS = np.array([square_class(sq) for sq in range(64)], dtype=np.int64)
# corner -> its X square and its two C squares
_CORNER_SQ = np.array([0, 7, 56, 63], dtype=np.int64)
_X_SQ = np.array([9, 14, 49, 54], dtype=np.int64)
_C_SQ = np.array([[1, 8], [6, 15], [57, 48], [62, 55]], dtype=np.int64)
# the four edges (row 1, row 8, column a, column h) and the eight walks along an edge away from
# a corner: (corner, step)
_EDGES = np.array([0xFF, 0xFF << 56, 0x0101010101010101, 0x8080808080808080], dtype=np.uint64)
_EDGE_WALKS = np.array([[0, 1], [0, 8], [7, -1], [7, 8], [56, 1], [56, -8], [63, -1], [63, -8]],
                       dtype=np.int64)


@njit(cache=True)
def edge_stable_mask(P):
    """The discs of ``P`` chained along an edge from a corner ``P`` owns, the corners included
    (a disc reached from both of its edge's corners is in the mask once)."""
    m = ZERO
    for i in range(8):
        sq = _EDGE_WALKS[i, 0]
        if not (P >> U64(sq)) & ONE:
            continue
        m |= ONE << U64(sq)
        step = _EDGE_WALKS[i, 1]
        for _ in range(6):
            sq += step
            if not (P >> U64(sq)) & ONE:
                break
            m |= ONE << U64(sq)
    return m


@njit(cache=True, inline="always")
def _ratio(a, b):
    """``(a - b) / (a + b)``, 0 when both are 0."""
    s = a + b
    if s == 0:
        return 0.0
    return (a - b) / s


@njit(cache=True)
def base_features(P, O, out):
    """Fill ``out[:NUM_BASE]`` with the base features of the position, side to move owning ``P``.

    Called at every leaf of the search, so it allocates nothing."""
    empty = ~(P | O)
    for k in range(10):
        m = CLASS_MASKS[k]
        out[k] = ctpop(P & m) - ctpop(O & m)
    mP = legal_moves_inline(P, O)
    mO = legal_moves_inline(O, P)
    nmP = ctpop(mP)
    nmO = ctpop(mO)
    out[10] = nmP - nmO
    out[11] = _ratio(nmP, nmO)
    out[12] = ctpop(mP & CORNERS) - ctpop(mO & CORNERS)
    pmP = ctpop(neighbours(O) & empty)
    pmO = ctpop(neighbours(P) & empty)
    out[13] = pmP - pmO
    out[14] = _ratio(pmP, pmO)
    ne = neighbours(empty)
    fP = ctpop(P & ne)
    fO = ctpop(O & ne)
    out[15] = fP - fO
    out[16] = _ratio(fP, fO)
    sP = stable_count(P, O)
    sO = stable_count(O, P)
    out[17] = sP - sO
    out[18] = _ratio(sP, sO)
    xd = 0
    cd = 0
    for c in range(4):
        if (empty >> U64(_CORNER_SQ[c])) & ONE:
            xb = ONE << U64(_X_SQ[c])
            xd += (1 if P & xb else 0) - (1 if O & xb else 0)
            for j in range(2):
                cb = ONE << U64(_C_SQ[c, j])
                cd += (1 if P & cb else 0) - (1 if O & cb else 0)
    out[19] = xd
    out[20] = cd
    out[21] = _ratio(ctpop(P), ctpop(O))
    out[22] = _ratio(ctpop(P & CORNERS), ctpop(O & CORNERS))
    ne_count = ctpop(empty)
    out[23] = 1.0 if ne_count % 2 == 1 else -1.0
    out[24] = 1.0
    out[25] = ctpop(edge_stable_mask(P)) - ctpop(edge_stable_mask(O))
    full = 0
    for k in range(4):
        e = _EDGES[k]
        full += (1 if P & e == e else 0) - (1 if O & e == e else 0)
    out[26] = full


@njit(cache=True, inline="always")
def _phase_blend(P, O, phases):
    """``(j, t)``: a position with ``phases >= 2`` weighs block ``j`` by ``1 - t`` and block
    ``j + 1`` by ``t`` (piecewise-linear in the empties between the anchors 60, ..., 0 of
    :func:`phase_anchors`)."""
    u = (1.0 - ctpop(~(P | O)) / 60.0) * (phases - 1)
    if u < 0.0:
        u = 0.0
    j = int(u)
    if j > phases - 2:
        j = phases - 2
    return j, u - j


@njit(cache=True)
def features_into(P, O, phases, out):
    """Fill ``out[:NUM_BASE * phases]`` with the features of the position (see the module doc)."""
    base_features(P, O, out)
    if phases >= 2:
        j, t = _phase_blend(P, O, phases)
        for k in range(NUM_BASE):
            v = out[k]
            for b in range(phases):
                out[b * NUM_BASE + k] = 0.0
            out[j * NUM_BASE + k] = v * (1.0 - t)
            out[(j + 1) * NUM_BASE + k] = v * t


@njit(cache=True)
def square_weight(sq, P, O, w, phases):
    """The weight ``w`` gives a disc on square ``sq`` (its class's ``sq`` feature) at the phase of
    position (P, O): what a search that orders moves by a square table sorts by."""
    k = SQUARE_CLASS[sq]
    if phases < 2:
        return w[k]
    j, t = _phase_blend(P, O, phases)
    return w[j * NUM_BASE + k] * (1.0 - t) + w[(j + 1) * NUM_BASE + k] * t


@njit(cache=True)
def evaluate(P, O, w, phases, buf):
    """Linear evaluation ``w . features(P, O)`` from the side to move's view (``buf`` scratch)."""
    features_into(P, O, phases, buf)
    s = 0.0
    for k in range(w.shape[0]):
        s += w[k] * buf[k]
    return s


def weights_by_name(named: dict[str, float], phases: int, source: str) -> np.ndarray:
    """The weight vector (:func:`feature_names` order) of a saved imitator's ``{name: weight}``.
    A feature of :data:`ADDED_FEATURES` the file lacks weighs 0 (the file predates it); any
    other missing name is an error naming ``source``."""
    names = feature_names(phases)
    missing = [n for n in names if n not in named and n.split("@")[0] not in ADDED_FEATURES]
    if missing:
        raise ValueError(f"{source}: no weight for features {missing}")
    return np.array([float(named.get(n, 0.0)) for n in names], dtype=np.float64)


def features(P: int, O: int, phases: int = 1) -> np.ndarray:
    """The feature vector of one position (Python entry point, allocates)."""
    out = np.zeros(num_features(phases), dtype=np.float64)
    features_into(U64(P), U64(O), np.int64(phases), out)
    return out
