"""Issue 45: every way a new user's first commands stopped now ends with a message naming the fix.

1. An override of a key the config does not have names the nearest keys (``train.learning_rate``
   -> ``did you mean train.lr?``), with the ``+`` form only where appending composes.
2. ``--config scale=thesis`` (no ``overrides=``) says the command that passes it.
3. An IME config error prints alone and wrapped, not inside Snakemake's exception frame.
4. Snakemake started outside the repository's root says where to run it and writes nothing.
5. Ctrl-C ends with one line (nothing lost, rerun the same command), jobs included, and the
   same command then continues.

The unit tests call the functions the Snakefile calls; the ``slow`` ones run the real
``snakemake`` on a copy of the workflow (2-10 s each), the Ctrl-C one on a toy workflow wired
the same way (the real one first compiles numba kernels for half a minute).
"""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workflow_helpers import ROOT, copy_workflow, snakemake

from ime.core.interrupt import EXIT_INTERRUPTED, quiet_interrupt
from ime.workflow import ConfigError, default_config_dir, setup_workflow
from ime.workflow.compose import compose_plain
from ime.workflow.console import (
    INTERRUPTED,
    INTERRUPTED_INCOMPLETE,
    interrupted_line,
    mute_terminal,
    snakemake_args,
    wrong_directory_message,
)
from ime.workflow.errors import WIDTH, ConfigExit, config_exit, nearest_keys, wrap

CONFIG = default_config_dir()


def _flat(text: str) -> str:
    """``text`` with its wrapping undone (every run of white space one space)."""
    return " ".join(text.split())


# --- 1. an unknown override key names the nearest keys ----------------------------------------
@pytest.mark.parametrize("override, meant", [
    ("train.learning_rate=0.001", "train.lr"),  # written out: the abbreviation
    ("lr=0.001", "identify.embedding.lr or train.lr"),  # the same name in two sections
    ("train.batchsize=64", "train.batch_size"),
    ("dataset.matchs=100", "dataset.matches"),
    ("nett=mlp2", "net"),  # a config group
])
def test_an_unknown_key_names_the_nearest_key_and_no_append(override: str, meant: str) -> None:
    with pytest.raises(ConfigError) as e:
        compose_plain([override], CONFIG)
    msg = str(e.value)
    key = override.split("=")[0]
    assert f"{key} is not a config key; did you mean {meant}?" in msg, msg
    assert "+" not in msg and "append" not in msg.lower(), msg  # Hydra's hint is gone


def test_the_append_form_is_offered_only_where_it_composes() -> None:
    # sweep.grid is a free mapping: appending a key to it is right, and composes
    with pytest.raises(ConfigError, match=re.escape(
            "sweep.grid.net is not in the config yet; add it with +sweep.grid.net=[mlp1,conv]")):
        compose_plain(["sweep.grid.net=[mlp1,conv]"], CONFIG)
    assert compose_plain(["+sweep.grid.net=[mlp1,conv]"], CONFIG)["sweep"]["grid"] == {
        "net": ["mlp1", "conv"]}


def test_an_appended_unknown_key_names_the_nearest_key() -> None:
    """Following Hydra's old hint (``+train.learning_rate``) reached the schema's "not a config
    key"; that now names ``train.lr`` too."""
    with pytest.raises(ConfigError, match=re.escape(
            "train.learning_rate is not a config key (did you mean train.lr?)")):
        compose_plain(["+train.learning_rate=0.001"], CONFIG)


def test_an_unknown_group_option_and_sweep_key_name_the_nearest() -> None:
    with pytest.raises(ConfigError, match=r"Available options in 'net': .*; did you mean "
                                          r"net=mlp2 or net=mlp1\?"):
        compose_plain(["net=mlp3"], CONFIG)
    with pytest.raises(ConfigError, match=r"sweep key 'train.learning_rate' is not a config key "
                                          r".*; did you mean train\.lr\?"):
        compose_plain(["sweep.key=train.learning_rate", "sweep.values=[1,2]"], CONFIG)


def test_nearest_keys_names_a_clear_match_alone() -> None:
    keys = ["train.lr", "train.lr_decay", "train.weight_decay", "train.folds", "seed", "net"]
    assert nearest_keys("train.learning_rate", keys) == ["train.lr"]
    assert nearest_keys("train.weightdecay", keys) == ["train.weight_decay"]
    assert nearest_keys("evaluate.seed", keys) == ["seed"]
    assert nearest_keys("zzz", keys) == []


# --- 2. --config key=value without overrides= ---------------------------------------------
def test_a_bare_config_key_gets_the_overrides_form() -> None:
    with pytest.raises(ConfigError) as e:
        setup_workflow({"scale": "thesis"}, CONFIG)
    assert "--config overrides='[scale=thesis]'" in str(e.value)
    with pytest.raises(ConfigError) as e:  # merged with the overrides already given
        setup_workflow({"overrides": ["net=mlp2"], "seed": 3}, CONFIG)
    assert "--config overrides='[net=mlp2,seed=3]'" in str(e.value)


