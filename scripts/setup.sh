#!/usr/bin/env bash
# Install IME (editable, with the `dev` extra) and everything it needs into .venv, a virtual
# environment in the repository, made once from a Python 3.10+ and then reused.
#
#   bash scripts/setup.sh           install, then print what was installed (torch's build, size)
#   bash scripts/setup.sh --check   say what it would do and why; install nothing
#
# Always .venv, whatever Python runs it: a system Python that is externally managed (PEP 668:
# Debian 12+, Ubuntu 23.04+, Homebrew), a pyenv Python, an activated venv or conda env. So the
# README's two commands are the same everywhere, and activate it themselves:
#   bash scripts/setup.sh && source .venv/bin/activate && snakemake -j8
#   bash scripts/setup.sh && source .venv/bin/activate && python3 -m pytest -q
# (fish: source .venv/bin/activate.fish). Every later `snakemake`, `ime` or `pytest` in that
# shell uses .venv; in a new shell, `source .venv/bin/activate` again.
#   PYTHON=<python3.10+>      the Python that makes .venv (default: python3 on PATH)
#   IME_VENV_SYSTEM_SITE=1    make .venv with --system-site-packages, so that what that Python
#                             already has (a conda env's CUDA torch, say) is seen and kept
#
# torch: the CPU build of 2.13.0 (`torch==2.13.0+cpu` on Linux and Windows, where PyPI's wheel
# is the multi-GB CUDA build; `torch==2.13.0` on macOS, whose PyPI wheel has no CUDA), looked up
# in pip's own sources plus the PyTorch CPU index when that index can be reached.
# pyproject.toml keeps `torch>=2.3` open; a CUDA or ROCm torch already in .venv is kept.
#   IME_TORCH_INDEX=<url>     extra index for torch (default https://download.pytorch.org/whl/cpu);
#                             another one installs torch==2.13.0 from it, e.g. .../whl/cu128 for
#                             CUDA 12.8; empty: pip's configured sources only (PyPI: on Linux,
#                             the CUDA build, several GB)
#   IME_TORCH=<requirement>   another torch requirement altogether
set -euo pipefail

CHECK=0
case ${1:-} in
  "") ;;
  --check) CHECK=1 ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown argument '$1' (usage: bash scripts/setup.sh [--check])" >&2; exit 2 ;;
esac

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

PY=${PYTHON:-python3}
if [[ $PY == */* ]]; then  # a path: make it absolute before the cd (no symlink resolution: a
  PY="$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")"  # venv's python is a symlink)
fi
command -v "$PY" >/dev/null 2>&1 || die "no Python '$PY' (set PYTHON=/path/to/python3.10+)"
cd "$(dirname "$0")/.."

"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
  die "$PY is Python $("$PY" -c 'import platform; print(platform.python_version())'); IME needs 3.10+"

# PEP 668: said, not obeyed or worked around: .venv is made whatever the Python
MARKER=$("$PY" -c '
import os, sys, sysconfig
m = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
print(m if os.path.isfile(m) and sys.prefix == sys.base_prefix else "")')
say "python: $PY ($("$PY" -c 'import platform, sys; print(platform.python_version(), "at", sys.prefix)'))"

VENV=.venv
if [[ -n $MARKER ]]; then
  say "$PY is externally managed (PEP 668: $MARKER); IME goes into $PWD/$VENV in any case"
fi
if [[ -n ${VIRTUAL_ENV:-} && $VIRTUAL_ENV != "$PWD/$VENV" ]]; then
  say "an activated environment ($VIRTUAL_ENV) is left as it is; IME goes into $PWD/$VENV"
fi
if [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  say "installing into $PWD/$VENV (exists: reusing it)"
elif [[ -e $VENV && ! -f $VENV/pyvenv.cfg ]]; then
  die "$PWD/$VENV exists and is not a virtual environment: move it away, then rerun"
elif ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
  die "$PY cannot make a virtual environment (no venv/ensurepip module): install python3-venv (Debian/Ubuntu: apt-get install python3-venv), or set PYTHON to another Python 3.10+"
elif ((CHECK)); then
  say "would run: $PY -m venv $VENV"
else
  VENV_ARGS=(--clear)
  [[ ${IME_VENV_SYSTEM_SITE:-0} == 1 ]] && VENV_ARGS+=(--system-site-packages)
  say "making $PWD/$VENV: $PY -m venv ${VENV_ARGS[*]} $VENV"
  "$PY" -m venv "${VENV_ARGS[@]}" "$VENV" || die "'$PY -m venv $VENV' failed (Debian/Ubuntu: apt-get install python3-venv)"
fi
PY=$PWD/$VENV/bin/python  # (under --check it may not exist yet)

# torch: which requirement, from where
TORCH_INDEX=${IME_TORCH_INDEX-https://download.pytorch.org/whl/cpu}
if [[ -n ${IME_TORCH:-} ]]; then
  TORCH=$IME_TORCH
elif [[ $(uname -s) != Darwin && $TORCH_INDEX == */cpu ]]; then
  TORCH="torch==2.13.0+cpu"
