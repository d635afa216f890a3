"""The round-value stage of a search imitator's fit: a direct search over its *agreement* among
weights that are round numbers.

Why: a hand-written evaluation is a table of round numbers (a corner worth 100, an X-square
-50, an edge 10 ...). Its exact ratios decide which moves tie (then the bot's tie rule picks) and,
under a node budget, how many nodes each alpha-beta iteration costs, hence how deep the bot gets.
A smooth surrogate (the MMTO softmax or the hinge of :mod:`ime.imitators.mmto`) fits real-valued
weights that are near the table but break its ties and move its cut-offs: on rev4's fold 0 (quick
scale) the fitted weights agree with the bot on 90.7 % of unseen positions while the same search
with the bot's own table agrees on 98.0 % (docs/imitators.md, v5). Agreement is piecewise
constant in the weights, so no gradient helps; but the search space of round numbers near the
fitted point is small. This stage scales the fitted weights so that the largest is 1,000, rounds
every weight to the nearest *preferred number* (the 1-1.2-1.5-2-2.5-3-4-5-6-7-8 decade series,
and every integer up to 10: :data:`LADDER`; the largest weight is tried at each of 1,000 x that
series, :data:`TOPS`), and then climbs the agreement on a sample of the
fit's positions with these moves, each scored by the imitator's own search:

* one weight one or two rungs up or down the ladder, or to 0 (a sparse table: features the
  target does not use must weigh exactly nothing, or they break its ties);
* every weight below 0.5-10 % of the largest set to 0 at once;
* every weight but the 1-3 largest scaled together by a factor from 0.5 to 2 and rounded again
  (the surrogate fits the ratio of large to small weights worst: on rev4 its mid-size square
  weights came out 1.4x too large against the corner and X-square);
* the start itself is tried both as fitted and, for a tapered evaluation, with its phases
  averaged into one (a table does not change with the game's phase);
* once none of those helps (a local optimum), the whole point put on the ladder again at each
  scale of :data:`TOPS` and moved to the best (every ratio rounded anew). Why: on a coarse
  rung a ratio can be off by a tenth (41 : 501 is 328 : 4000, between the rungs 300 and 400)
  and no move of one weight, of a pair or of the group mends it; rev5's thesis fold 3 ended
  (its 1,200 scorings spent) at 95.40 % with the corner at 4000 and the mid squares at 300,
  500, 400, -250, and from there the climb with this move went on to 98.53 % in 300 scorings,
  on the scale 2500 (selection 95.13 -> 97.87 %;
  docs/measurements/cpu-2026-12-04-rescale-judge/);
* once none of those helps either, a *wide* round: each weight in turn is scanned
  over far rungs (its sign flipped, x 0.25 to x 4, and small shares of the largest weight,
  :data:`WIDE_FACTORS`, :data:`WIDE_SHARES`) and moved to the best of them, and the near moves
  resume if any moved. Why: agreement is flat over wide ranges of a small weight (on rev5's
  thesis fold 1 a small square weighs 0-5 for the same agreement) and the near moves stop on
  such a plateau short of the table; from fold 1's stopped point, on a sample of fit positions
  of its own, the wide rounds took the agreement from 95.5 % to 99.0 % in 500 scorings (unseen
  96.2 % -> 99.0 %) where the near moves alone stopped at 95.9 %;
* once the wide round finds nothing either, a *pair* round: two weights moved together by the
  same amount (a share of the largest weight, :data:`PAIR_SHARES`, either sign), the pairs of
  smallest weights first, first improvement taken, then the near moves again. Why: weights
  that a table gives the same value move together, and apart each move loses: on the same fold
  1 (the pipeline's own 1,500 fit positions) the wide round found nothing from the stopped point
  (96.5 %), while moving two small square weights together took it to 97.2 % and then to
  rev5's own table, 99.9 % (selection 95.1 % -> 99.7 %), in 1,000 scorings. The straight line
  from the stopped point to the table rises all the way; no single weight does.

* with ``setting_moves`` (the caller's neighbours of a setting), at the climb's start and then
  whenever the near moves stop, a *settings* round: the point's weights under each neighbouring
  setting (for a Reversi search: the node budget a rung up or down, another move ordering, the
  previous iteration's best move first or not, another tie rule), moved to the best if that agrees
  more, and again from there while that helps. Why first: the weights drift under a wrong setting
  (in the tests' toy the climb then ended 0.75 points short of the table; moved first, it reached
  it in 12 scorings). Why at all: the settings are chosen before the stage, under the surrogate's
  weights, where they hardly matter (rev2's thesis fold 0: its surrogate weights agree on
  81.6-84.5 % of 1,000 unseen positions at every budget from 16,000 to 96,000 nodes), but under
  the target's own evaluation they matter a great deal (rev2's: 93.2 % of 600 unseen positions at
  the 32,000 nodes and static ordering that fold chose, 100.0 % at 60,000 nodes, square ordering
  and the best move first). That fold's round stage, begun on its chosen settings, ended at 81.5 %
  of its selection positions; with the settings round on the fit's own budgets as rungs it moved
  to 64,000 nodes, square ordering and the best move first and reached 87.6 % (unseen 85.8 %
  against 81.4 %); with the round numbers between them as rungs too and two runs of the stage,
  83.9 % (unseen 84.3 %), another start having gone on (docs/imitators.md, "v17").

* with ``enter_shares`` (off by default), the near moves of a weight at 0 also try each of
  these shares of the largest weight, either sign: a term *enters at its size*. Why: from 0 the
  near moves try the rungs 1 and 2, on a scale whose largest weight is 1,000-8,000, so a term
  whose own weight is a tenth of the largest is flat there and never enters, and the wide
  round, which comes only after the near, settings and rescale moves stop, tries at most 5 %
  of it. rev2's evaluation has a parity term worth 15 % of its corner; its thesis fold 0's climb
  ended without one, and with the near moves from 0 also trying 5, 10 and 20 % parity (and a
  tempo term) entered at 100 on a corner of 2,000 and unseen agreement went 88.67 -> 89.27 %
  (docs/imitators.md, "v18"; a diagnostic patch there, this knob since).

The starts share the first :data:`EXPLORE` of the scorings; the one that then agrees most
climbs on with the rest (the wide rounds need a few hundred scorings; splitting them three ways
starved the one that mattered). With ``per_weight`` (the caller's share of one agreement on
the climb's positions) the one that goes on is the one with the most agreement less
``per_weight`` for each nonzero weight: each weight has to earn its place by one position. Why:
a start with more free weights fits the climb's own sample better than it generalises, and
cannot afford the wide and pair rounds (they cost scorings per free weight, or per pair of
them): on rev5's thesis fold 0 the tapered start (49 weights) led the square table (11) on the
fit sample, 96.53 against 95.40 %, got the rest, and ended at 96.80 % (selection 94.47 %),
where the square-table climbs of folds 1, 2 and 4 went on to 99.60-99.67 %. The selection fold
does not tell them apart at that point (fold 0: 94.17, 94.57 and 94.47 % for the tapered, the
averaged and the square-table start; fold 1: 90.50, 95.97 and 95.13 %, where the square table
then reached 99.60 %).

**Raced scorings** (``climb(..., raced=True)``, :class:`Race`): a scoring is wanted only to learn
whether a point agrees more than the climb's (or a round's best so far), so it may stop as soon
as it cannot: the positions are searched in chunks, the ones most often missed first, and a
chunk's misses under every tie rule that bound the agreement at or below that bar end it. The
climb takes the same steps, spends the same number of scorings and ends on the same point as
with full scorings (a bound is never read as an agreement: a later call with a lower bar scores
the point again); only the searches it does not need are skipped. Why: most of a climb's points
are worse than its own, and on Snake's quick folds the climb's 600 scorings of 1,000 positions
under a 400-node budget were most of a fit's 40 minutes.

It learns only from the target's logged moves, as the rest of the fit: the ladder is a prior on
how people write evaluations, not a look at any bot. The caller keeps the result only if it
agrees more on the selection fold than the surrogate's weights did.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Generator, Hashable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

MANTISSAS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)
TOP = 1000.0
"""The largest weight's magnitude after scaling (so a weight 1/1000 of it is still 1)."""
TOPS = tuple(TOP * m for m in MANTISSAS)
"""The largest weight's magnitudes tried at the start: a table whose corner is worth 60 has an
edge of 8, round on the scale 6000 (800) and not on the scale 1000 (133)."""
_POSITIVE = sorted({*(float(i) for i in range(1, 11)),
                    *(float(round(m * 10 ** e)) for e in range(1, 4) for m in MANTISSAS),
                    10_000.0})
