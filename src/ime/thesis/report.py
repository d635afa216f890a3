"""The reproduction report: the thesis's numbers beside ours, its conclusions checked, its
protocol beside ours, Table 6.1 across games, and the run's provenance, in one folder.

Everything in it is generated from a run's result tables (:mod:`ime.thesis.results`) and the
thesis data in ``config/thesis/``; nothing is typed by hand, so that rerunning the report after a
change shows the change. Files (``results/thesis[/<variant>]/``):

* ``reproduction.md`` the report;
* ``numbers.csv`` every compared thesis number (:func:`ime.thesis.compare.compare`);
* ``conclusions.csv`` each conclusion's verdict (:mod:`ime.thesis.conclusions`);
* ``protocol.csv`` each protocol item, same or different (:mod:`ime.thesis.protocol`);
* ``table6_1.csv`` / ``table6_1_by_class.csv`` and ``figures/table6_1.png`` (+pdf): imitation
  difficulty by algorithm class over the games, by S2 and by accuracy;
* ``provenance.json`` git commit, versions, machine, and time per stage.

A *partial* report covers a subset of the three games (``left_out`` names the rest): its summary
says so first; a conclusion whose check asks for a left-out game cannot be tested ("<game> is
not in this report"), whatever the covered games alone would say; the left-out games' numbers
are not compared (only counted); protocol and Table 6.1 list the covered games.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ime.thesis import compare as K
from ime.thesis import conclusions as C
from ime.thesis import protocol as PR
from ime.thesis.beyond import metrics_section, om_search_section
from ime.thesis.checks.core import NO_CI
from ime.thesis.heldout import HELDOUT_TABLES, heldout_view  # noqa: F401 - re-exported
from ime.thesis.names import FILES, GAMES  # noqa: F401 - FILES: this module's, named there
from ime.thesis.results import GameResults
from ime.thesis.summary import (  # noqa: F401 - the report's summary, re-exported here
    CHAPTERS,
    NO_TEST,
    _and,
    _cell,
    _coverage,
    _table_md,
    exact_mask,
    first_page,
    own_cell,
    own_tables_section,
    summary,
    tested_mask,
)


class _Asked(Mapping[str, GameResults]):
    """``results`` that records every game a check asks for (``game in results``,
    ``results[game]``, ``results.get(game)``), present or not.

    Why: a check skips an absent game quietly where it can (a cross-game conclusion decided on
    the games there are), which is right for a run that lacks a table, but a partial report
    must not decide a conclusion that needs a game it leaves out. What the check asked for is
    exactly what it needs, with no list of each conclusion's games to keep in step."""

    def __init__(self, results: Mapping[str, GameResults]) -> None:
        self._results = results
        self.asked: set[str] = set()

    def __getitem__(self, game: str) -> GameResults:
        self.asked.add(game)
        return self._results[game]

    def __contains__(self, game: object) -> bool:
        self.asked.add(str(game))
        return game in self._results

    def __iter__(self) -> Iterator[str]:
        return iter(self._results)

    def __len__(self) -> int:
        return len(self._results)


def not_in_report(games: Sequence[str]) -> str:
    """The reason a conclusion of a partial report cannot be tested."""
    return "; ".join(f"{g} is not in this report" for g in games)


