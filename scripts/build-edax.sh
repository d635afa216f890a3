#!/usr/bin/env bash
# Build Edax 4.6 (https://github.com/abulmo/edax-reversi), the yardstick of `ime bench reversi
# --only edax`: one binary, -march=x86-64-v3 (AVX2, BMI2, POPCNT), gcc. The bench writes its own
# all-zero evaluation file, so no weights are downloaded.
#
#   bash scripts/build-edax.sh [DIR]      # default DIR: ./.edax
#   export IME_EDAX=$PWD/.edax/bin/lEdax-x86-64-v3
#   ime bench reversi --only edax
#
# EDAX_SRC=/path/to/a/checkout uses that source instead of cloning; EDAX_ARCH=native (or any
# -march value Edax's Makefile accepts) changes the target.
set -euo pipefail
DIR=${1:-.edax}
ARCH=${EDAX_ARCH:-x86-64-v3}
COMMIT=14f048c  # the Edax commit measured in BENCHMARKS.md
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ -n "${EDAX_SRC:-}" ]; then
  rm -rf "$DIR/src" && cp -r "$EDAX_SRC/src" "$DIR/src"
elif [ ! -d "$DIR/repo" ]; then
  git clone -q https://github.com/abulmo/edax-reversi "$DIR/repo"
  git -C "$DIR/repo" checkout -q "$COMMIT"
  rm -rf "$DIR/src" && cp -r "$DIR/repo/src" "$DIR/src"
fi
mkdir -p "$DIR/bin"
(cd "$DIR/src" && make -s build ARCH="$ARCH" COMP=gcc OS=linux CC="${CC:-gcc}" >/dev/null 2>&1) || {
  echo "build-edax: make failed; run 'make build ARCH=$ARCH COMP=gcc OS=linux CC=gcc' in $DIR/src" >&2
  exit 1
}
echo "$DIR/bin/lEdax-$ARCH"