# --- 3. a config error is its own short message ---------------------------------------------
def test_a_config_exit_is_a_wrapped_system_exit() -> None:
    long = "results/reversi/table4_55.csv: " + "word " * 60
    e = config_exit(ConfigError(long))
    assert isinstance(e, SystemExit) and not isinstance(e, Exception)  # passes Snakemake's
    text = str(e)  # what Python prints for it, alone, exit status 1
    assert text.startswith("IME config error: results/reversi/table4_55.csv: ")
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert _flat(text) == _flat(f"IME config error: {long}")
    assert e.code == text and isinstance(ConfigExit("x"), SystemExit)
    # a line indented four spaces is a command: kept whole however long
    cmd = "    cd /r && snakemake " + "x" * 120
    assert wrap(f"Type:\n{cmd}").splitlines()[1] == cmd


# --- 4. the wrong directory -----------------------------------------------------------------
def test_the_wrong_directory_names_the_root_and_the_command(tmp_path: Path) -> None:
    sub = tmp_path / "results"
    sub.mkdir()
    argv = ["/venv/bin/snakemake", "-j8", "-s", "../Snakefile", "reversi_tables", "--config",
            "overrides=[scale=tiny]"]
    msg = wrong_directory_message(sub, tmp_path, argv)
    assert msg is not None and str(tmp_path) in msg
    assert (f"cd {tmp_path} && snakemake -j8 reversi_tables --config "
            "'overrides=[scale=tiny]'") in msg
    assert wrong_directory_message(tmp_path, tmp_path, argv) is None
    assert snakemake_args(["snakemake", "--snakefile=x", "-sx", "-n"]) == ["-n"]
    assert snakemake_args(["pytest", "-x"]) is None  # Snakemake's API from another program


# --- 5. Ctrl-C ------------------------------------------------------------------------------
def test_the_interrupted_line_says_whether_the_same_command_continues(tmp_path: Path) -> None:
    assert interrupted_line(tmp_path) == INTERRUPTED
    assert "Rerun the same command to continue" in INTERRUPTED and "nothing is lost" in INTERRUPTED
    marks = tmp_path / ".snakemake" / "incomplete"
    marks.mkdir(parents=True)
    assert interrupted_line(tmp_path) == INTERRUPTED
    (marks / "ZGF0YQ==").write_text("")
    assert interrupted_line(tmp_path) == INTERRUPTED_INCOMPLETE
    assert "--rerun-incomplete" in INTERRUPTED_INCOMPLETE


def test_muting_keeps_the_log_file(tmp_path: Path) -> None:
    log = logging.getLogger("ime.test.mute")
    log.propagate = False
    stream, file = logging.StreamHandler(), logging.FileHandler(tmp_path / "x.log")
    log.addHandler(stream)
    log.addHandler(file)
    try:
        mute_terminal("ime.test.mute")
        record = log.makeRecord(log.name, logging.ERROR, __file__, 0, "boom", (), None)
        assert not stream.filter(record) and file.filter(record)
    finally:
        log.removeHandler(stream)
        log.removeHandler(file)
        file.close()


CHILD = """
import multiprocessing as mp, os, signal, sys, time
from ime.core.interrupt import quiet_interrupt

with quiet_interrupt(then_ignore=True):
    with mp.get_context("fork").Pool(1) as pool:
        pool.apply_async(time.sleep, (60,))
        print("ready", flush=True)
        time.sleep(60)
"""