def verdicts(results: Mapping[str, GameResults], listed: pd.DataFrame,
             left_out: Sequence[str] = ()) -> pd.DataFrame:
    """Each conclusion of ``conclusions.csv`` with its check's verdict (a conclusion without a
    check is an error: every stated conclusion must be checked). A check that asks for a game
    of ``left_out`` cannot be tested, with the reason "<game> is not in this report".

    Held-out first: a check whose numbers change when the imitators' S1/S2 are taken on
    held-out keys (:func:`heldout_view`) is decided on those, with its in-sample verdict and
    numbers beside (``in_sample``); ``keys`` says which."""
    missing = sorted(set(listed["id"]) - set(C.CHECKS))
    if missing:
        raise ValueError(f"conclusions without a check in ime.thesis.conclusions: {missing}")
    from ime.thesis.checks.core import printed_numbers
    from ime.thesis.own import NOT_ON_OWN_TABLES, thesis_results

    own = thesis_results()
    held = heldout_view(results)
    rows = []
    for r in listed.itertuples():
        asked = _Asked(results)
        v_in = C.run_check(r.id, asked)
        v_held = C.run_check(r.id, held)
        heldout = v_held.numbers != v_in.numbers and v_held.status != C.UNTESTABLE
        v = v_held if heldout else v_in
        needs = [g for g in left_out if g in asked.asked]
        if needs:
            v, heldout = C.Verdict(C.UNTESTABLE, not_in_report(needs)), False
        rows.append({"id": r.id, "section": r.section, "tables": r.tables,
                     "statement": r.statement, "verdict": v.final, "point": v.status,
                     "test": v.test or NO_TEST, "p": v.p, "n": v.n,
                     "keys": "held-out" if heldout else "",
                     "in_sample": v_in.final if heldout else "",
                     "numbers": v.numbers + (f" || in-sample: {v_in.numbers}" if heldout
                                             else ""),
                     **on_own_tables(r.id, own, NOT_ON_OWN_TABLES, printed_numbers)})
    return pd.DataFrame(rows, columns=["id", "section", "tables", "statement", "verdict",
                                       "point", "test", "p", "n", "keys", "in_sample",
                                       "numbers", "thesis_verdict", "thesis_test", "thesis_p",
                                       "thesis_n", "thesis_numbers"])


def on_own_tables(cid: str, own: Mapping[str, GameResults], why_not: Mapping[str, str],
                  printed: Any) -> dict[str, Any]:
    """Check ``cid`` on the thesis's own printed tables (``own``) with the same test as ours
    (``printed``: :func:`ime.thesis.checks.core.printed_numbers`, under which a comparison
    that needs a spread the thesis does not print is taken at its point estimates), so that
    rho 0.20 with p 0.75 is inconclusive there as it would be here. ``why_not``: the checks
    the thesis's tables cannot decide though they print what they read (the thesis checked
    against itself), and why."""
    if cid in why_not:
        return {"thesis_verdict": C.UNTESTABLE, "thesis_test": "", "thesis_p": None,
                "thesis_n": None, "thesis_numbers": why_not[cid]}
    with printed():
        t = C.run_check(cid, own)
    # the thesis prints no spread at all: its numbers need no "no CI" beside each one
    return {"thesis_verdict": t.final, "thesis_test": t.test, "thesis_p": t.p,
            "thesis_n": t.n, "thesis_numbers": t.numbers.replace(f" ({NO_CI})", "")}


S1S2_COLUMNS = ("S1", "S1_heldout", "S2", "S2_heldout")
"""The imitators' similarities the report lists for every game (``s1s2_imitator.csv``), each
with its 95 % CI (``<col>_lo``/``<col>_hi``)."""


def s1s2_every_game(results: Mapping[str, GameResults]) -> pd.DataFrame:
    """Every evaluated bot's imitator, per game: S1 and S2 on all of the target's keys beside
    the same on its held-out keys (keys from matches no training fold saw), with CIs and key
    counts. The thesis prints S1/S2 for Reversi and Doudizhu only, so Snake's appear here and
    nowhere else in the report."""
    rows = []
    for game in GAMES:
        r = results.get(game)
        df = r.get("s1s2_imitator.csv") if r is not None else None
        if df is None:
            continue
        for _, x in df.iterrows():
            row = {"game": game, "bot": x.get("bot"), "imitator": x.get("imitator"),
                   "keys": x.get("keys"), "keys_heldout": x.get("keys_heldout")}
            for c in S1S2_COLUMNS:
                row[c] = x.get(c)
                row[f"{c}_lo"], row[f"{c}_hi"] = x.get(f"{c}_lo"), x.get(f"{c}_hi")
            rows.append(row)
    cols = ["game", "bot", "imitator", "keys", "keys_heldout",
            *[f"{c}{s}" for c in S1S2_COLUMNS for s in ("", "_lo", "_hi")]]
    return pd.DataFrame(rows, columns=cols)


