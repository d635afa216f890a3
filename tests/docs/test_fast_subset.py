"""The fast subset, ``python3 -m pytest -q -m "not slow"``, is what docs/development.md says.

``slow`` marks the end-to-end runs (the ``snakemake`` CLI, real ``ime`` commands, the shared tiny
run) and every test measured at more than about 3 s (or 9 s over its cases) on 2 cores; what is
left runs in a few minutes and still holds unit tests of every module. Two checks, on one
collection of the subset (pytest's own, in a subprocess, about 15 s):

* the count docs/development.md gives is the collected count within 5 %: a count that drifts
  further (tests added or marked since) fails here, so the documented count stays honest;
* every test file keeps at least one test in the subset, except the files in
  :data:`END_TO_END_ONLY` (each a whole end-to-end check, with the reason), so that marking a
  file's last fast test ``slow`` is a decision made here, not by accident.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from ime.paths import repo_root

ROOT = repo_root()
DOC = ROOT / "docs" / "development.md"
TOLERANCE = 0.05

END_TO_END_ONLY = {
    # the real snakemake CLI or the shared tiny pipeline run, file by file
    "tests/workflow/test_pipeline_e2e.py": "the tiny Reversi chain end to end",
    "tests/workflow/test_doudizhu_e2e.py": "the shared tiny run's Doudizhu chain",
    "tests/workflow/test_snake_e2e.py": "the shared tiny run's Snake chain",
    "tests/workflow/test_big2_e2e.py": "the shared tiny run's Big-2 chain",
    "tests/workflow/test_gongzhu_e2e.py": "the shared tiny run's Gongzhu chain",
    "tests/workflow/test_sweeps_e2e.py": "a sweep through the snakemake CLI",
    "tests/workflow/test_thesis_e2e.py": "the tiny reproduction report through the snakemake CLI",
    "tests/workflow/test_case_study_e2e.py": "the case study through the snakemake CLI",
    "tests/workflow/test_evaluate_workflow.py": "the evaluation rules through the snakemake CLI",
    "tests/workflow/test_provenance_run.py": "provenance.json of the shared tiny run",
    "tests/workflow/test_readme_commands.py": "the README's two commands, setup included",
    "tests/workflow/test_identify_e2e.py": "identification on the shared tiny run",
    "tests/workflow/test_verify_variant_run.py": "ime verify after real variant runs",
    "tests/workflow/test_noop_imports.py": "a no-op snakemake run's imports",
    "tests/workflow/test_game_from_target.py": "dry runs of the snakemake CLI, one per game",
    "tests/workflow/test_slurm.py": "opt-in: a SLURM cluster (-m slurm)",
    "tests/workflow/test_search_imitator_e2e.py": "imitator=search on a copy of the tiny run",
    "tests/workflow/test_om_search_e2e.py": "the om_search target on a copy of the tiny run",
    "tests/workflow/test_similarity_metrics_e2e.py": "issue 48's metrics in the shared tiny run",
    "tests/imitators/test_bench.py": "ime bench's search imitator fits and searches (5 s)",
    # real ime commands or long engine work, file by file
    "tests/golden/test_golden_keys.py": "mines a key set with the zoo (the golden keys)",
    "tests/reliability/test_dash_board.py": "real `ime solve` processes",
    "tests/reliability/test_durable_play.py": "real `ime play` processes, killed and resumed",
    "tests/reliability/test_import_pack_safety.py": "real `ime import-pack` processes",
    "tests/reliability/test_stale_tables.py": "real snakemake runs made stale",
    "tests/reliability/test_verify_tree.py": "ime verify over a real run's tree",
    "tests/reliability/test_verify_converges.py": "ime verify after real snakemake runs",
    "tests/stages/test_gpu_check.py": "scripts/gpu_check.py trains as the pipeline does",
    "tests/stages/test_worker_bytes.py": "the same bytes from 1 and 2 workers of a real stage",
    "tests/test_conftest_cleanup.py": "a whole pytest session in a subprocess",
}


def _documented_count() -> int:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r'`-m "not slow"`: ([\d,]+) tests', text)
    assert found, f'{DOC.name} gives no count for `-m "not slow"` ("`-m "not slow"`: N tests")'
    return int(found.group(1).replace(",", ""))


def _collected() -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS",
                                                            "PYTEST_XDIST_WORKER")}
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m",
                          "not slow", "-n", "0", "-p", "no:cacheprovider", "tests"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return [line for line in run.stdout.splitlines() if line.startswith("tests/") and "::" in line]


def test_the_fast_subset_is_as_documented_and_keeps_a_test_of_every_file() -> None:
    ids = _collected()
    documented = _documented_count()
    assert abs(len(ids) - documented) <= TOLERANCE * documented, (
        f'`-m "not slow"` collects {len(ids)} tests; {DOC.relative_to(ROOT)} says {documented}: '
        "measure the subset again and update the count and time there")
    in_subset = {i.split("::", 1)[0] for i in ids}
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")}
    missing = sorted(f for f in files - in_subset if f not in END_TO_END_ONLY)
    stale = sorted(f for f in END_TO_END_ONLY if f not in files or f in in_subset)
    assert not stale, f"END_TO_END_ONLY lists files that are gone or have fast tests: {stale}"
    assert not missing, (
        "test files with no test left in the fast subset (give one a fast test, or list the file "
        "in END_TO_END_ONLY with the reason): " + ", ".join(missing))
