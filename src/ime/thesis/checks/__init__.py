"""The thesis's stated conclusions as named checks over our result tables, one module per
chapter: :mod:`.snake` (2.1.3), :mod:`.reversi` (chapter 4), :mod:`.doudizhu` and
:mod:`.doudizhu_case` (chapter 5), :mod:`.chapter6`, with 4.3.3's training checks in
:mod:`.reversi_training`; :mod:`.core` holds the verdict, the registry and the lookups,
:mod:`.common` the claims several chapters make, :mod:`.stability` the tests of clusters,
splits and closeness claims and the exact verdicts of one recorded trace.

Each conclusion of ``config/thesis/conclusions.csv`` (its id, the thesis section, the statement,
the Chinese quote) has one check, registered under the same id with :func:`check`; its
docstring quotes the sentence it tests and says how our tables decide it. A check reads only the
tables of :class:`~ime.thesis.results.GameResults` and returns a :class:`Verdict`: the conclusion
**holds**, **does not hold**, or **cannot be tested** on these results (a table or a bot it needs
is missing, too few bots, a statement about the bots' code), always with the numbers it was
decided on. Nothing here or in the docs states a verdict by hand: the reproduction report prints
what these return.

Where the thesis states an ordering, a ranking or a comparison ("bot 3 is imitated worst"), a
check decides on the point estimates (``Verdict.status``) and carries a significance test of
it (``Verdict.test``, ``p``, ``n``, ``decided``): a z-test from the archived 95 % CIs, from the
tournament's outcome counts, a rank-correlation test or an exact sign-flip test over bots
(:mod:`.core`); a cluster or split its stability under a seeded parametric bootstrap, a
closeness an equivalence test against a stated margin (:mod:`.stability`). ``Verdict.final``,
what the report counts, is inconclusive where the test cannot decide at 95 %.

Importing this package registers every check (the chapter modules register on import).
"""

from ime.thesis.checks import (  # noqa: F401 - importing registers the checks
    chapter6,
    doudizhu,
    doudizhu_case,
    reversi,
    reversi_training,
    snake,
)
from ime.thesis.checks.common import CLASS_ORDER
from ime.thesis.checks.core import (
    CHECKS,
    FAILS,
    FINAL_STATUSES,
    HOLDS,
    INCONCLUSIVE,
    POINT_STATUSES,
    STATUSES,
    UNTESTABLE,
    CheckFn,
    Missing,
    Results,
    Verdict,
    accuracy_by_bot,
    check,
    game_accuracy,
    round_half_away,
    run_check,
)

__all__ = ["CHECKS", "CLASS_ORDER", "FAILS", "FINAL_STATUSES", "HOLDS", "INCONCLUSIVE",
           "POINT_STATUSES", "STATUSES", "UNTESTABLE", "CheckFn", "Missing", "Results", "Verdict",
           "accuracy_by_bot", "check", "game_accuracy", "round_half_away",
           "run_check"]
