"""Every ``snakemake`` and ``ime`` command that README.md and docs/**/*.md show is exercised.

What counts as a command (:func:`doc_commands`):

* in a fenced block of a shell language (none, ``bash``, ``sh``, ``shell``): every line, joined
  over backslash continuations, split at ``&&``, ``;``, ``|`` and ``&``; each piece whose first
  word (after ``VAR=value`` assignments) is ``snakemake`` or ``ime``;
* in a ``console`` or ``text`` block (a transcript): only the ``$ `` lines, the rest is output;
* inline code that is a full command: ``ime <subcommand> ...`` with at least one argument, and
  ``snakemake ...`` with a target or ``--config`` (a bare ``snakemake -n`` names a flag);
* not docs/measurements/ (raw files of past GPU runs, no Markdown of ours).

Placeholders (``<64 chars ...>``, ``PACK.matches``, ``<platform id>``) are replaced through
:data:`SUBSTITUTIONS`; a command that still holds one fails the test. :data:`NOT_COMMANDS` lists
the inline snippets that look like commands and are not (each with the reason).

How each kind is checked:

* ``ime``: parsed by the real parser (:func:`ime.cli.main.build_parser`, after the same
  ``join_dash_values`` as ``ime`` itself), so a wrong subcommand or flag fails. The cheap ones in
  :data:`RUN_IME` really run (in a temporary folder), some with smaller arguments (said there).
* ``snakemake``: parsed by Snakemake's own argument parser (``snakemake.cli.parse_args``, which
  also loads a ``--profile``), so a wrong flag or a broken profile fails; then every command is
  dry-run (``snakemake -n`` with its targets, ``--config`` and DAG flags) against a temporary copy
  of the workflow. Commands with the same ``--config`` (and DAG flags and setup) share one dry
  run holding all their targets. A flag the dry run cannot honour here is in
  :data:`NOT_DRY_RUN` with its reason and narrower check; a flag in neither that table nor
  :data:`DRY_RUN_FLAGS` / :data:`DROPPED_FLAGS` fails the test. Commands that need something in
  the workflow folder first (a bot added to the config, raw logs) get it from :data:`SETUPS`.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ime.paths import repo_root

ROOT = repo_root()
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow"))
from workflow_helpers import copy_workflow  # noqa: E402

DOCS = [ROOT / "README.md"] + sorted(
    p for p in (ROOT / "docs").rglob("*.md") if "measurements" not in p.relative_to(ROOT).parts)

SHELL_LANGS = {"", "bash", "sh", "shell"}
TRANSCRIPT_LANGS = {"console", "text"}

BOARD = "-OOOOOO-" + "X" * 40 + "OOOOOOO-" + "XXXXXXX-"  # A1, H1, A8, H8 empty: a 4-empty solve
PACK_BOT = "5f1a2b3c4d5e6f708192a3b4"  # a player of tests/data/reversi_pack.matches
PACK_BOT2 = "60aa11bb22cc33dd44ee55ff"

SUBSTITUTIONS: list[tuple[str, str]] = [
    ("--board -OO...", "--board " + BOARD),
    ("PACK.matches", "tests/data/reversi_pack.matches"),
    ("<platform id>", PACK_BOT),
    ("5f1e...", PACK_BOT),
    ("5f2a...", PACK_BOT2),
    ("ime verify PATH", "ime verify data"),
    ("-s Snakefile --directory TREE", "-s Snakefile --directory ."),
    ("results/doudizhu/table5_4.csv ... table5_10.csv",
     " ".join(f"results/doudizhu/table5_{k}.csv" for k in range(4, 11))),
    ("<files built from it> --forcerun <the file>",
     "results/reversi/table4_4.csv --forcerun data/reversi/datasets/quick/rev1.parquet"),
    ("results/... --config overrides='[scale=tiny]'",
     "results/reversi/tiny/table4_4.csv --config overrides='[scale=tiny]'"),
    ("overrides='[...]'", "overrides='[dataset.matches=100]'"),
    ("--config overrides='[...]'", "--config overrides='[dataset.matches=100]'"),
    ("<account>", "myaccount"),
    ("snk01,...,snk22", ",".join(f"snk{k:02d}" for k in range(1, 23))),
    ("results/<game>/<file>", "results/<game>/s1s2_imitator.csv"),
]
"""Placeholder -> a value the check can use (exact substrings, applied in order)."""

GAMES = ["reversi", "doudizhu", "snake", "connect4", "big2", "gongzhu"]
"""A ``<game>`` placeholder stands for every game: the command is checked once per game."""

NOT_COMMANDS = {
    "snakemake -j8 --config overrides='[scale=tiny]' results/...":
        "docs/pipeline.md's example of the wrong order (targets after --config), shown failing",
    "snakemake -j2 --config ...":
        "a table header in docs/pipeline.md; its rows give only the overrides",
    "ime import-pack --out": "names a flag of ime import-pack (docs/reliability.md)",
}
"""Inline snippets that look like full commands and are not, with the reason."""

DRY_RUN_FLAGS = {"--forcerun": "+", "-R": "+"}
"""Flags that change what a run would do: passed on to the dry run (and part of its group)."""

DROPPED_FLAGS = {"-j": 1, "--jobs": 1, "--cores": 1, "-c": 1, "-n": 0, "--dry-run": 0,
                 "-p": 0, "--printshellcmds": 0, "--profile": 1, "-s": 1, "--snakefile": 1,
                 "-d": 1, "--directory": 1, "--keep-going": 0, "-k": 0,
                 "--logger": 1}  # --logger ime (tests/workflow/test_snakemake_plugin.py)
"""Flags that only say how to run (checked by Snakemake's parser, which also loads a profile):
left out of the dry run, which runs ``-s <copy>/Snakefile -d <copy>`` itself."""

NOT_DRY_RUN = {
    "--report": (1, "the HTML report needs the finished results; the parser checks the flag and "
                    "the dry run of the same config checks what the report is made of"),
    "--unlock": (0, "only meaningful after a killed run left a lock; the parser checks it, the "
                    "dry run checks its targets and config"),
    "--summary": (0, "a status listing of an existing run; the parser checks it, the dry run "
                     "checks the same DAG"),
    "--delete-all-output": (0, "deletes a run's files; the parser checks it, the dry run checks "
                               "the DAG it would walk"),
    "--list-rules": (0, "prints rule names; the parser checks it, the dry run builds the same "
                        "workflow"),
    "--lint": (0, "lints the Snakefile (tests/workflow covers the rules); the parser checks it"),
}
"""Flags whose command cannot be dry-run as written: (number of values, reason and check)."""


def _add_rev6(tree: Path) -> None:
    """docs/pipeline.md "Adding a bot": the dry run after adding rev6 to the bots file."""
    bots = tree / "config" / "bots" / "reversi.yaml"
    bots.write_text(bots.read_text() + "\nrev6:\n  kind: alphabeta\n  params: {}\n")


def _add_external(tree: Path) -> None:
    """docs/byo.md: the example program's spec added to the bots file, as the page says to."""
    bots = tree / "config" / "bots" / "reversi.yaml"
    example = ROOT / "config" / "bots" / "examples" / "reversi_external.yaml"
    bots.write_text(bots.read_text() + "\n" + example.read_text())
    shutil.copytree(ROOT / "examples", tree / "examples")


def _raw_logs(tree: Path) -> None:
    """matches.source=raw: a platform pack (tests/data) dropped into data/raw/reversi/."""
    raw = tree / "data" / "raw" / "reversi"
    raw.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "tests" / "data" / "reversi_pack.matches", raw / "pack.matches")


