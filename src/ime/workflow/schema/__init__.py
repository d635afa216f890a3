"""Typed schemas of the config, one module per section (as pypsa-eur's
``scripts/lib/validation/config/``): :mod:`.game`, :mod:`.matches`, :mod:`.dataset`,
:mod:`.train`, :mod:`.net`, :mod:`.sweep`, :mod:`.evaluate`, :mod:`.identify`,
:mod:`.om_search`, :mod:`.run`,
and :mod:`.bots` for ``config/bots/<game>.yaml``.

:func:`validate` checks a composed (plain) config and raises :class:`ConfigError` listing every
problem as ``<dotted key> must be ...``, before any job is scheduled. Defaults are not repeated
here: they are the YAML files'.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from ime.workflow.errors import ConfigError, did_you_mean, nearest_keys
from ime.workflow.schema.game import check_plugin
from ime.workflow.schema.net import Net
from ime.workflow.schema.root import Config, cross_section_problems

_KINDS = {
    "int_type": "an int", "int_parsing": "an int", "float_type": "a number",
    "float_parsing": "a number", "finite_number": "a finite number", "bool_type": "true or false",
    "string_type": "a str", "list_type": "a list", "dict_type": "a mapping",
}
_BOUNDS = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<=",
           "less_than": "<"}


def format_errors(e: ValidationError, prefix: str = "",
                  known: Collection[str] = ()) -> list[str]:
    """One line per pydantic error, in the workflow's words: ``train.lr must be a number, got
    'fast' (str)``; an unknown key also names the nearest of the ``known`` keys (``did you mean
    train.lr?``), since a misspelt or written-out key is the usual cause."""
    out = []
    for err in e.errors():
        key = ".".join([prefix, *(str(x) for x in err["loc"])] if prefix else
                       [str(x) for x in err["loc"]])
        kind, v, ctx = err["type"], err.get("input"), err.get("ctx") or {}
        got = f"got {v!r} ({type(v).__name__})"
        if kind == "missing":
            line = f"{key} is missing"
        elif kind == "extra_forbidden":
            close = did_you_mean(nearest_keys(key, known))
            line = f"{key} is not a config key ({close or 'unknown key; check its spelling'})"
        elif kind in _KINDS:
            line = f"{key} must be {_KINDS[kind]}, {got}"
        elif kind == "literal_error":
            line = f"{key} must be one of {ctx.get('expected')}, got {v!r}"
        elif kind in _BOUNDS:
            bound = next(iter(ctx.values()))
            line = f"{key} must be {_BOUNDS[kind]} {bound}, got {v!r}"
        elif kind in ("too_short", "too_long"):
            line = f"{key} has the wrong length: {err['msg']}, got {v!r}"
        elif kind == "value_error":
            msg = str(ctx.get("error", err["msg"]))
            line = msg if msg.startswith(key) else f"{key}: {msg}"
        else:
            line = f"{key}: {err['msg']}, got {v!r}"
        if line not in out:
            out.append(line)
    return out


def validate(c: Mapping[str, Any], overrides: Sequence[str] = ()) -> None:
    """Check a composed plain config; raise :class:`ConfigError` listing every problem."""
    try:
        Config.model_validate(dict(c))
        problems = cross_section_problems(c)
    except ValidationError as e:
        from ime.workflow.compose import config_keys

        problems = format_errors(e, known=config_keys(c))
    if not problems:
        problems = check_plugin(c["game"])
    if problems:
        raise ConfigError(f"bad config (overrides {list(overrides)}):\n  " + "\n  ".join(problems))


def validate_net(net: Mapping[str, Any], where: str, overrides: Sequence[str] = ()) -> None:
    """Check one net architecture (``config/net/<name>.yaml`` as it stands)."""
    try:
        Net.model_validate(dict(net))
    except ValidationError as e:
        raise ConfigError(f"bad net config {where} (overrides {list(overrides)}):\n  "
                          + "\n  ".join(format_errors(e, prefix="net"))) from None


__all__ = ["Config", "ConfigError", "format_errors", "validate", "validate_net"]
