"""Rows per match and random baseline of a Doudizhu run's logs, under the counting variants that
could explain the gap to the thesis's Table 5.4 (docs/games/doudizhu.md, "Rows per match and
the random baseline").

Every number comes from the pipeline's own functions: the logs are replayed by
``ime.matches.logs.read_matches`` (the judge), the decisions are encoded by the datasets stage's
encoder with ``keep_forced=True`` (``ime.datasets.extract.dataset_encoder`` and
``encode_decisions``, exactly as ``scale=thesis`` builds its rows) and the baseline is
``ime.datasets.build.random_baseline`` (thesis eq. 4-1) over the chosen rows. A variant only
changes *which* rows are counted and *what* counts as a legal action:

* ``num_legal``: the major head's legal codes, what the datasets stage stores and Table 5.4's
  baseline in our run uses (kickers collapsed, the thesis's 309 codes);
* ``n_plays``: the legal plays with their kickers (``state.legal_actions``), the full action;
* ``calls``: one pair per net call, the major call plus one minor call per kicker (Fig 5.3).

Usage (a few shards per bot are enough: each is ~660 matches; ~20 s of CPU per shard)::

    PYTHONPATH=src IME_CONFIG_DIR=config python3 docs/games/doudizhu/rows_per_match.py \\
        /tmp/s15/thesis/data/doudizhu/logs/thesis --shards 2

``--csv PATH`` also writes one row per decision (for further slicing).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ime.core.registry import get_game
from ime.datasets.build import random_baseline
from ime.datasets.extract import dataset_encoder, encode_decisions
from ime.matches.logs import read_matches

GAME = "doudizhu"
MAX_KICKERS = 5  # minor heads minor0 .. minor4
WEAK = "opp_smallest"  # the smallest-play baseline among game.opponents (not a Table 5.1 bot)
STRONG = ("ddz1", "ddz2")  # the two top-ranked bots of Table 5.1 (ladder ranks 30 and 69)


def decision_records(log_path: str | Path, bot: str) -> pd.DataFrame:
    """One row per decision of ``bot`` in one log file (matches that ended by a fault are left
    out, as the datasets stage leaves them out).

    Columns: ``match_id``, ``ply``, ``seat`` (0 landlord), ``plies`` (the match's length),
    ``opponent`` (the landlord's program when ``bot`` farms, the two farmers' when it is
    the landlord), ``n_seats`` (how many seats ``bot`` holds), ``num_legal`` (legal major
    codes), ``n_plays`` (legal plays), ``passed``, ``kickers`` (minor-net calls of the play),
    ``minor_inv`` (the product of ``1 / #legal minor codes`` over the play's kicker steps).
    """
    game = get_game(GAME)
    enc = dataset_encoder(GAME, keep_forced=True)
    report = read_matches(log_path, game, mode="strict", keep_faulted=True)
    meta: list[dict] = []
    states: list = []
    players: list[int] = []
    actions: list = []
    for res in report.accepted:
        if res.fault is not None or bot not in res.players:
            continue
        seats = [s for s, b in enumerate(res.players) if b == bot]
        opp = (res.players[0] if seats[0] else "+".join(sorted(res.players[1:])))
        plies = len(res.final_state.history)
        for d in res.decisions:
            if res.players[d.player] != bot:
                continue
            meta.append({"match_id": res.match_id, "ply": d.ply, "seat": d.player,
                         "plies": plies, "opponent": opp, "n_seats": len(seats),
                         "n_plays": len(d.state.legal_actions(d.player)),
                         "passed": len(d.action) == 0})
            states.append(d.state)
            players.append(d.player)
            actions.append(d.action)
    if not meta:
        return pd.DataFrame()
    cols = encode_decisions(enc, states, players, actions, str(log_path))
    out = pd.DataFrame(meta).iloc[cols["rows"]].reset_index(drop=True)
    out["num_legal"] = cols["mask"].sum(axis=1)
    used = np.stack([cols[f"action_minor{k}"] >= 0 for k in range(MAX_KICKERS)], axis=1)
    sizes = np.stack([cols[f"mask_minor{k}"].sum(axis=1) for k in range(MAX_KICKERS)], axis=1)
    out["kickers"] = used.sum(axis=1)
    out["minor_inv"] = np.where(used, 1.0 / np.maximum(sizes, 1), 1.0).prod(axis=1)
    return out


def _variant(name: str, rows: pd.DataFrame, matches: int, legal: str = "num_legal",
             per_call: bool = False) -> dict:
    """Pairs per match and baseline (eq. 4-1 over ``legal``) of the chosen rows."""
    pairs = int(len(rows) + (rows["kickers"].sum() if per_call else 0))
    if legal == "two_step":  # a random major, then a random kicker at each step (Fig 5.3)
        base = float((rows["minor_inv"] / rows["num_legal"]).mean() * 100) if len(rows) else np.nan
    else:
        base = random_baseline(rows[legal].to_numpy())
    return {"variant": name, "matches": matches, "pairs": pairs,
            "per_match": pairs / matches if matches else np.nan, "baseline": base}


def variants(df: pd.DataFrame) -> pd.DataFrame:
    """The table of counting variants for one bot's decision records."""
    forced = df["n_plays"] == 1
    ll = df["seat"] == 0
    m_all = df["match_id"].nunique()
    m_ll = df.loc[ll, "match_id"].nunique()
    m_fa = m_all - m_ll
    seat_games = int(df.groupby("match_id")["seat"].nunique().sum())  # a farmer match: 2
    first_farmer = df["seat"] == 1
    one_seat = ll | first_farmer  # a one-seat log: landlord, or the farmer after it
    def per_seat(name: str, sel: pd.Series) -> dict:
        d = df[sel]
        return _variant(name, d, int(d.groupby("match_id")["seat"].nunique().sum()))

    opp = df["opponent"].str.split("+")
    no_weak = ~opp.map(lambda o: WEAK in o)
    strong = opp.map(lambda o: all(b in STRONG for b in o))
    rows = [
        _variant("team, forced kept (scale=thesis)", df, m_all),
        _variant("team, forced dropped", df[~forced], m_all),
        _variant("team, forced kept, per seat played (farmer match = 2)", df, seat_games),
        _variant("team, forced dropped, per seat played", df[~forced], seat_games),
        _variant("landlord matches, forced kept", df[ll], m_ll),
        _variant("landlord matches, forced dropped", df[ll & ~forced], m_ll),
        _variant("farmer matches, both seats, forced kept", df[~ll], m_fa),
        _variant("farmer matches, both seats, forced dropped", df[~ll & ~forced], m_fa),
        _variant("farmer matches, seat 1 only, forced kept", df[first_farmer], m_fa),
        _variant("farmer matches, seat 2 only, forced kept", df[df["seat"] == 2], m_fa),
        _variant("one seat per match (landlord or seat 1), forced kept", df[one_seat], m_all),
        _variant("one seat per match, forced dropped", df[one_seat & ~forced], m_all),
        _variant("team, forced kept, baseline over full plays", df, m_all, "n_plays"),
        _variant("team, forced kept, random major then kickers", df, m_all, "two_step"),
        _variant("team, forced kept, one pair per net call", df, m_all, per_call=True),
        _variant("passes played excluded", df[~df["passed"]], m_all),
        per_seat(f"per seat played, forced kept, no {WEAK} opponent", no_weak),
        per_seat(f"per seat played, forced kept, every opponent in {'/'.join(STRONG)}", strong),
    ]
    return pd.DataFrame(rows)


def shares(df: pd.DataFrame) -> dict:
    """Shares of forced rows and of passes, per seat kind, and game length, for one bot."""
    ll = df["seat"] == 0
    forced = df["n_plays"] == 1
    plies = df.groupby("match_id")["plies"].first()
    ll_match = df.groupby("match_id")["seat"].min() == 0
    return {"forced_landlord": forced[ll].mean() * 100, "forced_farmer": forced[~ll].mean() * 100,
            "pass_landlord": df.loc[ll, "passed"].mean() * 100,
            "pass_farmer": df.loc[~ll, "passed"].mean() * 100,
            "plies_landlord_match": plies[ll_match].mean(),
            "plies_farmer_match": plies[~ll_match].mean()}


def shard_files(logs: Path, bot: str, n: int) -> list[Path]:
    """The first ``n`` finished shards of ``bot`` (a shard still being written is a
    ``.journal`` file and is skipped)."""
    files = sorted((logs / bot).glob("shard*.jsonl"))
    if not files:
        raise SystemExit(f"{logs / bot}: no finished shard*.jsonl")
    return files[:n]


def main(argv: Iterable[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", type=Path, help="a run's data/doudizhu/logs/<ltag> folder")
    ap.add_argument("--bots", nargs="+", default=["ddz1", "ddz2", "ddz3", "ddz4", "ddz5"])
    ap.add_argument("--shards", type=int, default=2, help="finished shards per bot")
    ap.add_argument("--csv", type=Path, help="write every decision record here")
    args = ap.parse_args(list(argv) if argv is not None else None)
    tables, extra, recs, by_opp = [], [], [], []
    for bot in args.bots:
        files = shard_files(args.logs, bot, args.shards)
        df = pd.concat([decision_records(f, bot) for f in files], ignore_index=True)
        df.insert(0, "bot", bot)
        recs.append(df)
        t = variants(df)
        t.insert(0, "bot", bot)
        tables.append(t)
        extra.append({"bot": bot, "shards": ",".join(f.stem for f in files), **shares(df)})
        fa = df[df["seat"] > 0]
        by_opp.append(pd.DataFrame({
            "bot": bot, "seat_games": fa.groupby("opponent")["match_id"].nunique() * 2,
            "rows_per_seat": fa.groupby("opponent").size()
            / (fa.groupby("opponent")["match_id"].nunique() * 2),
            "baseline": fa.groupby("opponent")["num_legal"].apply(
                lambda s: random_baseline(s.to_numpy())),
            "plies": fa.groupby("opponent")["plies"].mean()}).reset_index())
    table = pd.concat(tables, ignore_index=True)
    wide = table.pivot(index="variant", columns="bot", values=["per_match", "baseline"])
    wide = wide.reindex(tables[0]["variant"])
    pd.set_option("display.width", 200)
    print("pairs per match | baseline % (eq. 4-1), per bot:")
    out = pd.DataFrame({b: [f"{p:5.2f} | {q:5.2f}" for p, q in
                            zip(wide[("per_match", b)], wide[("baseline", b)], strict=True)]
                        for b in args.bots}, index=wide.index)
    print(out.to_string())
    print("\nshares (%) and game length (plies):")
    print(pd.DataFrame(extra).round(2).to_string(index=False))
    print("\nfarmer matches by the landlord's program (rows per farmer seat):")
    opp_t = pd.concat(by_opp, ignore_index=True).pivot(index="opponent", columns="bot",
                                                       values=["rows_per_seat", "baseline"])
    print(opp_t.round(2).to_string())
    if args.csv:
        pd.concat(recs, ignore_index=True).to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