SETUPS = {
    "rev6": (_add_rev6, "game.targets=[rev1,rev2,rev3,rev4,rev5,rev6]"),
    "external": (_add_external, "my_positional"),
    "raw": (_raw_logs, "matches.source=raw"),
}
"""name -> (what the workflow copy needs first, the text that marks a command needing it)."""

RUN_IME = {
    "ime perft reversi --depth 9": None,
    "ime perft connect4 --depth 8": None,
    "ime perft big2 --depth 4": None,
    "ime perft snake --depth 6 --python": None,
    "ime pipeline show": None,  # every `ime pipeline show ...` (a composition, about 3 s)
    "ime solve reversi --board": None,  # docs/usage.md: FFO #40, 20 empties, ~2 s
    "ime play reversi --black rev1 --white greedy --games 10": (
        "--games 10", "--games 1"),  # 10 games of rev1 take ~30 s here; one shows the command works
}
"""ime commands (by prefix) that really run; a value (old, new) shrinks an expensive argument."""


@dataclass
class Command:
    doc: str
    line: int
    text: str
    argv: list[str] = field(default_factory=list)

    def where(self) -> str:
        return f"{self.doc}:{self.line}: {self.text}"


def _segments(line: str) -> list[str]:
    """The pieces of a shell line between ``&&``, ``||``, ``;``, ``|``, ``&`` (quotes kept)."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    lex.commenters = "#"
    pieces: list[list[str]] = [[]]
    for tok in lex:
        if tok and set(tok) <= set(";&|"):
            pieces.append([])
        else:
            pieces[-1].append(tok)
    return [shlex.join(p) for p in pieces if p]


def _program(words: list[str]) -> list[str] | None:
    """``words`` from ``snakemake`` / ``ime`` on (env assignments and ``nice`` dropped), or
    None."""
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words = words[1:]
    if words[:1] == ["nice"]:  # `nice -n 19 snakemake ...`: the command under nice
        words = words[3:] if words[1:2] == ["-n"] else words[1:]
    if words[:3] == ["python3", "-m", "snakemake"]:
        words = ["snakemake", *words[3:]]
    if words and words[0] in ("snakemake", "ime"):
        return words
    return None


def _substitute(text: str) -> str:
    for old, new in SUBSTITUTIONS:
        text = text.replace(old, new)
    return text


def _braces(word: str) -> list[str]:
    """Bash's brace expansion of a path: ``results/x/{a.png,b.csv}`` -> both paths."""
    m = re.match(r"^([^{}=]*)\{([^{}]*,[^{}]*)\}([^{}]*)$", word)
    if not m or not m.group(1).startswith(("results/", "data/")):
        return [word]
    return [m.group(1) + alt + m.group(3) for alt in m.group(2).split(",")]


