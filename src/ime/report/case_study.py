"""The case study (thesis 5.5.2, Table 5.11, Figs 5.4-5.8): one key endgame traced through the
target's original, every reference and the target's imitator, as a table and a figure.

The key is :func:`ime.evaluate.trace.choose_key`'s (the thesis's choice: the target and its
imitator win, the most references lose); the trace is S2's fork recorded move by move
(:func:`ime.evaluate.trace.trace_key`), checked against the S2 verdicts already stored, so the
case study can never tell another story than S2 does.

The figure needs nothing of a game but its codec and the names of its moves
(:func:`ime.evaluate.trace.move_label`): one column per agent, one row per ply from the key on,
each cell the move(s) played at that ply, shaded where it is not the target's move there, the
first such cell of each agent (its fork from the target's line) outlined, and each agent's
result at the foot. The key position, as the game prints it, stands above.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ime.evaluate.trace import TRACE_COLUMNS, Choice, Trace

log = logging.getLogger("ime.report")

MAX_PLIES = 60
"""Plies from the key the figure draws (the table has all): enough for a Doudizhu or Reversi
endgame; a longer continuation ends in a "... more plies" row."""
RESULT_COLOURS = {"win": "#2e7d32", "draw": "#757575", "loss": "#c62828"}
SAME, OTHER, FORK = "#ffffff", "#ffe0b2", "#d84315"


def _cells(rows: pd.DataFrame, agents: list[str], plies: list[int]) -> list[list[str]]:
    """``cells[i][j]``: what agent ``j`` played at ply ``plies[i]`` (each mover as
    ``s<seat> <label>``, several for simultaneous moves)."""
    text: dict[tuple[str, int], list[str]] = {}
    for r in rows.itertuples(index=False):
        text.setdefault((r.agent, int(r.ply)), []).append(f"s{int(r.seat)} {r.label}")
    return [[" ".join(text.get((a, p), [])) for a in agents] for p in plies]


def plot_case_study(trace: Trace | None, png: str | Path, pdf: str | Path | None = None, *,
                    choice: Choice | None = None, title: str | None = None) -> None:
    """The figure of the module doc; ``trace=None`` draws a note that there was no key."""
    from ime.report.figures import plt, save_figure

    if trace is None or trace.rows.empty:
        fig, ax = plt.subplots(figsize=(6, 1.5))
        ax.axis("off")
        ax.text(0.5, 0.5, title or "no key endgame to trace", ha="center", va="center")
        save_figure(fig, png, pdf)
        return
    rows = trace.rows
    agents = list(dict.fromkeys(rows["agent"]))
    all_plies = sorted(int(p) for p in rows["ply"].unique())
    plies = all_plies[:MAX_PLIES]
    cells = _cells(rows, agents, plies)
    differs = {(a, int(p)) for a, p, same in zip(rows["agent"], rows["ply"],
                                                  rows["same_as_target"], strict=True)
               if not bool(same)}
    fork = {a: trace.divergence(a) for a in agents}
    width = max(8, max((len(c) for line in cells for c in line), default=8))
    col_w = 0.3 + 0.075 * width
    pos_lines = trace.position.splitlines()
    n_rows = len(plies) + (len(all_plies) > len(plies)) + 3  # header, body, (more), result
    fig_h = 0.7 + 0.19 * (n_rows + len(pos_lines))
    fig, ax = plt.subplots(figsize=(0.6 + col_w * len(agents), fig_h))
    ax.set_xlim(-0.6, len(agents))
    top = 0.75 * len(pos_lines) + 0.5
    ax.set_ylim(n_rows, -top)
    ax.axis("off")
    ax.text(-0.6, -top + 0.2, "\n".join(pos_lines), family="monospace", fontsize=6.5,
            va="top", ha="left")
    for j, a in enumerate(agents):
        role = rows.loc[rows["agent"] == a, "role"].iloc[0]
        ax.text(j + 0.5, 0.95, f"{a}\n({role})", ha="center", va="bottom", fontsize=7,
                weight="bold")
    for i, p in enumerate(plies):
        y = i + 1
        ax.text(-0.05, y + 0.5, str(p), ha="right", va="center", fontsize=6.5, color="#555555")
        for j, a in enumerate(agents):
            if not cells[i][j]:  # this agent's game was over by then
                continue
            colour = OTHER if (a, p) in differs else SAME
            edge = FORK if fork[a] == p else "#dddddd"
            ax.add_patch(plt.Rectangle((j + 0.02, y + 0.04), 0.96, 0.92, facecolor=colour,
                                       edgecolor=edge, linewidth=1.4 if fork[a] == p else 0.4))
            ax.text(j + 0.5, y + 0.5, cells[i][j], ha="center", va="center", fontsize=6.5,
                    family="monospace")
    y = len(plies) + 1
    if len(all_plies) > len(plies):
        ax.text(len(agents) / 2, y + 0.5, f"... {len(all_plies) - len(plies)} more plies "
                "(all in the table)", ha="center", va="center", fontsize=6.5, style="italic")
        y += 1
    for j, a in enumerate(agents):
        res = str(rows.loc[rows["agent"] == a, "result"].iloc[0])
        f = fork[a]
        ax.text(j + 0.5, y + 0.1, res.upper(), ha="center", va="top", fontsize=7,
                weight="bold", color=RESULT_COLOURS.get(res, "black"))
        ax.text(j + 0.5, y + 0.75, "no fork" if f is None else f"fork at ply {f}",
                ha="center", va="top", fontsize=6, color="#555555")
    seat_of = f"seat {trace.seat}"
    head = title or (f"{trace.game}: {trace.target}'s key endgame {trace.key} ({seat_of}, "
                     f"against {', '.join(trace.opponents())})")
    if choice is not None:
        head += f"\nchosen as: {choice.rule}"
    ax.set_title(head + "\nshaded: not the target's move at that ply; outlined: the agent's "
                 "first such move (its fork)", fontsize=8)
    save_figure(fig, png, pdf)


def case_study(spec: Mapping[str, Any], keys: Mapping[str, str | Path],
               imitator_scores: Mapping[str, str | Path]
               ) -> tuple[Trace | None, Choice | None]:
    """Choose the key (:func:`ime.evaluate.trace.choose_key`) among the targets' key sets and
    trace it through the target, its references and its imitator; the trace is checked against
    the stored S2 verdicts. ``(None, None)`` when every key set is empty."""
    from ime.evaluate.agents import Provider
    from ime.evaluate.keyset import read_keyset
    from ime.evaluate.scoring import read_scores
    from ime.evaluate.trace import check_outcomes, choose_key, stored_outcomes, trace_key

    targets = list(spec["targets"])
    sets = {t: read_keyset(keys[t]) for t in targets}
    scores = {t: read_scores(imitator_scores[t])[0] for t in targets}
    imit_outcomes = {}
    for t in targets:
        df = sets[t].df[["match_id", "ply", "seat"]].merge(
            scores[t], on=["match_id", "ply", "seat"], how="left")
        if df["outcome"].isna().any():
            raise ValueError(f"{imitator_scores[t]}: no score for some of {keys[t]}'s keys")
        imit_outcomes[t] = df["outcome"].astype(int).to_numpy()
    if not any(len(s.df) for s in sets.values()):
        return None, None
    choice = choose_key([sets[t] for t in targets], imit_outcomes)
    ks = sets[choice.target]
    imit = spec["imitators"][choice.target]
    provider = Provider(spec["game"], spec["bot_specs"])
    trace = trace_key(ks, choice.index, [*ks.references, imit], provider, imitator=imit)
    check_outcomes(trace, stored_outcomes(ks, choice.index, {imit: scores[choice.target]}))
    return trace, choice


def job_case_study(smk: Any) -> None:
    """Snakemake job: ``case_study.csv`` and ``figures/case_study.png`` (+ PDF)."""
    from ime.workflow.jobs.logging import job_logging, write_csv

    p = smk.params.spec
    with job_logging(smk):
        trace, choice = case_study(p, dict(zip(p["targets"], smk.input.keysets, strict=True)),
                                   dict(zip(p["targets"], smk.input.scores, strict=True)))
        table = trace.rows if trace is not None else pd.DataFrame(columns=TRACE_COLUMNS)
        write_csv(table, smk.output.table)
        plot_case_study(trace, smk.output.png, smk.output.pdf, choice=choice,
                        title=None if trace is not None else "no key endgames: no case study")
        if trace is not None and choice is not None:
            results = dict(table.drop_duplicates("agent")[["agent", "result"]].to_numpy())
            log.info("case study: %s's key %s (row %d), %s; results %s", trace.target,
                     trace.key, trace.index, choice.rule, results)
