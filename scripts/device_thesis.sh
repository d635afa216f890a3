#!/usr/bin/env bash
# The whole thesis-scale Reversi run through Snakemake on a lent 16-core GPU machine, in one call
# of the device tool, with the measurements brought back (issue 31, Deliver 5; BENCHMARKS.md).
#
# The machine has Python 3.12 with torch, numba, numpy, pandas, pyarrow, ... but no Snakemake,
# Hydra, OmegaConf or pydantic, cannot reach a package index, and returns at most 8 files from
# $OUT. So this script:
#   1. installs the wheels carried in .whl/ (made on the development box: README's recipe) into
#      $SITE, unless Snakemake is importable already (a rehearsal on the development box), and runs
#      IME from src/ (PYTHONPATH; no installation, no `ime` console script needed: no rule calls it);
#   2. prints the machine's facts;
#   3. warms numba's cache once (the Reversi engine, searches and solver, through `ime bench`),
#      so that the first 16 jobs do not all compile the same kernels at once;
#   4. runs `snakemake -j<cores> --config overrides='[scale=<scale>,...]'` (rule all: the default
#      game's results) under `timeout -s INT <deadline>`, with --keep-going and --rerun-incomplete;
#      with a GPU the overrides add train.device=cuda (an error, not a silent CPU run, if CUDA
#      goes missing) and train.stack_bots=true (one GPU job per net trains every target's folds,
#      3 jobs holding 3 cores instead of 15; docs/pipeline.md, "Cores, workers and priorities");
#      both are runtime keys: the results directory is the same as without them;
#   5. samples GPU use, GPU memory, CPU busy and steal, the load average and a one-core speed probe
#      every 2 s into $OUT/gpu.csv (scripts/device_sampler.sh);
#   6. keeps a record of its calls on the machine ($STATE/calls.tsv): a whole run too long for
#      one call of the device tool is finished by calling the script again at once on the same
#      warm machine (the repository's ignored outputs and /tmp stay; Snakemake resumes with
#      --rerun-incomplete, a call cut at its deadline loses only the jobs it cut), the warm-up
#      is skipped after the first call, and the summary adds the Snakemake seconds of every
#      call so far (snakemake_s_all_calls): the whole run's wall, less the restarts;
#   7. always (after the deadline too) writes $OUT/summary.json and summary.md
#      (scripts/bench_summary.py: per rule jobs, wall and CPU seconds, end times, steps done) and
#      $OUT/bench.tgz (benchmarks/, logs/, .snakemake/log/, results' csv/json/md, data's json).
#      $OUT/run.log is this script's whole output.
#
# Usage (in the repository root; the device tool's `run` with carry [".whl"]):
#   bash scripts/device_thesis.sh [--scale thesis] [--deadline 430] [--cores N] [--target T]
#                                 [--no-stack] [--extra 'key=value,...']
# Rehearsal on the development box (no GPU, Snakemake installed, the box's python3):
#   OUT=/tmp/devout bash scripts/device_thesis.sh --scale tiny --deadline 120
# Environment: OUT (default /tmp/ime_device_out), PYTHON (python3), SITE (/tmp/site),
# IME_NUMBA_CACHE (/tmp/ime_numba: a cold cache, so the warm-up's time is the compile time),
# IME_COMMIT (the commit to record; default `git rev-parse HEAD`, which the device's copy lacks),
# IME_DEVICE_STATE (/tmp/ime_device_state: the record of earlier calls on this machine; delete it
# to measure a run from scratch).
set -uo pipefail

SCALE=thesis
DEADLINE=430
CORES=$(nproc)
TARGET=""
STACK=1
EXTRA=""
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE=$2; shift 2 ;;
        --deadline) DEADLINE=$2; shift 2 ;;
        --cores) CORES=$2; shift 2 ;;
        --target) TARGET=$2; shift 2 ;;
        --no-stack) STACK=0; shift ;;
        --extra) EXTRA=$2; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "device_thesis.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$DEADLINE$CORES" in *[!0-9]*) echo "device_thesis.sh: --deadline and --cores take whole numbers" >&2; exit 2 ;; esac
[ -f Snakefile ] && [ -d src/ime ] || { echo "device_thesis.sh: run it in the repository root" >&2; exit 2; }

OUT=${OUT:-/tmp/ime_device_out}
PYTHON=${PYTHON:-python3}
SITE=${SITE:-/tmp/site}
export IME_NUMBA_CACHE=${IME_NUMBA_CACHE:-/tmp/ime_numba}
export IME_CONFIG_DIR=$PWD/config PYTHONUNBUFFERED=1 PIP_ROOT_USER_ACTION=ignore
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1

