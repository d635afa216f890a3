#!/bin/bash
# Device call 1: train the Snake thesis-scale (bot, net) members left, pack metrics + checkpoints.
# usage: bash .gpu/run.sh OUT DEADLINE [DEVICE] [JOBS] [SPECDIR]
set -u
OUT=$1; DEADLINE=$2; DEV=${3:-cuda}; JOBS=${4:-.gpu/jobs.txt}; SPEC=${5:-.gpu}
M=/tmp/snkm; P=/tmp/snkpack
rm -rf $M $P /tmp/gpu_check; mkdir -p $M $P $OUT
export PYTHONPATH=$PWD/.gpu/site:$PWD/src PYTHONUNBUFFERED=1
nproc; nvidia-smi --query-gpu=name,memory.total --format=csv 2>/dev/null
python3 -c "import torch, numba; print('torch', torch.__version__, 'numba', numba.__version__)"
python3 scripts/gpu_check.py all --dir $SPEC --out $OUT --device $DEV --rows 0 \
  --deadline $DEADLINE --jobs-file $JOBS --models-dir $M 2>&1 | tee $OUT/run.log | grep -v " fold [0-9] val " 
rm -f $OUT/models.tgz
ls $M/*/* -d | wc -l
find $M -name '*.json' | wc -l
(cd $M && tar czf $OUT/metrics.tgz $(find . -name '*.json'))
(cd $M && find . -name '*.pt' | sort > $P/list && tar cf - -T $P/list | gzip -1 | split -b 15m -d - $P/pt.tgz.)
ls -la $P
for f in $P/pt.tgz.0[0-3]; do [ -e $f ] && cp $f $OUT/; done
ls -la $OUT
