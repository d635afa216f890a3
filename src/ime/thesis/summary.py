"""The reproduction report's summary: its counts, its first page in the manner of the ML
Reproducibility Challenge, and its section on the thesis's own tables.

Why a module of its own: the summary is what a reader takes in first, and each of its lines
is computed from the same tables as the rest of the report (:mod:`ime.thesis.report`), so it
cannot drift from them; kept apart, the report's writer stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ime.thesis import conclusions as C
from ime.thesis import protocol as PR
from ime.thesis.checks.stability import EXACT


def _cell(x: Any) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _table_md(df: pd.DataFrame, cols: Sequence[str], heads: Sequence[str] | None = None
              ) -> list[str]:
    heads = list(heads or cols)
    out = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    out += ["| " + " | ".join(_cell(r[c]) for c in cols) + " |" for _, r in df.iterrows()]
    return out


NO_TEST = "no test (decided on the point estimates)"
"""The test column of a check that carries none (a statement that cannot be tested on results,
such as a reading of the bots' code). Clusters, splits and closeness claims carry a resampling
or equivalence test, the case study's details and exact counts say so
(:mod:`ime.thesis.checks.stability`)."""


def summary(nums: pd.DataFrame, concl: pd.DataFrame, proto: pd.DataFrame,
            numbers_left_out: int = 0) -> dict[str, int]:
    """The counts of the report's summary (``numbers_left_out``: the thesis's numbers of the
    games a partial report leaves out, neither compared nor counted in the others)."""
    dups = (nums["duplicate_of"] != "") if "duplicate_of" in nums.columns else pd.Series(
        False, index=nums.index)
    once = nums[~dups.astype(bool)]
    measured = once[once["agrees"].notna()]
    return {"numbers": len(once), "duplicates": int(dups.sum()),
            "numbers_left_out": numbers_left_out,
            "measured": len(measured),
            "agree": int((measured["agrees"] == True).sum()),  # noqa: E712 - nullable
            "not_measured": int(once["agrees"].isna().sum()),
            "holds": int((concl["verdict"] == C.HOLDS).sum()),
            "holds_tested": int(((concl["verdict"] == C.HOLDS) & tested_mask(concl)).sum()),
            "exact": int(exact_mask(concl).sum()),
            "fails": int((concl["verdict"] == C.FAILS).sum()),
            "inconclusive": int((concl["verdict"] == C.INCONCLUSIVE).sum()),
            "untested": int(((concl["test"] == NO_TEST)
                             & (concl["verdict"] != C.UNTESTABLE)).sum()),
            "untestable": int((concl["verdict"] == C.UNTESTABLE).sum()),
            "conclusions": len(concl),
            "protocol_same": int((proto["status"] == PR.SAME).sum()),
            "protocol_different": int((proto["status"] == PR.DIFFERENT).sum())}


CHAPTERS = (("Snake (2.1.3)", ("2.",)), ("Reversi (ch. 4)", ("4.",)),
            ("Doudizhu (ch. 5)", ("5.",)), ("across games (ch. 6)", ("6.",)))
"""The report's summary lines per chapter: the sections whose conclusions each covers."""


def _counts(c: pd.DataFrame) -> str:
    """``a hold, b do not, c inconclusive, d untestable`` of conclusions ``c``."""
    v = c["verdict"]
    return (f"{int((v == C.HOLDS).sum())} hold, {int((v == C.FAILS).sum())} do not, "
            f"{int((v == C.INCONCLUSIVE).sum())} inconclusive, "
            f"{int((v == C.UNTESTABLE).sum())} untestable")


def _ids(c: pd.DataFrame) -> str:
    """Every one of the conclusions' ids, grouped by chapter (:data:`CHAPTERS`), as a list a
    reader finds in the table below: a summary that names some and counts the rest hides the
    ones a reader looks for."""
    if c.empty:
        return "none"
    sec = c["section"].astype(str) if "section" in c.columns else pd.Series("", index=c.index)
    groups, seen = [], pd.Series(False, index=c.index)
    for name, prefixes in CHAPTERS:
        hit = sec.str.startswith(prefixes) & ~seen
        seen |= hit
        if hit.any():
            groups.append(f"{name}: " + ", ".join(f"`{i}`" for i in c[hit]["id"]))
    if (~seen).any():
        groups.append(", ".join(f"`{i}`" for i in c[~seen]["id"]))
    return f"{len(c)}; " + "; ".join(groups)


