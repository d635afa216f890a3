"""Our engine and solver side by side with Edax 4.6, in one run on this machine.

Edax (Richard Delorme's Reversi program, https://github.com/abulmo/edax-reversi) is the yardstick
for a fast Reversi engine. ``scripts/build-edax.sh`` builds it (``-march=x86-64-v3``, one thread)
with an all-zero evaluation file, so that its solver orders moves by its search features only, as
ours does. Point ``IME_EDAX`` at the binary and run ``ime bench reversi --only edax``:

* **perft**: Edax's console ``perft N`` (no hash table, Edax's ``count_games``) against our
  :func:`~ime.games.reversi.bitboard.perft` at the same depth; leaves/s, CPU time, best of the
  rounds, the two programs interleaved so that a change in the machine's speed hits both.
* **FFO #40-44**: ``edax -solve`` on the five positions (one thread, Edax's default hash) against
  :func:`~ime.games.reversi.solver.solve` with one best move per position, as Edax reports;
  CPU seconds for the five together.

The positions are the FFO endgame test suite's #40-44 (the standard solver benchmark), as Edax's
``problem/fforum-40-59.obf`` gives them. Scores differ from FFO's where a game ends with empty
squares: Botzone gives them to nobody, FFO to the winner (see :mod:`ime.games.reversi.solver`).
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ENV = "IME_EDAX"

# FFO #40-44: (board A1..H8, side to move, the best move FFO lists)
FFO_40_44 = [
    ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", "X", "A2"),
    ("-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-", "X", "H4"),
    ("--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--", "X", "G2"),
    ("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-", "O", "G3 C7"),
    ("--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--", "O", "D2 B8"),
]

_EVAL_HEADER = struct.pack("<IIiiid", 0x45444158, 0x4556414C, 4, 4, 0, 0.0)  # "EDAX" "EVAL" 4.4.0
_EVAL_BYTES = 2 * 114364 * 61  # int16 weights x 61 plies (Edax 4.6's eval.c)


def zero_eval_file(path: Path) -> Path:
    """Write an Edax evaluation file whose weights are all zero (no learned evaluation)."""
    with open(path, "wb") as f:
        f.write(_EVAL_HEADER)
        f.write(bytes(_EVAL_BYTES))
    return path


def _edax(binary: str, eval_file: Path, args: list[str], stdin: str = "",
          timeout: float = 600) -> str:
    out = subprocess.run([binary, "-eval-file", str(eval_file), "-n", "1", *args], input=stdin,
                         capture_output=True, text=True, errors="replace", timeout=timeout,
                         cwd=eval_file.parent)
    if out.returncode != 0:
        raise RuntimeError(f"edax {' '.join(args)} failed ({out.returncode}): {out.stderr[-500:]}")
    return out.stdout


def _clock(text: str) -> float:
    """Edax's ``h:mm:ss.sss`` / ``m:ss.sss`` as seconds."""
    s = 0.0
    for part in text.split(":"):
        s = 60 * s + float(part)
    return s


def edax_perft(binary: str, eval_file: Path, depth: int, timeout: float = 600) -> tuple[int, float]:
    """(leaves, CPU seconds) of Edax's console ``perft depth`` at its last ply. The console is
    driven line by line: ``quit`` is sent only once the ply-``depth`` line is out (Edax reads its
    input while it counts, and a ``quit`` read early would cut the count short)."""
    pat = re.compile(rf"^\s*{depth},\s*(\d+),\s*(\d+),.*?([\d:]+\.\d+),")
    proc = subprocess.Popen([binary, "-eval-file", str(eval_file), "-n", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            cwd=eval_file.parent)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    seen: list[str] = []
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"perft {depth}\n")
        proc.stdin.flush()
        for line in proc.stdout:
            seen.append(line)
            m = pat.search(line)
            if m:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                return int(m.group(1)) + int(m.group(2)), _clock(m.group(3))
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
    tail = "".join(seen)[-800:]
    raise RuntimeError(f"edax perft {depth}: no ply-{depth} line in its output:\n{tail}")