LADDER = np.array([*(-x for x in reversed(_POSITIVE)), 0.0, *_POSITIVE])
"""The round numbers a weight may take (after scaling to :data:`TOP`), ascending."""
FACTORS = (0.5, 0.6, 0.67, 0.75, 0.8, 0.9, 1.1, 1.25, 1.33, 1.5, 2.0)
"""Factors of the group-scaling move."""
DROPS = (0.005, 0.01, 0.02, 0.05, 0.1)
"""The sparsifying move zeroes every weight below this share of the largest."""
KEEPS = (1, 2, 3)
"""How many of the largest weights the group-scaling move keeps fixed."""
WIDE_FACTORS = (-1.0, 0.25, 0.5, 0.67, 1.5, 2.0, 3.0, 4.0)
"""A wide round's far rungs for a weight ``x``: ``x`` times each (then snapped)."""
WIDE_SHARES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
"""... and each of these shares of the largest weight, either sign (a weight at 0 has no
multiples)."""
PAIR_SHARES = (0.002, 0.005, 0.01, 0.02)
"""A pair round's steps, as shares of the largest weight (either sign, both weights alike)."""
EXPLORE = 0.5
"""The share of a climb's scorings that its starts split; the leading start gets the rest."""


def snap(v: np.ndarray) -> np.ndarray:
    """Each value rounded to the nearest rung of :data:`LADDER`."""
    v = np.asarray(v, dtype=np.float64)
    return LADDER[np.abs(LADDER[:, None] - v[None, :]).argmin(0)]


