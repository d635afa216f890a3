"""A long fit's finished stages on disk, so that a killed fit resumes where it stopped.

Why: a Reversi search imitator's fit at the budgets rev1 and rev2 need takes 1.5-3 hours a
fold on one core (docs/imitators.md, v13-v14): the surrogate's depth and budget stages, then
one or more runs of the round-value stage. A train job fits every fold of a target together,
so when the job is stopped (a session's end, a cluster's time limit, Ctrl-C), Snakemake deletes
the job's outputs and the rerun starts every fold again from nothing. A :class:`FitState` keeps
each finished stage of one fold's fit in a file beside the fold's checkpoint, not one of the
rule's outputs (so Snakemake leaves it), and the rerun skips the stages it holds: each pass
of the surrogate's depth and budget stages (minutes each), each run of the round-value stage,
and the Monte-Carlo stage's ascent, tree runs and climb (:func:`ime.imitators.mcts_fit.fit_mcts`).

A state is used only by the same fit: its key is a digest of the fit's config, its input files
(the dataset), the package's code, and numpy's and scipy's versions (:func:`fit_key`). A state
of any other fit (another override, another fold, edited code) is set aside with a log line and
the fit starts from nothing. A resumed fit gives the same weights, settings and selection grid
as one that was never stopped (the stages draw their samples from the config's seed, not from
a generator carried across stages; tested), so a stop changes no byte of any result, only how
long the job takes. A fold whose files were written keeps them in its state too, so the rerun
writes them again without refitting or rescoring it (scoring a thesis-scale fold's validation
rows with a deep search takes as long as a stage). The train job deletes the states once all
its folds are written (:func:`ime.imitators.family.fit_members`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

STATE_SUFFIX = ".fitstate.json"
"""A fold's state file: its checkpoint's path with this appended."""


def state_path_of(checkpoint_path: str | Path) -> Path:
    """The state file of the fold whose checkpoint is ``checkpoint_path``."""
    p = Path(checkpoint_path)
    return p.with_name(p.name + STATE_SUFFIX)


RUNTIME_KEYS = frozenset({"threads", "device", "gpu"})
"""Config keys that change how long a fit takes, never its result: left out of the key."""


@functools.cache
def code_digest() -> str:
    """A digest of the ``ime`` package's source (every module a fit may run), and of numpy's
    and scipy's versions: any edit sets every saved state aside."""
    import scipy

    import ime

    h = hashlib.sha256(f"numpy {np.__version__} scipy {scipy.__version__}".encode())
    root = Path(ime.__file__).parent
    for f in sorted(root.rglob("*.py")):
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def fit_key(config: Mapping[str, Any], files: Iterable[str | Path] = ()) -> str:
    """The digest that names one fit: its ``config`` (JSON-able; :data:`RUNTIME_KEYS` left out
    at any depth), the bytes of its input ``files`` (the dataset, an imitator it starts from),
    and :func:`code_digest`."""
    h = hashlib.sha256(code_digest().encode())
    h.update(json.dumps(_without_runtime(config), sort_keys=True, default=str).encode())
    for f in files:
        h.update(hashlib.sha256(Path(f).read_bytes()).digest())
    return h.hexdigest()


def _without_runtime(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {str(k): _without_runtime(v) for k, v in x.items() if k not in RUNTIME_KEYS}
    if isinstance(x, (list, tuple)):
        return [_without_runtime(v) for v in x]
    return x


def _to_json(x: Any) -> Any:
    """Numpy values as JSON (arrays as tagged lists, so they come back as arrays)."""
    if isinstance(x, np.ndarray):
        return {"__ndarray__": x.tolist(), "dtype": x.dtype.str}
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, Mapping):
        return {str(k): _to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_to_json(v) for v in x]
    return x


def _from_json(x: Any) -> Any:
    if isinstance(x, dict):
        if "__ndarray__" in x:
            return np.asarray(x["__ndarray__"], dtype=np.dtype(x["dtype"]))
        return {k: _from_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_from_json(v) for v in x]
    return x


class FitState:
    """The finished stages of one fit, by name, in the file ``path`` under the key ``key``.

    ``get(stage)`` gives a stage's saved value (None if the file holds none, or holds another
    fit's stages); ``put(stage, value)`` saves one more stage at once (written to a temporary
    file and renamed, so a stop mid-write leaves the last whole state). Values are JSON with
    numpy arrays; floats come back as the same doubles."""

    def __init__(self, path: str | Path, key: str,
                 say: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.key = key
        self.say = say or (lambda _line: None)
        self.stages: dict[str, Any] = {}
        if not self.path.exists():
            return
        try:
            saved = json.loads(self.path.read_text())
        except (OSError, ValueError) as e:
            self.say(f"fit state {self.path}: unreadable ({e}); starting from nothing")
            return
        if not isinstance(saved, dict) or saved.get("key") != key:
            self.say(f"fit state {self.path}: another fit's (its config, data or code differ); "
                     f"starting from nothing")
            return
        self.stages = _from_json(saved.get("stages", {}))
        last = next(reversed(self.stages), "nothing")
        self.say(f"fit state {self.path}: resuming after {len(self.stages)} kept stage(s), "
                 f"the last: {last}")

    def get(self, stage: str) -> Any:
        return self.stages.get(stage)

    def put(self, stage: str, value: Any) -> None:
        self.stages[stage] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"key": self.key, "stages": _to_json(self.stages)}))
        os.replace(tmp, self.path)

    def remove(self) -> None:
        """Delete the file (the fit's outputs are written: nothing is left to resume)."""
        self.path.unlink(missing_ok=True)
