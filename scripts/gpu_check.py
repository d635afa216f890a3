#!/usr/bin/env python3
"""Issue 16's GPU measurements in one short run, for a lent GPU machine (BENCHMARKS.md, "GPU").

A lent machine is held for minutes, has torch but not Hydra or Snakemake, and returns at most 8
files, so this script does the whole check in one process tree and writes few files:

1. ``bench``: ``ime.train.bench.bench_training`` on the GPU alone: one model alone against 1, 5,
   15 and 75 members at once, per Table 4.3 net, in the stack's ``grouped`` and ``loop`` modes
   (``bench.json``). Nothing else runs on the GPU meanwhile.
2. ``train``: the pipeline's own training call (``ime.train.ensemble.train_members``, what the
   ``train_<game>`` rule runs) on thesis-scale datasets copied from this machine, several
   jobs at once as a multi-target run would place them (one job per bot and net, as the rule),
   each job's wall time and every member's accuracies gathered in ``train.json``, while
   ``nvidia-smi`` samples GPU use once a second (``gpu_util.csv``).

A job may hold several bots (``rev1+rev2:DS1+DS2``): their members of one net are one stack
(:func:`ime.train.ensemble.train_bots`). With ``--models-dir data/<game>/models/<ttag>`` the
checkpoints and metrics are written in the pipeline's layout and the finished jobs' files come
back as ``models.tgz`` (``--pack-mb``: in parts, see :func:`pack`); unpacked into that directory
here, Snakemake finds the train jobs' outputs and goes on to the tables (their metrics record
``timing.device: cuda``). Snake's thesis-scale checkpoints (BENCHMARKS.md, "Snake on a GPU")
are more than one call brings back: ``all ... --models-dir /tmp/m --pack-dir /tmp/p --pack-mb
15 --pack-first 4``, then ``parts --pack-dir /tmp/p --out $OUT --from 4`` on the still-warm
machine.

Usage (the spec is the composed config's train section and nets, written by ``prepare``)::

    python scripts/gpu_check.py prepare --dir .gpu scale=thesis      # here, with Hydra
    python scripts/gpu_check.py all --dir .gpu --out "$OUT" --deadline 330   # there
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))


def prepare(args: argparse.Namespace) -> None:
    """Compose the config here (Hydra is installed here) and write ``spec.json`` into ``--dir``."""
    out = subprocess.run([sys.executable, "-m", "ime", "pipeline", "show", "--json",
                          *args.overrides], check=True, capture_output=True, text=True).stdout
    cfg = json.loads(out)
    train = {k: v for k, v in cfg["train"].items() if k not in ("nets", "gpu", "threads",
                                                                "run_folds")}
    train["augment"] = cfg["game"].get("augment", "none")
    spec = {"game": cfg["game"]["name"], "game_params": cfg["game"].get("params"),
            "train": train, "nets": cfg["nets"], "overrides": args.overrides}
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    (Path(args.dir) / "spec.json").write_text(json.dumps(spec, indent=1, sort_keys=True))
    print(json.dumps(spec, indent=1, sort_keys=True))


def bench(args: argparse.Namespace) -> None:
    """Samples/s on the device: one model alone and ``--members`` at once (``bench.json``)."""
    import torch

    import ime.train.bench as tb

    if args.nondeterministic:  # what cuDNN picks when free to (not the pipeline's setting)
        pinned = tb.set_determinism

        def free(threads: int, device: torch.device) -> None:
            pinned(threads, device)
            torch.use_deterministic_algorithms(False)
            torch.backends.cudnn.benchmark = True

        tb.set_determinism = free
    spec = json.loads((Path(args.dir) / "spec.json").read_text())
    members = [int(m) for m in args.members.split(",") if m]
    t = time.perf_counter()
    res = tb.bench_training(nets=tuple(args.nets.split(",")), rows=args.rows, epochs=1,
                            device=args.device, threads=1, game=spec["game"],
                            game_params=spec["game_params"], members=members,
                            modes=tuple(args.modes.split(",")))
    res["torch"], res["nondeterministic"] = torch.__version__, args.nondeterministic
    res["wall_s"] = time.perf_counter() - t
    name = "bench_nondet.json" if args.nondeterministic else "bench.json"
    Path(args.out, name).write_text(json.dumps(res, indent=1))
    for net, r in res["nets"].items():
        alone = r["samples_per_s"]
        line = [f"{net}: alone {alone:,.0f}/s"]
        for mode, by_m in r.get("ensemble", {}).items():
            line.append(mode + " " + " ".join(
                f"{m}:{v['samples_per_s'] / alone:.1f}x" for m, v in by_m.items()
                if "samples_per_s" in v))
        print(" | ".join(line), flush=True)


def train(args: argparse.Namespace) -> None:
    """One train job: ``--nets`` x the first ``--folds`` folds of each of ``--bot`` on its
    ``--dataset`` (several bots: ``+``-separated, stacked together), as the pipeline's train rule
    runs them (``<work>/<job>.json``: wall time, each member's metrics)."""
    from ime.train.bench import load_net
    from ime.train.ensemble import Member, train_bots

    spec = json.loads((Path(args.dir) / "spec.json").read_text())
    work = Path(args.work) / args.job
    bots, datasets = args.bot.split("+"), args.dataset.split("+")
    if len(bots) != len(datasets):
        raise SystemExit(f"{args.job}: {len(bots)} bots but {len(datasets)} datasets")
    jobs = {}
    for bot, dataset in zip(bots, datasets, strict=True):
        members = []
        for name in args.nets.split(","):
            arch = dict(spec["nets"].get(name) or load_net(name))
            arch.setdefault("name", name)
            # --models-dir: the pipeline's layout (P.CHECKPOINT / P.METRICS of a variant whose
            # net directories are the net names), to bring the files back into data/
            at = (Path(args.models_dir) / name / bot if args.models_dir else work)
            stem = "fold{k}" if args.models_dir else f"{bot}_{name}_fold{{k}}"
            members += [Member(arch, k, at / (stem.format(k=k) + ".pt"),
                               at / (stem.format(k=k) + ".json")) for k in range(args.folds)]
            at.mkdir(parents=True, exist_ok=True)
        jobs[bot] = (dataset, members)
    work.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    by_bot = train_bots(jobs, {**spec["train"], "device": args.device}, threads=1,
                        progress=False, mode=args.mode)
    wall = time.perf_counter() - t
    keep = ("bot", "net", "fold", "params", "epochs", "best_epoch", "train_acc", "val_acc",
            "val_acc_unseen", "val_seen_share", "train_rows", "val_rows", "timing")
    metrics = [m for bot in bots for m in by_bot[bot]]
    res = {"job": args.job, "bot": args.bot, "dataset": args.dataset, "wall_s": wall,
           "mode": args.mode, "members": [{k: m.get(k) for k in keep} for m in metrics]}
    Path(args.work, f"{args.job}.json").write_text(json.dumps(res, indent=1))
    for m in metrics:
        print(f"{args.job}: {m['bot']} {m['net']} fold {m['fold']} val {m['val_acc']:.2f} "
              f"unseen {m['val_acc_unseen']:.2f} epochs {m['epochs']} (best {m['best_epoch']})",
              flush=True)
    print(f"{args.job}: {len(metrics)} members in {wall:.1f} s", flush=True)


def run_all(args: argparse.Namespace) -> None:
    """``bench`` alone (unless ``--rows 0``), then the train jobs (``--job``, ``--jobs-file``),
    at most ``--parallel`` at once, under GPU sampling, until done or ``--deadline`` seconds
    after the start (jobs still running are killed, jobs not started are named)."""
    t0 = time.perf_counter()
    me = [sys.executable, "-u", __file__]
    common = ["--dir", args.dir, "--out", args.out, "--device", args.device]
    if args.rows > 0:
        subprocess.run([*me, "bench", *common, "--rows", str(args.rows)], check=False)
        print(f"bench done at {time.perf_counter() - t0:.0f} s", flush=True)
    smi = None
    if args.device == "cuda":
        smi = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=timestamp,utilization.gpu,utilization.memory,"
             "memory.used,power.draw", "--format=csv", "-l", "1"],
            stdout=open(Path(args.out, "gpu_util.csv"), "w"), stderr=subprocess.DEVNULL)
    jobs = list(args.job)
    if args.jobs_file:
        jobs += [line.strip() for line in Path(args.jobs_file).read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    specs = [j.split(":") for j in jobs]  # NAME, BOT, DATASET, NETS, FOLDS
    waiting = list(specs)
    names = [w[0] for w in specs]
    procs: dict[str, subprocess.Popen] = {}

    def gather() -> None:
        done = {n: json.loads(Path(args.work, f"{n}.json").read_text()) for n in names
                if Path(args.work, f"{n}.json").exists()}
        Path(args.out, "train.json").write_text(json.dumps(done, indent=1))

    limit = args.parallel or len(waiting)
    while waiting or any(p.poll() is None for p in procs.values()):
        while waiting and sum(p.poll() is None for p in procs.values()) < limit:
            name, bot, dataset, nets, folds = waiting.pop(0)
            procs[name] = subprocess.Popen(
                [*me, "train", *common, "--job", name, "--bot", bot, "--dataset", dataset,
                 "--nets", nets, "--folds", folds, "--work", args.work,
                 *(["--models-dir", args.models_dir] if args.models_dir else [])])
        gather()
        if time.perf_counter() - t0 > args.deadline:
            for name, p in procs.items():
                if p.poll() is None:
                    p.kill()
                    print(f"{name}: killed at the deadline ({args.deadline} s)", flush=True)
            for w in waiting:
                print(f"{w[0]}: not started by the deadline", flush=True)
            break
        time.sleep(1)
    gather()
    if smi is not None:
        smi.terminate()
        smi.wait()
        util = [float(line.split(",")[1].strip().rstrip(" %")) for line in
                Path(args.out, "gpu_util.csv").read_text().splitlines()[1:]
                if line.count(",") >= 4 and "%" in line.split(",")[1]]
        if util:
            print(f"GPU use over the train jobs: mean {sum(util) / len(util):.0f} %, "
                  f"max {max(util):.0f} %, {len(util)} samples", flush=True)
    finished = [w for w in specs if w[0] in procs and procs[w[0]].returncode == 0]
    if args.models_dir and Path(args.models_dir).is_dir():
        pack(args, finished)
    print(f"all done at {time.perf_counter() - t0:.0f} s: "
          + ", ".join(f"{n} rc={p.returncode}" for n, p in procs.items()), flush=True)


def pack(args: argparse.Namespace, finished: list[list[str]]) -> None:
    """The finished jobs' files, in the pipeline's layout: ``metrics.tgz`` (every metrics JSON)
    and ``models.tgz`` (checkpoints and metrics), which ``--pack-mb`` cuts into parts
    ``models.tgz.00``, ``.01``, ... A killed job is left out whole: it may have written some of
    its members, the last one cut short. A machine returns at most 8 files of 16 MiB, 64 MiB
    in all: parts beyond ``--pack-first`` stay in ``--pack-dir`` for a second call
    (``parts``) while the machine is warm. Here: ``cat models.tgz.* | tar xzf - -C
    data/<game>/models/<ttag>``."""
    dirs = sorted({f"{net}/{bot}" for _, bots, _, nets, _ in finished
                   for bot in bots.split("+") for net in nets.split(",")})
    stage = Path(args.pack_dir or args.out)
    stage.mkdir(parents=True, exist_ok=True)
    if not dirs:
        print("pack: no job finished, nothing to pack", flush=True)
        return
    root = Path(args.models_dir)
    names = sorted(str(f.relative_to(root)) for d in dirs for f in (root / d).glob("fold*.*"))
    subprocess.run(["tar", "czf", str(Path(args.out, "metrics.tgz")), "-C", str(root),
                    *[n for n in names if n.endswith(".json")]], check=True)
    whole = stage / "models.tgz"
    subprocess.run(["tar", "czf", str(whole), "-C", str(root), *names], check=True)
    if args.pack_mb > 0:
        subprocess.run(["split", "-b", f"{args.pack_mb}m", "-d", str(whole),
                        str(stage / "models.tgz.")], check=True)
        whole.unlink()
    parts = sorted(stage.glob("models.tgz*"))
    keep = parts if stage == Path(args.out) or args.pack_first <= 0 else parts[:args.pack_first]
    for part in keep:
        if part.parent != Path(args.out):
            shutil.copy(part, Path(args.out, part.name))
    rest = parts[len(keep):]
    print(f"pack: {len(dirs)} (net, bot) directories, {len(names)} files, "
          f"{sum(p.stat().st_size for p in parts) / 2**20:.1f} MiB in {len(parts)} part(s); "
          + (f"{len(rest)} left in {stage}: next call `gpu_check.py parts --pack-dir {stage} "
             f"--out $OUT --from {len(keep)}`" if rest else "all in --out"), flush=True)


def parts(args: argparse.Namespace) -> None:
    """Copy the packed parts from ``--from`` on (at most ``--pack-first``) into ``--out``: the
    second call that brings back what did not fit in the first."""
    found = sorted(Path(args.pack_dir).glob("models.tgz.*"))[args.start:]
    for part in found[:args.pack_first] if args.pack_first > 0 else found:
        shutil.copy(part, Path(args.out, part.name))
        print(f"parts: {part.name} ({part.stat().st_size / 2**20:.1f} MiB)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--dir", required=True)
    p.add_argument("overrides", nargs="*")
    p.set_defaults(func=prepare)
    p = sub.add_parser("parts")
    p.add_argument("--pack-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--from", dest="start", type=int, default=0, help="first part (0-based)")
    p.add_argument("--pack-first", type=int, default=4, help="at most this many parts")
    p.set_defaults(func=parts)
    for name, func in (("bench", bench), ("train", train), ("all", run_all)):
        p = sub.add_parser(name)
        p.add_argument("--dir", required=True, help="holds spec.json (from prepare)")
        p.add_argument("--out", required=True, help="where the result files go")
        p.add_argument("--device", default="cuda")
        p.add_argument("--rows", type=int, default=60000, help="bench: samples per figure")
        p.add_argument("--members", default="1,5,15,75")
        p.add_argument("--modes", default="grouped,loop")
        p.add_argument("--work", default="/tmp/gpu_check", help="checkpoints (not returned)")
        p.add_argument("--job", action="append", default=[],
                       help="all: NAME:BOT:DATASET:NETS:FOLDS (repeatable; BOT and DATASET may "
                       "be +-separated lists, stacked in one job); train: NAME")
        p.add_argument("--bot", default="")
        p.add_argument("--dataset", default="")
        p.add_argument("--nets", default="mlp1,mlp2,conv")
        p.add_argument("--mode", default="auto", help="train: the stack's mode (auto: grouped "
                       "on CUDA)")
        p.add_argument("--nondeterministic", action="store_true",
                       help="bench: let cuDNN pick its fastest kernels (not the pipeline's way)")
        p.add_argument("--folds", type=int, default=5)
        p.add_argument("--deadline", type=float, default=330.0)
        p.add_argument("--jobs-file", default="", help="all: one NAME:BOT:DATASET:NETS:FOLDS a "
                       "line (# comments)")
        p.add_argument("--models-dir", default="",
                       help="train/all: write checkpoints and metrics as DIR/<net>/<bot>/fold<k>"
                            ".pt|.json (a variant's models directory); all: pack the finished "
                            "jobs' files into models.tgz (--pack-*)")
        p.add_argument("--pack-dir", default="", help="all: where the packed parts are made "
                       "(default: --out); keep it outside --out to bring them back in 2 calls")
        p.add_argument("--pack-mb", type=int, default=0,
                       help="all: cut models.tgz into parts of this many MiB (0: one file)")
        p.add_argument("--pack-first", type=int, default=0,
                       help="all: copy only the first N parts into --out (0: all)")
        p.add_argument("--parallel", type=int, default=0,
                       help="all: at most this many train jobs at once (0: all)")
        p.set_defaults(func=func)
    args = ap.parse_args()
    if args.cmd == "train":
        args.job = args.job[0]
    Path(getattr(args, "out", ".")).mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    args.func(args)


if __name__ == "__main__":
    main()
