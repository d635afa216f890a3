#!/usr/bin/env bash
# Gongzhu's DMC on a lent GPU machine, in one call of the device tool, with what a slowdown's
# cause needs brought back (issue 33; docs/games/gongzhu.md, "That run stalled").
#
# Two H200 runs of the seed preset slowed about 100-fold after 1.0-1.25M samples (70-85 s) with
# 16 actors, and a CPU proxy here did not. This script runs the same training under a deadline
# and samples the machine beside it, so that the next run tells the machine (steal, a CPU quota,
# a slower core: the sampler's steal_pct and probe_ms move with the actors' deals/s) from
# self-play itself (they do not):
#   1. prints the machine's facts (CPU model, cgroup CPU quota, GPU; scripts/device_sampler.sh);
#   2. samples CPU busy and steal, load, a one-core speed probe and the GPU every 2 s into
#      $OUT/sampler.csv;
#   3. runs `python -m ime.games.gongzhu.agents.dmc train --preset <preset> --device <device>`
#      under `timeout -s INT <deadline>` (the learner's progress reports say deals/s every 30 s
#      without a curve row; at the interrupt every process prints where it was), output in
#      $OUT/dmc.log, the curve in $OUT/dmc_curve.csv;
#   4. exits 0 (the trainer's rc is the log's last line), so the device tool does not read a
#      deadline's 124 as its own time-out.
# Needs only torch and IME's src/ (no Snakemake, Hydra or pydantic).
#
# Usage (in the repository root; the device tool's `run`):
#   bash scripts/device_dmc.sh [--deadline 150] [--preset seed] [--device cuda] [--actors N]
#                              [--frames 50000000] [-- more dmc train flags]
# Rehearsal on the development box (CPU, small nets):
#   OUT=/tmp/dmcout bash scripts/device_dmc.sh --deadline 20 --device cpu --actors 1 -- \
#       --width 32 --depth 2 --lstm-hidden 16 --show-width 16 --show-depth 1 --batch 4 \
#       --show-batch 4 --num-buffers 8 --log-every 5000
# Environment: OUT (default /tmp/ime_device_out), PYTHON (python3), DMC_OUT (/tmp/ime_dmc: the
# run's directory; removed first, so every call trains from scratch).
set -uo pipefail

DEADLINE=150
PRESET=seed
DEVICE=cuda
ACTORS=""
FRAMES=50000000
while [ $# -gt 0 ]; do
    case "$1" in
        --deadline) DEADLINE=$2; shift 2 ;;
        --preset) PRESET=$2; shift 2 ;;
        --device) DEVICE=$2; shift 2 ;;
        --actors) ACTORS=$2; shift 2 ;;
        --frames) FRAMES=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "device_dmc.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$DEADLINE$FRAMES$ACTORS" in *[!0-9]*) echo "device_dmc.sh: --deadline, --frames and --actors take whole numbers" >&2; exit 2 ;; esac
[ -d src/ime ] || { echo "device_dmc.sh: run it in the repository root" >&2; exit 2; }

OUT=${OUT:-/tmp/ime_device_out}
PYTHON=${PYTHON:-python3}
DMC_OUT=${DMC_OUT:-/tmp/ime_dmc}
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1

# shellcheck source=scripts/device_sampler.sh
source scripts/device_sampler.sh
T0=$(now)
echo "== device_dmc.sh $(date -u +%FT%TZ): preset=$PRESET device=$DEVICE actors=${ACTORS:-preset} frames=$FRAMES deadline=${DEADLINE}s"
machine_facts
"$PYTHON" -c 'import platform, torch; print("python", platform.python_version(), "torch", torch.__version__, "cuda", torch.cuda.is_available())'

sample "$T0" > "$OUT/sampler.csv" &
SAMPLER_PID=$!
rm -rf "$DMC_OUT"
# --save-every/--eval-every past the budget: no checkpoint or evaluation pause inside the window
# shellcheck disable=SC2086  # ACTORS: empty or one flag and its value
timeout -s INT -k 20 "$DEADLINE" "$PYTHON" -m ime.games.gongzhu.agents.dmc train \
    --preset "$PRESET" --device "$DEVICE" ${ACTORS:+--actors $ACTORS} --out "$DMC_OUT" \
    --frames "$FRAMES" --log-every 50000 --save-every 1000000000 --eval-every 1000000000 "$@" \
    > "$OUT/dmc.log" 2>&1
RC=$?
kill "$SAMPLER_PID" 2> /dev/null; wait "$SAMPLER_PID" 2> /dev/null
echo "rc=$RC" >> "$OUT/dmc.log"
cp "$DMC_OUT/curve.csv" "$OUT/dmc_curve.csv" 2> /dev/null || echo "== no curve.csv"
echo "== $(date -u +%T) dmc rc=$RC after $(since "$T0")s"
grep -E "^(frames=|DMC|progress|stall)" "$OUT/dmc.log" | tail -8 | cut -c1-220
echo "== sampler (every 10th row):"; awk -F, 'NR == 1 || NR % 10 == 2' "$OUT/sampler.csv"
exit 0