def table6_1(results: Mapping[str, GameResults], numbers: pd.DataFrame) -> pd.DataFrame:
    """Per evaluated bot of every game: its class, accuracy above baseline, S2 (with CI and on
    held-out keys) and the thesis's Table 6.1 S2 where the thesis has the bot."""
    rows = []
    t61 = numbers[(numbers["table"] == "Table 6.1") & (numbers["metric"] == "S2")]
    for game in GAMES:
        g = results.get(game)
        if g is None or g.get("difficulty_by_class.csv") is None:
            continue
        d = g.get("difficulty_by_class.csv")
        s = g.get("s1s2_imitator.csv")
        s = s.set_index("bot") if s is not None else pd.DataFrame()
        try:
            acc = C.game_accuracy(g).set_index("bot")
        except C.Missing:
            acc = pd.DataFrame(columns=["val_acc", "baseline", "margin"])
        for _, r in d.iterrows():
            bot = r["bot"]
            n = g.thesis_no(bot)
            th = t61[(t61["game"] == game) & (t61["subject"] == str(n))]["value"]
            rows.append({
                "game": game, "bot": bot, "thesis_bot": n if n is not None else "",
                "class": r["class"], "algorithm": r.get("algorithm", ""),
                "val_acc": acc["val_acc"].get(bot, np.nan),
                "baseline": acc["baseline"].get(bot, np.nan),
                "val_acc_margin": acc["margin"].get(bot, np.nan),
                "S2": r["S2"], "S2_lo": r.get("S2_lo", np.nan), "S2_hi": r.get("S2_hi", np.nan),
                "S2_heldout": (s["S2_heldout"].get(bot, np.nan)
                               if "S2_heldout" in s.columns else np.nan),
                "thesis_S2": float(th.iloc[0]) if len(th) else np.nan})
    cols = ["game", "bot", "thesis_bot", "class", "algorithm", "val_acc", "baseline",
            "val_acc_margin", "S2", "S2_lo", "S2_hi", "S2_heldout", "thesis_S2"]
    return pd.DataFrame(rows, columns=cols)


def table6_1_by_class(per_bot: pd.DataFrame) -> pd.DataFrame:
    """Per (game, class), hardest class first: bots, mean S2 (ours and the thesis's), mean
    accuracy above baseline."""
    order = {c: i for i, c in enumerate(C.CLASS_ORDER)}
    g = per_bot.assign(_o=per_bot["class"].map(lambda c: order.get(c, len(order))))
    out = (g.groupby(["game", "class"], sort=False)
           .agg(bots=("bot", "size"), S2=("S2", "mean"), thesis_S2=("thesis_S2", "mean"),
                val_acc_margin=("val_acc_margin", "mean"), _o=("_o", "first"))
           .reset_index())
    gorder = {x: i for i, x in enumerate(GAMES)}
    out = out.assign(_g=out["game"].map(gorder)).sort_values(["_g", "_o"])
    return out.drop(columns=["_o", "_g"]).reset_index(drop=True)