def to_ladder(w: np.ndarray, top: float = TOP) -> np.ndarray:
    """``w`` scaled so that its largest magnitude is ``top``, then snapped (a search's move
    does not change when every weight is multiplied by the same positive number)."""
    w = np.asarray(w, dtype=np.float64)
    big = float(np.abs(w).max())
    return snap(w * (top / big)) if big > 0 else np.zeros_like(w)


def _neighbours(x: float) -> list[float]:
    """The rungs one and two steps from ``x``, and 0, nearest to 0 first."""
    i = int(np.abs(LADDER - x).argmin())
    out = {float(LADDER[j]) for j in range(max(0, i - 2), min(len(LADDER), i + 3))} | {0.0}
    out.discard(float(x))
    return sorted(out, key=abs)


def _wide(x: float, top: float) -> list[float]:
    """A wide round's candidates for a weight at ``x`` when the largest is ``top``: the far
    rungs of :data:`WIDE_FACTORS` and :data:`WIDE_SHARES`, nearest to ``x`` first."""
    far = [x * f for f in WIDE_FACTORS] + [top * q * sign for q in WIDE_SHARES
                                           for sign in (1.0, -1.0)]
    out = {float(v) for v in snap(np.array(far))} - {float(x)}
    return sorted(out, key=lambda v: (abs(v - x), v))


def budget_ladder(budgets: Sequence[int]) -> list[int]:
    """The positive ``budgets`` and the round numbers (:data:`MANTISSAS` times a power of ten)
    between the least and the most of them, ascending: the rungs a settings round moves a node
    budget on (a budget is a number a person wrote, as a weight is:
    :mod:`ime.imitators.climb_settings`)."""
    own = {int(b) for b in budgets if int(b) > 0}
    if not own:
        return []
    lo, hi = min(own), max(own)
    rounds = {int(round(m * 10 ** e)) for e in range(len(str(hi)) + 1) for m in MANTISSAS}
    return sorted(own | {r for r in rounds if lo <= r <= hi})


