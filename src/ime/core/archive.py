"""Keep a run's result files, with their provenance, in a folder under ``reproduction/``.

Why a helper: every "beyond the thesis" experiment that is not part of rule ``all`` (the
identification pools, the opponent-model search) is archived the same way: some named files of
each results folder copied under a label, and the run's clone described once
(:func:`ime.core.provenance.collect`: commit, packages, machine), so that a committed number
always says which code and machine made it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def archive_folders(dirs: Sequence[str | Path], labels: Sequence[str], out: str | Path,
                    names: Sequence[str], root: str | Path = ".",
                    extra: Mapping[str, Any] | None = None) -> list[Path]:
    """Copy each folder's files ``names`` (those that exist) to ``out/<label>/``, and write
    ``out/provenance.json``: the provenance of ``root`` (the run's clone), the folders by label
    and ``extra`` (the command, say). Returns the copied files.

    Raises ``ValueError`` when the labels do not match the folders one to one or a folder has
    none of the files (a mistyped folder would otherwise archive nothing, silently)."""
    from ime.core.provenance import collect

    if len(dirs) != len(labels) or len(set(labels)) != len(labels):
        raise ValueError(f"archive: {len(dirs)} folders need as many distinct labels, got "
                         f"{list(labels)}")
    out = Path(out)
    copied: list[Path] = []
    for d, label in zip(dirs, labels, strict=True):
        dest = out / label.replace(" ", "_")
        found = [n for n in names if (Path(d) / n).is_file()]
        if not found:
            raise ValueError(f"archive: {d} holds none of {', '.join(names)}")
        for name in found:
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(d) / name, dest / name)
            copied.append(dest / name)
    prov = collect(root) | {"folders": {lab: str(d) for d, lab in zip(dirs, labels, strict=True)}}
    prov |= dict(extra or {})
    out.mkdir(parents=True, exist_ok=True)
    (out / "provenance.json").write_text(json.dumps(prov, indent=1, default=str) + "\n")
    return copied