def plot_table6_1(per_bot: pd.DataFrame, png: str | Path, pdf: str | Path) -> None:
    """S2 by class, one panel per game: ours with CIs (filled), the thesis's (hollow)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [g for g in GAMES if g in set(per_bot["game"])] or ["(no results)"]
    fig, axes = plt.subplots(1, len(games), figsize=(4.2 * len(games), 3.6), squeeze=False)
    for ax, game in zip(axes[0], games, strict=True):
        d = per_bot[per_bot["game"] == game]
        classes = [c for c in (*C.CLASS_ORDER, *sorted(set(d["class"]) - set(C.CLASS_ORDER)))
                   if c in set(d["class"])]
        for i, cls in enumerate(classes):
            dc = d[d["class"] == cls].reset_index(drop=True)
            xs = i + np.linspace(-0.2, 0.2, len(dc)) if len(dc) > 1 else np.array([i])
            lo = (dc["S2"] - dc["S2_lo"]).clip(lower=0).fillna(0)
            hi = (dc["S2_hi"] - dc["S2"]).clip(lower=0).fillna(0)
            ax.errorbar(xs, dc["S2"], yerr=[lo, hi], fmt="o", color="C0", capsize=2,
                        label="ours" if i == 0 else None)
            ax.scatter(xs, dc["thesis_S2"], facecolors="none", edgecolors="C3", zorder=3,
                       label="thesis" if i == 0 else None)
            for x, b in zip(xs, dc["bot"], strict=True):
                ax.annotate(b, (x, 2), rotation=90, fontsize=6, ha="center")
        ax.set_xticks(range(len(classes)))
        ax.set_xticklabels([c.replace(" search", "\nsearch") for c in classes], fontsize=7)
        ax.set_ylim(0, 100)
        ax.set_title(game)
        ax.set_ylabel("S2 (%)")
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle("Table 6.1: endgame similarity S2 by algorithm class (hardest left)")
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    fig.savefig(pdf, metadata={"CreationDate": None})
    plt.close(fig)


# --- markdown ---------------------------------------------------------------------------------
def _num(x: Any, nd: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA:
        return ""
    if isinstance(x, (int, np.integer)) or (isinstance(x, float) and float(x).is_integer()
                                           and abs(x) >= 100):
        return f"{int(x):,}"
    return f"{C.round_half_away(float(x), nd):.{nd}f}"


def _ci(lo: Any, hi: Any) -> str:
    """``[lo, hi]``; blank where either is missing or the CI has zero width (an unknown
    spread, :data:`ime.thesis.checks.core.NO_CI`)."""
    a, b = _num(lo), _num(hi)
    return f"[{a}, {b}]" if a and b and float(hi) > float(lo) else ""


CI_METRICS = ("val_acc", "S1", "S2")
"""The metrics of numbers.csv whose every estimate of ours comes with a 95 % CI, so that a
missing one is an unknown spread and says so (a count, a rank or a parameter count has
none to miss)."""


def _ci_cell(x: Any, lo: Any, hi: Any, metric: str) -> str:
    """The report's CI cell: ``[lo, hi]``, or "no CI (spread unknown)" where a metric of
    :data:`CI_METRICS` has none (never a zero-width "[93.1, 93.1]")."""
    ci = _ci(lo, hi)
    return ci or (NO_CI if metric in CI_METRICS and pd.notna(x) else "")


def _num_ci(x: Any, lo: Any, hi: Any) -> str:
    """``x`` and its CI in one cell (``"71.5 [68.9, 74.0]"``, ``"93.1 (no CI (spread
    unknown))"``); blank when ``x`` is missing."""
    if not pd.notna(x):
        return ""
    ci = _ci(lo, hi)
    return _num(x) + (" " + ci if ci else f" ({NO_CI})")


DUPLICATE_BASELINES = {"Table 4.4": "Table 4.2", "Table 5.6": "Table 5.4"}
"""Tables that repeat another's random-choice baselines (the same number, printed twice)."""
IMBOT_OF = {"Table 4.6": "Table 4.5", "Table 4.7": "Table 4.5", "Table 5.8": "Table 5.7",
            "Table 5.9": "Table 5.7"}
"""Pairwise tables whose IMBOT column is the imitators' S1/S2 of another table: our figure is
the same number, so it is counted there (the thesis's own two values need not agree; Table
4.6's do not)."""


def mark_duplicates(nums: pd.DataFrame) -> pd.DataFrame:
    """``nums`` with ``duplicate_of``: the table and metric a row repeats (blank for a row
    counted in its own right), so that the summary counts each of our numbers once."""
    dup = []
    for r in nums.itertuples():
        subj = str(r.subject)
        if r.metric == "baseline" and r.table in DUPLICATE_BASELINES:
            dup.append(f"{DUPLICATE_BASELINES[r.table]} baseline of bot {subj}")
        elif r.table in IMBOT_OF and "-imit" in subj:
            dup.append(f"{IMBOT_OF[r.table]} {r.metric} of bot {subj.split('-')[0]}")
        else:
            dup.append("")
    return nums.assign(duplicate_of=dup)


