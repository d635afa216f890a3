"""The one error the workflow's setup raises for a config it cannot use."""

from __future__ import annotations


class ConfigError(ValueError):
    """A config that cannot be used; the message names the offending override or key.

    The Snakefile turns it into ``IME config error: <message>`` before any job is scheduled.
    """