def tested_mask(concl: pd.DataFrame) -> pd.Series:
    """The conclusions whose verdict a significance test decided: neither :data:`NO_TEST` nor
    an exact one (one recorded trace or an exact count, :data:`ime.thesis.checks.stability.
    EXACT`), which is decided with nothing sampled to test over."""
    test = concl.get("test", pd.Series("", index=concl.index)).fillna("").astype(str)
    return (test != NO_TEST) & ~test.str.startswith(EXACT)


def exact_mask(concl: pd.DataFrame) -> pd.Series:
    """The conclusions decided on one recorded trace or an exact count."""
    test = concl.get("test", pd.Series("", index=concl.index)).fillna("").astype(str)
    return test.str.startswith(EXACT) & (concl["verdict"] != C.UNTESTABLE)


STAGES = (("datasets", ("pairs", "baseline", "baseline_min", "baseline_max")),
          ("net sizes", ("params", "params_major", "params_minor")),
          ("training accuracy", ("train_acc", "val_acc")),
          ("similarity S1/S2", ("S1", "S2")),
          ("tournaments", ("points", "rank")))
"""The reproduction's stages by the metrics of numbers.csv they produce, for the summary's
notes on what was easy and hard to reproduce."""


def stage_agreement(nums: pd.DataFrame) -> list[tuple[str, int, int]]:
    """Per stage (:data:`STAGES`): (name, numbers that agree, numbers measured), each number
    counted once (rows marked ``duplicate_of`` left out)."""
    if not {"metric", "agrees"} <= set(nums.columns):
        return []
    once = nums
    if "duplicate_of" in nums.columns:
        once = nums[nums["duplicate_of"].fillna("").astype(str) == ""]
    out = []
    for name, metrics in STAGES:
        t = once[once["metric"].isin(metrics) & once["agrees"].notna()]
        if len(t):
            out.append((name, int((t["agrees"] == True).sum()), len(t)))  # noqa: E712
    return out


