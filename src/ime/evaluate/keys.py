"""Key-endgame mining (thesis 3.2, Fig 3.4, section 4.4.1).

A *key endgame* of a target bot T is a (match, ply) from T's own matches, T to move, such that
when each reference bot (the other zoo targets) takes T's seat at that ply and finishes the game
against the *same opponent program*, at least one reference ends with a different win/draw/loss
than T did. Those positions are where the choice of program matters, so they are the test set for
both similarities: S1 (does the agent pick T's move here?) and S2 (does the agent, finishing the
game from here, get T's result?).

Choices made here (see ``docs/evaluation.md``):

* **Sampling, not exhaustion.** The thesis forks every ply of every match. We draw candidates in a
  seeded order spread over matches: matches are shuffled, each match's eligible plies are
  shuffled, and the order takes the first ply of every match, then the second of every match, and
  so on. We stop as soon as ``n_keys`` keys are found (or ``max_candidates`` were forked), keeping
  the *first* ``n_keys`` keys in that order, so the result does not depend on the worker count
  and growing ``n_keys`` only appends keys.
* **Positions with fewer than ``min_legal`` legal moves are skipped** (default 2): with a single
  legal move (or a forced pass) every program plays the same move, so S1 is trivially 1 there and
  the position only tests the opponent's reply, which the thesis calls a poor test.
* **Self-fork.** T itself finishes every candidate where some reference's result differs from
  T's (every would-be key), with the same match id and seed. It must reproduce the logged result
  and the logged moves; a candidate where it does not is counted, reported and never used as a
  key, since T's own result there is not reproducible. Candidates where every reference agrees
  with T cannot be keys whatever the self-fork says, so they are not self-forked (that saves a
  fifth of the forks with four references; ``check_all_self=True`` self-forks them too).
* **Repeated positions are not searched twice.** Each worker puts its position-pure bots
  behind a memo (:mod:`ime.core.memo`): the same keys, byte for byte, for less CPU.
* Matches that ended by a fault, or whose players the provider cannot build (e.g. a platform log
  naming an unknown program), are skipped and counted.
* **Any number of seats, simultaneous moves.** The target's seat is forked against the original
  programs in every other seat (:func:`ime.evaluate.forks.finish_as`), and the outcome is that
  seat's against all others (:func:`ime.evaluate.forks.outcome`); a turn with several movers is
  one ply whose player entry holds every mover's response. A target in several seats of one
  match (self-play, a side of two seats) gives one candidate list per seat. Where the target
  held every seat of its side (team seating), the reference takes them all
  (:func:`ime.evaluate.forks.agent_seats`), and the ``opponent`` column lists only the others.
* **The position as the nets see it** is stored with every key: the game encoder's observation of
  the target's seat and its legal masks (:func:`observe_for_nets`).

The candidates (:func:`load_target_matches`, :func:`candidate_order`) live in
:mod:`ime.evaluate.candidates`, storage (:func:`write_keyset`, :func:`read_keyset`,
:class:`KeySet`) in :mod:`ime.evaluate.keyset`; both are re-exported here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ime.core.encoding import Encoder, Observation
from ime.core.game import Action, Game, State
from ime.core.memo import memoize_provider
from ime.core.registry import get_plugin
from ime.evaluate.agents import warm_up
from ime.evaluate.candidates import (
    Candidate,
    MatchPool,
    candidate_order,
    eligible_plies,
    load_target_matches,
)
from ime.evaluate.forks import (
    BotProvider,
    action_column,
    action_key,
    agent_seats,
    finish_as,
    outcome,
    state_at,
)
from ime.evaluate.keyset import (
    KEYSET_VERSION,
    KeySet,
    MiningResult,
    MiningStats,
    read_keyset,
    write_keyset,
)
from ime.evaluate.parallel import ordered_map

__all__ = ["KEYSET_VERSION", "Candidate", "CandidateResult", "KeySet", "MatchPool",
           "MiningContext", "MiningResult", "MiningStats", "candidate_order",
           "eligible_plies", "encode_for_nets", "encoder_for", "evaluate_candidate",
           "load_target_matches", "mine_keys", "observe_for_nets", "read_keyset",
           "write_keyset"]


# --- observation encoding (the game's encoder) ----------------------------------------------------
_ENCODERS: dict[int, tuple[Game, Encoder]] = {}


def encoder_for(game: Game) -> Encoder:
    """The net encoder of this very game instance (its board options included), cached."""
    hit = _ENCODERS.get(id(game))
    if hit is None or hit[0] is not game:
        hit = (game, get_plugin(game.name).make_encoder(game))
        _ENCODERS[id(game)] = hit
    return hit[1]


def observe_for_nets(game: Game, states: Sequence[State], players: Sequence[int] | None = None,
                     actions: Sequence[Action] | None = None) -> Observation:
    """Planes and every head's legal mask as the game's imitation nets see them (thesis 3.1).

    ``players``: whose view (default: each state's single player to move); ``actions``: the
    actions played, which later heads' masks depend on.
    """
    return encoder_for(game).encode(states, players, actions)


def encode_for_nets(game: Game, states: Sequence[State],
                    players: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Planes and the first head's legal mask (see :func:`observe_for_nets`)."""
    obs = observe_for_nets(game, states, players)
    return obs.planes, obs.mask


# --- forking candidates (runs in worker processes) ------------------------------------------------
@dataclass
class MiningContext:
    """What each worker holds: the game, the pool, the provider and who plays."""

    game: Game
    pool: MatchPool
    provider: BotProvider
    target: str
    references: tuple[str, ...]
    check_all_self: bool = False


@dataclass
class CandidateResult:
    candidate: Candidate
    target_action: Any
    target_outcome: int
    self_outcome: int | None  # None: not self-forked (every reference agreed with the target)
    self_moves_same: bool | None
    ref_actions: dict[str, Any]
    ref_outcomes: dict[str, Any]
    planes: np.ndarray
    mask: np.ndarray
    forks: int
    seconds: float
    head_masks: dict[str, np.ndarray] = field(default_factory=dict)  # later heads, by name

    @property
    def self_checked(self) -> bool:
        return self.self_outcome is not None

    @property
    def self_ok(self) -> bool:
        return self.self_outcome == self.target_outcome and bool(self.self_moves_same)

    @property
    def refs_differ(self) -> bool:
        return any(o != self.target_outcome for o in self.ref_outcomes.values())

    @property
    def is_key(self) -> bool:
        return self.refs_differ and self.self_checked and self.self_ok


def evaluate_candidate(ctx: MiningContext, cand: Candidate) -> CandidateResult:
    """Fork one candidate with the target (self-check) and with every reference."""
    t0 = time.perf_counter()
    m = ctx.pool.matches[cand.index]
    state = state_at(ctx.game, m, cand.ply)
    entry = m.entries[cand.ply][str(cand.seat)]
    target_action = state.decode_response(cand.seat, entry["response"])
    target_outcome = outcome(m.scores, cand.seat)
    ref_actions: dict[str, Any] = {}
    ref_outcomes: dict[str, Any] = {}
    for ref in ctx.references:
        fo = finish_as(ctx.game, m, cand.ply, cand.seat, ctx.provider(ref), ctx.provider,
                       state=state)
        ref_actions[ref] = fo.action
        ref_outcomes[ref] = fo.outcome
    forks = len(ctx.references)
    self_outcome: int | None = None
    self_same: bool | None = None
    if ctx.check_all_self or any(o != target_outcome for o in ref_outcomes.values()):
        me = finish_as(ctx.game, m, cand.ply, cand.seat, ctx.provider(ctx.target), ctx.provider,
                       compare_moves=True, state=state)
        self_outcome, self_same, forks = me.outcome, bool(me.moves_same), forks + 1
    enc = encoder_for(ctx.game)
    obs = enc.encode([state], [cand.seat], [target_action])
    later = {h.name: obs.masks[k][0] for k, h in enumerate(enc.heads) if k > 0}
    return CandidateResult(cand, target_action, target_outcome, self_outcome, self_same,
                           ref_actions, ref_outcomes, obs.planes[0], obs.masks[0][0], forks,
                           time.perf_counter() - t0, later)


# --- the miner ------------------------------------------------------------------------------------
def mine_keys(
    game: Game,
    target: str,
    references: Sequence[str],
    log_paths: Iterable[str | Path],
    provider_factory: Callable[[], BotProvider],
    *,
    n_keys: int,
    max_candidates: int | None = None,
    min_legal: int = 2,
    seed: int = 0,
    match_seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    check_all_self: bool = False,
    game_params: Mapping[str, Any] | None = None,
    memo: bool = True,
) -> MiningResult:
    """Mine up to ``n_keys`` key endgames of ``target`` from its logged matches.

    ``provider_factory()`` is called once per worker process and returns a function making bots
    from ids (cached); ``match_seed`` is the seed the logged matches were played with (a line's
    own ``seed`` field overrides it). ``check_all_self`` self-forks every candidate, not only
    the would-be keys (a wider reproducibility check at 1/(1 + #references) more forks).
    ``game_params``: the board options ``game`` was built with, stored in the key set so that
    scoring rebuilds the same game. ``memo``: each worker remembers its position-pure bots'
    decisions by position (:mod:`ime.core.memo`); the keys are the same bytes without it, only
    slower (``False`` is for measuring that).
    """
    t0 = time.perf_counter()
    references = tuple(r for r in references if r != target)
    if not references:
        raise ValueError(f"{target}: key mining needs at least one reference bot")
    local = provider_factory()

    def known(bot_id: str) -> bool:
        try:
            local(bot_id)
        except (KeyError, ValueError):
            return False
        return True

    pool = load_target_matches(log_paths, target, default_seed=match_seed, known=known)
    for bot_id in (target, *references):
        local(bot_id)  # fail early, in this process, with the registry's message
    cands, forced = candidate_order(game, pool, min_legal=min_legal, seed=seed, salt=target)
    available = len(cands)
    if max_candidates is not None:
        cands = cands[:max_candidates]

    def setup() -> MiningContext:
        prov = memoize_provider(provider_factory()) if memo else provider_factory()
        if workers > 1:
            warm_up(prov, [target, *references, *(p for m in pool.matches for p in m.players)],
                    game)
        return MiningContext(game, pool, prov, target, references, check_all_self)

    results: list[CandidateResult] = []
    n_found = 0
    bar = tqdm(total=n_keys, desc=f"keys {target}", unit="key", disable=not progress)
    for res in ordered_map(evaluate_candidate, cands, setup, workers=workers):
        results.append(res)
        if res.is_key:
            n_found += 1
            bar.update()
        bar.set_postfix(forked=len(results), rate=f"{n_found / len(results):.2f}",
                        refresh=False)
        if n_found >= n_keys:
            break
    bar.close()
    seconds = time.perf_counter() - t0

    keys, cand_df = _frames(game, pool, results, target, references)
    forks = sum(r.forks for r in results)
    checked = [r for r in results if r.self_checked]
    self_ok = sum(r.self_ok for r in checked)
    stats = MiningStats(
        game=game.name, target=target, references=list(references), n_keys_wanted=n_keys,
        n_keys=len(keys), candidates_forked=len(results), candidates_available=available,
        key_rate=len(keys) / len(results) if results else 0.0,
        self_fork_checked=len(checked), self_fork_reproduced=self_ok,
        self_fork_failed=len(checked) - self_ok,
        self_fork_rate=self_ok / len(checked) if checked else 1.0,
        forced_positions_skipped=forced, matches_total=len(pool.matches),
        matches_skipped=dict(pool.skipped),
        matches_with_keys=int(keys["match_id"].nunique()) if len(keys) else 0,
        forks=forks, seconds=round(seconds, 3),
        forks_per_s=round(forks / seconds, 3) if seconds > 0 else 0.0,
        workers=workers, min_legal=min_legal, seed=seed,
    )
    shape = tuple(results[0].planes.shape) if results else (0,)
    return MiningResult(keys, cand_df, stats, shape, dict(game_params) if game_params else None)


def _frames(game: Game, pool: MatchPool, results: Sequence[CandidateResult], target: str,
            references: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = []
    for r in results:
        c = r.candidate
        m = pool.matches[c.index]
        row: dict[str, Any] = {
            "match_id": m.match_id, "ply": c.ply, "seat": c.seat,
            "opponent": ",".join(p for s, p in enumerate(m.players)
                                 if s not in agent_seats(game, m.players, c.seat)),
            "n_legal": c.n_legal, "action": action_key(r.target_action),
            "target_outcome": r.target_outcome,
            "self_outcome": -1 if r.self_outcome is None else r.self_outcome,
            "self_moves_same": bool(r.self_moves_same), "is_key": r.is_key,
        }
        for ref in references:
            row[f"action__{ref}"] = action_key(r.ref_actions[ref])
            row[f"outcome__{ref}"] = int(r.ref_outcomes[ref])
        rows.append(row)
    cand_df = pd.DataFrame(rows)
    if not rows:
        return cand_df, cand_df
    for col in ["action", *(f"action__{ref}" for ref in references)]:
        cand_df[col] = action_column(list(cand_df[col]))
    keep = np.flatnonzero(cand_df["is_key"].to_numpy())
    keys = cand_df.iloc[keep].drop(columns=["is_key"]).reset_index(drop=True)
    sel = [results[i] for i in keep]
    keys.insert(0, "target", target)
    keys["seed"] = [pool.matches[r.candidate.index].seed for r in sel]
    keys["players_json"] = [json.dumps(list(pool.matches[r.candidate.index].players))
                            for r in sel]
    keys["initdata_json"] = [json.dumps(pool.matches[r.candidate.index].initdata)
                             for r in sel]
    keys["prefix_json"] = [
        json.dumps(list(pool.matches[r.candidate.index].entries[: r.candidate.ply]),
                   separators=(",", ":"))
        for r in sel
    ]
    keys["planes"] = [r.planes.reshape(-1).astype(np.uint8) for r in sel]
    keys["mask"] = [r.mask.reshape(-1).astype(np.uint8) for r in sel]
    for name in (results[0].head_masks if results else {}):
        keys[f"mask_{name}"] = [r.head_masks[name].reshape(-1).astype(np.uint8) for r in sel]
    return keys, cand_df