def _shell_commands(line: str) -> list[str]:
    if not re.search(r"(^|[\s;&|)])(snakemake|ime)(\s|$)", line.split(" #")[0]):
        return []
    line = re.sub(r"\$\([^)]*\)", "X", line)  # IME_EDAX=$(bash scripts/build-edax.sh) ime ...
    out = []
    for seg in _segments(_substitute(line)):
        words = _program([w for word in shlex.split(seg) for w in _braces(word)])
        if words:
            out.append(shlex.join(words))
    return out


def _full_inline(text: str) -> bool:
    words = text.split()
    if words[0] == "ime":
        return len(words) >= 3 and words[1] in IME_SUBCOMMANDS
    rest = [w for w in words[1:] if not w.startswith("-")]
    return "--config" in words or bool(rest)


IME_SUBCOMMANDS = {"perft", "solve", "play", "zoo", "bench", "import-pack", "pipeline", "verify"}


def doc_commands() -> list[Command]:
    """Every command of the docs, placeholders substituted, one per ``<game>``."""
    found: list[Command] = []
    for path in DOCS:
        doc = str(path.relative_to(ROOT))
        lines = path.read_text().splitlines()
        fence: str | None = None
        i = 0
        while i < len(lines):
            raw = lines[i]
            start = i + 1
            stripped = raw.strip()
            if stripped.startswith("```"):
                fence = None if fence is not None else stripped[3:].strip().lower()
                i += 1
                continue
            if fence is None:
                i += 1
                continue
            joined = raw
            while joined.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                joined = joined.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
            text = joined.strip()
            if fence in TRANSCRIPT_LANGS:
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            elif fence not in SHELL_LANGS:
                continue
            found += [Command(doc, start, c) for c in _shell_commands(text)]
        body = path.read_text()
        masked = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), body, flags=re.S)
        for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", masked):
            text = " ".join(m.group(1).split())
            if not re.match(r"^(snakemake|ime)( |$)", text) or text in NOT_COMMANDS:
                continue
            if not _full_inline(text):
                continue
            line = masked.count("\n", 0, m.start()) + 1
            found += [Command(doc, line, c) for c in _shell_commands(text)]
    out = []
    for c in found:
        for g in GAMES if "<game>" in c.text else [None]:
            text = c.text if g is None else c.text.replace("'<game>'", g).replace("<game>", g)
            out.append(Command(c.doc, c.line, text, shlex.split(text)))
    return out


