"""``ime bench <game>``: this machine's engine, solver, bot and judge throughput.

Every figure is measured in this run (nothing is remembered): numba perft against the pure-Python
reference kernel on the same tree, the exact solver's nodes/s on seeded 20-empty positions, each
zoo bot's decisions/s at its configured budget on seeded mid-game positions, and the judge's
matches/s for a cheap pairing and for a target pairing.
"""

from __future__ import annotations

import argparse
import json
import time

from ime.cli.games import add_game_argument, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure engine / solver / bot / judge speed on this machine")
    add_game_argument(p)
    p.add_argument("--quick", action="store_true", help="smaller samples (a rough figure)")
    p.add_argument("--only", action="append", metavar="SECTION",
                   help="run only these sections (repeatable): the generic "
                        f"{', '.join(SECTIONS)}, and the game's own (e.g. perft, solver, "
                        "playouts: `ime bench <game> --only list` lists them)")
    p.add_argument("--json", help="also write the figures to this JSON file")
    p.add_argument("--device", default="cpu",
                   help="train section: cpu | cuda | auto (default cpu); cuda (or auto with a "
                        "GPU) measures on the GPU as well as on CPU")
    p.add_argument("--threads", type=positive_int, default=1,
                   help="train section: torch threads (default 1, as one train job uses)")
    p.add_argument("--members", default="1,5,15,75", metavar="M,M,...",
                   help="train section: also time this many members trained at once "
                        "(default 1,5,15,75; empty: only one model alone)")
    p.set_defaults(func=run)


def _game_config(game: str) -> dict:
    """``config/game/<game>.yaml`` as plain values (who the targets and opponents are)."""
    from omegaconf import OmegaConf

    from ime.paths import config_dir

    cfg = OmegaConf.to_container(OmegaConf.load(config_dir() / "game" / f"{game}.yaml"),
                                 resolve=True)
    assert isinstance(cfg, dict)
    return cfg


def _bots(args: argparse.Namespace) -> dict:
    """Decisions/s of every zoo bot on the game's seeded mid-game positions."""
    from ime.bots.registry import load_bot_specs, make_bot
    from ime.cli.games import game_tool
    from ime.core.bot import DecisionContext

    positions = game_tool(args.game, "positions")(8 if args.quick else 40, 1)
    out = {}
    for bot_id in load_bot_specs(args.game):
        bot = make_bot(args.game, bot_id)
        st = positions[0]
        bot.act(st.clone(), DecisionContext(0, "warm", st.ply, st.current_players()[0]))
        t = time.perf_counter()
        for i, st in enumerate(positions):
            p = st.current_players()[0]
            bot.act(st.clone(), DecisionContext(0, f"bench{i}", st.ply, p))
        dt = time.perf_counter() - t
        out[bot_id] = {"decisions": len(positions), "seconds": dt,
                       "decisions_per_s": len(positions) / dt, "ms_per_decision": 1e3 * dt /
                       len(positions)}
    return out


def _judge(args: argparse.Namespace) -> dict:
    """Matches/s of a cheap pairing (two opponents) and a target pairing (first target vs the
    first opponent), all seats filled in turn from the pairing."""
    from ime.bots.registry import make_bot
    from ime.core.registry import get_game
    from ime.matches.judge import run_match

    gcfg = _game_config(args.game)
    game = get_game(args.game, gcfg.get("params"))
    opps = list(gcfg["opponents"])
    out = {}
    pairings = {"cheap": (opps[0], opps[-1]), "target": (gcfg["targets"][0], opps[0])}
    for name, (a, b) in pairings.items():
        ids = [(a, b)[i % 2] for i in range(game.num_players)]
        bots = [make_bot(args.game, i) for i in ids]
        run_match(game, bots, match_id="warm", seed=0)
        n = (10 if args.quick else 40) if name == "cheap" else (2 if args.quick else 6)
        t = time.perf_counter()
        for i in range(n):
            run_match(game, bots, match_id=f"bench{i}", seed=0)
        dt = time.perf_counter() - t
        out[name] = {"pairing": " vs ".join(ids), "matches": n, "seconds": dt,
                     "matches_per_s": n / dt}
    return out


def _external(args: argparse.Namespace) -> dict:
    import importlib
    from pathlib import Path

    from ime.bots.external import bench_external

    package = importlib.import_module(f"ime.games.{args.game}")
    program = Path(str(package.__file__)).parent / "bench_bot.py"
    return bench_external(program, args.game)


def train_setup(game: str) -> dict:
    """What ``game``'s train jobs use, from the config composed as the pipeline composes it:
    its nets (``name -> architecture``), batch size, learning rate and game params. Snake's are
    Table 2.2's five nets at batch 32 and lr 0.02, Reversi's Table 4.3's three at batch 64."""
    from omegaconf import OmegaConf

    from ime.workflow.compose import compose

    cfg = OmegaConf.to_container(compose([f"game={game}"]), resolve=True)
    assert isinstance(cfg, dict)
    train = cfg["train"]
    return {"nets": {n: cfg["nets"][n] for n in train["nets"]},
            "batch_size": int(train["batch_size"]), "lr": float(train["lr"]),
            "game_params": cfg["game"].get("params")}


