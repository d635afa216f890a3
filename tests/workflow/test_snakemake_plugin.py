"""``snakemake_logger_plugin_ime``: Snakemake loads it, and its ``--config`` hint and progress file.

The plugin is what lets IME answer ``snakemake --config train.lr=0.001``, which Snakemake's own
command-line parser refuses before any workflow code runs (issue 45). A broken plugin would
break every ``snakemake`` command, so the first test builds Snakemake's real parser with it.
"""

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
import snakemake.cli as cli
from snakemake_interface_logger_plugins.common import LogEvent
from snakemake_interface_logger_plugins.registry import LoggerPluginRegistry

import snakemake_logger_plugin_ime as plugin


def test_snakemake_registers_the_plugin_and_its_parser_builds() -> None:
    registry = LoggerPluginRegistry()
    assert "ime" in registry.plugins
    parser = cli.get_argument_parser()
    args = parser.parse_args(["-n", "--logger", "ime", "--logger-ime-path", "p.tsv"])
    assert args.logger == ["ime"] and args.logger_ime_path == "p.tsv"
    assert getattr(cli.parse_config, "ime_wrapped", False)


def test_snakemakes_own_config_entries_parse_unchanged() -> None:
    assert cli.parse_config(["overrides=[scale=tiny,net=mlp2]", "thesis_games=[reversi]"]) == {
        "overrides": ["scale=tiny", "net=mlp2"], "thesis_games": ["reversi"]}
    assert cli.parse_config(["a-b=3"]) == {"a-b": 3}


def test_a_refused_key_stops_with_the_right_form(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.parse_config(["overrides=[net=mlp2]", "train.lr=0.001", "scale=tiny",
                          "thesis_games=[reversi]"])
    assert stop.value.code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("IME config error: --config train.lr=0.001: Snakemake takes only plain")
    assert ("--config overrides='[net=mlp2,train.lr=0.001,scale=tiny]' thesis_games=[reversi]"
            in err), err


def test_a_target_after_config_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """--config takes every word after it: a target written there gets IME's message with the
    command in the right order, not Snakemake's traceback."""
    with pytest.raises(SystemExit) as stop:
        cli.parse_config(["overrides=[imitator=search]", "results/reversi/x/table4_4.csv"])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert "results/reversi/x/table4_4.csv is no name=value entry" in err
    assert ("results/reversi/x/table4_4.csv --config 'overrides=[imitator=search]'"
            in err.replace("\n", " "))


def test_other_refusals_stay_snakemakes() -> None:
    # Snakemake refuses what its pattern does not match, one-letter keys included
    assert plugin.refused_entries(["xy=1", "a.b=2", "+c=3", "~d", "e_f=4", "x=5"]) == [
        "a.b=2", "+c=3", "x=5"]


def test_the_handler_appends_a_line_a_progress_step(tmp_path: Path) -> None:
    out = tmp_path / "logs" / "progress.tsv"

    def handler(dryrun: bool) -> plugin.LogHandler:
        return plugin.LogHandler(SimpleNamespace(dryrun=dryrun),
                                 plugin.LogHandlerSettings(path=str(out)))

    def record(event: LogEvent, **extra: object) -> logging.LogRecord:
        rec = logging.LogRecord("snakemake", logging.INFO, "", 0, None, None, None)
        rec.__dict__.update(event=event, **extra)
        return rec

    live = handler(dryrun=False)
    live.emit(record(LogEvent.JOB_STARTED, jobs=[1]))
    live.emit(record(LogEvent.PROGRESS, done=3, total=12))
    live.emit(record(LogEvent.PROGRESS, done=12, total=12))
    handler(dryrun=True).emit(record(LogEvent.PROGRESS, done=1, total=12))
    lines = [line.split("\t") for line in out.read_text().splitlines()]
    assert [row[1:] for row in lines] == [["3", "12", "25%"], ["12", "12", "100%"]]
    assert all(row[0].endswith("Z") and len(row[0]) == 20 for row in lines)