def note_inconsistencies(nums: pd.DataFrame) -> pd.DataFrame:
    """``nums`` with a note on each row whose thesis value its own tables contradict
    (:func:`ime.thesis.own.inconsistencies`): Table 4.6's IMBOT column, the S1 of Table 4.5;
    and Table 4.8's ranks after its tie, which are dense (7, 7, 8, 9). Such a rank is compared
    with the competition rank the thesis's own points give (``diff`` and ``agrees`` against
    it, the printed value kept in ``thesis``), so that imitator 5's printed 8 against our 8
    no longer counts as agreeing when its points rank it 9th."""
    from ime.thesis.own import inconsistencies

    inc = inconsistencies()
    nums = nums.copy()
    notes = list(nums["note"]) if "note" in nums.columns else [""] * len(nums)
    for i, r in enumerate(nums.itertuples()):
        subj = str(r.subject)
        for x in inc[(inc["table"] == r.table) & (inc["game"] == r.game)].itertuples():
            ranked = r.metric == "rank" and x.what.startswith(f"rank of {subj} ")
            imbot = "-imit" in subj and x.what.startswith(
                f"{r.metric} of bot {subj.split('-')[0]}'s")
            if ranked and pd.notna(r.ours):
                comp = float(x.other)
                nums.loc[nums.index[i], "diff"] = float(r.ours) - comp
                nums.loc[nums.index[i], "agrees"] = K.agrees(comp, float(r.ours), "rank")
            if ranked or imbot:
                add = (f"compared with {x.other}, the rank the thesis's own points give (it "
                       f"prints {x.value}, ranking densely after its tie)" if ranked else
                       f"the thesis's {x.against} prints {x.other} for the same number")
                old = notes[i]
                notes[i] = f"{old}; {add}" if isinstance(old, str) and old else add
    return nums.assign(note=notes)


