"""External bot programs that speak the Botzone protocol, seated in our judge like any zoo bot.

A user's bot (any language) is run exactly as Botzone runs it, so a program that works on the
platform works here unchanged, and its matches are logged like every other match:

* **JSON interaction** (default): each turn starts the program and writes one line
  ``{"requests": [...], "responses": [...], "data": ..., "globaldata": ..., "time_limit": ...,
  "memory_limit": ...}`` with the player's whole transcript (from
  :class:`~ime.core.bot.DecisionContext`), then closes stdin. The program prints one line
  ``{"response": ..., "debug": ..., "data": ..., "globaldata": ...}``.
* **Simple interaction** (games whose plug-in has a ``simple_codec``): stdin is ``n``, then
  ``2n-1`` lines alternating requests and responses, each turned into a line by the game's codec,
  ending with the new request, then the ``data`` line and ``globaldata``; stdout is the response
  line, a debug line, a data line and globaldata lines.
* **Keep-running**: a program that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its
  response stays alive; later turns of that match write only the new request (the bare request
  JSON, or its simple-interaction line). Requires ``keep_running: true`` in the spec; stdin is
  then never closed, so such a program must read line by line, not to EOF.

``data`` is carried between the turns of one match and seat; ``globaldata`` is carried across
every match this bot object plays (Botzone keeps it per bot), unless ``globaldata_scope: match``
resets it at each match start (use that when matches run on several workers and you need the same
bytes on every run: the order in which a worker sees matches is not fixed).

Faults get Botzone's verdicts (the judge then ends the match with ``INVALID_INPUT_VERDICT_<v>``):

=====  ==========================================================================================
TLE    no complete answer before the turn's deadline (``time_limit`` s, and
       ``keep_running_time_limit`` s for later turns of a kept-running process: Botzone's Python
       limits are 6 s and 4 s); the process group is killed at the deadline.
RE     the program could not start, crashed, exited with a non-zero status or by a signal, or
       died between keep-running turns / quit instead of answering a keep-running turn.
MLE    the program died with a memory error while ``memory_limit_mb`` was enforced (RLIMIT_AS).
OLE    more than ``stdout_limit`` bytes on stdout (default 1 MiB, Botzone's wrapper limit) or
       ``stderr_limit`` bytes on stderr (default 1 MiB) in one turn; the head goes to the log.
NJ     JSON interaction only: the output (or its first line) is not JSON, including no output at
       all. Botzone's judges name exactly these verdicts (``INVALID_INPUT_VERDICT_NJ`` = "output
       is not JSON"); there is no "NR" verdict in any judge we checked.
=====  ==========================================================================================

Anything that *is* an answer goes to the judge as it is and the judge decides: JSON output without
a ``"response"`` key is the response itself (as Botzone's local runner reads it); a response may
be an object or a string holding JSON. Simple interaction converts the first line with the game's
codec, the way Botzone's ``transform_code`` does (typically JavaScript ``parseInt`` of each
space-separated field, :func:`ime.core.codec.js_parse_int`), so garbage or an empty line becomes a
response the game's judge rejects (``INVALID_INPUT_VERDICT_OK``), not a protocol fault.

The package, along its seams: :mod:`~ime.bots.external.spec` (validated spec),
:mod:`~ime.bots.external.process` (one running program: pipes, deadlines, limits, process
group), :mod:`~ime.bots.external.protocol` (inputs and outputs of both interactions),
:mod:`~ime.bots.external.bot` (:class:`ExternalBot` and the ``kind: external`` registry factory)
and :mod:`~ime.bots.external.bench` (the cost of a turn); :mod:`~ime.bots.external.contain`
(nothing a program starts outlives its turn, its match or us; signals), its
:mod:`~ime.bots.external.guardian` and :mod:`~ime.bots.external.sandbox` (``sandbox: bwrap``).
Importing the package registers the ``external`` kind. Fault classes and guarantees:
docs/reliability.md.
"""

from __future__ import annotations

from ime.bots.external.bench import bench_external
from ime.bots.external.bot import ExternalBot, TurnRecord, register
from ime.bots.external.process import KEEP_RUNNING_MARKER
from ime.bots.external.protocol import BOTZONE_MEMORY_LIMIT_MB, simple_codec, simple_games
from ime.bots.external.spec import (
    DEFAULT_TIME_LIMIT,
    KEEP_RUNNING_RATIO,
    OUTPUT_LIMIT,
    STDERR_LIMIT,
    ExternalSpec,
)

__all__ = [
    "BOTZONE_MEMORY_LIMIT_MB",
    "DEFAULT_TIME_LIMIT",
    "KEEP_RUNNING_MARKER",
    "KEEP_RUNNING_RATIO",
    "OUTPUT_LIMIT",
    "STDERR_LIMIT",
    "ExternalBot",
    "ExternalSpec",
    "TurnRecord",
    "bench_external",
    "register",
    "simple_codec",
    "simple_games",
]
