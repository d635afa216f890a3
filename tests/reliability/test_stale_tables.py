"""Issue 13, failure 11: after a model file was deleted, ``snakemake results/.../table4_4.csv``
said "Nothing to be done" and the table no longer matched what was on disk.

That is Snakemake's Make semantics: a missing intermediate is rebuilt only when something that
needs rebuilding needs it, and a file changed in place with its mtime kept triggers nothing. A
three-rule workflow (model -> scores -> table) shows both; ``ime verify`` reads Snakemake's own
records (inputs, and the sha256 of each input a job read) and reports the table, the missing
model and the command that rebuilds them; that command makes the tree whole again.

Fails on the old package: there is no ``ime verify``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reliability_helpers import (
    ime_verify,
    rebuild_as_printed,
    toy_built,
    toy_snakemake,
    write_keeping_mtime,
)

SNAKEFILE = """
rule model:
    output: "data/toy/model.txt"
    shell: "echo weights-v1 > {output}"

rule scores:
    input: "data/toy/model.txt"
    output: "data/toy/scores.txt"
    shell: "cat {input} > {output}; echo scored >> {output}"

rule table:
    input: "data/toy/scores.txt"
    output: "results/toy/table.csv"
    shell: "echo model,size > {output}; echo toy,$(wc -c < {input}) >> {output}"
"""
TABLE = "results/toy/table.csv"


def dry_run(wf: Path) -> str:
    run = toy_snakemake(wf, "-n", TABLE, check=False)
    return run.stdout + run.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The workflow, run once; every test works on a copy (mtimes kept)."""
    return toy_built(tmp_path_factory.mktemp("built"), SNAKEFILE, TABLE)


@pytest.fixture
def workflow(built, tmp_path) -> Path:
    wf = tmp_path / "wf"
    shutil.copytree(built, wf)
    return wf


@pytest.mark.slow
def test_a_deleted_intermediate_is_reported_with_the_command_that_rebuilds_it(workflow):
    (workflow / "data/toy/model.txt").unlink()
    assert "Nothing to be done" in dry_run(workflow)  # Make semantics: nothing is rebuilt
    run = ime_verify(cwd=workflow)
    assert run.returncode == 1, run.stdout + run.stderr
    out = run.stdout
    assert "MISSING data/toy/model.txt: built by rule model, deleted" in out, out
    assert f"stale: data/toy/scores.txt, {TABLE}" in out, out
    assert f"rebuild: snakemake -j8 {TABLE} --forcerun data/toy/model.txt" in out, out
    rebuild_as_printed(workflow, out)
    again = ime_verify(cwd=workflow)
    assert again.returncode == 0, again.stdout
    assert (workflow / "data/toy/model.txt").exists()


@pytest.mark.slow
def test_a_file_changed_in_place_is_reported(workflow):
    scores = workflow / "data/toy/scores.txt"
    write_keeping_mtime(scores, scores.read_bytes().replace(b"v1", b"v2"))  # mtime kept
    run = ime_verify("data", "results", cwd=workflow)
    assert run.returncode == 1, run.stdout
    assert ("BAD     data/toy/scores.txt: its bytes are not those results/toy/table.csv was "
            "built from") in run.stdout, run.stdout
    rebuild_as_printed(workflow, run.stdout)
    assert ime_verify(cwd=workflow).returncode == 0
    assert b"v1" in scores.read_bytes()


@pytest.mark.slow
def test_an_interrupted_job_is_reported(workflow):
    """A job killed mid-run leaves its output marked incomplete in Snakemake's records."""
    from base64 import urlsafe_b64encode

    mark = workflow / ".snakemake" / "incomplete" / urlsafe_b64encode(TABLE.encode()).decode()
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.write_text('{"external_jobid": null}')
    run = ime_verify(cwd=workflow)
    assert run.returncode == 1, run.stdout
    assert f"STALE   {TABLE}: its job never finished" in run.stdout
    assert f"rebuild: snakemake -j8 {TABLE} --rerun-incomplete" in run.stdout
