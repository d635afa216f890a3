"""The thesis's numbers and stated conclusions, read from ``config/thesis/`` and validated.

Every number of the thesis tables and figures this project reproduces is typed once, in
``config/thesis/numbers.csv`` (long form: one row per cell), and every conclusion the thesis
states is a row of ``config/thesis/conclusions.csv``. Reports and checks read them through this
module, so no thesis number is restated in code. A bad row stops the load with a
:class:`ValueError` naming the file and line, because a silently skipped or mistyped reference
number would make every comparison against it wrong without anyone noticing.

The folder is found with :func:`ime.paths.config_dir` (``IME_CONFIG_DIR`` overrides it).
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pandas as pd

from ime.paths import config_dir

NUMBER_COLUMNS = ("table", "section", "game", "subject", "net", "metric", "value", "unit", "note")
"""The columns of ``numbers.csv``, in order."""

CONCLUSION_COLUMNS = ("id", "section", "tables", "statement", "quote")
"""The columns of ``conclusions.csv``, in order."""

UNITS = ("percent", "count", "points", "params", "rank", "code")
"""Known units: ``percent`` as the thesis prints it (0-100), ``code`` a categorical code whose
meaning the row's note and ``config/thesis/README.md`` give (Snake group, Table 6.1 class)."""

GAMES = ("reversi", "doudizhu", "snake")
"""The games whose thesis numbers are recorded."""

KEY = ("table", "game", "subject", "net", "metric")
"""The columns that identify one number; no two rows may share them."""

MAX_QUOTE = 80
"""Longest Chinese quote a conclusion row may carry (characters)."""

_TABLE_ID = re.compile(r"^(Table|Fig|Sec) \d+(\.\d+){1,2}$")
_SECTION = re.compile(r"^\d+(\.\d+){0,2}$")
_METRIC = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_CONCLUSION_ID = re.compile(r"^[a-z][a-z0-9_]*$")

_cache: dict[tuple[str, Path], tuple[tuple[int, int], pd.DataFrame]] = {}


def thesis_dir() -> Path:
    """The folder holding the thesis data (``<config>/thesis``)."""
    return config_dir() / "thesis"


def _rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The CSV's rows with their 1-based line numbers, after checking the header."""
    if not path.is_file():
        raise ValueError(f"{path}: no such file (the thesis data lives in config/thesis/)")
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None or tuple(h.strip() for h in header) != columns:
            raise ValueError(f"{path}:1: header must be {','.join(columns)}, got "
                             f"{','.join(header or [])}")
        out = []
        for cells in reader:
            line = reader.line_num
            if not cells or all(not c.strip() for c in cells):
                continue
            if len(cells) != len(columns):
                raise ValueError(f"{path}:{line}: {len(cells)} fields, expected {len(columns)} "
                                 f"({','.join(columns)})")
            out.append((line, {c: v.strip() for c, v in zip(columns, cells, strict=True)}))
    return out


def _check_number(path: Path, line: int, row: dict[str, str]) -> float:
    """The row's value as a float, after checking every field; ValueError names file:line."""
    where = f"{path}:{line}"
    for col in ("table", "section", "game", "subject", "metric", "value", "unit"):
        if not row[col]:
            raise ValueError(f"{where}: empty {col!r}")
    if not _TABLE_ID.match(row["table"]):
        raise ValueError(f"{where}: table {row['table']!r} is not like 'Table 4.4', 'Fig 2.7' "
                         "or 'Sec 4.3.1'")
    if not _SECTION.match(row["section"]):
        raise ValueError(f"{where}: section {row['section']!r} is not like '4.3.3'")
    if row["game"] not in GAMES:
        raise ValueError(f"{where}: unknown game {row['game']!r} (known: {', '.join(GAMES)})")
    if not _METRIC.match(row["metric"]):
        raise ValueError(f"{where}: metric {row['metric']!r} is not an identifier")
    if row["unit"] not in UNITS:
        raise ValueError(f"{where}: unknown unit {row['unit']!r} (known: {', '.join(UNITS)})")
    try:
        value = float(row["value"])
    except ValueError:
        raise ValueError(f"{where}: value {row['value']!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: value {row['value']!r} is not finite")
    if row["unit"] == "percent" and not 0.0 <= value <= 100.0:
        raise ValueError(f"{where}: percent {value} outside [0, 100]")
    if row["unit"] != "percent" and value < 0:
        raise ValueError(f"{where}: {row['unit']} {value} is negative")
    return value