# shellcheck source=scripts/device_sampler.sh
source scripts/device_sampler.sh  # now, since, machine_facts, sample
T0=$(now)
# the device's copy of the tree has no .git: the caller may name the commit (IME_COMMIT=<sha>)
COMMIT=${IME_COMMIT:-$(git rev-parse HEAD 2> /dev/null || echo unknown)}
echo "== device_thesis.sh $(date -u +%FT%TZ): scale=$SCALE deadline=${DEADLINE}s cores=$CORES target=${TARGET:-all} commit=$COMMIT"

# -- 6 (the record of earlier calls on this machine) ----------------------------------------------
STATE=${IME_DEVICE_STATE:-/tmp/ime_device_state}
mkdir -p "$STATE"
CALL=$(( $(cat "$STATE/calls.tsv" 2> /dev/null | wc -l) + 1 ))
PREV_S=$(awk -F'\t' '{ s += $1 } END { printf "%.1f", s + 0 }' "$STATE/calls.tsv" 2> /dev/null || echo 0)
[ "$CALL" -gt 1 ] && echo "== call $CALL on this machine: $PREV_S s of Snakemake in the earlier calls ($STATE/calls.tsv)"

# -- 3 (started first: it needs only numba and IME, so it overlaps the install) -------------------
WARM_LOG=$(mktemp)
if [ -f "$STATE/warm" ]; then
    echo "rc=0 seconds=0 (skipped: numba's cache was warmed by an earlier call)" > "$WARM_LOG"
    WARM_PID=""
else
    (
        t=$(now)
        PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" -m ime bench reversi --quick \
            --only bots --only judge --only solver > "$WARM_LOG" 2>&1
        rc=$?
        echo "rc=$rc seconds=$(since "$t")" >> "$WARM_LOG"
        [ "$rc" = 0 ] && touch "$STATE/warm"
    ) &
    WARM_PID=$!
fi

# -- 1 ---------------------------------------------------------------------------------------------
T_INSTALL=$(now)
if "$PYTHON" -c 'import snakemake, hydra, omegaconf, pydantic' 2>/dev/null; then
    echo "== snakemake, hydra, omegaconf, pydantic importable: no wheels installed"
    export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
else
    ls .whl/*.whl > /dev/null 2>&1 || { echo "device_thesis.sh: no .whl/*.whl (carry .whl)"; exit 3; }
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target "$SITE" .whl/*.whl || { echo "device_thesis.sh: wheel install failed"; exit 3; }
    # packaging and typing_extensions are on the machine; carried only in case its versions are
    # outside what Snakemake (packaging >=24,<26) and pydantic (typing_extensions >=4.14.1) need
    NEED=$("$PYTHON" - <<'EOF'
import importlib.metadata as md
def v(name):
    try:
        return tuple(int(x) for x in md.version(name).split(".")[:3] if x.isdigit())
    except md.PackageNotFoundError:
        return None
p, t = v("packaging"), v("typing_extensions")
print(" ".join(n for n, bad in (("packaging", p is None or not (24,) <= p < (26,)),
                                ("typing_extensions", t is None or t < (4, 14, 1))) if bad))
EOF
)
    for n in $NEED; do
        echo "== the machine's $n is outside the needed range: installing the carried one"
        "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target "$SITE" .whl/ifneeded/"$n"-*.whl || exit 3
    done
    export PYTHONPATH="$SITE:$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
fi
INSTALL_S=$(since "$T_INSTALL")
SMK_V=$("$PYTHON" -m snakemake --version) || { echo "device_thesis.sh: snakemake does not run"; exit 3; }
echo "== install ${INSTALL_S}s; snakemake $SMK_V"

# -- 2 ---------------------------------------------------------------------------------------------
echo "== facts"
machine_facts
FACTS=$("$PYTHON" -c '
import platform, numba, torch
print(platform.python_version(), torch.__version__, numba.__version__, torch.cuda.is_available(),
      (torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none").replace(" ", "_"))')
read -r PY_V TORCH_V NUMBA_V CUDA GPU_NAME <<< "$FACTS"
echo "python $PY_V, torch $TORCH_V, numba $NUMBA_V, torch.cuda.is_available(): $CUDA ($GPU_NAME)"

OV="scale=$SCALE"
if [ "$CUDA" = True ]; then
    OV="$OV,train.device=cuda"
    [ "$STACK" = 1 ] && OV="$OV,train.stack_bots=true"
else
    echo "== NO GPU: training runs on the CPU (train.device=auto)"
fi
[ -n "$EXTRA" ] && OV="$OV,$EXTRA"

# -- 3 (wait) --------------------------------------------------------------------------------------
[ -n "$WARM_PID" ] && wait "$WARM_PID"
echo "== numba warm-up (ime bench reversi --quick --only bots --only judge --only solver, cache $IME_NUMBA_CACHE)"
cat "$WARM_LOG"
WARM_S=$(sed -n 's/^rc=[0-9]* seconds=\([0-9.]*\).*/\1/p' "$WARM_LOG")
WARM_RC=$(sed -n 's/^rc=\([0-9]*\) .*/\1/p' "$WARM_LOG")
rm -f "$WARM_LOG"

