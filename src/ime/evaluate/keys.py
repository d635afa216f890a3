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
* Matches that ended by a fault, or whose players the provider cannot build (e.g. a platform log
  naming an unknown program), are skipped and counted.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from ime.core.seeding import derive_seed
from ime.evaluate.agents import warm_up
from ime.evaluate.forks import BotProvider, LoggedMatch, finish_as, outcome, state_at
from ime.evaluate.parallel import ordered_map
from ime.core.game import Game, State
from ime.matches.logs import iter_raw_matches

KEYSET_VERSION = "ime-keys-v1"


# --- observation encoding (per game) -------------------------------------------------------------
def encode_for_nets(game: Game, states: Sequence[State]) -> tuple[np.ndarray, np.ndarray]:
    """Planes and legal mask as the game's imitation nets see them (thesis 3.1)."""
    if game.name == "reversi":
        from ime.games.reversi.encode import encode_states

        return encode_states(states)
    raise NotImplementedError(f"no net encoder for game {game.name!r}")


# --- reading the target's matches ---------------------------------------------------------------
@dataclass
class MatchPool:
    """The target's usable matches and why the others were left out."""

    matches: list[LoggedMatch] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


def load_target_matches(
    paths: Iterable[str | Path],
    target: str,
    *,
    default_seed: int,
    known: Callable[[str], bool] | None = None,
) -> MatchPool:
    """Every logged match in which ``target`` plays, ordered by (match id, seat).

    Sorted so that the key sample does not depend on how the logs are split into files (the
    number of shards is an execution detail); the sort is stable, so repeated match ids keep
    their file order.

    ``known(bot_id)`` says whether a fork can rebuild that program; matches with a player it
    rejects are skipped (counted as ``unknown_player``). Unreadable lines raise, naming the file.
    """
    pool = MatchPool()
    for path in paths:
        for item in iter_raw_matches(path):
            if not hasattr(item, "data"):
                raise ValueError(f"unreadable match log line: {item}")
            data = item.data
            players = [p.get("bot") if isinstance(p, Mapping) else p
                       for p in data.get("players", [])]
            if target not in players:
                continue
            m = LoggedMatch.from_json(data, default_seed)
            if m.faulted:
                pool.skip("faulted")
                continue
            if known is not None and not all(known(p) for p in m.players):
                pool.skip("unknown_player")
                continue
            for seat, pid in enumerate(m.players):
                if pid == target:
                    pool.matches.append(m)
                    pool.seats.append(seat)
    ordered = sorted(zip(pool.matches, pool.seats, strict=True),
                     key=lambda ms: (ms[0].match_id, ms[1]))
    pool.matches = [m for m, _ in ordered]
    pool.seats = [seat for _, seat in ordered]
    return pool


@dataclass(frozen=True)
class Candidate:
    """A (match, ply) where the target is to move: an index into the pool, the ply, the seat."""

    index: int
    ply: int
    seat: int
    n_legal: int


def eligible_plies(game: Game, match: LoggedMatch, seat: int,
                   min_legal: int) -> list[tuple[int, int]]:
    """``(ply, n_legal)`` of every turn where ``seat`` moves with ``>= min_legal`` choices."""
    state = game.new_initial_state(initdata=match.initdata, seed=match.seed)
    out = []
    for ply, entry in enumerate(match.entries):
        if state.is_terminal():
            break
        movers = state.current_players()
        if seat in movers:
            n = len(state.legal_actions(seat))
            if n >= min_legal:
                out.append((ply, n))
        state.apply_actions({p: state.decode_response(p, entry[str(p)]["response"])
                             for p in movers})
    return out


