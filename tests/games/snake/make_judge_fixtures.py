"""Regenerate ``data/judge_fixtures.json``: what Botzone's own Snake judge outputs.

Not a test: it runs the real judge program, ``botzone/online/game/Snake.cpp`` of
github.com/ailab-pku/botzone-local, compiled with jsoncpp::

    git show HEAD:botzone/online/game/Snake.cpp | sed 's|"jsoncpp/json.h"|<json/json.h>|' > S.cpp
    g++ -O2 -I/usr/include/jsoncpp -o snake_judge S.cpp -ljsoncpp      # libjsoncpp-dev
    python tests/games/snake/make_judge_fixtures.py --judge ./snake_judge

and stores, for the tests to compare against (``test_snake_judge_fixtures.py``):

* ``boards``: the judge's first output for ``initdata`` with seeds (and size options, even an
  odd x odd board with a centre cell, out-of-range sizes, a string initdata);
* ``matches``: whole matches, the judge called once per turn with the log so far (as Botzone
  calls it), with responses from mixed policies: mostly valid moves, chasing the other head
  (head-on collisions), random directions, and in 40% of the matches one planned faulty
  answer by one or both players (out of range, a float, a string, a bool, a missing key, a
  TLE or RE verdict without a response). Each turn keeps the judge's ``command`` and
  ``content`` (and the whole output of the last turn, ``display`` included).

The moves are chosen with the plain-Python reference (``ime.games.snake.reference``) only to
make the games long and varied; what is stored is the judge's output.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path

from ime.games.snake.reference import DX, DY, RefGame

OUT = Path(__file__).parent / "data" / "judge_fixtures.json"


def run_judge(judge: str, log: list, initdata) -> dict:
    inp = json.dumps({"log": log, "initdata": initdata})
    out = subprocess.run([judge], input=inp, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def board_cases() -> list:
    cases: list = [{"seed": s} for s in range(120)]
    cases += [{"seed": s} for s in (-1, -12345, 2**31 - 1, -(2**31), 987654321)]
    cases += [{"seed": 7, "width": w, "height": h}
              for w, h in ((10, 11), (11, 10), (12, 15), (10, 16), (11, 11), (11, 13),
                           (9, 11), (13, 17), (10, 9))]
    cases += [{"seed": 3, "width": "abc", "height": 12.0}, json.dumps({"seed": 5})]
    return cases


FAULTS = [{"direction": 4}, {"direction": -1}, {"direction": 2.0}, "{\"direction\": 1}",
          {}, {"direction": True}, {"direction": 2.5}, [1], None]


def choose(g: RefGame, pid: int, style: str, rng: random.Random, fault: tuple | None) -> dict:
    """One player entry (``{"verdict", "response"}``) of a turn; ``fault``: ``(turn, player,
    entry)`` of the match's planned faulty answer."""
    if fault is not None and fault[0] == g.num and fault[1] in (pid, 2):
        return fault[2]
    valid = g.valid_now(pid)
    if not valid or rng.random() < 0.01:
        return {"verdict": "OK", "response": {"direction": rng.randrange(4)}}
    if style == "chase":
        ox, oy = g.snakes[1 - pid][0]
        x, y = g.snakes[pid][0]
        d = min(valid, key=lambda k: (abs(x + DX[k] - ox) + abs(y + DY[k] - oy), rng.random()))
    elif style == "area" or (style == "mixed" and rng.random() < 0.7):
        d = max(valid, key=lambda k: (_area(g, pid, k), rng.random()))
    else:
        d = rng.choice(valid)
    return {"verdict": "OK", "response": {"direction": d}}


def _area(g: RefGame, pid: int, k: int) -> int:
    h = g.copy()
    if h.num > 9 and (h.num - 9) % 3:
        for s in h.snakes:
            s.pop()
    x, y = h.snakes[pid][0]
    h.snakes[pid].insert(0, (x + DX[k], y + DY[k]))
    seen, todo = {h.snakes[pid][0]}, [h.snakes[pid][0]]
    while todo:
        cx, cy = todo.pop()
        for j in range(4):
            c = (cx + DX[j], cy + DY[j])
            if (0 < c[0] <= h.height and 0 < c[1] <= h.width and c not in seen
                    and c not in h.obstacles and not h.in_body(c)):
                seen.add(c)
                todo.append(c)
    return len(seen)


def _direction(item: dict):
    resp = item.get("response")
    d = resp.get("direction") if isinstance(resp, dict) else None
    return d if isinstance(d, int) and not isinstance(d, bool) else (
        int(d) if isinstance(d, float) and d.is_integer() else None)


def play(judge: str, seed: int, style: str, rng: random.Random) -> dict:
    fault = None
    if rng.random() < 0.4:
        bad = rng.choice([{"verdict": "TLE"}, {"verdict": "RE"}]
                         + [{"verdict": "OK", "response": r} for r in FAULTS])
        fault = (rng.randrange(40), rng.choice([0, 1, 1, 0, 2]), bad)
    first = run_judge(judge, [], {"seed": seed})
    init = first["initdata"]
    g = RefGame(init["height"], init["width"], {(o["x"], o["y"]) for o in init["obstacle"]})
    log: list = [{"output": first}]
    entries, outputs = [], []
    while True:
        entry = {str(p): choose(g, p, style, rng, fault) for p in (0, 1)}
        log.append(entry)
        out = run_judge(judge, log, init)
        log.append({"output": out})
        entries.append(entry)
        outputs.append(out if out["command"] == "finish" else
                       {"command": out["command"], "content": out["content"]})
        if out["command"] == "finish":
            break
        g.play(*(_direction(entry[str(p)]) for p in (0, 1)))
    return {"seed": seed, "style": style, "initdata": init, "first": first["content"],
            "entries": entries, "outputs": outputs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", required=True, help="the compiled Snake.cpp")
    ap.add_argument("--matches", type=int, default=60)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    rng = random.Random(20240615)
    boards = []
    for c in board_cases():
        out = run_judge(args.judge, [], c)
        boards.append({"initdata": c, "output": {k: out[k] for k in ("command", "content",
                                                                     "initdata")}})
    styles = ["area", "chase", "random", "mixed"]
    matches = [play(args.judge, 1000 + i, styles[i % 4], rng) for i in range(args.matches)]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"source": "ailab-pku/botzone-local botzone/online/game/Snake.cpp",
                   "boards": boards, "matches": matches}, f, separators=(",", ":"))
        f.write("\n")
    turns = sum(len(m["entries"]) for m in matches)
    print(f"wrote {len(boards)} boards and {len(matches)} matches ({turns} turns) to {args.out}")


if __name__ == "__main__":
    main()