COMMANDS = doc_commands()
IME_COMMANDS = [c for c in COMMANDS if c.argv[0] == "ime"]
SNAKEMAKE_COMMANDS = [c for c in COMMANDS if c.argv[0] == "snakemake"]


def test_the_docs_show_commands_and_no_placeholder_is_left():
    assert len(IME_COMMANDS) > 20 and len(SNAKEMAKE_COMMANDS) > 40, (
        len(IME_COMMANDS), len(SNAKEMAKE_COMMANDS))
    left = [c.where() for c in COMMANDS if re.search(r"<[^>]*>|\.\.\.|\bTREE\b", c.text)]
    assert not left, "placeholders without an entry in SUBSTITUTIONS:\n" + "\n".join(left)


def test_the_extractor_finds_continuations_segments_and_transcripts(tmp_path):
    words = _shell_commands("bash scripts/setup.sh && snakemake -j8  # the main job")
    assert words == ["snakemake -j8"]
    assert _shell_commands("IME_EDAX=$(bash scripts/build-edax.sh) ime bench reversi") == [
        "ime bench reversi"]
    assert _shell_commands("snakemake -n --config overrides='[a=1,\"b=[2,3]\"]'") == [
        "snakemake -n --config 'overrides=[a=1,\"b=[2,3]\"]'"]
    readme = [c for c in COMMANDS if c.doc == "README.md"]
    assert any(c.text == "snakemake -j8" for c in readme)


# --- ime ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cmd", IME_COMMANDS, ids=lambda c: f"{c.doc}:{c.line}")
def test_ime_command_parses(cmd):
    from ime.cli.main import build_parser, join_dash_values

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            args = build_parser().parse_args(join_dash_values(cmd.argv[1:]))
    except SystemExit:
        pytest.fail(f"{cmd.where()}\n{err.getvalue()}")
    assert callable(args.func)


def _runs(cmd: Command) -> tuple[bool, str]:
    for prefix, shrink in RUN_IME.items():
        if cmd.text.startswith(prefix):
            text = cmd.text if shrink is None else cmd.text.replace(*shrink)
            return True, text
    return False, cmd.text


RUN_DOCS = ("README.md", "docs/usage.md")
"""Where the commands that really run are taken from: the newcomer's page and the command
reference (the game pages' commands are parsed only: ~3 s each to run, mostly start-up)."""
RUN = [c for c in IME_COMMANDS if c.doc in RUN_DOCS and _runs(c)[0]]