def _cached(kind: str, path: Path, load) -> pd.DataFrame:
    """``load(path)``, reread only when the file changed (reports look numbers up one by one)."""
    st = path.stat() if path.is_file() else None
    stamp = (st.st_mtime_ns, st.st_size) if st else (-1, -1)
    hit = _cache.get((kind, path))
    if hit is None or hit[0] != stamp:
        hit = (stamp, load(path))
        _cache[(kind, path)] = hit
    return hit[1].copy()


def _load_numbers(path: Path) -> pd.DataFrame:
    records = []
    seen: dict[tuple[str, ...], int] = {}
    for line, row in _rows(path, NUMBER_COLUMNS):
        value = _check_number(path, line, row)
        key = tuple(row[c] for c in KEY)
        if key in seen:
            raise ValueError(f"{path}:{line}: duplicate of line {seen[key]} "
                             f"({', '.join(f'{c}={v!r}' for c, v in zip(KEY, key, strict=True))})")
        seen[key] = line
        records.append({**row, "value": value, "line": line})
    if not records:
        raise ValueError(f"{path}: no rows")
    df = pd.DataFrame.from_records(records, columns=[*NUMBER_COLUMNS, "line"])
    return df.astype({c: str for c in NUMBER_COLUMNS if c != "value"})


def _load_conclusions(path: Path) -> pd.DataFrame:
    records = []
    seen: dict[str, int] = {}
    for line, row in _rows(path, CONCLUSION_COLUMNS):
        where = f"{path}:{line}"
        for col in CONCLUSION_COLUMNS:
            if not row[col]:
                raise ValueError(f"{where}: empty {col!r}")
        if not _CONCLUSION_ID.match(row["id"]):
            raise ValueError(f"{where}: id {row['id']!r} is not snake_case")
        if row["id"] in seen:
            raise ValueError(f"{where}: id {row['id']!r} repeats line {seen[row['id']]}")
        seen[row["id"]] = line
        if not _SECTION.match(row["section"]):
            raise ValueError(f"{where}: section {row['section']!r} is not like '4.4.2'")
        for t in row["tables"].split(";"):
            if not _TABLE_ID.match(t.strip()):
                raise ValueError(f"{where}: tables entry {t!r} is not like 'Table 4.4'")
        if len(row["quote"]) > MAX_QUOTE:
            raise ValueError(f"{where}: quote has {len(row['quote'])} characters "
                             f"(at most {MAX_QUOTE})")
        records.append({**row, "line": line})
    if not records:
        raise ValueError(f"{path}: no rows")
    return pd.DataFrame.from_records(records, columns=[*CONCLUSION_COLUMNS, "line"])


def numbers() -> pd.DataFrame:
    """Every thesis number: the columns of ``numbers.csv`` (``value`` a float, the rest strings)
    plus ``line``, the row's line in the file."""
    return _cached("numbers", thesis_dir() / "numbers.csv", _load_numbers)


def value(table: str, game: str, subject: str, metric: str, net: str = "") -> float:
    """One thesis number, e.g. ``value("Table 4.5", "reversi", "3", "S2") == 36.6``.

    ``subject`` is the thesis's bot number as a string, a pair ``"1-2"``, an imitator
    ``"imit1"``, a net name or ``"all"``; ``net`` is set only for per-net cells (Tables 4.4, 5.6).
    """
    df = numbers()
    hit = df[(df["table"] == table) & (df["game"] == game) & (df["subject"] == str(subject))
             & (df["net"] == net) & (df["metric"] == metric)]
    if hit.empty:
        raise KeyError(f"{thesis_dir() / 'numbers.csv'} has no row table={table!r} game={game!r} "
                       f"subject={subject!r} net={net!r} metric={metric!r}")
    return float(hit["value"].iloc[0])


def table(table_id: str) -> pd.DataFrame:
    """The rows of one table or figure (``"Table 4.4"``, ``"Fig 2.7"``), in file order."""
    df = numbers()
    out = df[df["table"] == table_id].reset_index(drop=True)
    if out.empty:
        known = ", ".join(sorted(set(df["table"])))
        raise KeyError(f"no thesis numbers for {table_id!r} (known: {known})")
    return out


def conclusions() -> pd.DataFrame:
    """Every conclusion the thesis states: ``id, section, tables, statement, quote`` plus
    ``line``; ``tables`` is ';'-separated."""
    return _cached("conclusions", thesis_dir() / "conclusions.csv", _load_conclusions)
