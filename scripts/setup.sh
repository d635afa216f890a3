#!/usr/bin/env bash
# Install IME and everything it needs into the current Python (3.10+).
# torch is pinned to the CPU build 2.13.0 here: an open range would pull several GB of CUDA
# wheels on a CPU-only machine. pyproject.toml keeps `torch>=2.3` open for GPU users elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
"$PY" -m pip install --disable-pip-version-check -q "torch==2.13.0"
"$PY" -m pip install --disable-pip-version-check -q -e ".[dev]"
"$PY" -c "import ime, torch, numba, snakemake, hydra; print('ime', ime.__version__, '| torch', torch.__version__, '| numba', numba.__version__)"