def _default_sigint() -> None:
    """An xdist worker ignores SIGINT, and an ignored signal stays ignored across exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_job_and_its_pool_workers_end_on_ctrl_c_with_130_and_no_traceback() -> None:
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_default_sigint)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_INTERRUPTED and err == "", err


def test_quiet_interrupt_restores_the_handler() -> None:
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)  # a terminal's default
    try:
        before = signal.getsignal(signal.SIGINT)
        with quiet_interrupt():
            assert signal.getsignal(signal.SIGINT) is not before
        assert signal.getsignal(signal.SIGINT) is before
        # a process started with SIGINT ignored (nohup, a shell's background job) keeps it so
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with quiet_interrupt():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, inherited)


def test_every_job_script_and_the_snakefile_are_wired() -> None:
    """What the toy workflow below checks end to end is what the real one does."""
    for script in sorted((ROOT / "workflow_scripts").glob("*.py")):
        assert "with quiet_interrupt(then_ignore=True):" in script.read_text(), script.name
    snakefile = (ROOT / "Snakefile").read_text()
    for call in ("check_directory(workflow)", "on_interrupt(workflow)",
                 "finish_interrupted(workflow)", "raise config_exit(e) from None"):
        assert call in snakefile, call


# --- the real snakemake -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_workflow(tmp_path_factory.mktemp("errors") / "wf")


@pytest.mark.slow
@pytest.mark.parametrize("args, fix", [
    (["-n", "results/reversi/table4_55.csv"], "(nearest: table4_5.csv"),  # an input function's
    (["-n", "--config", "scale=thesis"], "--config overrides='[scale=thesis]'"),  # the setup's
    # a dotted key: Snakemake's own --config parser refuses it (snakemake_logger_plugin_ime)
    (["-n", "--config", "train.lr=0.001", "scale=tiny"],
     "--config overrides='[train.lr=0.001,scale=tiny]'"),
    (["-n", "--config", "overrides=[train.learning_rate=0.001]"], "did you mean train.lr?"),
])
def test_snakemake_prints_a_config_error_alone(work: Path, args: list[str], fix: str) -> None:
    run = snakemake(work, *args)
    assert run.returncode == 1
    err = run.stderr[run.stderr.index("IME config error: "):]  # all that follows Snakemake's
    assert fix in _flat(err), err
    assert max(len(line) for line in err.splitlines()) <= WIDTH, err
    for frame in ("Traceback", "WorkflowError", "InputFunctionException", "Wildcards:",
                  'File "'):
        assert frame not in run.stdout + run.stderr, run.stderr[-3000:]


@pytest.mark.slow
def test_snakemake_outside_the_root_says_where_to_run_and_writes_nothing(work: Path) -> None:
    sub = work / "results"
    sub.mkdir(exist_ok=True)
    env = dict(os.environ)
    env.pop("IME_CONFIG_DIR", None)
    for flags in (["-n"], ["-j1"]):  # a real run opens its log file before the Snakefile
        run = subprocess.run([sys.executable, "-m", "snakemake", "-s", "../Snakefile", *flags],
                             cwd=sub, capture_output=True, text=True, timeout=300, env=env)
        assert run.returncode == 1, run.stderr[-3000:]
        assert f"cd {work} && snakemake {flags[0]}" in run.stderr, run.stderr[-3000:]
        assert "Traceback" not in run.stderr
        assert list(sub.iterdir()) == [], list(sub.iterdir())  # no data/, logs/, .snakemake/


TOY = """
from ime.workflow.console import finish_interrupted, on_interrupt

on_interrupt(workflow)


onerror:
    finish_interrupted(workflow)


rule all:
    input: "out/fast.txt", "out/slow.txt"

rule fast:
    output: "out/fast.txt"
    shell: "echo done > {output}"

rule slow:
    output: "out/slow.txt"
    script: "slow.py"
"""

SLOW = """
from ime.core.interrupt import quiet_interrupt
from ime.core.pools import process_pool

with quiet_interrupt(then_ignore=True):
    import multiprocessing as mp
    import time

    with open(snakemake.output[0], "w") as f:  # noqa: F821
        f.write("partial")
    # a worker pool, as the evaluation's and the match stage's jobs have
    with process_pool(mp.get_context("fork"), 1) as pool:
        pool.apply(time.sleep, (600,))
"""


@pytest.mark.slow
def test_ctrl_c_ends_with_one_line_and_the_same_command_continues(tmp_path: Path) -> None:
    (tmp_path / "Snakefile").write_text(TOY)
    (tmp_path / "slow.py").write_text(SLOW)
    cmd = [sys.executable, "-m", "snakemake", "-j2"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            preexec_fn=_default_sigint)
    slow = tmp_path / "out" / "slow.txt"
    deadline = time.monotonic() + 120
    while not (slow.is_file() and (tmp_path / "out" / "fast.txt").is_file()):
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            pytest.fail(f"the slow job never started: {proc.communicate()[0][-3000:]}")
        time.sleep(0.3)
    time.sleep(2)  # the pool's worker is sleeping
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: snakemake and its jobs
    try:
        out = proc.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    # after the fast job's progress line, before which the slow job had started: one line
    tail = re.split(r"\d+ of \d+ steps \(\d+%\) done", out)[-1]
    assert _flat(tail) == INTERRUPTED, out[-3000:]
    for noise in ("Traceback", "KeyboardInterrupt", "Error in rule", "did not complete"):
        assert noise not in out, out[-3000:]
    assert not slow.exists()  # the partial file was removed, and its mark
    marks = tmp_path / ".snakemake" / "incomplete"
    assert not marks.is_dir() or not any(p.is_file() for p in marks.rglob("*"))
    log = next((tmp_path / ".snakemake" / "log").glob("*.snakemake.log")).read_text()
    assert "Error in rule slow" in log  # the log file keeps what the terminal was spared
    again = subprocess.run([*cmd, "-n"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0 and "IncompleteFiles" not in again.stdout + again.stderr
    assert "rule slow:" in again.stdout and "rule fast:" not in again.stdout, again.stdout