def markdown(*, scale: str, rdirs: Mapping[str, str], command: str, nums: pd.DataFrame,
             concl: pd.DataFrame, proto: pd.DataFrame, per_bot: pd.DataFrame,
             by_class: pd.DataFrame, prov: Mapping[str, Any], left_out: Sequence[str] = (),
             numbers_left_out: int = 0, s1s2: pd.DataFrame | None = None,
             beyond: Sequence[str] = ()) -> str:
    """The text of ``reproduction.md`` (a partial one when ``left_out`` names games)."""
    s = summary(nums, concl, proto, numbers_left_out)
    covered = [g for g in GAMES if g not in left_out]
    git = prov.get("git") or {}
    commit = git.get("commit") or "unknown"
    dirty = " (uncommitted changes)" if git.get("dirty") else ""
    tol = ", ".join(f"{u} ±{v:g}" + (" points" if u == "percent" else "") if k == "abs"
                    else f"{u} ±{100 * v:g} %" for u, (k, v) in K.TOLERANCE.items())
    title = f"# The thesis reproduced: scale={scale}"
    if left_out:
        title += f", {_and(covered)} only (partial)"
    lines = [
        title, "",
        *(_coverage(covered, left_out, s, concl) if left_out else []),
        "Generated by the workflow; do not edit. Every number and verdict below comes from "
        "code (`ime.thesis`) over the result tables of "
        + ", ".join(f"`{d}/`" for d in rdirs.values())
        + f" and the thesis's numbers in `config/thesis/`. Commit `{commit}`{dirty}.", "",
        f"Rebuild: `{command}`", "",
        *first_page(s, concl, proto, covered, scale, nums),
        "## Counts", "",
        f"- **Numbers:** {s['numbers']} of the thesis's numbers compared, each once "
        f"({s['duplicates']} more rows repeat one of them: the baselines of Tables 4.4/5.6 and "
        "the IMBOT columns of Tables 4.6-4.7/5.8-5.9, marked 'duplicate of' and not counted); "
        f"{s['measured']} "
        f"measured in this run, of which **{s['agree']} agree** within tolerance "
        f"({tol}; or the thesis's value inside our 95 % CI); {s['not_measured']} are not "
        "measured at this scale (a bot or table this run does not have)"
        + (f"; {s['numbers_left_out']} more, of the games this report leaves out, are not "
           "compared." if left_out else "."),
        f"- **Conclusions:** {s['conclusions']} stated by the thesis: **{s['holds']} hold** "
        f"({s['holds_tested']} of them by a significance test at 95 %), "
        f"**{s['fails']} do not hold**, **{s['inconclusive']} inconclusive** (the data cannot "
        f"decide them at 95 %), {s['untestable']} cannot be tested on these results; "
        f"{s['exact']} of the decided ones rest on one recorded trace or an exact count "
        "(nothing sampled to test over; 'exact' in their test), "
        f"{s['untested']} carry no test (decided on the point estimates).",
        f"- **Protocol:** {s['protocol_same']} items as the thesis, "
        f"{s['protocol_different']} different (each with its reason below).", "",
        "## Conclusions", "",
        "Verdicts of `ime.thesis.conclusions` (one named check per conclusion; the thesis "
        "section it is stated in). A check that orders, ranks or compares carries a test, "
        "named in 'test' with its n and p: it holds or does not hold only when the test "
        "decides at 95 %, and is **inconclusive** otherwise, whichever way the point "
        "estimates fall ('point estimates' shows that way). A cluster or split is redrawn "
        "(a seeded parametric bootstrap from the CIs, clustered again by the pipeline's own "
        "clustering): it holds when it appears in at least 95 % of the resamples and does not "
        "hold when in at most 5 %. A closeness ('differ little', 'about 90 %') is an "
        "equivalence test against a stated margin. 'exact' marks a verdict on one recorded "
        "trace or an exact count, with nothing sampled to test over. A zero-width CI (a single "
        "model without per-match counts) is an unknown spread, never a certain one, so a "
        "comparison resting on it is inconclusive; a share of 0 or 100 % of S1/S2 keys gets "
        "Clopper-Pearson's exact interval over its key matches (a bootstrap's collapses). "
        "'On the thesis's tables': the same check and test run on the numbers the "
        "thesis printed, where they suffice, with its p and n (a comparison that needs a "
        "spread the thesis does not print is taken at its point estimates). Held-out first: "
        "a verdict that reads the imitators' S1/S2 is decided on "
        "held-out keys (matches no training fold saw) where the run has them, its in-sample "
        "verdict beside ('S1/S2 keys') and its in-sample numbers after '||'.", "",
    ]
    c = concl.assign(own_=[own_cell(r) for r in concl.to_dict("records")],
                     keys_=[f"held-out (in-sample: {i})" if k else "" for k, i in zip(
        concl.get("keys", pd.Series("", index=concl.index)).fillna(""),
        concl.get("in_sample", pd.Series("", index=concl.index)).fillna(""), strict=True)])
    lines += _table_md(c, ["id", "section", "statement", "verdict", "point", "test", "keys_",
                           "own_", "numbers"],
                       ["check", "§", "the thesis states", "verdict", "point estimates",
                        "test (n, p)", "S1/S2 keys", "on the thesis's tables", "our numbers"])
    lines += ["", *own_tables_section(concl)]
    lines += ["", "## Protocol: the thesis's against ours", ""]
    for game in GAMES:
        p = proto[proto["game"] == game]
        if p.empty:
            continue
        lines += [f"### {game}", ""]
        lines += _table_md(p, ["item", "section", "thesis", "ours", "status", "reason"],
                           ["item", "§", "thesis", "ours", "", "why ours differs"])
        lines.append("")
    lines += ["## The thesis's numbers beside ours", "",
              "Per table: the thesis's value, ours, the difference, our 95 % CI, and for S1/S2 "
              "ours on held-out keys (matches no fold trained on) beside the in-sample figure. "
              "Counts of decision pairs are scaled to the thesis's matches per bot, tournament "
              "points to its games per agent (the note says from what).", ""]
    for (table, game), t in nums.groupby(["table", "game"], sort=False):
        t = t.assign(
            thesis_=t["thesis"].map(_num), ours_=t["ours"].map(_num),
            diff_=t["diff"].map(lambda x: ("+" if x > 0 else "") + _num(x) if pd.notna(x)
                                else ""),
            ci=[_ci_cell(x, a, b, m) for x, a, b, m in zip(t["ours"], t["ours_lo"],
                                                           t["ours_hi"], t["metric"],
                                                           strict=True)],
            held=[_num_ci(h, a, b) for h, a, b in zip(t["heldout"], t["heldout_lo"],
                                                      t["heldout_hi"], strict=True)],
            ok=t["agrees"].map(lambda a: "" if a is pd.NA or pd.isna(a) else
                               ("yes" if a else "no")),
            note=[("duplicate of " + d + " (not counted)" + ("; " + n if isinstance(n, str)
                                                            and n else ""))
                  if d else n for d, n in zip(t.get("duplicate_of", pd.Series(
                      "", index=t.index)), t["note"], strict=True)],
            what=[f"{m}{' ' + n if n else ''}" for m, n in zip(t["metric"], t["net"],
                                                                strict=True)])
        once = t[t.get("duplicate_of", pd.Series("", index=t.index)) == ""]
        n_ok = int((once["agrees"] == True).sum())  # noqa: E712
        n_meas = int(once["agrees"].notna().sum())
        lines += [f"### {table} ({game}): {n_ok} of {n_meas} measured agree"
                  + (f" ({len(t) - len(once)} duplicate rows not counted)"
                     if len(once) < len(t) else ""), ""]
        lines += _table_md(t, ["subject", "ours_subject", "what", "thesis_", "ours_", "diff_",
                               "ci", "held", "ok", "note"],
                           ["thesis", "ours", "metric", "thesis", "ours", "diff", "our CI",
                            "held-out", "agrees", "note"])
        lines.append("")
    if s1s2 is not None and len(s1s2):
        lines += ["## S1/S2 of every game's imitators, on all keys and on held-out keys", "",
                  "Per evaluated bot, its imitator's S1 and S2 (%) with 95 % CIs on all of the "
                  "target's key endgames and on its held-out keys (from matches no training "
                  "fold saw; the in-sample figures can reflect memorised positions), from each "
                  "game's `s1s2_imitator.csv`.", ""]
        s = s1s2.assign(**{c + "_": [_num_ci(v, a, b) for v, a, b in zip(
                                         s1s2[c], s1s2[f"{c}_lo"], s1s2[f"{c}_hi"], strict=True)]
                           for c in S1S2_COLUMNS},
                        keys_=[f"{_num(k, 0)} / {_num(h, 0)}" if pd.notna(h) else _num(k, 0)
                               for k, h in zip(s1s2["keys"], s1s2["keys_heldout"],
                                               strict=True)])
        lines += _table_md(s, ["game", "bot", "imitator", "S1_", "S1_heldout_", "S2_",
                               "S2_heldout_", "keys_"],
                           ["game", "bot", "imitator", "S1", "S1 held-out", "S2", "S2 held-out",
                            "keys / held-out keys"])
        lines.append("")
    lines += ["## Table 6.1 across games: imitation difficulty by algorithm class", "",
              "Mean S2 (%) and mean validation accuracy above the random baseline (points) "
              "per class, hardest class first as the thesis orders them; the thesis's S2 "
              "where it has the bots. Per bot: `table6_1.csv`; figure: "
              "`figures/table6_1.png`.", ""]
    bc = by_class.assign(**{k: by_class[k].map(_num) for k in ("S2", "thesis_S2",
                                                               "val_acc_margin")})
    lines += _table_md(bc, ["game", "class", "bots", "S2", "thesis_S2", "val_acc_margin"],
                       ["game", "class", "bots", "S2", "thesis S2", "accuracy above baseline"])
    lines += ["", *beyond, "## Provenance", ""]
    vers = prov.get("packages") or {}
    mach = prov.get("machine") or {}
    lines += [f"- commit `{commit}`{dirty}; written {prov.get('timestamp_utc', '')}",
              "- " + ", ".join(f"{k} {v}" for k, v in vers.items() if v),
              "- machine: " + ", ".join(f"{k} {v}" for k, v in mach.items()
                                        if v not in (None, "", [], {})), ""]
    stages = prov.get("stages") or []
    if stages:
        st = pd.DataFrame(stages)
        for col in ("wall_s", "cpu_s"):
            if col in st.columns:
                st[col] = st[col].map(lambda x: _num(x, 0))
        cols = [c for c in ("game", "stage", "jobs", "wall_s", "cpu_s") if c in st.columns]
        lines += ["Time per stage (sums over the jobs' `benchmark:` files under "
                  "`benchmarks/`; jobs that ran in earlier sittings included):", ""]
        lines += _table_md(st, cols, cols)
    return "\n".join(lines).rstrip("\n") + "\n"