def edax_solve(binary: str, eval_file: Path, positions: list[tuple[str, str, str]]
               ) -> tuple[int, float, list[str]]:
    """(nodes, CPU seconds, best move per position) of ``edax -solve`` on ``positions``."""
    obf = eval_file.parent / "positions.obf"
    obf.write_text("".join(f"{b} {s};\n" for b, s, _ in positions))
    out = _edax(binary, eval_file, ["-solve", str(obf)])
    m = re.search(r"(\d+) nodes in\s+[\d:.]+ \(cpu =\s+([\d:.]+)\)", out)
    if not m:
        raise RuntimeError(f"edax -solve: no summary line in its output:\n{out[-800:]}")
    best = re.findall(r"^\s*\d+\|\s*\d+\s+[-+]\d+\s+[\d:.]+\s+\d+\s+\d+\s+(\S+)", out, re.M)
    return int(m.group(1)), _clock(m.group(2)), [b.upper() for b in best]


def ours_perft(depth: int) -> tuple[int, float]:
    import numpy as np

    from ime.games.reversi.bitboard import BLACK_START, WHITE_START, perft

    P, O = np.uint64(BLACK_START), np.uint64(WHITE_START)
    perft(P, O, 3)  # compiled (or loaded from cache) outside the timing
    t = time.process_time()
    n = int(perft(P, O, depth))
    return n, time.process_time() - t


def ours_solve(positions: list[tuple[str, str, str]]) -> tuple[int, float, list[str]]:
    from ime.games.reversi.game import square_name
    from ime.games.reversi.solver import solve
    from ime.games.reversi.tools import parse_board

    solve(*parse_board(positions[0][0], positions[0][1]), window=(-1, 1))  # compile/load
    nodes, cpu, best = 0, 0.0, []
    for board, side, _ in positions:
        P, O = parse_board(board, side)
        t = time.process_time()
        r = solve(P, O, all_best=False)
        cpu += time.process_time() - t
        nodes += r.nodes
        best.append(square_name(r.best_moves[0]).upper())
    return nodes, cpu, best


def bench_edax(quick: bool, binary: str | None = None, rounds: int | None = None) -> dict:
    """Both programs, interleaved, best of ``rounds``; ratios are ours / Edax's speed (perft)
    and ours / Edax's time (FFO). ``binary`` defaults to ``$IME_EDAX``."""
    binary = binary or os.environ.get(ENV)
    if not binary:
        return {"unavailable": f"set {ENV} to an Edax binary (scripts/build-edax.sh builds one)"}
    if not Path(binary).is_file():
        return {"unavailable": f"{ENV}={binary}: no such file (scripts/build-edax.sh builds one)"}
    depth = 9 if quick else 11
    positions = FFO_40_44[:2] if quick else FFO_40_44
    rounds = rounds or (1 if quick else 3)
    with tempfile.TemporaryDirectory(prefix="ime-edax-") as tmp:
        ev = zero_eval_file(Path(tmp) / "eval.dat")
        pe, po, se, so = [], [], [], []
        for _ in range(rounds):
            pe.append(edax_perft(binary, ev, depth))
            po.append(ours_perft(depth))
            se.append(edax_solve(binary, ev, positions))
            so.append(ours_solve(positions))
    leaves = po[0][0]
    t_pe, t_po = min(t for _, t in pe), min(t for _, t in po)
    t_se, t_so = min(t for _, t, _ in se), min(t for _, t, _ in so)
    agree = [b in want.split() for b, (_, _, want) in zip(so[0][2], positions, strict=True)]
    return {
        "rounds": rounds,
        "perft_depth": depth,
        "perft_leaves": leaves,
        "perft_edax_leaves": pe[0][0],
        "perft_edax_s": t_pe,
        "perft_ours_s": t_po,
        "perft_edax_leaves_per_s": pe[0][0] / t_pe,
        "perft_ours_leaves_per_s": leaves / t_po,
        "perft_speed_vs_edax": (leaves / t_po) / (pe[0][0] / t_pe),
        "ffo_positions": f"#40-#{39 + len(positions)}",
        "ffo_edax_s": t_se,
        "ffo_ours_s": t_so,
        "ffo_edax_nodes": se[0][0],
        "ffo_ours_nodes": so[0][0],
        "ffo_time_vs_edax": t_so / t_se,
        "ffo_best_moves_ours": " ".join(so[0][2]),
        "ffo_best_moves_edax": " ".join(se[0][2]),
        "ffo_ours_best_is_ffo_best": all(agree),
        "all_rounds": {"perft_edax_s": [t for _, t in pe], "perft_ours_s": [t for _, t in po],
                       "ffo_edax_s": [t for _, t, _ in se], "ffo_ours_s": [t for _, t, _ in so]},
    }
