"""Sweeps: config keys swept over values, each point (each cell of a grid) its own variant.

A sweep is a property of the *composition*, never of a variant: every point is composed as the
base overrides plus ``key=value`` (one per swept key) and then stripped of the ``sweep`` section
(:func:`ime.workflow.variants.make_variant`), so a point equal to another variant (the default,
a point of another sweep) *is* that variant, with the same directories and the same params, and
reuses its logs, datasets and models instead of rewriting them. What only the sweep makes (its
table and figure) goes under the sweep's own results directory, named after the base variant and
the swept keys and values (:func:`sweep_dir_name`), so two sweeps never write the same file and
running a sweep leaves the default's files and Snakemake's params untouched.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ime.workflow.tags import SAFE, digest

if TYPE_CHECKING:
    from ime.workflow.variants import Variant

NEUTRAL = {"key": None, "values": [], "grid": None, "nets": None}
"""The ``sweep`` section of a variant: no sweep (a variant is one point)."""

NAME_MAX = 100
"""Longest readable sweep directory name; longer (or unreadable) names use a hash."""


def axes_of(sweep: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """The swept keys and their values, in order: ``key``/``values`` or the ``grid``'s items."""
    if sweep.get("key") is not None:
        return [(str(sweep["key"]), list(sweep["values"]))]
    return [(str(k), list(v)) for k, v in (sweep.get("grid") or {}).items()]


def is_numeric(values: Sequence[Any]) -> bool:
    """Numeric values get a curve (a learning curve over sizes); others a grouped bar chart."""
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def value_label(value: Any) -> str:
    """A value as it appears in a table cell, a legend and a directory name."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return "-".join(value_label(x) for x in value)
    if isinstance(value, dict):
        return digest(value, 8)
    return str(value)


def _dir_label(value: Any) -> str:
    """A value in a directory name: lists joined by ``x`` (``[32, 16]`` -> ``32x16``)."""
    if isinstance(value, list | tuple):
        return "x".join(_dir_label(x) for x in value)
    return value_label(value)


def file_key(axes: Sequence[tuple[str, Sequence[Any]]]) -> str:
    """The ``<keys>`` of ``sweep_<keys>.csv`` and ``fig_sweep_<keys>.png``: ``+``-joined."""
    return "+".join(k for k, _ in axes)


def sweep_dir_name(base: str, axes: Sequence[tuple[str, Sequence[Any]]],
                   nets: Sequence[str] | None) -> str:
    """The sweep's results directory name: the base variant's name (if any), then ``sweep_`` and
    each key with its values (``sweep_dataset.matches-25-50-100-200``), then the nets when the
    sweep names them; a hash of the same when that is long or cannot name a directory."""
    pieces = [f"{k}-{'-'.join(_dir_label(v) for v in vals)}" for k, vals in axes]
    if nets is not None:
        pieces.append("nets-" + "-".join(nets))
    name = "sweep_" + "__".join(pieces)
    if len(name) > NAME_MAX or not SAFE.match(name):
        name = f"sweep_{file_key(axes)}__h{digest([list(map(list, axes)), nets], 10)}"
        if not SAFE.match(name):
            name = f"sweep_h{digest([list(map(list, axes)), nets], 10)}"
    return f"{base}__{name}" if base else name


def point_overrides(axes: Sequence[tuple[str, Sequence[Any]]]) -> list[dict[str, Any]]:
    """Every point of the sweep as ``{key: value}``: the product of the axes, first key slowest."""
    keys = [k for k, _ in axes]
    return [dict(zip(keys, combo, strict=True))
            for combo in itertools.product(*(vals for _, vals in axes))]


@dataclass
class Sweep:
    """A composition's sweep: its axes, the nets trained per point, and the point variants."""

    axes: list[tuple[str, list[Any]]]
    nets: list[str] | None
    points: list[tuple[dict[str, Any], Variant]]
    results_dir: str
    fit_target: float | None = None

    @property
    def game(self) -> str:
        return self.points[0][1].game

    @property
    def keys(self) -> list[str]:
        return [k for k, _ in self.axes]

    @property
    def file_key(self) -> str:
        return file_key(self.axes)

    @property
    def table_name(self) -> str:
        return f"sweep_{self.file_key}.csv"

    @property
    def figure_name(self) -> str:
        return f"fig_sweep_{self.file_key}.png"

    @property
    def fit_name(self) -> str:
        return f"fit_sweep_{self.file_key}.csv"

    def files(self) -> list[str]:
        """The generic files the sweep writes in its results directory."""
        return [self.table_name, self.figure_name, self.figure_name.removesuffix(".png") + ".pdf",
                self.fit_name]

    def nets_of(self, point: Variant) -> list[str]:
        """The nets trained at ``point``: ``sweep.nets``, or the point's selected net."""
        return list(self.nets) if self.nets is not None else [point.cfg["net"]["name"]]

    def describe_axes(self) -> str:
        """``dataset.matches in {25, 50} x net in {mlp1, conv}``."""
        return " x ".join(f"{k} in {{{', '.join(value_label(v) for v in vals)}}}"
                          for k, vals in self.axes)
