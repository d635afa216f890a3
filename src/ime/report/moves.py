"""Move-choice data for the figures: how often each bot played each first-head code, and how a
game lays its codes out (thesis Fig 4.2).

Nothing here names a game. The counts come from the datasets (their ``action`` column, the first
head's code) or from raw logs (replayed through the judge and encoded by the game's encoder);
the layout comes from the game plug-in's :class:`ime.core.registry.FigureHooks`: a board
(``grid``) on which code ``y * width + x`` is cell ``(y, x)``, the cells nobody can ever play
(``fixed_cells``, greyed out) and each code's name (``code_label``), from which the axis ticks
are derived (a column's ticks are what its cells' names share, e.g. ``A`` of ``A1..A8``). A game
without a board gets bar charts of its most played codes instead.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ime.matches.logs import BadMatch, LogFormatError, read_matches

log = logging.getLogger("ime.report")


class MoveCounts(dict):
    """``bot -> int64[codes]`` counts, with the game (and board options) they were counted in,
    so that the plots find the game's layout without being told."""

    def __init__(self, counts: Mapping[str, np.ndarray], game: str | None = None,
                 game_params: Mapping[str, Any] | None = None):
        super().__init__(counts)
        self.game = game
        self.game_params = dict(game_params) if game_params else None


def move_counts_from_datasets(paths: Mapping[str, str | Path],
                              num_squares: int | None = None) -> MoveCounts:
    """Per-code counts of each bot's chosen first-head actions, from its decisions dataset.

    ``num_squares``: how many codes to count (default: the dataset's first-head size).
    """
    from ime.datasets.integrity import read_parquet, read_schema
    from ime.datasets.schema import read_metadata

    out: dict[str, np.ndarray] = {}
    game, params = None, None
    for bot, path in paths.items():
        meta = read_metadata(path)
        game, params = meta.get("game", game), meta.get("game_params", params)
        size = int(num_squares or meta.get("num_actions")
                   or read_schema(path).field("mask").type.list_size)
        actions = read_parquet(path, columns=["action"]).column("action").to_numpy()
        actions = actions[(actions >= 0) & (actions < size)]
        out[bot] = np.bincount(actions, minlength=size).astype(np.int64)
    return MoveCounts(out, game, params)


def move_counts_from_logs(paths: Iterable[str | Path], bots: Sequence[str], *, game: str,
                          game_params: Mapping[str, Any] | None = None, mode: str = "strict",
                          rejected: list[BadMatch] | None = None) -> MoveCounts:
    """Per-code counts of each bot's first-head actions read straight from Botzone logs.

    Each file goes through :func:`ime.matches.logs.read_matches` (structure checks and a replay
    through the judge), so a line that is not a match (malformed or truncated JSON, wrong
    encoding, an empty file, a log of another game) and a match the rules reject (an unreadable
    or illegal response where the log goes on) are each a :class:`~ime.matches.logs.BadMatch`
    naming the file, the line and the match id. ``mode="strict"`` (default) raises
    :class:`~ime.matches.logs.LogFormatError` listing a file's first problems and how many of
    its lines were bad; ``mode="lenient"`` skips them (a bad match counts nothing), appends them
    to ``rejected`` when given and logs how many were skipped per file. A decision without a
    first-head code (a forced pass) counts nothing; a match ended by a fault counts its moves
    before the fault.
    """
    from ime.core.registry import get_encoder, get_game

    if mode not in ("strict", "lenient"):
        raise ValueError(f"mode must be 'strict' or 'lenient', got {mode!r}")
    g = get_game(game, game_params)
    enc = get_encoder(game, game_params)
    counts = {b: np.zeros(enc.num_actions, dtype=np.int64) for b in bots}
    for path in paths:
        report = read_matches(path, g, mode="lenient")
        bad = sorted(report.rejected, key=lambda b: b.line)
        if bad and mode == "strict":
            raise LogFormatError(str(path), bad, len(bad), report.total)
        if bad:
            log.warning("%s: skipped %d of %d bad match line(s) (lenient), first: %s", path,
                        len(bad), report.total, bad[0])
            if rejected is not None:
                rejected.extend(bad)
        for res in report.accepted:
            mine = [d for d in res.decisions if res.players[d.player] in counts]
            if not mine:
                continue
            codes = enc.action_codes([d.state for d in mine], [d.player for d in mine],
                                     [d.action for d in mine])
            for d, code in zip(mine, np.asarray(codes)[:, 0], strict=True):
                if code >= 0:
                    counts[res.players[d.player]][int(code)] += 1
    return MoveCounts(counts, game, game_params)


def shares(counts: np.ndarray, grid: tuple[int, int] | None = None) -> np.ndarray:
    """Counts -> shares of all moves (zeros if the bot never moved), on the ``grid`` if given."""
    c = np.asarray(counts, dtype=float)
    total = c.sum()
    out = c / total if total else c
    return out.reshape(grid) if grid is not None else out


@dataclass(frozen=True)
class CodeLayout:
    """How a game's first-head codes are drawn (see the module doc)."""

    size: int
    grid: tuple[int, int] | None
    fixed: tuple[int, ...]
    label: Callable[[int], str]

    @property
    def fixed_cells(self) -> list[tuple[int, int]]:
        """``(y, x)`` of the cells nobody can play (a grid only)."""
        assert self.grid is not None
        return [divmod(int(c), self.grid[1]) for c in self.fixed]

    def _shared(self, codes: Sequence[int], fallback: int) -> str:
        names = [self.label(int(c)) for c in codes]
        pre = os.path.commonprefix(names)
        suf = os.path.commonprefix([n[::-1] for n in names])[::-1]
        best = pre if len(pre) >= len(suf) else suf
        return best or str(fallback)

    def col_labels(self) -> list[str]:
        assert self.grid is not None
        h, w = self.grid
        return [self._shared([y * w + x for y in range(h)], x) for x in range(w)]

    def row_labels(self) -> list[str]:
        assert self.grid is not None
        h, w = self.grid
        return [self._shared([y * w + x for x in range(w)], y) for y in range(h)]


def code_layout(game: str, game_params: Mapping[str, Any] | None = None,
                size: int | None = None) -> CodeLayout:
    """The layout of ``game``'s first-head codes from its plug-in's figure hooks."""
    from ime.core.registry import get_encoder, get_game, get_plugin

    hooks = get_plugin(game).figures
    g = get_game(game, game_params)
    n = int(size if size is not None else get_encoder(game, game_params).num_actions)
    grid = tuple(hooks.grid(g)) if hooks.grid is not None else None
    if grid is not None and grid[0] * grid[1] != n:
        raise ValueError(f"{game}: figure grid {grid} does not hold its {n} codes")
    return CodeLayout(n, grid, tuple(int(c) for c in hooks.fixed_cells(g)),  # type: ignore[arg-type]
                      hooks.code_label)


def layout_for(counts: Mapping[str, np.ndarray], game: str | None,
               game_params: Mapping[str, Any] | None) -> CodeLayout:
    """The layout for ``counts``: of ``game`` when given, else of the game the counts carry."""
    game = game or getattr(counts, "game", None)
    if game is None:
        raise ValueError("move-choice figures need the game: pass game=... or counts from "
                         "move_counts_from_datasets / move_counts_from_logs")
    params = game_params if game_params is not None else getattr(counts, "game_params", None)
    size = len(next(iter(counts.values()))) if counts else None
    return code_layout(game, params, size)
