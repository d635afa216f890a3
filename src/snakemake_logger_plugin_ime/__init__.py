"""IME's Snakemake logger plugin: ``--logger ime`` keeps the run's progress in a file, and, when
Snakemake loads it, IME's message for a ``--config`` entry that Snakemake itself refuses.

Why a logger plugin: ``snakemake --config train.lr=0.001`` (a Hydra override without
``overrides=``) fails in Snakemake's own command-line parser, which accepts only plain names
before ``=``. That happens before the Snakefile is read, so no workflow code can explain it; the
user got a ``ValueError`` traceback. Snakemake imports every installed logger plugin while it
builds that parser, before it parses ``--config``: this module, installed with IME, takes that
moment to wrap ``snakemake.cli.parse_config``, so that such an entry stops with one IME line
naming the right form (``--config overrides='[train.lr=0.001]'``) and exit status 1. Entries
Snakemake accepts are parsed by Snakemake unchanged, and any other error is Snakemake's own.

The handler itself (opt-in, ``snakemake -j8 --logger ime``): one tab-separated line a progress
step, ``<UTC time> <done> <total> <percent>``, appended to ``--logger-ime-path`` (default
``logs/snakemake_progress.tsv``), so that a script or another shell can follow a long run
(``tail -f``) without parsing Snakemake's terminal output.
"""

# no `from __future__ import annotations`: Snakemake reads the settings' field types at run time
# (as argparse types), and a string there breaks every snakemake command
import functools
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from logging import LogRecord
from typing import Any

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent
from snakemake_interface_logger_plugins.settings import LogHandlerSettingsBase

# what Snakemake's parse_config accepts as a key (snakemake/cli.py, Snakemake 8-9)
SNAKEMAKE_KEY = re.compile(r"[a-zA-Z_][\w-]*\w$")
DEFAULT_PATH = os.path.join("logs", "snakemake_progress.tsv")


def refused_entries(entries: list[str] | None) -> list[str]:
    """The ``--config`` entries whose key Snakemake refuses (a dot, ``+``, ``~``: Hydra's)."""
    return [e for e in entries or [] if "=" in e and not SNAKEMAKE_KEY.match(e.split("=", 1)[0])]


def refused_message(entries: list[str]) -> str:
    """IME's message for entries Snakemake refuses: the command's right form."""
    from ime.workflow.compose import config_arg, parse_overrides
    from ime.workflow.errors import config_exit

    bad = refused_entries(entries)
    # the overrides given already, then every other entry but thesis_games: Hydra's (scale=tiny)
    hydra = [o for e in entries if e.startswith("overrides=")
             for o in parse_overrides(e.split("=", 1)[1])]
    kept = [e for e in entries if e.startswith("thesis_games=")]
    hydra += [e for e in entries if e not in kept and not e.startswith("overrides=")]
    return str(config_exit(
        f"--config {' '.join(bad)}: Snakemake takes only plain names before '=', and IME's "
        "settings are Hydra overrides, which go in the one --config key `overrides`, as a "
        "list:\n    snakemake ... " + " ".join([config_arg(hydra), *kept])
        + "\n(targets go before --config; docs/usage.md)"))


def targets_message(entries: list[str], targets: list[str]) -> str:
    """IME's message for targets written after ``--config`` (which takes every word after it)."""
    from ime.workflow.errors import config_exit

    kept = [e for e in entries if e not in targets]
    return str(config_exit(
        f"--config {' '.join(entries)}: {', '.join(targets)} is no name=value entry: --config "
        "takes every word after it, so targets go before it:\n    snakemake ... "
        + " ".join([*targets, "--config", *(shlex.quote(e) for e in kept)])))


def _wrap_parse_config() -> None:
    try:
        import snakemake.cli as cli
    except ImportError:  # Snakemake imports us; a bare import of this module does not need it
        return
    original = cli.parse_config
    if getattr(original, "ime_wrapped", False):
        return

    @functools.wraps(original)
    def parse_config(entries: Any) -> Any:
        try:
            return original(entries)
        except ValueError:
            if refused_entries(entries):
                print(refused_message(list(entries)), file=sys.stderr)
                raise SystemExit(1) from None
            targets = [e for e in entries or [] if "=" not in e]
            if targets:  # `--config overrides=[...] results/x.csv`: --config took the target
                print(targets_message(list(entries), targets), file=sys.stderr)
                raise SystemExit(1) from None
            raise

    parse_config.ime_wrapped = True  # type: ignore[attr-defined]
    cli.parse_config = parse_config


_wrap_parse_config()


@dataclass
class LogHandlerSettings(LogHandlerSettingsBase):
    """``--logger-ime-path``: where ``--logger ime`` appends its progress lines."""

    path: str = field(default=DEFAULT_PATH, metadata={
        "help": f"file the progress lines are appended to (default {DEFAULT_PATH})"})


class LogHandler(LogHandlerBase):
    """Appends ``<UTC time>\\t<done>\\t<total>\\t<percent>`` for each progress step."""

    def emit(self, record: LogRecord) -> None:
        if getattr(record, "event", None) != LogEvent.PROGRESS or self.common_settings.dryrun:
            return
        done, total = int(record.done), int(record.total)  # type: ignore[attr-defined]
        path = getattr(self.settings, "path", None) or DEFAULT_PATH
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{now}\t{done}\t{total}\t{100 * done / max(total, 1):.0f}%\n")

    @property
    def writes_to_stream(self) -> bool:
        return False

    @property
    def writes_to_file(self) -> bool:
        return True

    @property
    def has_filter(self) -> bool:
        return False

    @property
    def has_formatter(self) -> bool:
        return False

    @property
    def needs_rulegraph(self) -> bool:
        return False
