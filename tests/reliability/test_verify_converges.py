"""Issue 45, item 2: ``ime verify`` must converge after a variant's run failed on damaged data.

The user's scenario: a dataset is damaged; a run of another variant reads it and fails, correctly
("... rebuild it"); the dataset is rebuilt, to the same bytes. Before, ``ime verify`` then never
came clean:

* it named an output of the failed job (deleted by Snakemake, whose record stays, holding the
  sha256 of the damaged bytes): "its bytes are not those ... was built from";
* its rebuild commands carried the last run's ``--config`` (the failed variant's), so asking for
  the first variant's files failed ("not a results directory of this composition");
* it called the files built from the rebuilt dataset stale, "the next snakemake run rebuilds
  it", while Snakemake, which holds the dataset's sha256 and finds it unchanged, had nothing to
  do.

A two-variant workflow (``--config variant=a|b``; each variant's model and table are files of its
own composition only, as results directories are) walks it in a second. The same on the real
pipeline: ``tests/workflow/test_verify_variant_run.py`` (slow).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reliability_helpers import (
    ime_verify,
    rebuild_as_printed,
    rebuild_commands,
    toy_built,
    toy_snakemake,
    write_keeping_mtime,
)

SNAKEFILE = """
V = config.get("variant", "a")

rule data:
    output: "data/toy/data.txt"
    shell: "echo rows-v1 > {output}"

rule model:
    input: "data/toy/data.txt"
    output: f"data/toy/{V}/model.txt"
    shell: "grep -qx rows-v1 {input} || {{ echo '{input}: damaged: rebuild it' >&2; exit 1; }}; "
           "(cat {input}; echo " + V + ") > {output}"

rule table:
    input: f"data/toy/{V}/model.txt"
    output: f"results/toy/{V}/table.csv"
    shell: "echo model,size > {output}; echo toy,$(wc -c < {input}) >> {output}"
"""
pytestmark = pytest.mark.slow  # the snakemake CLI, about 10 s a test on 2 cores

DATA = "data/toy/data.txt"


def table(variant: str) -> str:
    return f"results/toy/{variant}/table.csv"


def verify_clean(wf: Path) -> None:
    run = ime_verify(cwd=wf)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == "", run.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Variant ``a`` built; every test works on a copy (mtimes kept)."""
    return toy_built(tmp_path_factory.mktemp("variants"), SNAKEFILE, table("a"), "--config",
                     "variant=a")


@pytest.fixture
def workflow(built, tmp_path) -> Path:
    wf = tmp_path / "wf"
    shutil.copytree(built, wf)
    return wf


def damage_then_fail_variant_b(wf: Path) -> bytes:
    """The data damaged in place (mtime kept), then variant ``b``'s run fails on it; returns
    the data's good bytes."""
    good = (wf / DATA).read_bytes()
    write_keeping_mtime(wf / DATA, b"rows-vX\n")
    failed = toy_snakemake(wf, table("b"), "--config", "variant=b", check=False)
    assert failed.returncode != 0 and "damaged: rebuild it" in failed.stderr, failed.stderr
    assert not (wf / "data/toy/b/model.txt").exists()  # Snakemake deleted the failed output
    return good


def test_after_a_failed_variant_run_the_printed_commands_rebuild_the_tree(workflow):
    good = damage_then_fail_variant_b(workflow)
    run = ime_verify(cwd=workflow)
    assert run.returncode == 1, run.stdout + run.stderr
    assert (f"BAD     {DATA}: its bytes are not those data/toy/a/model.txt was built from"
            in run.stdout), run.stdout
    assert "data/toy/b/" not in run.stdout  # the failed job's record is no evidence
    # variant a's files, with variant a's config (the last run's, b, cannot ask for them)
    assert rebuild_commands(run.stdout) == [
        [table("a"), "--forcerun", DATA, "--config", "variant=a"]], run.stdout
    rebuild_as_printed(workflow, run.stdout)
    assert (workflow / DATA).read_bytes() == good
    verify_clean(workflow)
    toy_snakemake(workflow, table("b"), "--config", "variant=b")  # the variant now runs
    verify_clean(workflow)


def test_after_a_failed_variant_run_rebuilding_the_data_alone_is_enough(workflow):
    """The user's way: only the damaged file is rebuilt (from the failed variant's command
    line), to the same bytes. Snakemake then has nothing to do for variant ``a``, and
    ``ime verify`` agrees: neither the failed job's record nor the newer mtime of bytes that
    Snakemake recorded makes anything stale."""
    good = damage_then_fail_variant_b(workflow)
    toy_snakemake(workflow, DATA, "--forcerun", DATA, "--config", "variant=b")
    assert (workflow / DATA).read_bytes() == good
    dry = toy_snakemake(workflow, "-n", table("a"), "--config", "variant=a")
    assert "Nothing to be done" in dry.stdout + dry.stderr
    verify_clean(workflow)


def test_files_of_several_variants_get_a_command_each_with_their_config(workflow):
    """One command per variant, each with its own config: the first forces the damaged file,
    the next need no force (Snakemake reruns what was built from other bytes). Variant ``b`` is
    built by a quiet run (``-q``: its log lists no job; its files are found by the start time
    in their records), and a run of variant ``a`` comes after it (the newest run's config is
    not ``b``'s)."""
    toy_snakemake(workflow, table("b"), "-q", "--config", "variant=b")
    toy_snakemake(workflow, table("a"), "--forcerun", table("a"), "--config", "variant=a")
    good = (workflow / DATA).read_bytes()
    write_keeping_mtime(workflow / DATA, b"rows-vX\n")
    run = ime_verify(cwd=workflow)
    assert run.returncode == 1, run.stdout
    assert rebuild_commands(run.stdout) == [
        [table("a"), "--forcerun", DATA, "--config", "variant=a"],
        [table("b"), "--config", "variant=b"]], run.stdout
    assert f"then:    snakemake -j8 {table('b')} --config variant=b" in run.stdout
    rebuild_as_printed(workflow, run.stdout)
    assert (workflow / DATA).read_bytes() == good
    verify_clean(workflow)


def test_a_newer_input_is_stale_only_when_snakemake_reruns_it(workflow):
    """A rebuilt input with the bytes Snakemake recorded reruns nothing and is not reported
    (above). Without a recorded sha256 (here ``--max-checksum-file-size 0``) its newer mtime
    reruns the files built from it, and ``ime verify`` says so, with commands that need no
    force."""
    toy_snakemake(workflow, table("a"), "--forcerun", DATA, "--max-checksum-file-size", "0",
                  "--config", "variant=a")
    (workflow / DATA).touch()
    run = ime_verify(cwd=workflow)
    assert run.returncode == 1, run.stdout
    assert (f"STALE   data/toy/a/model.txt: older than its input {DATA}, whose bytes Snakemake "
            "did not record (snakemake rebuilds it when asked for it)") in run.stdout, run.stdout
    assert rebuild_commands(run.stdout) == [["data/toy/a/model.txt", "--config", "variant=a"],
                                            [table("a"), "--config", "variant=a"]], run.stdout
    dry = toy_snakemake(workflow, "-n", table("a"), "--config", "variant=a")
    assert "Nothing to be done" not in dry.stdout + dry.stderr
    rebuild_as_printed(workflow, run.stdout)
    verify_clean(workflow)