def candidate_order(game: Game, pool: MatchPool, *, min_legal: int, seed: int,
                    salt: str = "") -> tuple[list[Candidate], int]:
    """The seeded, match-interleaved candidate order; also returns how many were too forced."""
    rng = np.random.default_rng(derive_seed("keys", seed, salt))
    per_match: list[list[Candidate]] = []
    forced = 0
    for i, (m, seat) in enumerate(zip(pool.matches, pool.seats, strict=True)):
        all_plies = eligible_plies(game, m, seat, 0)
        ok = [(p, n) for p, n in all_plies if n >= min_legal]
        forced += len(all_plies) - len(ok)
        order = rng.permutation(len(ok))
        per_match.append([Candidate(i, ok[j][0], seat, ok[j][1]) for j in order])
    match_order = rng.permutation(len(per_match))
    out: list[Candidate] = []
    depth = max((len(c) for c in per_match), default=0)
    for r in range(depth):
        for i in match_order:
            if r < len(per_match[i]):
                out.append(per_match[i][r])
    return out, forced


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
    planes, mask = encode_for_nets(ctx.game, [state])
    return CandidateResult(cand, target_action, target_outcome, self_outcome, self_same,
                           ref_actions, ref_outcomes, planes[0], mask[0], forks,
                           time.perf_counter() - t0)


# --- the miner ------------------------------------------------------------------------------------
@dataclass
class MiningStats:
    """Everything the report says about one target's mining run."""

    game: str
    target: str
    references: list[str]
    n_keys_wanted: int
    n_keys: int
    candidates_forked: int
    candidates_available: int
    key_rate: float
    self_fork_checked: int
    self_fork_reproduced: int
    self_fork_failed: int
    self_fork_rate: float
    forced_positions_skipped: int
    matches_total: int
    matches_skipped: dict[str, int]
    matches_with_keys: int
    forks: int
    seconds: float
    forks_per_s: float
    workers: int
    min_legal: int
    seed: int

    TIMING_FIELDS = ("seconds", "forks_per_s", "workers")

    def to_json(self) -> dict:
        return asdict(self)

    def deterministic_json(self) -> dict:
        """Everything but wall-clock timings: same config + seed -> same bytes."""
        return {k: v for k, v in asdict(self).items() if k not in self.TIMING_FIELDS}

    def timing_json(self) -> dict:
        return {"target": self.target, "candidates_forked": self.candidates_forked,
                "forks": self.forks, **{k: getattr(self, k) for k in self.TIMING_FIELDS}}