@pytest.mark.slow
@pytest.mark.parametrize("cmd", RUN, ids=lambda c: f"{c.doc}:{c.line}")
def test_cheap_ime_command_runs(cmd, tmp_path):
    _, text = _runs(cmd)
    argv = shlex.split(text)
    run = subprocess.run([sys.executable, "-m", "ime.cli.main", *argv[1:]], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{cmd.where()}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    if argv[1:3] == ["pipeline", "show"]:  # the README: its first line names the folder
        assert run.stdout.startswith("results: results/"), run.stdout[:300]


def test_the_solve_example_of_the_help_runs_prints_what_it_says_and_is_the_docs(capsys):
    """``ime solve --help``'s example (issue 45: there was none to paste) gives the output its
    epilog shows, and docs/usage.md shows the same command (which :data:`RUN_IME` runs too)."""
    from ime.cli.main import main
    from ime.cli.solve import EPILOG

    lines = EPILOG.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.strip().startswith("ime solve "))
    command = lines[k].strip()
    assert lines[k + 1] == "prints"
    expected = [ln.strip() for ln in lines[k + 2:k + 4]]
    usage = [c.text for c in IME_COMMANDS if c.doc == "docs/usage.md"]
    assert command in usage, usage
    assert any(c.text == command for c in RUN), "docs/usage.md's solve example is not run"
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_the_readme_ime_commands_run():
    """Every ime command of the README is in RUN_IME (they are the newcomer's first steps)."""
    readme = [c.where() for c in IME_COMMANDS if c.doc == "README.md" and not _runs(c)[0]]
    assert not readme, "add these to RUN_IME:\n" + "\n".join(readme)


# --- snakemake ---------------------------------------------------------------------------------


@dataclass
class DryRun:
    config: list[str]
    flags: list[str]
    setup: str | None
    targets: list[str] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)


