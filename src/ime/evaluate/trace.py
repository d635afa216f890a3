"""One key endgame traced through several agents, move by move (thesis 5.5.2, Table 5.11,
Figs 5.4-5.8).

S2 says *whether* an agent, finishing a key endgame in the target's seat, gets the target's
result; a trace shows *how*: every move of the continuation, where it leaves the target's own
line and what it ends in. The thesis does this for one Doudizhu endgame where bot 1 wins as the
landlord, bots 2-5 lose and bot 1's imitator wins with bot 1's very moves.

A trace is S2's fork, recorded: the key's stored prefix is replayed, the agent takes the key's
seat and every other seat keeps the program that played it (the key's designated opponents),
with the key's match id and seed (:func:`ime.evaluate.forks.finish_as` does the same fork and
keeps only the first move and the result). So each agent's ``result`` here *is* its S2 verdict
on that key, which :func:`check_outcomes` asserts against the stored scores.

Rows (:data:`TRACE_COLUMNS`), one per move of the continuation (every seat's, from the key ply
on): ``agent``, ``role`` (target / reference / imitator / agent), ``ply``, ``seat``, ``move``
(the response as the game's codec writes it: its simple-interaction line when it has one, else
compact JSON), ``label`` (a readable name of the move, see :func:`move_label`),
``same_as_target`` (the target's own continuation has this very move at this ply and seat),
``first_divergence_ply`` (the first ply where the agent's continuation differs from the
target's; blank when it never does) and ``result`` (win / loss / draw of the key seat, as S2
counts it).

:func:`choose_key` picks the key the case study shows, by the thesis's choice (see there).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ime.core.game import Game, State
from ime.core.registry import get_game, get_plugin
from ime.evaluate.forks import (
    LOSS,
    OUTCOME_NAMES,
    WIN,
    BotProvider,
    agent_seats,
    fork,
    outcome,
)
from ime.evaluate.keyset import KeySet

TRACE_COLUMNS = ["match_id", "agent", "role", "ply", "seat", "move", "label", "same_as_target",
                 "first_divergence_ply", "result"]
"""The columns of a trace table (``case_study.csv``, ``ime trace --csv``)."""
ROLES = ("target", "reference", "imitator", "agent")
"""What an agent is to the key's target: the target itself (the original), one of the key
set's references, the target's imitator, or any other agent."""


# --- finding a key ---------------------------------------------------------------------------
class UnknownKeyError(KeyError):
    """A key that a key set does not hold; its message names the file and the keys it holds
    (printed as is, not as ``KeyError``'s quoted repr)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def key_names(keys: KeySet) -> list[str]:
    """Each key's name as ``ime trace`` takes it: ``<match_id>@<ply>`` (``@<seat>`` added when
    one match and ply hold keys of several seats)."""
    df = keys.df
    dup = df.duplicated(["match_id", "ply"], keep=False).to_numpy()
    return [f"{m}@{int(p)}" + (f"@{int(s)}" if d else "")
            for m, p, s, d in zip(df["match_id"], df["ply"], df["seat"], dup, strict=True)]


def find_key(keys: KeySet, key: str | int, path: str | Path = "the key set") -> int:
    """The row of ``key`` in ``keys``: a row index (``"3"``), or ``<match_id>@<ply>`` (plus
    ``@<seat>`` when needed). An unknown key is an :class:`UnknownKeyError` (a ``KeyError``)
    naming ``path`` and the keys it holds."""
    names = key_names(keys)
    n = len(names)
    text = str(key).strip()
    if text.lstrip("-").isdigit():
        i = int(text)
        if 0 <= i < n:
            return i
    else:
        parts = text.split("@")
        df = keys.df
        if len(parts) in (2, 3) and parts[1].isdigit() and (len(parts) == 2 or parts[2].isdigit()):
            hit = (df["match_id"].astype(str) == parts[0]) & (df["ply"] == int(parts[1]))
            if len(parts) == 3:
                hit &= df["seat"] == int(parts[2])
            rows = np.flatnonzero(hit.to_numpy())
            if len(rows) == 1:
                return int(rows[0])
            if len(rows) > 1:
                raise UnknownKeyError(f"{path}: key {text!r} is ambiguous (seats "
                               f"{sorted(int(s) for s in df['seat'].iloc[rows])}); name one as "
                               f"{text}@<seat>")
    shown = ", ".join(f"{i}={k}" for i, k in enumerate(names[:20]))
    more = f", ... ({n} in all)" if n > 20 else ""
    raise UnknownKeyError(f"{path}: no key {text!r} among its {n} keys (a row index 0..{n - 1} or "
                   f"<match_id>@<ply>): {shown or '(none)'}{more}")


# --- moves as text ---------------------------------------------------------------------------
def move_text(game_name: str, response: Any) -> str:
    """A response as the game's codec writes it: the simple-interaction line (Reversi's
    ``"x y"``) when the game has one, else compact JSON (Doudizhu's card list)."""
    codec = get_plugin(game_name).simple_codec
    if codec is not None:
        return str(codec.response_to_line(response))
    return json.dumps(response, sort_keys=True, separators=(",", ":"))


def move_label(game: Game, state: State, seat: int, action: Any) -> str:
    """A readable name of ``action`` in ``state``, from what the game already offers: the play
    (``pair:TT``) when its encoder splits plays into major and kickers (Doudizhu, Big-2), else
    the figure hooks' name of its first-head code (Reversi's ``D3``, Snake's direction)."""
    from ime.evaluate.keys import encoder_for  # the encoder of this very game instance

    enc = encoder_for(game)
    play_of = getattr(enc, "play_of", None)
    if play_of is not None:
        try:
            play = play_of(state, action)
        except (ValueError, KeyError, IndexError, TypeError):
            play = None
        if play is not None:
            kind, _, text = str(play).partition(":")
            return kind if text in ("", kind) else str(play)  # "pass:pass" -> "pass"
    try:
        codes = np.asarray(enc.action_codes([state], [seat], [action]))
        code = int(codes.reshape(len(codes), -1)[0, 0])
    except (ValueError, KeyError, IndexError, TypeError):
        return str(action)
    return get_plugin(game.name).figures.code_label(code) if code >= 0 else str(action)


# --- tracing ---------------------------------------------------------------------------------
@dataclass
class Trace:
    """A key endgame finished by each agent: its rows (:data:`TRACE_COLUMNS`) and results."""

    game: str
    target: str
    index: int
    key: str
    match_id: str
    ply: int
    seat: int
    players: tuple[str, ...]
    position: str
    rows: pd.DataFrame
    outcomes: dict[str, int] = field(default_factory=dict)

    def opponents(self) -> list[str]:
        """The programs in the other seats (the key's designated opponents)."""
        return [p for s, p in enumerate(self.players) if s != self.seat]

    def divergence(self, agent: str) -> int | None:
        """The first ply where ``agent`` leaves the target's line (``None``: never)."""
        r = self.rows.loc[self.rows["agent"] == agent, "first_divergence_ply"]
        v = r.iloc[0] if len(r) else None
        return None if v is None or pd.isna(v) else int(v)


def role_of(agent: str, keys: KeySet, imitator: str | None) -> str:
    if agent == keys.target:
        return "target"
    if agent == imitator:
        return "imitator"
    return "reference" if agent in keys.references else "agent"


def _continuation(game: Game, keys: KeySet, index: int, agent_bot: Any,
                  provider: BotProvider) -> tuple[list[tuple[int, int, str, str]], int]:
    """The fork of key ``index`` with ``agent_bot`` in the key's seat: every move from the key
    ply on as ``(ply, seat, move, label)``, and the seat's outcome. The fork is
    :func:`ime.evaluate.forks.finish_as`'s: the same seats for the agent, bots, player ids,
    match id and seed."""
    m = keys.logged_match(index)
    ply = int(keys.df["ply"].iloc[index])
    seat = int(keys.df["seat"].iloc[index])
    mine = agent_seats(game, m.players, seat)
    bots = [agent_bot if p in mine else provider(pid) for p, pid in enumerate(m.players)]
    res = fork(game, m, ply, bots, player_ids=list(m.players))
    entries = [e for k, e in enumerate(res.log) if k % 2 == 1]
    state = game.new_initial_state(initdata=m.initdata, seed=m.seed)
    moves: list[tuple[int, int, str, str]] = []
    for turn, entry in enumerate(entries):
        if state.is_terminal():
            break
        movers = state.current_players()
        actions: dict[int, Any] = {}
        for p in movers:
            got = entry.get(str(p), {}) if isinstance(entry, Mapping) else {}
            response = got.get("response")
            try:
                action = (state.decode_response(p, response)
                          if got.get("verdict", "OK") == "OK" else None)
            except ValueError:
                action = None
            if turn >= ply:
                text = move_text(game.name, response)
                label = (move_label(game, state, p, action) if action is not None
                         else f"{got.get('verdict', 'OK')}: {text}")
                moves.append((turn, p, text, label))
            if action is not None:
                actions[p] = action
        if len(actions) < len(movers):  # a fault ended the match here
            break
        state.apply_actions(actions)
    return moves, outcome(res.scores, seat)


def trace_key(keys: KeySet, index: int, agents: Sequence[str], provider: BotProvider, *,
              imitator: str | None = None) -> Trace:
    """Key ``index`` of ``keys`` finished by each of ``agents`` in the key's seat (see the
    module doc). The target itself is always traced (first), since every other agent is
    compared with its line; ``imitator`` names the agent whose role is "imitator"."""
    if not 0 <= index < len(keys.df):
        raise IndexError(f"key {index} of {len(keys.df)}")
    game = get_game(keys.game, keys.game_params)
    order = [keys.target, *[a for a in dict.fromkeys(agents) if a != keys.target]]
    r = keys.df.iloc[index]
    ply, seat, match_id = int(r["ply"]), int(r["seat"]), str(r["match_id"])
    lines: dict[str, list[tuple[int, int, str, str]]] = {}
    outcomes: dict[str, int] = {}
    for a in order:
        lines[a], outcomes[a] = _continuation(game, keys, index, provider(a), provider)
    mine = {(p, s): mv for p, s, mv, _ in lines[keys.target]}
    rows = []
    for a in order:
        seq = [(p, s, mv) for p, s, mv, _ in lines[a]]
        ref = [(p, s, mv) for p, s, mv, _ in lines[keys.target]]
        div = next((where for where, x, y in _pad(seq, ref) if x != y), None)
        for p, s, mv, label in lines[a]:
            rows.append({"match_id": match_id, "agent": a, "role": role_of(a, keys, imitator),
                         "ply": p, "seat": s, "move": mv, "label": label,
                         "same_as_target": mine.get((p, s)) == mv,
                         "first_divergence_ply": div,
                         "result": OUTCOME_NAMES[outcomes[a]]})
    df = pd.DataFrame(rows, columns=TRACE_COLUMNS)
    df["first_divergence_ply"] = df["first_divergence_ply"].astype("Int64")
    position = str(_state_at_key(game, keys, index))
    return Trace(game=keys.game, target=keys.target, index=index,
                 key=key_names(keys)[index], match_id=match_id, ply=ply, seat=seat,
                 players=tuple(json.loads(r["players_json"])), position=position, rows=df,
                 outcomes=outcomes)


def _pad(seq: list[tuple[int, int, str]], ref: list[tuple[int, int, str]]
         ) -> list[tuple[int, tuple[int, int, str] | None, tuple[int, int, str] | None]]:
    """The two move lists side by side as ``(ply, mine, target's)``; the shorter one padded
    with ``None`` (at the ply after its last move), so an early end is a divergence too."""
    out = []
    for i in range(max(len(seq), len(ref))):
        a = seq[i] if i < len(seq) else None
        b = ref[i] if i < len(ref) else None
        where = (a or b)[0] if a is None or b is None else min(a[0], b[0])  # type: ignore[index]
        out.append((where, a, b))
    return out


def _state_at_key(game: Game, keys: KeySet, index: int) -> State:
    from ime.evaluate.forks import state_at

    return state_at(game, keys.logged_match(index), int(keys.df["ply"].iloc[index]))


# --- the stored verdicts ---------------------------------------------------------------------
def stored_outcomes(keys: KeySet, index: int,
                    scores: Mapping[str, pd.DataFrame] | None = None) -> dict[str, int]:
    """Every S2 verdict already computed for key ``index``: the target's (the key set's
    ``target_outcome``), each reference's (forked while mining) and each agent's in ``scores``
    (agent -> its score table on this key set, :mod:`ime.evaluate.scoring`)."""
    r = keys.df.iloc[index]
    out = {keys.target: int(r["target_outcome"])}
    for ref in keys.references:
        out[ref] = int(r[f"outcome__{ref}"])
    for agent, df in (scores or {}).items():
        hit = df[(df["match_id"].astype(str) == str(r["match_id"])) & (df["ply"] == r["ply"])
                 & (df["seat"] == r["seat"])]
        if len(hit) != 1:
            raise KeyError(f"{agent}'s scores hold {len(hit)} rows for key "
                           f"{r['match_id']}@{int(r['ply'])} (want 1)")
        out[agent] = int(hit["outcome"].iloc[0])
    return out


def check_outcomes(trace: Trace, expected: Mapping[str, int]) -> None:
    """Raise :class:`ValueError` when a traced agent's result is not its stored S2 verdict on
    the key (a trace is S2's fork, so they must agree)."""
    bad = {a: (OUTCOME_NAMES[trace.outcomes[a]], OUTCOME_NAMES[int(v)])
           for a, v in expected.items() if a in trace.outcomes and trace.outcomes[a] != int(v)}
    if bad:
        raise ValueError(f"trace of {trace.target}'s key {trace.key} disagrees with the stored "
                         f"S2 verdicts (traced, stored): {bad}")


# --- the thesis's choice ---------------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """The key a case study shows: ``target``'s key ``index``, and which rule picked it."""

    target: str
    index: int
    rule: str


CHOICE_RULES = (
    "the target and its imitator win, the most references lose",
    "the imitator gets the target's result, the most references do not",
    "the most references get another result than the target",
)
"""The rules :func:`choose_key` tries in order (each over the targets in order)."""


def choose_key(keysets: Sequence[KeySet], imitator_outcomes: Mapping[str, Sequence[int]]
               ) -> Choice:
    """The thesis's choice of case (5.5.2: bot 1 wins as the landlord, its imitator wins, bots
    2-5 lose): the first target (in the given order) with a key where the target and its
    imitator both win; among its such keys, the one where the most references lose; ties go to
    the earlier key. When no target has one, the first target with a key where the imitator gets
    the target's result, taking the key where the most references get another result; failing
    that, the first target's key where the most references differ. ``imitator_outcomes``: each
    target's imitator's S2 outcome per key, in key order."""
    def pick(ks: KeySet, ok: np.ndarray, score: np.ndarray) -> int | None:
        if not ok.any():
            return None
        return int(np.flatnonzero(ok)[np.argmax(score[ok])])  # argmax: the first of the best

    sets = [ks for ks in keysets if len(ks.df)]
    if not sets:
        raise ValueError("no key endgames to choose from (every key set is empty)")
    for rule in range(3):
        for ks in sets:
            tgt = ks.df["target_outcome"].astype(int).to_numpy()
            imit = np.asarray(imitator_outcomes.get(ks.target, np.full(len(tgt), -1)), int)
            if len(imit) != len(tgt):
                raise ValueError(f"{ks.target}: {len(imit)} imitator outcomes for "
                                 f"{len(tgt)} keys")
            refs = (np.stack([ks.df[f"outcome__{r}"].astype(int).to_numpy()
                              for r in ks.references], axis=1)
                    if ks.references else np.zeros((len(tgt), 0), int))
            if rule == 0:
                ok, score = (tgt == WIN) & (imit == WIN), (refs == LOSS).sum(axis=1)
            elif rule == 1:
                ok, score = imit == tgt, (refs != tgt[:, None]).sum(axis=1)
            else:
                ok, score = np.ones(len(tgt), bool), (refs != tgt[:, None]).sum(axis=1)
            i = pick(ks, ok, score)
            if i is not None:
                return Choice(ks.target, i, CHOICE_RULES[rule])
    raise AssertionError("unreachable: the last rule accepts every key")