def write(out_dir: str | Path, *, scale: str, results: Mapping[str, GameResults],
          cfgs: Mapping[str, Mapping[str, Any]], rdirs: Mapping[str, str], command: str,
          prov: Mapping[str, Any], left_out: Sequence[str] = ()) -> dict[str, int]:
    """Write every file of :data:`FILES` into ``out_dir``; returns the summary counts.

    ``left_out``: the games a partial report leaves out (their results, if any are passed, are
    not read)."""
    from ime.thesis import reference

    unknown = sorted(set(left_out) - set(GAMES))
    if unknown:
        raise ValueError(f"left_out {unknown}: not thesis games ({', '.join(GAMES)})")
    results = {g: r for g, r in results.items() if g not in left_out}
    cfgs = {g: c for g, c in cfgs.items() if g not in left_out}
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    numbers = reference.numbers()
    nums = K.compare(numbers, results)
    dropped = nums["game"].isin(left_out)
    numbers_left_out = int(dropped.sum())
    nums = note_inconsistencies(mark_duplicates(nums[~dropped].reset_index(drop=True)))
    concl = verdicts(results, reference.conclusions(), left_out)
    items = PR.load()
    proto = pd.concat([PR.compare(g, cfgs[g], scale, items.get(g, [])) for g in GAMES
                       if g in cfgs], ignore_index=True)
    per_bot = table6_1(results, numbers)
    by_class = table6_1_by_class(per_bot)
    for name, df in [("numbers.csv", nums), ("conclusions.csv", concl),
                     ("protocol.csv", proto), ("table6_1.csv", per_bot),
                     ("table6_1_by_class.csv", by_class)]:
        df.to_csv(out / name, index=False, float_format="%.6g")
    plot_table6_1(per_bot, out / "figures/table6_1.png", out / "figures/table6_1.pdf")
    (out / "provenance.json").write_text(json.dumps(prov, indent=1, default=str) + "\n")
    (out / "reproduction.md").write_text(markdown(
        scale=scale, rdirs=rdirs, command=command, nums=nums, concl=concl, proto=proto,
        per_bot=per_bot, by_class=by_class, prov=prov, left_out=left_out,
        numbers_left_out=numbers_left_out, s1s2=s1s2_every_game(results),
        beyond=[*metrics_section(results), *om_search_section(results)]), encoding="utf-8")
    return summary(nums, concl, proto, numbers_left_out)