else  # macOS (no CUDA wheels), or another index: whatever build pip's sources give for 2.13.0
  TORCH="torch==2.13.0"
fi
KEEP=""
if [[ -z ${IME_TORCH:-} && -x $PY ]]; then  # a CUDA/ROCm torch that is already there stays
  KEEP=$("$PY" -c '
import importlib.util as u
if u.find_spec("torch"):
    import torch
    gpu = torch.version.cuda or getattr(torch.version, "hip", None)
    print(torch.__version__ if gpu else "")' 2>/dev/null || true)
fi

TORCH_ARGS=()
if [[ -n $KEEP ]]; then
  say "torch: keeping the installed GPU build $KEEP (IME_TORCH=$TORCH replaces it)"
elif [[ -z $TORCH_INDEX ]]; then
  say "torch: $TORCH from pip's configured sources (IME_TORCH_INDEX is empty)"
elif ((CHECK)); then
  say "torch: $TORCH, from pip's configured sources plus $TORCH_INDEX (when reachable)"
elif "$PY" -c '
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/torch/", timeout=5).close()' \
    "$TORCH_INDEX" 2>/dev/null; then
  TORCH_ARGS=(--extra-index-url "$TORCH_INDEX")
  say "torch: $TORCH, from pip's configured sources plus $TORCH_INDEX"
else
  say "torch: $TORCH from pip's configured sources ($TORCH_INDEX cannot be reached from here)"
fi

if ((CHECK)); then
  say "would run: $PY -m pip install '$TORCH' && $PY -m pip install -e '.[dev]'"
  say "then: activate with: source $VENV/bin/activate"
  say "--check: nothing was installed"
  exit 0
fi

# Not --no-compile: where PYTHONDONTWRITEBYTECODE is set (this box, many Docker images) Python
# would then compile every imported module again in every process: the tiny run took 1,024 s
# instead of 544 s inside the test suite (session 55)
PIP=("$PY" -m pip install --disable-pip-version-check -q)
if [[ -z $KEEP ]]; then
  "${PIP[@]}" -U "${TORCH_ARGS[@]}" "$TORCH" || die "could not install $TORCH. Where the PyTorch
  index cannot be reached, give pip a source that has it (a wheel: pip install <file>.whl, then
  rerun), or set IME_TORCH=torch==2.13.0 IME_TORCH_INDEX= for PyPI's default build (on Linux:
  CUDA, several GB)"
fi
"${PIP[@]}" -e ".[dev]"
# IME's own bytecode, written now: an editable install leaves src/ uncompiled, and where
# PYTHONDONTWRITEBYTECODE is set (this box, many Docker images) Python would otherwise compile
# every IME module it imports in every process, every Snakemake job included. compileall
# writes it whatever that variable says; a module edited later is compiled in memory as before.
"$PY" -m compileall -q src >/dev/null || say "compileall src failed: Python compiles on import"

"$PY" - <<'EOF'
import os, sys, sysconfig

import hydra, ime, numba, snakemake, torch  # noqa: F401  (everything imports)

def size(path):
    total = 0
    for root, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files
                     if not os.path.islink(os.path.join(root, f)))
    return total

site = sysconfig.get_path("purelib")
dirs = [os.path.dirname(torch.__file__)]
dirs += [os.path.join(site, d) for d in ("nvidia", "triton") if os.path.isdir(os.path.join(site, d))]
if torch.version.cuda:
    build = f"CUDA {torch.version.cuda} build"
elif getattr(torch.version, "hip", None):
    build = f"ROCm {torch.version.hip} build"
else:
    build = "CPU build"
mb = sum(size(d) for d in dirs) / 2**20
where = ", ".join(os.path.relpath(d, site) + "/" for d in dirs)
print(f"[setup] installed into {sys.prefix}: ime {ime.__version__} | numba {numba.__version__} | "
      f"torch {torch.__version__}, {build}, {mb:,.0f} MB on disk ({where})")
EOF
say "activate with: source $VENV/bin/activate   (then: snakemake -j8, python3 -m pytest -q)"