def near_budgets(ladder: Sequence[int], budget: int) -> list[int]:
    """``budget`` itself, then the rungs of ``ladder`` just below and just above it (none where
    ``budget`` is not on it): the budgets a settings round tries from ``budget``."""
    near = [budget]
    if budget in ladder:
        i = list(ladder).index(budget)
        near += list(ladder[max(0, i - 1):i]) + list(ladder[i + 1:i + 2])
    return near


class Agreement(NamedTuple):
    """A raced scoring (:class:`Race`): the agreement in %, or, where ``exact`` is False, an upper
    bound on it that is no higher than the bar it had to beat (the scoring stopped early)."""

    value: float
    exact: bool


class Race:
    """Raced agreement over ``n`` fixed rows (module doc, "Raced scorings"): :meth:`__call__`
    asks ``wrong(rows)`` for the misses of a few rows at a time, each tie rule's in a row of a
    bool array, and stops once the best rule's misses so far keep the agreement at or below
    ``bar``. The rows go hardest first: by how often earlier scorings missed them under every
    rule (a worse point misses where others did), in chunks of ``chunk`` rows. The order
    changes only what is searched, never an exact agreement."""

    def __init__(self, n: int, chunk: int = 50) -> None:
        if n < 1 or chunk < 1:
            raise ValueError(f"a race needs rows and a chunk size, got n={n}, chunk={chunk}")
        self.n, self.chunk = int(n), int(chunk)
        self.missed = np.zeros(self.n, dtype=np.int64)
        self.searched = 0
        """Rows searched over all calls (the cost a full scoring would put at ``n`` a call)."""

    def __call__(self, wrong: Callable[[np.ndarray], np.ndarray], bar: float | None
                 ) -> Agreement:
        """The agreement of the point ``wrong`` reads (``wrong(rows)``: a rules x rows bool
        array of misses, rows ascending), the best rule's; stopped early with its bound where
        that cannot be above ``bar`` (None: never stop)."""
        order = np.argsort(-self.missed, kind="stable")
        misses: np.ndarray | None = None
        value = 0.0
        for at in range(0, self.n, self.chunk):
            rows = np.sort(order[at:at + self.chunk])
            m = np.atleast_2d(np.asarray(wrong(rows), dtype=bool))
            misses = m.sum(axis=1) if misses is None else misses + m.sum(axis=1)
            self.missed[rows] += m.all(axis=0)
            self.searched += len(rows)
            value = float((self.n - int(misses.min())) / self.n) * 100
            if bar is not None and at + self.chunk < self.n and value <= bar + 1e-9:
                return Agreement(value, False)
        return Agreement(value, True)


