"""Peak resident memory of reading a dataset into a train job's tensors.

    PYTHONPATH=<checkout>/src python load_memory.py DATASET

Loads DATASET with ``ime.train.loop.load_dataset`` (CPU) and prints the seconds and the
process's peak RSS (``getrusage``). Run it with each checkout's ``src`` to compare readers:
BENCHMARKS.md, "Memory of a thesis-scale train job" (ddz1's thesis dataset: 4,630 MB at
2af4e90, 2,694 MB at 49a2fde, which decodes 4,096 rows at a time).
"""
import resource
import sys
import time

import torch

from ime.train.loop import load_dataset

t = time.time()
data, arr = load_dataset(sys.argv[1], torch.device("cpu"))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(f"load_dataset {time.time() - t:.1f}s peak {peak} MB rows {len(arr)}")
