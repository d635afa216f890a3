"""What a file of an IME tree must satisfy, by kind; each check returns the reason it fails.

* Parquet (``*.parquet``): page checksums, footer copies and row count
  (:mod:`ime.datasets.integrity`), and the sha256 in its sidecar ``<file>.sha256`` when it has
  one (every file :func:`~ime.datasets.integrity.write_parquet` writes does); decisions and
  datasets their invariants (:func:`ime.datasets.schema.check_decisions`); key sets theirs
  (:func:`read_keyset`), and each key is replayed from its stored prefix: the planes and masks
  must be the encoder's, and the target's and every reference's action legal there.
* Match logs (``*.jsonl``): every line parses and replays through our judge
  (:func:`ime.matches.logs.read_matches`, lenient, so every bad line is counted).
* Models (``*.pt``): the checkpoint loads (:func:`ime.nets.load_checkpoint`).
* JSON (``*.json``) parses; CSV (``*.csv``) has a header and rows of its width.

The game of a file comes from its path (``data/<game>/...``, ``results/<game>/...``) or, for a
log, from its first match's ``game`` field.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

SKIP_SUFFIXES = (".rejects.jsonl",)
"""Files that are reports about bad input, not data (a rejects file lists bad lines)."""


def check_file(path: Path, game: str | None, game_params: Mapping[str, Any] | None) -> str | None:
    """The reason ``path`` is bad, or None. Never raises for a bad file."""
    name = path.name
    if name.endswith(SKIP_SUFFIXES):
        return None
    check: Callable[..., str | None] | None = {
        ".parquet": check_parquet, ".jsonl": check_log, ".pt": check_model,
        ".json": check_json, ".csv": check_csv,
    }.get(path.suffix)
    if check is None:
        return None
    try:
        return check(path, game, game_params)
    except Exception as e:  # a check must report, never crash the walk
        return f"cannot be checked ({type(e).__name__}: {e})"


def _strip(path: Path, message: str) -> str:
    """A reader's message without the path it starts with (we print the path first)."""
    for prefix in (f"{path}: ", f"{path.resolve()}: "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


def check_parquet(path: Path, game: str | None, game_params: Mapping[str, Any] | None
                  ) -> str | None:
    """Content first (its reason says what broke), then the sidecar sha256, which catches a
    change in bytes no reader uses (statistics, page-header fields, padding)."""
    from ime.datasets.integrity import DataFileError, check_sidecar, read_parquet
    from ime.datasets.schema import check_decisions, decode_metadata

    try:
        table = read_parquet(path)
        meta = table.schema.metadata or {}
        if b"ime.schema_version" in meta:
            check_decisions(table, path, decode_metadata(meta, path))
        elif b"ime.keyset_version" in meta and not path.name.endswith(".candidates.parquet"):
            reason = check_keys(path)
            if reason is not None:
                return reason
        return check_sidecar(path)
    except DataFileError as e:
        return _strip(path, str(e))


def check_keys(path: Path) -> str | None:
    """Read the key set (its own checks), then replay every key from its stored prefix."""
    import numpy as np

    from ime.core.registry import get_encoder, get_game
    from ime.datasets.integrity import DataFileError
    from ime.evaluate.forks import action_key, state_at
    from ime.evaluate.keyset import read_keyset

    try:
        ks = read_keyset(path)
    except DataFileError as e:
        return _strip(path, str(e))
    if not len(ks.df):
        return None
    game = get_game(ks.game, ks.game_params)
    encoder = get_encoder(ks.game, ks.game_params)
    refs = [c for c in ks.df.columns if c.startswith("action__")]
    for i in range(len(ks.df)):
        row = ks.df.iloc[i]
        try:
            state = state_at(game, ks.logged_match(i), int(row["ply"]))
        except Exception as e:
            return f"row {i}: its stored prefix does not replay ({type(e).__name__}: {e})"
        seat = int(row["seat"])
        obs = encoder.encode([state], [seat])
        if not np.array_equal(obs.planes[0], ks.planes[i]):
            return f"row {i}: its planes are not the encoder's planes of its position"
        if not np.array_equal(obs.masks[0][0], ks.mask[i]):
            return f"row {i}: its mask is not the legal mask of its position"
        legal = {action_key(a) for a in state.legal_actions(seat)}
        for col in ["action", *refs]:
            a = row[col]
            a = int(a) if isinstance(a, (int, np.integer)) else a
            if a not in legal and a not in (-1, ""):
                return f"row {i}: {col} {a!r} is not a legal action of its position"
    return None


def check_log(path: Path, game: str | None, game_params: Mapping[str, Any] | None
              ) -> str | None:
    from ime.core.registry import get_game, known_games
    from ime.matches.logs import BadMatch, iter_raw_matches, read_matches

    if game is None:
        first = next((m for m in iter_raw_matches(path) if not isinstance(m, BadMatch)), None)
        tag = first.data.get("game") if first is not None else None
        game = str(tag).lower() if tag is not None and str(tag).lower() in known_games() else None
    if game is None:
        return None  # not a log of a game we know: nothing to replay it with
    rep = read_matches(path, get_game(game, game_params), mode="lenient")
    if not rep.rejected:
        return None
    first = rep.rejected[0]
    kinds = ", ".join(f"{k}: {n}" for k, n in rep.counts_by_kind().items())
    return (f"{len(rep.rejected)} of {rep.total} matches do not replay through the judge "
            f"({kinds}); first: line {first.line}: {first.reason}")


def check_model(path: Path, game: str | None, game_params: Mapping[str, Any] | None
                ) -> str | None:
    from ime.nets import load_checkpoint

    try:
        model = load_checkpoint(path)
    except Exception as e:
        return f"the checkpoint does not load ({type(e).__name__}: {str(e)[:200]})"
    ckpt = getattr(model, "checkpoint", {})
    if game is not None and ckpt.get("game") not in (None, game):
        return f"a checkpoint of {ckpt.get('game')!r} under {game!r}"
    return None


def check_json(path: Path, game: str | None, game_params: Mapping[str, Any] | None
               ) -> str | None:
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return f"not valid JSON ({e})"
    return None


def check_csv(path: Path, game: str | None, game_params: Mapping[str, Any] | None
              ) -> str | None:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except (UnicodeDecodeError, csv.Error) as e:
        return f"not a readable CSV ({e})"
    if not rows:
        return "empty: a table has at least a header"
    width = len(rows[0])
    for k, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            return f"line {k} has {len(row)} fields, the header {width} (truncated or damaged)"
    return None