def climb(starts: Sequence[tuple[np.ndarray, Hashable] | tuple[np.ndarray, Hashable, Any]],
          score: Callable[[np.ndarray, Hashable], float], max_evals: int,
          say: Callable[[str], None] | None = None, per_weight: float = 0.0,
          setting_moves: Callable[[Hashable], Sequence[Hashable]] | None = None,
          enter_shares: Sequence[float] = (), raced: bool = False) -> dict[str, Any]:
    """Hill-climb ``score(weights, setting)`` (an agreement in %) from each of ``starts`` in turn
    (each put on the ladder at its best scale of :data:`TOPS`) with the moves of the module doc
    (near moves first improvement taken, then a rescale, a wide round, a pair round), until a round
    of all three finds none or the start's share of the first :data:`EXPLORE` of ``max_evals``
    scorings is spent (an equal share of what the earlier starts left); the highest climb then goes
    on to ``max_evals``. The best climb wins (a start that scores less at first may climb higher: a
    sparse table start below a dense one). The starts are scored in any case, one per start and
    scale. ``setting`` is the start's own (e.g. its phase count) and stays fixed unless
    ``setting_moves`` gives a setting's neighbours (the settings round of the module doc; the
    returned ``setting`` is then the climb's last); an optional third element, a bool mask, names
    the only weights the one-weight moves of that start try (a square-table start moves its squares,
    not the 40 features it holds at 0: a sweep then costs a fifth of the scorings). Returns
    ``weights``, ``setting``, ``score``, ``evals``, ``seconds``, ``start_scores`` (raced: a scale
    that does not beat an earlier one of its start may hold a bound at most that one's score) and
    ``climbs`` (each start's final score). The climb that goes on after the shared scorings is the
    one with the highest score less ``per_weight`` for each nonzero weight (module doc; ties: the
    higher score). ``enter_shares``: the near moves of a weight at 0 also try these shares of the
    largest weight, either sign (module doc). ``raced``: ``score(weights, setting, bar)`` takes the
    agreement a point has to beat (None: none) and returns an :class:`Agreement`, which may be a
    bound at or below ``bar`` (module doc, "Raced scorings"; the climb is the same, only
    cheaper)."""
    log = say or (lambda _line: None)
    t0 = time.perf_counter()
    cache: dict[tuple[Hashable, bytes], Agreement] = {}

    def f(w: np.ndarray, setting: Hashable, bar: float | None = None) -> float:
        key = (setting, w.tobytes())
        hit = cache.get(key)
        if hit is None or not (hit.exact or (bar is not None and hit.value <= bar + 1e-9)):
            got = score(w, setting, bar) if raced else Agreement(float(score(w, setting)), True)
            cache[key] = Agreement(float(got.value), bool(got.exact))
        return cache[key].value

    start_scores: list[float] = []
    firsts = []
    frees = []
    for start in starts:
        w0, setting = start[0], start[1]
        frees.append(None if len(start) < 3 else np.asarray(start[2], dtype=bool))
        scaled = [to_ladder(w0, top) for top in TOPS]
        scores: list[float] = []
        for w in scaled:  # raced against the best scale so far (the first best is kept)
            scores.append(f(w, setting, max(scores) if scores else None))
        start_scores += scores
        firsts.append((scaled[int(np.argmax(scores))], setting, max(scores)))
    log(f"round values: {len(start_scores)} starts {min(start_scores):.2f}-"
        f"{max(start_scores):.2f}%")
    climbs = [_Climb(w, setting, a, f, cache, free, setting_moves, enter_shares)
              for (w, setting, a), free in zip(firsts, frees, strict=True)]
    explore = max(len(cache), int(max_evals * EXPLORE)) if len(climbs) > 1 else max_evals
    for n, c in enumerate(climbs):
        c.run(len(cache) + max(0, (explore - len(cache)) // (len(climbs) - n)))
        log(f"round values: start {n + 1} of {len(firsts)} climbed {firsts[n][2]:.2f} -> "
            f"{c.score:.2f}% ({int(np.count_nonzero(c.w))} nonzero weights"
            f"{_setting_note(c, firsts[n][1], setting_moves)}), "
            f"{len(cache)} scorings, {time.perf_counter() - t0:.0f}s")

    def merit(c: _Climb) -> tuple[float, float]:
        return c.score - per_weight * int(np.count_nonzero(c.w)), c.score

    best = max(range(len(climbs)), key=lambda i: merit(climbs[i]))
    if per_weight and len(climbs) > 1:
        log(f"round values: less {per_weight:.3f} a nonzero weight the climbs score "
            f"{', '.join(f'{merit(c)[0]:.2f}' for c in climbs)}%: start {best + 1} goes on")
    lead = climbs[best]
    if len(cache) < max_evals and not lead.done:
        was = lead.score
        lead.run(max_evals)
        log(f"round values: start {best + 1} went on {was:.2f} -> {lead.score:.2f}% "
            f"({int(np.count_nonzero(lead.w))} nonzero weights"
            f"{_setting_note(lead, firsts[best][1], setting_moves)}), {len(cache)} "
            f"scorings, {time.perf_counter() - t0:.0f}s")
    return {"weights": lead.w, "setting": lead.setting, "score": lead.score,
            "evals": len(cache), "seconds": time.perf_counter() - t0,
            "start_scores": start_scores, "climbs": [c.score for c in climbs]}


def _setting_note(c: _Climb, began: Hashable, setting_moves: Any) -> str:
    """A climb's log note on its setting: where it is now, if the settings round may move it."""
    if setting_moves is None:
        return ""
    return f", setting {c.setting}" + ("" if c.setting == began else f" (began {began})")


class _Climb:
    """One climb (the module doc's moves, first improvement taken) from ``w`` under
    ``setting``, paused whenever the shared ``cache`` holds the budget's scorings and resumed
    by a later :meth:`run` exactly where it stopped (a restarted sweep would rescore every
    weight's neighbours at the new point); ``done`` once a whole round of moves finds none.
    ``free``: the weights the one-weight moves try (None: all); ``setting_moves``: a setting's
    neighbours for the settings round (None: the setting stays); ``enter_shares``: the shares
    of the largest weight a weight at 0 also tries among its near moves."""

    def __init__(self, w: np.ndarray, setting: Hashable, score: float,
                 f: Callable[[np.ndarray, Hashable, float | None], float],
                 cache: dict[tuple[Hashable, bytes], Agreement],
                 free: np.ndarray | None = None,
                 setting_moves: Callable[[Hashable], Sequence[Hashable]] | None = None,
                 enter_shares: Sequence[float] = ()) -> None:
        self.w, self.setting, self.score = w.copy(), setting, float(score)
        self.setting_moves = setting_moves
        self.enter_shares = tuple(float(q) for q in enter_shares)
        self.free = np.ones(len(w), dtype=bool) if free is None else free
        self.f, self.cache = f, cache
        self.budget = 0
        self.done = False
        self._steps = self._moves()

    def run(self, budget: int) -> None:
        """Climb until ``cache`` holds ``budget`` scorings or no move helps."""
        self.budget = budget
        if not self.done and next(self._steps, "done") == "done":
            self.done = True

    def _score(self, v: np.ndarray, bar: float, setting: Hashable | None = None
               ) -> Generator[bool, None, float]:
        """``v``'s score under ``setting`` (None: the climb's), pausing while the budget is
        spent (a cached point costs nothing); a raced scoring may stop once it cannot beat
        ``bar`` (its bound is then at most ``bar``)."""
        setting = self.setting if setting is None else setting
        while (setting, v.tobytes()) not in self.cache and len(self.cache) >= self.budget:
            yield False
        return self.f(v, setting, bar)

    def _take(self, v: np.ndarray) -> Generator[bool, None, bool]:
        """Score ``v`` (pausing while the budget is spent) and move there if it agrees more;
        the generator's value says whether it moved."""
        if (v == self.w).all() or self.score >= 100.0 - 1e-9:
            return False  # at 100 % agreement no move can help: nothing more is scored
        a = yield from self._score(v, self.score)
        if a > self.score + 1e-9:
            self.w, self.score = v, a
            return True
        return False

    def _moves(self) -> Generator[bool, None, None]:
        yield from self._settings_round()  # the start's own settings, before its weights drift
        while True:
            yield from self._near()
            if (yield from self._settings_round()):
                continue
            if (yield from self._rescale()):
                continue
            if (yield from self._wide_round()):
                continue
            if not (yield from self._pair_round()):
                return

    def _settings_round(self) -> Generator[bool, None, bool]:
        """The settings round (module doc): the point's weights under each neighbouring
        setting, moved to the one that agrees most if it agrees more than the point, and again
        from there while that helps (a budget two rungs off is reached without a sweep of the
        weights between); the value says whether it moved. Nothing without
        ``setting_moves``."""
        if self.setting_moves is None:
            return False
        moved = False
        while (yield from self._best_of((self.w, s) for s in self.setting_moves(self.setting))):
            moved = True
        return moved

    def _pair_round(self) -> Generator[bool, None, bool]:
        """One pair round (module doc): two free weights moved by the same step, the pairs of
        smallest weights first; the value says whether one helped (the first that does)."""
        top = float(np.abs(self.w).max())
        free = [int(k) for k in np.argsort(np.abs(self.w), kind="stable") if self.free[k]]
        pairs = sorted(itertools.combinations(free, 2),
                       key=lambda ij: abs(self.w[ij[0]]) + abs(self.w[ij[1]]))
        for i, j in pairs:
            for share in PAIR_SHARES:
                for sign in (1.0, -1.0):
                    v = self.w.copy()
                    v[[i, j]] = snap(self.w[[i, j]] + sign * share * top)
                    if (yield from self._take(v)):
                        return True
        return False

    def _best_of(self, candidates: Iterable[np.ndarray | tuple[np.ndarray, Hashable]]
                 ) -> Generator[bool, None, bool]:
        """Score each of ``candidates``, weights under the climb's setting or ``(weights,
        setting)`` pairs (pausing while the budget is spent; none more once one agrees 100 %),
        and move to the one that agrees most, if it agrees more than the point; the value says
        whether it moved. The rescale, each weight of a wide round, and the settings round."""
        best, best_score = None, self.score
        for c in candidates:
            v, setting = c if isinstance(c, tuple) else (c, self.setting)
            if best_score >= 100.0 - 1e-9:
                break
            if setting == self.setting and (v == self.w).all():
                continue
            a = yield from self._score(v, best_score, setting)
            if a > best_score + 1e-9:
                best, best_score = (v, setting), a
        if best is None:
            return False
        (self.w, self.setting), self.score = best, best_score
        return True

    def _rescale(self) -> Generator[bool, None, bool]:
        """The point put on the ladder again at each scale of :data:`TOPS` (module doc), moved
        to the best if that agrees more; the value says whether it moved."""
        return (yield from self._best_of(to_ladder(self.w, top) for top in TOPS))

    def _wide_round(self) -> Generator[bool, None, bool]:
        """One wide round (module doc): each free weight, largest first, moved to the best of
        its far rungs if that agrees more; the value says whether any moved."""
        moved = False
        for k in np.argsort(-np.abs(self.w), kind="stable"):
            if self.free[k]:
                moved |= yield from self._best_of(
                    self._with(k, x) for x in _wide(float(self.w[k]), float(np.abs(self.w).max())))
        return moved

    def _with(self, k: int, x: float) -> np.ndarray:
        """The point with weight ``k`` at ``x``."""
        v = self.w.copy()
        v[k] = x
        return v

    def _near_values(self, x: float) -> list[float]:
        """A weight's near moves from ``x``: :func:`_neighbours`, and from 0 also each of
        ``enter_shares`` of the largest weight, either sign (a term entering at its size)."""
        out = _neighbours(x)
        if x == 0 and self.enter_shares:
            top = float(np.abs(self.w).max())
            far = snap(np.array([sign * q * top for q in self.enter_shares
                                 for sign in (1.0, -1.0)]))
            out = list(dict.fromkeys([*out, *(float(v) for v in far if v != 0)]))
        return out

    def _near(self) -> Generator[bool, None, None]:
        """The near moves' rounds until one finds no improvement."""
        improved = True
        while improved:
            improved = False
            for k in np.argsort(-np.abs(self.w), kind="stable"):
                if not self.free[k]:
                    continue
                for x in self._near_values(float(self.w[k])):
                    if (yield from self._take(self._with(k, x))):
                        improved = True
                        break
            w = self.w
            for frac in DROPS:
                improved |= yield from self._take(np.where(np.abs(w) < frac * np.abs(w).max(),
                                                           0.0, w))
            for keep in KEEPS:
                w = self.w
                rest = np.argsort(-np.abs(w), kind="stable")[keep:]
                for fac in FACTORS:
                    v = w.copy()
                    v[rest] = snap(fac * w[rest])
                    improved |= yield from self._take(v)
