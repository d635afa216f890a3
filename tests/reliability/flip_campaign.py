"""Byte-flip campaign: how many single-byte corruptions of real Parquet files go unnoticed.

    python tests/reliability/flip_campaign.py TREE [--flips-per-file 500] [--seed 0] [--scores]

``TREE`` is a workflow folder after a run (``data/``, ``.snakemake/``), e.g. a tiny run. For every
decisions, dataset, key-set and candidate Parquet file in it (``--scores``: score tables too;
they sort after the others, so those get the same flips either way), ``--flips-per-file``
times: XOR one random byte with a random non-zero value (size and mtime kept), then ask

* the **reader** the pipeline uses for that file (``read_arrays`` for datasets and decisions,
  ``read_keyset`` for key sets, ``read_scores`` for scores, the verified ``read_parquet`` for
  candidate tables): does it fail, naming the file?
* **ime verify**'s checks of that file (content; the sha256 in its sidecar ``<file>.sha256``,
  which every Parquet file IME writes has; the sha256 Snakemake recorded when a job read it):
  does it report the file?

and, when nothing failed, whether the data read back equals the original (a flip in a byte
no reader uses) or not (silent corruption). The file is restored after each flip. Prints one
line per file and the totals; exits 1 if any flip was read silently or not reported by
``ime verify``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path


def kind_of(path: Path) -> str:
    name = path.as_posix()
    if "/scores/" in name:
        return "scores"
    if "/keys/" in name:
        return "candidates" if name.endswith(".candidates.parquet") else "keys"
    if "/datasets/" in name:
        return "dataset"
    return "decisions"


def read(path: Path, kind: str):
    """What the pipeline's reader returns for ``path`` (comparable with ``==``). Runs against
    the package before issue 13 too (``PYTHONPATH=/tmp/base/src``: its readers, no verify)."""
    from ime.datasets.schema import read_arrays
    from ime.evaluate.keys import read_keyset

    try:
        from ime.datasets.integrity import read_parquet
    except ImportError:  # before issue 13
        import pyarrow.parquet as pq

        read_parquet = pq.read_table

    if kind in ("dataset", "decisions"):
        a = read_arrays(path)
        return (a.state.tobytes(), a.mask.tobytes(), a.action.tobytes(), a.ply.tobytes(),
                a.seat.tobytes(), list(a.match_id), repr(sorted(a.metadata.items())))
    if kind == "keys":
        k = read_keyset(path)
        return (k.df.to_json(), k.planes.tobytes(), k.mask.tobytes(), repr(k.stats),
                k.references, k.game, k.target)
    if kind == "scores":
        from ime.evaluate.scoring import read_scores

        df, info = read_scores(path)
        return (df.to_json(), repr(sorted(info.items())))
    t = read_parquet(path)
    return (t.to_pylist(), t.schema.metadata)


def outcome(path: Path, rel: str, kind: str, ref, root: Path, records, game, params) -> str:
    """How the reader and ``ime verify`` take the damaged file: ``<reader>/<verify>``."""
    try:
        same = read(path, kind) == ref
        reader = "silent" if not same else "harmless"
    except Exception as e:
        reader = "named" if str(path) in str(e) or rel in str(e) else "unnamed"
        same = False
    if CHECK_FILE is None:
        return f"reader_{reader}"
    from ime.verify.records import Provenance

    prov = Provenance(root, records)  # fresh: no cached hashes
    found = CHECK_FILE(path, game, params) is not None or (
        prov.damaged_since_read(rel) is not None)
    verify = "detected" if found else ("missed_harmless" if same else "missed_SILENT")
    return f"reader_{reader}/verify_{verify}"


def evaluate(*args) -> str:
    """:func:`outcome` in a forked child: pyarrow aborts the whole process (an uncaught C++
    exception) on some damaged footers; such a flip counts as ``crash``."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            os.write(w, outcome(*args).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        got = f.read().decode()
    _, status = os.waitpid(pid, 0)
    return got if got else f"crash (signal {os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0})"


CHECK_FILE = None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree")
    ap.add_argument("--flips-per-file", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scores", action="store_true", help="flip the score tables too")
    args = ap.parse_args(argv)

    global CHECK_FILE
    try:
        from ime.verify import _game_of
        from ime.verify.checks import check_file
        from ime.verify.records import load_records
        CHECK_FILE = check_file
    except ImportError:  # before issue 13: the readers only
        _game_of = None
        def load_records(root):  # noqa: E306
            return {}

    for module in ("ime.datasets.schema", "ime.evaluate.keys", "ime.core.registry",
                   "ime.evaluate.forks", "ime.datasets.integrity", "ime.verify.records"):
        try:  # imported once here, not in every forked child
            __import__(module)
        except ImportError:
            pass
    root = Path(args.tree).resolve()
    files = sorted(p for p in (root / "data").rglob("*.parquet")
                   if args.scores or "/scores/" not in p.as_posix())
    records = load_records(root)
    rng = random.Random(args.seed)
    total: Counter[str] = Counter()
    t0 = time.perf_counter()
    for path in files:
        rel = path.relative_to(root).as_posix()
        kind = kind_of(path)
        game, params = _game_of(rel, records.get(rel)) if _game_of else (None, None)
        original = path.read_bytes()
        st = path.stat()
        ref = read(path, kind)
        hashed = any(rel in records[c].checksums for c in records)
        per: Counter[str] = Counter()
        try:
            for _ in range(args.flips_per_file):
                blob = bytearray(original)
                pos = rng.randrange(len(blob))
                blob[pos] ^= rng.randrange(1, 256)
                path.write_bytes(bytes(blob))
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
                per[evaluate(path, rel, kind, ref, root, records, game, params)] += 1
        finally:
            path.write_bytes(original)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        total.update(per)
        print(f"{rel} ({kind}, {len(original)} bytes, sha256 recorded: {hashed}): "
              + ", ".join(f"{k} {v}" for k, v in sorted(per.items())))
    n = len(files) * args.flips_per_file
    print(f"\n{n} flips over {len(files)} files in {time.perf_counter() - t0:.0f} s")
    for k, v in sorted(total.items()):
        print(f"  {k}: {v}")
    verdicts = Counter()
    for k, v in total.items():
        for part in k.split("/"):
            verdicts[part] += v
    missed = verdicts["verify_missed_harmless"] + verdicts["verify_missed_SILENT"]
    if CHECK_FILE is None:
        print("(no ime verify in this package)")
    print(f"undetected by ime verify: {missed} of {n}; silent for the readers: "
          f"{verdicts['reader_silent']} of {n}; reader errors without the file's name: "
          f"{verdicts['reader_unnamed']}; process crashes: "
          f"{sum(v for k, v in total.items() if k.startswith('crash'))}")
    return 1 if missed or verdicts["reader_silent"] else 0


if __name__ == "__main__":
    sys.exit(main())