# -- 5 ---------------------------------------------------------------------------------------------
T_SM=$(now)
sample "$T_SM" > "$OUT/gpu.csv" &
SAMPLER_PID=$!

# -- 4 ---------------------------------------------------------------------------------------------
echo "== $(date -u +%T) snakemake -j$CORES ${TARGET:-(rule all)} --config overrides='[$OV]' (deadline ${DEADLINE}s)"
# timeout signals its whole process group (Snakemake and every job it spawned); SIGINT lets
# Snakemake mark the cut-off jobs incomplete and write its log's last lines
# shellcheck disable=SC2086  # TARGET: empty or one target
timeout -s INT -k 20 "$DEADLINE" "$PYTHON" -m snakemake -j "$CORES" --keep-going \
    --rerun-incomplete --config "overrides=[$OV]" $TARGET
SM_RC=$?
SM_S=$(since "$T_SM")
kill "$SAMPLER_PID" 2> /dev/null; wait "$SAMPLER_PID" 2> /dev/null
TIMED_OUT=false; case $SM_RC in 124|137) TIMED_OUT=true ;; esac
echo "== $(date -u +%T) snakemake rc=$SM_RC after ${SM_S}s (timed out: $TIMED_OUT)"
printf '%s\t%s\n' "$SM_S" "$SM_RC" >> "$STATE/calls.tsv"
ALL_S=$(awk -v a="$PREV_S" -v b="$SM_S" 'BEGIN { printf "%.1f", a + b }')
echo "== Snakemake over the $CALL call(s) on this machine: ${ALL_S}s"
echo "== processes still using CPU:"; ps -eo pid,pgid,etimes,pcpu,args --sort=-pcpu | awk 'NR == 1 || $4 > 20' | head -20 | cut -c1-160

# -- 6 ---------------------------------------------------------------------------------------------
"$PYTHON" scripts/bench_summary.py . --start "$T_SM" --json "$OUT/summary.json" \
    --markdown "$OUT/summary.md" --meta "scale=\"$SCALE\"" --meta "overrides=\"$OV\"" \
    --meta "target=\"${TARGET:-all}\"" --meta "cores=$CORES" --meta "deadline_s=$DEADLINE" \
    --meta "install_s=$INSTALL_S" --meta "warmup_s=${WARM_S:-null}" \
    --meta "warmup_rc=${WARM_RC:-null}" --meta "snakemake_s=$SM_S" --meta "snakemake_rc=$SM_RC" \
    --meta "timed_out=$TIMED_OUT" --meta "gpu=\"$GPU_NAME\"" --meta "cuda=\"$CUDA\"" \
    --meta "python=\"$PY_V\"" --meta "torch=\"$TORCH_V\"" --meta "numba=\"$NUMBA_V\"" \
    --meta "nproc=$(nproc)" --meta "commit=\"$COMMIT\"" --meta "call=$CALL" \
    --meta "snakemake_s_all_calls=$ALL_S" \
    --meta "before_pack_s=$(since "$T0")" || echo "device_thesis.sh: bench_summary.py failed"

LIST=$(mktemp)
pack() {  # $1: 1 = everything, 0 = without logs/ and data's json (when the first is too big)
    : > "$LIST"
    for p in benchmarks .snakemake/log; do [ -e "$p" ] && echo "$p" >> "$LIST"; done
    [ -d results ] && find results -type f \( -name '*.csv' -o -name '*.json' -o -name '*.md' \) >> "$LIST"
    if [ "$1" = 1 ]; then
        [ -d logs ] && echo logs >> "$LIST"
        [ -d data ] && find data -type f -name '*.json' -size -2M >> "$LIST"
    else
        [ -d data ] && find data -path '*/keys/*' -name '*.json' >> "$LIST"
    fi
    tar czf "$OUT/bench.tgz" -T "$LIST"
}
pack 1
if [ "$(stat -c %s "$OUT/bench.tgz")" -gt 15000000 ]; then
    echo "== bench.tgz over 15 MB: packed again without logs/ and data's json (keys' stats kept)"
    pack 0
fi
rm -f "$LIST"
echo "== $(date -u +%T) done in $(since "$T0")s; \$OUT:"; ls -l "$OUT"
cat "$OUT/summary.md" 2> /dev/null
# Snakemake's rc is in summary.json; exiting 0 keeps the device tool from reading a deadline's 124
# as its own time-out. Closing stdout lets tee finish run.log before the tool collects $OUT.
exec 1>&- 2>&-
sleep 1
exit 0