@dataclass
class MiningResult:
    keys: pd.DataFrame
    candidates: pd.DataFrame
    stats: MiningStats
    planes_shape: tuple[int, ...]


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
) -> MiningResult:
    """Mine up to ``n_keys`` key endgames of ``target`` from its logged matches.

    ``provider_factory()`` is called once per worker process and returns a function making bots
    from ids (cached); ``match_seed`` is the seed the logged matches were played with (a line's
    own ``seed`` field overrides it). ``check_all_self`` self-forks every candidate, not only
    the would-be keys (a wider reproducibility check at 1/(1 + #references) more forks).
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
        prov = provider_factory()
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
    return MiningResult(keys, cand_df, stats, shape)


def _code(a: Any) -> int:
    """Integer action codes in the tables; ``-1`` for a missing/faulty first response."""
    if a is None:
        return -1
    if isinstance(a, (int, np.integer)):
        return int(a)
    raise TypeError(f"key sets store integer action codes; got {a!r}")


def _frames(game: Game, pool: MatchPool, results: Sequence[CandidateResult], target: str,
            references: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = []
    for r in results:
        c = r.candidate
        m = pool.matches[c.index]
        row: dict[str, Any] = {
            "match_id": m.match_id, "ply": c.ply, "seat": c.seat,
            "opponent": ",".join(p for s, p in enumerate(m.players) if s != c.seat),
            "n_legal": c.n_legal, "action": _code(r.target_action),
            "target_outcome": r.target_outcome,
            "self_outcome": -1 if r.self_outcome is None else r.self_outcome,
            "self_moves_same": bool(r.self_moves_same), "is_key": r.is_key,
        }
        for ref in references:
            row[f"action__{ref}"] = _code(r.ref_actions[ref])
            row[f"outcome__{ref}"] = int(r.ref_outcomes[ref])
        rows.append(row)
    cand_df = pd.DataFrame(rows)
    if not rows:
        return cand_df, cand_df
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
    return keys, cand_df


# --- storage ------------------------------------------------------------------------------------
def write_keyset(result: MiningResult, keys_path: str | Path,
                 candidates_path: str | Path | None = None,
                 stats_path: str | Path | None = None,
                 timing_path: str | Path | None = None) -> None:
    """Parquet key set (+ candidates table, stats JSON, timing JSON).

    Planes/masks are fixed-size list columns. Wall-clock timings go to their own file so that the
    key set and its stats are byte-identical across runs of the same config.
    """
    keys_path = Path(keys_path)
    keys_path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "ime.keyset_version": KEYSET_VERSION,
        "ime.game": result.stats.game,
        "ime.target": result.stats.target,
        "ime.references": json.dumps(result.stats.references),
        "ime.planes_shape": json.dumps(list(result.planes_shape)),
        "ime.stats": json.dumps(result.stats.deterministic_json()),
    }
    _write_parquet(result.keys, keys_path, meta, result.planes_shape)
    if candidates_path is not None:
        _write_parquet(result.candidates, Path(candidates_path), meta, result.planes_shape)
    if stats_path is not None:
        Path(stats_path).write_text(
            json.dumps(result.stats.deterministic_json(), indent=2) + "\n")
    if timing_path is not None:
        Path(timing_path).write_text(json.dumps(result.stats.timing_json(), indent=2) + "\n")


def _write_parquet(df: pd.DataFrame, path: Path, meta: Mapping[str, str],
                   planes_shape: Sequence[int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = {}
    for name in df.columns:
        if name in ("planes", "mask"):
            width = int(np.prod(planes_shape)) if name == "planes" else None
            flat = np.concatenate(list(df[name])) if len(df) else np.zeros(0, np.uint8)
            if width is None:
                width = len(df[name].iloc[0]) if len(df) else 0
            cols[name] = pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.uint8()), width)
        else:
            cols[name] = pa.array(df[name].tolist())
    table = pa.table(cols) if cols else pa.table({"match_id": pa.array([], pa.string())})
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    tmp = path.with_suffix(path.suffix + ".part")
    pq.write_table(table, tmp)
    tmp.replace(path)


@dataclass
class KeySet:
    """A stored key set: the table, its references, and the planes/masks as arrays."""

    df: pd.DataFrame
    game: str
    target: str
    references: list[str]
    planes: np.ndarray
    mask: np.ndarray
    stats: dict

    def logged_match(self, i: int) -> LoggedMatch:
        """The stored prefix of key ``i`` as a forkable match (entries end at the key ply)."""
        r = self.df.iloc[i]
        return LoggedMatch(
            match_id=str(r["match_id"]), players=tuple(json.loads(r["players_json"])),
            seed=int(r["seed"]), initdata=json.loads(r["initdata_json"]),
            entries=tuple(json.loads(r["prefix_json"])), scores=(), faulted=False,
        )


def read_keyset(path: str | Path) -> KeySet:
    """Read a key set written by :func:`write_keyset`; checks the format version."""
    table = pq.read_table(path)
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    if meta.get("ime.keyset_version") != KEYSET_VERSION:
        raise ValueError(f"{path}: not an IME key set (version "
                         f"{meta.get('ime.keyset_version')!r}, want {KEYSET_VERSION!r})")
    shape = tuple(json.loads(meta["ime.planes_shape"]))
    n = table.num_rows
    if n and "planes" in table.column_names:
        planes = table.column("planes").combine_chunks().flatten().to_numpy()
        planes = planes.reshape((n, *shape))
        mask = table.column("mask").combine_chunks().flatten().to_numpy().reshape(n, -1)
        df = table.drop(["planes", "mask"]).to_pandas()
    else:
        planes = np.zeros((0, *shape), np.uint8)
        mask = np.zeros((0, 0), np.uint8)
        df = table.drop([c for c in ("planes", "mask") if c in table.column_names]).to_pandas()
    return KeySet(df=df, game=meta["ime.game"], target=meta["ime.target"],
                  references=json.loads(meta["ime.references"]), planes=planes, mask=mask,
                  stats=json.loads(meta.get("ime.stats", "{}")))