def _classify(cmd: Command) -> tuple[list[str], list[str], list[str], list[str]]:
    """(targets, --config entries, DAG flags with values, NOT_DRY_RUN flags) of a command."""
    argv = cmd.argv[1:]
    targets: list[str] = []
    config: list[str] = []
    flags: list[str] = []
    skipped: list[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        name = re.sub(r"^(-j|-c)\d+$", r"\1", tok)
        name, eq, value = name.partition("=") if name.startswith("--") else (name, "", "")
        if tok == "--config":
            config = argv[i + 1:]
            break
        if name in DRY_RUN_FLAGS:
            vals = [value] if eq else []
            i += 1
            while not eq and i < len(argv) and not argv[i].startswith("-"):
                vals.append(argv[i])
                i += 1
            flags += [name, *vals]
            continue
        if name in DROPPED_FLAGS or name in NOT_DRY_RUN:
            n = (DROPPED_FLAGS.get(name) if name in DROPPED_FLAGS else NOT_DRY_RUN[name][0])
            if name in NOT_DRY_RUN:
                skipped.append(name)
            i += 1 + (0 if (eq or tok != name) else n)
            continue
        if tok.startswith("-"):
            pytest.fail(f"{cmd.where()}: flag {tok} is in none of DRY_RUN_FLAGS, DROPPED_FLAGS, "
                        "NOT_DRY_RUN")
        targets.append(tok)
        i += 1
    return targets, config, flags, skipped


def _setup_of(cmd: Command) -> str | None:
    names = [n for n, (_, mark) in SETUPS.items() if mark in cmd.text]
    assert len(names) <= 1, (cmd.where(), names)
    return names[0] if names else None


def dry_runs() -> list[DryRun]:
    from snakemake.cli import parse_config

    groups: dict[str, DryRun] = {}
    for cmd in SNAKEMAKE_COMMANDS:
        targets, config, flags, _ = _classify(cmd)
        setup = _setup_of(cmd)
        key = json.dumps([parse_config(config), flags, setup], sort_keys=True)
        group = groups.setdefault(key, DryRun(config, flags, setup))
        for t in targets or ["all"]:
            if t not in group.targets:
                group.targets.append(t)
        group.commands.append(cmd)
    return list(groups.values())


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    dst = copy_workflow(tmp_path_factory.mktemp("docs") / "wf")
    shutil.copytree(ROOT / "profiles", dst / "profiles")
    return dst


@pytest.mark.parametrize("cmd", SNAKEMAKE_COMMANDS, ids=lambda c: f"{c.doc}:{c.line}")
def test_snakemake_command_parses(cmd, tree, monkeypatch):
    """Snakemake's own parser accepts the command (flags, profile) and every flag is known."""
    from snakemake.cli import parse_args, parse_config

    _classify(cmd)
    argv = cmd.argv[1:]
    if "--profile" in argv and not _has_slurm_plugin():
        profile = argv[argv.index("--profile") + 1]
        import yaml

        assert yaml.safe_load((ROOT / profile / "config.yaml").read_text())
        k = argv.index("--profile")
        argv = argv[:k] + argv[k + 2:]
    monkeypatch.chdir(tree)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            _, args = parse_args(argv)
    except SystemExit:
        pytest.fail(f"{cmd.where()}\n{err.getvalue()[-1500:]}")
    parse_config(args.config)


def _has_slurm_plugin() -> bool:
    import importlib.util

    return importlib.util.find_spec("snakemake_executor_plugin_slurm") is not None


def test_the_reports_the_docs_write_are_gitignored():
    """``snakemake --report report.html`` writes into the checkout: a newcomer who follows the
    docs must not see the report as a new file to commit (issue 45)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    reports = {c.argv[c.argv.index("--report") + 1] for c in SNAKEMAKE_COMMANDS
               if "--report" in c.argv[:-1]}
    assert "report.html" in reports, reports
    for path in sorted(reports):
        run = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT)
        assert run.returncode == 0, f"{path} (written by `snakemake --report {path}`) is not " \
                                    "in .gitignore"


def test_every_flag_that_is_not_dry_run_is_listed():
    """A command is dry-run, or skips only flags of NOT_DRY_RUN (each with its reason)."""
    skipped = {f for c in SNAKEMAKE_COMMANDS for f in _classify(c)[3]}
    assert skipped <= set(NOT_DRY_RUN), skipped - set(NOT_DRY_RUN)


DRY = dry_runs()
WORKERS = 2


@pytest.fixture(scope="module")
def dry_results(tree, tmp_path_factory) -> dict[int, dict]:
    """Every dry run of :data:`DRY`, in one ``dry_runs.py`` process (Snakemake's API)."""
    base = tmp_path_factory.mktemp("setups")
    jobs = []
    for k, dry in enumerate(DRY):
        work = tree
        if dry.setup is not None:
            work = copy_workflow(base / f"wf{k}")
            SETUPS[dry.setup][0](work)
        forcerun = [x for x in dry.flags if x not in DRY_RUN_FLAGS]  # only --forcerun's values
        jobs.append({"workdir": str(work), "targets": dry.targets, "config": dry.config,
                     "forcerun": forcerun})
    # two processes (CI has 2 cores): each imports Snakemake and IME once, then dry-runs its half
    procs = []
    for w in range(WORKERS):
        spec = base / f"jobs{w}.json"
        spec.write_text(json.dumps([dict(j, index=k) for k, j in enumerate(jobs)
                                    if k % WORKERS == w]))
        procs.append(subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("dry_runs.py")), str(spec)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = {}
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        for line in out.splitlines():
            if line.startswith("IME-DRY-RUN "):
                r = json.loads(line.removeprefix("IME-DRY-RUN "))
                results[r["index"]] = r
        assert proc.returncode == 0, (out + err)[-3000:]
    assert len(results) == len(DRY), sorted(set(range(len(DRY))) - set(results))
    return results


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(DRY)),
                         ids=[(d.setup + ":" if d.setup else "") + (" ".join(d.config) or "default")
                              for d in DRY])
def test_snakemake_commands_dry_run(k, dry_results):
    """One dry run per distinct --config (+ forcerun, setup) with every target of its commands:
    it plans jobs and raises no error (an unknown target, a config error, a misplaced path)."""
    dry, r = DRY[k], dry_results[k]
    where = "\n".join(c.where() for c in dry.commands)
    assert r["ok"], f"{where}\ntargets {dry.targets}\n{r['error']}"
    assert r["jobs"] > 0, f"{where}: the dry run planned nothing"