def decided_lists(concl: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The decided conclusions (holds, does not hold) in lists that never overlap, so that
    each appears in exactly one: those resting on one trace or an exact count, then by verdict
    and, for a failure, by what the same check says on the thesis's own tables."""
    v = concl["verdict"]
    tv = concl.get("thesis_verdict", pd.Series("", index=concl.index)).fillna("")
    ex = exact_mask(concl) & v.isin([C.HOLDS, C.FAILS])
    fails = (v == C.FAILS) & ~ex
    return [
        ("**Reproduced** (holds, a test deciding at 95 %)", concl[(v == C.HOLDS) & ~ex]),
        ("**Exact** (decided on one recorded trace or an exact count, nothing sampled to "
         "test over)", concl[ex]),
        ("**Not reproduced** (does not hold here though the thesis's own tables bear it out)",
         concl[fails & (tv == C.HOLDS)]),
        ("**Not reproduced, nor supported by the thesis's own tables** (does not hold here; "
         "does not hold or is inconclusive there)",
         concl[fails & tv.isin([C.FAILS, C.INCONCLUSIVE])]),
        ("**Not reproduced; the thesis's own tables cannot decide it**",
         concl[fails & ~tv.isin([C.HOLDS, C.FAILS, C.INCONCLUSIVE])]),
    ]


def _methodology_diffs(diff: pd.DataFrame) -> str:
    """The protocol's differences, inline where few, else counted per game (each is listed
    with its reason in the report's Protocol section)."""
    if diff.empty:
        return "none"
    if len(diff) <= 6:
        return "; ".join(f"{r.game} {r.item} ({r.thesis} -> {r.ours})" for r in diff.itertuples())
    per = diff.groupby("game", sort=False).size()
    return ("listed with their reasons under 'Protocol'; " + ", ".join(
        f"{g} {n}" for g, n in per.items()))


def notes(nums: pd.DataFrame, concl: pd.DataFrame, proto: pd.DataFrame) -> list[str]:
    """What was easy and what was hard about the reproduction itself, as the ML
    Reproducibility Challenge asks, from facts the report has: which stages' numbers matched
    the thesis's, where the protocol had to differ, where a spread is unknown, where the
    thesis's tables contradict each other."""
    from ime.thesis.own import inconsistencies

    st = stage_agreement(nums)
    easy = [f"{n} ({a} of {m} agree)" for n, a, m in st if a >= 0.75 * m]
    hard = [f"{n} ({a} of {m} agree)" for n, a, m in st if a < 0.75 * m]
    diff = proto[proto["status"] == PR.DIFFERENT] if "status" in proto.columns else proto[:0]
    same = int((proto["status"] == PR.SAME).sum()) if "status" in proto.columns else 0
    test = concl.get("test", pd.Series("", index=concl.index)).fillna("").astype(str)
    unknown = concl[test.str.contains("spread unknown", regex=False)]
    inc = inconsistencies()
    return [
        f"- **What was easy.** The stages whose numbers match the thesis's: "
        f"{', '.join(easy) or 'none'}; {same} protocol items could be followed as the thesis "
        "states them; every printed number and conclusion could be put in a table and "
        "re-decided from the archived result tables in seconds.",
        f"- **What was hard.** The stages whose numbers mostly differ: "
        f"{', '.join(hard) or 'none'}; {len(diff)} protocol items had to differ (why: "
        "'Protocol'); the thesis prints no spread, so its own tables decide only what needs "
        f"none; {len(unknown)} of our conclusions rest on an estimate of unknown spread (a "
        "single model without per-match counts, or no CI archived); the thesis's tables "
        f"contradict each other in {len(inc)} places ('The thesis's own tables').",
    ]


def first_page(s: Mapping[str, int], concl: pd.DataFrame, proto: pd.DataFrame,
               covered: Sequence[str], scale: str, nums: pd.DataFrame | None = None
               ) -> list[str]:
    """The summary a reader takes in first, in the manner of the ML Reproducibility Challenge's
    first page: scope, methodology (the protocol and where it differs), the results in five
    lines, what was easy and what was hard about the reproduction (:func:`notes`, where
    ``nums`` is given), every decided conclusion in exactly one list (:func:`decided_lists`), and
    what the thesis's own numbers do not support. Generated from the same tables as the rest,
    so it cannot drift from them; each conclusion named is a row of the Conclusions table."""
    diff = proto[proto["status"] == PR.DIFFERENT] if "status" in proto.columns else proto[:0]
    tv = concl.get("thesis_verdict", pd.Series("", index=concl.index))
    held = concl.get("keys", pd.Series("", index=concl.index)).fillna("") == "held-out"
    lines = [
        "## Summary", "",
        f"- **Scope.** The thesis's experiments on {_and(list(covered))} at scale={scale}: its "
        f"{s['conclusions']} stated conclusions, each a named check, and {s['numbers']} of its "
        "printed numbers (each counted once), from our own bots, imitators and tournaments.",
        f"- **Methodology.** The thesis's protocol ({s['protocol_same']} items as it states "
        f"them, {s['protocol_different']} different: {_methodology_diffs(diff)}). A comparison "
        "counts only when a test decides it at 95 % (z-tests "
        "from the 95 % CIs, tournament outcome counts, rank correlations, sign-flip over "
        "bots; clusters and splits redrawn from the CIs, closeness by equivalence tests); "
        "S1/S2 on held-out keys first "
        f"({int(held.sum())} conclusions decided on them, in-sample beside).",
        "- **Results.**",
        f"  1. Numbers: **{s['agree']} of {s['measured']}** measured agree with the thesis "
        "within tolerance.",
        f"  2. Conclusions: **{s['holds']} hold, {s['fails']} do not, {s['inconclusive']} "
        f"inconclusive**, {s['untestable']} untestable.",
    ]
    for k, (name, prefixes) in enumerate(CHAPTERS[1:3], start=3):
        c = concl[concl["section"].astype(str).str.startswith(prefixes)]
        lines.append(f"  {k}. {name}: {_counts(c)}.")
    rest = concl[concl["section"].astype(str).str.startswith(("2.", "6."))]
    lines.append(f"  5. Snake (2.1.3) and across games (ch. 6): {_counts(rest)}.")
    if nums is not None:
        lines += notes(nums, concl, proto)
    lines += ["- **Each decided conclusion, in exactly one list:**"]
    lines += [f"  - {head}: {_ids(c)}." for head, c in decided_lists(concl)]
    lines += [
        "- **The thesis's own numbers** (the same check, the same test, on its printed tables; "
        "see 'The thesis's own tables'): they do not support "
        f"{_ids(concl[tv == C.FAILS])}; they cannot establish at 95 % "
        f"{_ids(concl[tv == C.INCONCLUSIVE])}.", ""]
    return lines


def own_tables_section(concl: pd.DataFrame) -> list[str]:
    """The report's section on the thesis's own tables: the conclusions they do not support
    (the same check and test on the numbers the thesis printed; a comparison needing a spread
    it does not print taken at its point estimates), those its numbers cannot establish at
    95 % (inconclusive there), and where the thesis's tables contradict each other, with both
    values. So a reader can tell "the reproduction differs" from "the thesis's numbers never
    showed it"."""
    from ime.thesis.own import inconsistencies

    tv = concl.get("thesis_verdict", pd.Series("", index=concl.index))
    c = concl.assign(own_test=[own_cell(r) for r in concl.to_dict("records")])
    lines = ["## The thesis's own tables", "",
             "Each check run on the numbers the thesis printed (`ime.thesis.own`: its tables as "
             "result tables; the clusters of 4.5.1/5.5.1 drawn from its Tables 4.5/5.7 by our "
             "clustering; Table 4.1's and Fig 2.4's ladder ranks and depths), with the same "
             "test as ours: a test that needs no spread (a rank correlation, a sign-flip over "
             "bots) decides as on ours; the thesis prints no spread, so a comparison that needs "
             "one is taken at its printed point estimates. "
             f"{int((tv == C.HOLDS).sum())} hold there, {int((tv == C.FAILS).sum())} do not, "
             f"{int((tv == C.INCONCLUSIVE).sum())} are inconclusive, "
             f"{int((tv == C.UNTESTABLE).sum())} cannot be decided from its printed numbers.",
             ""]
    for title, mask in (("Conclusions the thesis's own tables do not support",
                         tv == C.FAILS),
                        ("Conclusions the thesis's own numbers cannot establish at 95 %",
                         tv == C.INCONCLUSIVE)):
        lines += [f"### {title}", ""]
        bad = c[mask]
        if bad.empty:
            lines += ["None.", ""]
            continue
        lines += _table_md(bad, ["id", "section", "statement", "verdict", "own_test",
                                 "thesis_numbers"],
                           ["check", "§", "the thesis states", "our verdict",
                            "on the thesis's tables", "its numbers"])
        lines.append("")
    inc = inconsistencies()
    lines += ["### The thesis's tables against each other", "",
              "Where two of the thesis's tables print different values for one quantity (the "
              "pairwise tables' IMBOT column repeats the imitators' S1/S2; a tournament's ranks "
              "follow from its points). Our comparison reads the first table named; a rank is "
              "compared with the rank its points give.", ""]
    lines += (_table_md(inc, ["game", "what", "table", "value", "against", "other"],
                        ["game", "what", "table", "its value", "against", "value there"])
              if len(inc) else ["None."])
    return lines


def own_cell(r: Mapping[str, Any]) -> str:
    """A conclusion's verdict on the thesis's tables with its test's p and n where it has one
    (``inconclusive (p = 0.747, n = 5)``), and whether it was taken at the printed point
    estimates for want of a spread."""
    from ime.thesis.checks.core import PRINTED_NOTE

    v = str(r.get("thesis_verdict", "") or "")
    p, n = r.get("thesis_p"), r.get("thesis_n")
    bits = []
    if p is not None and not pd.isna(p):
        bits.append(f"p = {float(p):.3g}")
    if n is not None and not pd.isna(n):
        bits.append(f"n = {int(n)}")
    test = str(r.get("thesis_test", "") or "")
    if PRINTED_NOTE.split(":")[0] in test:
        bits.append("point estimates where it prints no spread")
    elif test.startswith(EXACT):
        bits.append("exact")
    return v + (f" ({', '.join(bits)})" if bits and v != C.UNTESTABLE else "")


def _and(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else list(names))


def _coverage(covered: Sequence[str], left_out: Sequence[str], s: Mapping[str, int],
              concl: pd.DataFrame) -> list[str]:
    """A partial report's first lines: what it covers, what it leaves out and what that costs."""
    needs = int(concl["numbers"].str.contains(" is not in this report", regex=False).sum())
    return [f"**A partial reproduction:** this report covers {_and(covered)} only; "
            f"{_and(left_out)} {'is' if len(left_out) == 1 else 'are'} left out (not "
            "composed, no job of theirs run). Their "
            f"{s['numbers_left_out']} numbers of the thesis are not compared and count neither "
            f"as measured nor as agreeing; the {needs} conclusions that need them (cross-game "
            "ones included) cannot be tested here; protocol and Table 6.1 list only "
            f"{_and(covered)}. The whole report is the one without `thesis_games`.", ""]