def _train(args: argparse.Namespace) -> dict:
    """Samples/s of one model alone and of ``--members`` at once, on CPU and (``--device cuda``,
    or ``auto`` with a GPU) on the GPU, in this run with ``--threads`` threads."""
    from ime.train.bench import bench_training

    members = [int(m) for m in str(getattr(args, "members", "") or "").split(",") if m.strip()]
    devices = _devices(args)
    setup = train_setup(args.game)
    runs = [bench_training(setup["nets"], rows=4000 if args.quick else 20000,
                           epochs=1 if args.quick else 2, batch_size=setup["batch_size"],
                           lr=setup["lr"], device=d, threads=args.threads, game=args.game,
                           game_params=setup["game_params"], members=members)
            for d in devices]
    return {**runs[0], **({"cuda": runs[1]} if len(runs) > 1 else {})}


def _devices(args: argparse.Namespace) -> list[str]:
    """The CPU, and the GPU with ``--device cuda``, or ``auto`` where there is one."""
    import torch

    cuda = args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available())
    return ["cpu", "cuda"] if cuda else ["cpu"]


def _lookahead(args: argparse.Namespace) -> dict:
    """Training samples/s of the game's lookahead imitator (``imitator=lookahead``, at its
    default ``net.depth``, and at depth 2 where the game alternates moves), one model, on CPU
    and the GPU when there is one: the afterstates are computed on the training device."""
    from ime.core.registry import get_encoder
    from ime.train.bench import bench_training
    from ime.workflow.compose import compose_plain

    setup = train_setup(args.game)
    enc = get_encoder(args.game, setup["game_params"])
    if enc.afterstate_shape is None:
        return {"unavailable": f"{args.game} offers no afterstates (no lookahead imitator)"}
    arch = compose_plain([f"game={args.game}", "imitator=lookahead"])["nets"]["lookahead"]
    nets = {"lookahead": arch}
    if enc.reply_lookahead:
        nets["lookahead_depth2"] = {**arch, "name": "lookahead_depth2", "depth": 2}
    runs = [bench_training(nets, rows=2000 if args.quick else 8000, epochs=1,
                           batch_size=setup["batch_size"], lr=setup["lr"], device=d,
                           threads=args.threads, game=args.game,
                           game_params=setup["game_params"], members=[])
            for d in _devices(args)]
    return {**runs[0], **({"cuda": runs[1]} if len(runs) > 1 else {})}


SECTIONS = {"bots": _bots, "judge": _judge, "external": _external, "train": _train,
            "lookahead": _lookahead}
"""Generic sections; a game adds its own (perft, solver, ...) through ``GamePlugin.tools.bench``."""


def run(args: argparse.Namespace) -> int:
    import os
    import platform

    results: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "processor": platform.processor() or platform.machine()}}
    from ime.core.registry import get_plugin

    game_sections = dict(get_plugin(args.game).tools.bench)
    known = [*game_sections, *SECTIONS]
    if args.only == ["list"]:
        print("\n".join(known))
        return 0
    unknown = [n for n in args.only or [] if n not in known]
    if unknown:
        print(f"ime bench {args.game}: no section {unknown}; {args.game} has: {', '.join(known)}")
        return 2
    for name in args.only or known:
        try:
            if name in game_sections:
                results[name] = game_sections[name](args.quick)
            elif name in SECTIONS:
                results[name] = SECTIONS[name](args)
            else:
                results[name] = {"unavailable": f"{args.game} has no {name!r} benchmark"}
        except ImportError as e:
            results[name] = {"unavailable": str(e)}
        _print_section(name, results[name])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


def _print_section(name: str, r: dict) -> None:
    print(f"== {name}")
    if "unavailable" in r:
        print(f"  unavailable: {r['unavailable']}")
        return
    if name == "perft":
        print(f"  perft({r['depth']}) = {r['leaves']} in {r['seconds']:.3f} s: "
              f"{r['leaves_per_s'] / 1e6:.1f} M leaves/s")
        print(f"  pure-Python perft({r['python_depth']}): "
              f"{r['python_leaves_per_s'] / 1e6:.3f} M leaves/s -> speedup {r['speedup']:.0f}x")
    elif name == "bots":
        for bot, b in r.items():
            print(f"  {bot:16s} {b['decisions_per_s']:9.1f} decisions/s "
                  f"({b['ms_per_decision']:.2f} ms/decision)")
    elif name in ("train", "lookahead"):
        for run in (r, r["cuda"]) if "cuda" in r else (r,):
            _print_train(run)
    elif name == "judge":
        for k, b in r.items():
            print(f"  {k:8s} {b['pairing']:28s} {b['matches_per_s']:8.2f} matches/s")
    else:
        for k, v in r.items():
            print(f"  {k}: {v:.4g}" if isinstance(v, float) else f"  {k}: {v}")


def _print_train(r: dict) -> None:
    """One device's training figures: one model alone, then M members at once (samples/s in
    total, and as a multiple of the lone model's)."""
    print(f"  device {r['device']}{' (' + r['gpu'] + ')' if 'gpu' in r else ''}, "
          f"{r['threads']} thread(s), batch {r['batch_size']}, {r['rows']} rows")
    for net, b in r["nets"].items():
        print(f"  {net:8s} {b['params']:7d} params {b['samples_per_s']:10.0f} samples/s "
              "(one model alone, run_epoch)")
        for mode, runs in b.get("ensemble", {}).items():
            for m, e in runs.items():
                if "unsupported" in e:
                    print(f"  {'':8s} {m:4d} at once, {mode}: unsupported ({e['unsupported']})")
                    continue
                print(f"  {'':8s} {m:4d} at once, {mode:7s} {e['samples_per_s']:10.0f} "
                      f"samples/s ({e['samples_per_s'] / b['samples_per_s']:.2f}x)")
