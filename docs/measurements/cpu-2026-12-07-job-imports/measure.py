"""CPU seconds a process pays for the imports that session 53 took out of the jobs' path.

Each case runs in a fresh interpreter, REPEATS times; the figure is the median of the child's
user + system CPU time (``os.wait4``), which a loaded box inflates far less than wall time.

    python docs/measurements/cpu-2026-12-07-job-imports/measure.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

REPEATS = 5

CASES = {
    "import torch, ime.train.loop (the baseline of a train job)":
        "import torch, ime.train.loop",
    "  + torch.use_deterministic_algorithms(True): the public call, imports inductor's config":
        "import torch, ime.train.loop; torch.use_deterministic_algorithms(True)",
    "  + ime.train.loop.set_determinism (session 53: the kernels' switch only)":
        "import torch; from ime.train.loop import set_determinism; "
        "set_determinism(1, torch.device('cpu'))",
    "import ime.imitators.mmto (session 53: no scipy.optimize until a fit)":
        "import ime.imitators.mmto",
    "import ime.imitators.mmto + scipy.optimize (what it imported before)":
        "import ime.imitators.mmto, scipy.optimize",
    "import ime.workflow.index + ime.imitators.kinds (session 53: planning's is_family)":
        "import ime.workflow.index, ime.imitators.kinds",
    "import ime.workflow.index + ime.imitators.family (what Table 4.4's inputs imported)":
        "import ime.workflow.index, ime.imitators.family",
}


def cpu_seconds(code: str) -> float:
    proc = subprocess.Popen([sys.executable, "-c", code])
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, code
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    print(f"median CPU-s of {REPEATS} fresh interpreters ({sys.executable})")
    for name, code in CASES.items():
        runs = [cpu_seconds(code) for _ in range(REPEATS)]
        print(f"{statistics.median(runs):6.2f}  {name}")


if __name__ == "__main__":
    main()