def job_thesis_report(smk: Any) -> None:
    """Snakemake job (rule thesis_report): read each game's tables, write every file."""
    import logging

    from ime.bots.registry import load_bot_specs
    from ime.core.provenance import collect, stage_times
    from ime.thesis.results import results_from_paths
    from ime.workflow.jobs.logging import job_logging

    log = logging.getLogger("ime.thesis")
    with job_logging(smk):
        spec = smk.params.spec
        results, cfgs, rdirs, stages = {}, {}, {}, []
        for game, g in spec["games"].items():
            results[game] = results_from_paths(game, g["tables"], load_bot_specs(game),
                                               g["eval_net"], g["matches_per_target"])
            cfgs[game] = g["config"]
            rdirs[game] = g["rdir"]
            for st in stage_times("benchmarks", game, tags=g.get("tags")):
                stages.append({"game": game, **st})
        from ime.paths import config_dir

        # the code's repository (the Snakefile's folder), not the run's working directory
        left_out = spec.get("left_out", [])
        prov = {**collect(config_dir().resolve().parent), "scale": spec["scale"],
                "results": rdirs,
                "stages": stages}
        if left_out:  # a partial report names its subset (the whole one's keys unchanged)
            prov["games"], prov["left_out"] = list(rdirs), list(left_out)
        out = Path(smk.output.md).parent
        counts = write(out, scale=spec["scale"], results=results, cfgs=cfgs, rdirs=rdirs,
                       command=spec["command"], prov=prov, left_out=left_out)
        log.info("reproduction report %s: %s", out, counts)
