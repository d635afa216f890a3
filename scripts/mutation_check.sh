#!/usr/bin/env bash
# Label-shuffling mutation check: do the tests notice when imitators stop learning?
#
# In a throw-away clone of the committed tree, the trainer's dataset loader
# (ime.train.loop.load_dataset) shuffles every dataset's labels (all heads, one seeded
# permutation) against its positions; then the tests that say imitators learn run there. They
# must fail: this script exits 0 when they do ("mutation killed") and 1 when they all pass.
# About 9 minutes on 2 cores (one tiny pipeline run). Nothing outside the clone changes.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ime-mutation.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
git clone -q . "$WORK/ime"
python3 - "$WORK/ime/src/ime/train/loop.py" <<'PY'
import sys
from pathlib import Path

path = Path(sys.argv[1])
text = path.read_text()
anchor = "    arr = read_arrays(path)\n"
if text.count(anchor) != 1:
    sys.exit(f"{path}: the mutation's anchor {anchor.strip()!r} is not there once; update this script")
path.write_text(text.replace(anchor, anchor + (
    "    _perm = np.random.default_rng(12345).permutation(len(arr))  # MUTATION: shuffled labels\n"
    "    arr.action = arr.action[_perm]\n"
    "    arr.actions = arr.actions[_perm] if arr.actions is not None else None\n")))
print(f"mutated {path}: labels shuffled against positions")
PY
cd "$WORK/ime"
TESTS=(tests/stages/test_train.py tests/stages/test_action_heads.py
       tests/workflow/test_pipeline_e2e.py tests/workflow/test_doudizhu_e2e.py
       tests/workflow/test_big2_e2e.py tests/workflow/test_snake_e2e.py
       tests/workflow/test_gongzhu_e2e.py)
if PYTHONPATH="$WORK/ime/src" python3 -m pytest -q -p no:cacheprovider "${TESTS[@]}"; then
  echo "mutation check: the mutation SURVIVED (every test passed with shuffled labels)" >&2
  exit 1
fi
echo "mutation check: the mutation was killed (the tests above that failed noticed it)"
