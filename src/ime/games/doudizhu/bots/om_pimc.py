"""``pimc_om``: ``ddz_mc`` whose rollouts let a model play the other seats (issue 49, Deliver 2).

Why: the thesis's outlook (6.2) proposes to follow an imitator of the opponent inside a search.
Doudizhu's search bot is the determinized Monte-Carlo ``ddz_mc`` (:mod:`.pimc`); its rollouts
play every seat with one compiled default policy (the smallest play, 15 % random moves), which
knows nothing of the bots at the table. Here the *modelled seats'* plays in the rollouts come
from a model of them, normally the imitator of the bot that sits there, learnt from its logs
alone; docs/opponent_model.md ("Doudizhu: opponent-model rollouts") has the knobs and the zoo
entry format.

What changes and what does not:

* Candidates, determinizations (the hidden hands dealt from the unseen cards, the landlord's
  public cards forced), the successive-halving schedule, the rewards (a win 1 + ``margin`` x
  the losers' cards, a loss -``margin`` x our side's cards) and the tie rule are ``ddz_mc``'s.
  So is the budget: ``simulations`` rollouts a decision (at least one per candidate and round),
  counted, never timed.
* **Without a model** the bot *is* ``ddz_mc``: the same compiled rollouts, the same decisions
  and shares bit for bit (tested).
* **With a model** a rollout is played on a determinized engine state (the current state with
  the unseen cards dealt, history kept, so the model sees what that seat would see there). At a
  modelled seat's turn (``model_seats``: ``others``, both other seats, or ``opponents``, the
  other side only) the model plays; every other turn (ours, and the teammate's under
  ``opponents``) is the default policy of :mod:`.playout` (its compiled rule, the random move
  drawn here). ``model_turns`` caps the model's plays per rollout (``None``: to the end), after
  which the default policy plays every seat: a cost knob.
* **Which play the model gives** (``model_play``): ``sample`` (default) draws the imitator's
  play from its factorised policy (major, then each kicker) with a seeded uniform per head;
  ``argmax`` plays the imitator's own decision (:meth:`ime.games.kickers.KickerStepEncoder.select`:
  most probable major, then kickers, lowest code on ties). Sampling is the default because the
  rollouts estimate an *expectation* over the opponents' replies: an imitator right at, say,
  70 % of the target's decisions should put the other 30 % where its distribution puts them
  instead of always the top play (the argmax-everywhere M* reading, which om_search measured
  to lose when the model is often wrong, docs/opponent_model.md), and the draws keep the
  rollouts of one deal apart as the default policy's ``epsilon`` does. ``argmax`` is the
  deterministic reading, and what a bot model (``source: zoo``) gives anyway.
* **Batches and seeds.** All rollouts of a round advance in lockstep; the positions where a
  modelled seat is to move are asked in calls of up to ``batch`` positions, in rollout order.
  Every random number (the deals, the default policy's random moves, the model's draws) comes
  from one generator seeded by the decision's seed (:func:`ime.core.bot.decision_rng` via
  ``ddz_mc``'s per-round seed) and consumed in rollout order, so a decision is a pure function
  of (config, seed, match, ply, seat, what the seat knows) and does not depend on ``batch``.

A model is any object with ``plays(states, players, uniforms) -> actions`` (``uniforms``:
``None`` for the argmax, else per-position draws, ``[n, heads]``); :func:`as_play_model` wraps
an :class:`ime.bots.imitator.ImitatorBot` (:class:`ImitatorPlays`) or any bot
(:class:`BotPlays`: its ``act``, the true-model control). The zoo entry names the model as
``om_search`` does (``opponent: {bot, net, fold}`` resolved to checkpoints by the workflow, or
``{bot, source: zoo}``), loaded by :func:`ime.bots.om_search.build_opponent`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ime.core.bot import Bot, DecisionContext
from ime.core.game import Action, State
from ime.games.doudizhu.bots.pimc import PIMCBot
from ime.games.doudizhu.bots.playout import CAPACITY, _ids, policy
from ime.games.doudizhu.bots.view import SeatView
from ime.games.doudizhu.cards import LANDLORD

MODEL_PLAYS = ("sample", "argmax")
MODEL_SEATS = ("others", "opponents")


class PlayModel(Protocol):
    """What the rollouts need of a model: one play per position."""

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        """Per state, ``player``'s play (legal); ``uniforms`` ``None``: the model's most likely
        play, else row ``i``'s draws in [0, 1) for a sample."""


class ImitatorPlays:
    """An imitator (``encoder`` with ``select_batch`` + ``head_policy``) as a rollout model:
    batched :meth:`~ime.games.kickers.KickerStepEncoder.select_batch` over its ensemble-averaged
    masked policy."""

    def __init__(self, imitator: Any):
        if not hasattr(imitator.encoder, "select_batch"):
            raise TypeError(f"{type(imitator.encoder).__name__} has no select_batch: "
                            f"pimc_om needs a kicker-step (card game) imitator")
        self.imitator = imitator
        self.heads = len(imitator.encoder.heads)

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        return self.imitator.encoder.select_batch(states, players, self.imitator.head_policy,
                                                  uniforms)


class BotPlays:
    """Any bot as a rollout model: its ``act`` at each position (``uniforms`` unused), with the
    decision's seed and match, the position's ply and the seat (:meth:`bind` sets the first
    two). The true-model control: the original bot itself plays its seats in the rollouts."""

    heads = 1

    def __init__(self, bot: Bot):
        self.bot = bot
        self.seed, self.match_id = 0, ""

    def bind(self, ctx: DecisionContext) -> None:
        self.seed, self.match_id = ctx.seed, ctx.match_id

    def plays(self, states: Sequence[State], players: Sequence[int],
              uniforms: np.ndarray | None) -> list[Action]:
        return [self.bot.act(s, DecisionContext(seed=self.seed, match_id=self.match_id,
                                                ply=s.ply, player=p))
                for s, p in zip(states, players, strict=True)]


def as_play_model(obj: Any) -> Any:
    """``obj`` as a :class:`PlayModel`: an object with ``plays`` as it is, an imitator
    (``encoder`` + ``head_policy``) as :class:`ImitatorPlays`, any bot as :class:`BotPlays`."""
    if obj is None or hasattr(obj, "plays"):
        return obj
    if hasattr(obj, "head_policy") and hasattr(obj, "encoder"):
        return ImitatorPlays(obj)
    if isinstance(obj, Bot) or hasattr(obj, "act"):
        return BotPlays(obj)
    raise TypeError(f"not a rollout model: {type(obj).__name__} (needs plays, an imitator's "
                    f"head_policy, or a bot's act)")


@dataclass(frozen=True)
class RolloutModelConfig:
    """How the model plays in the rollouts (see the module doc): ``model_play`` (``sample`` or
    ``argmax``), ``model_seats`` (``others`` or ``opponents``), ``model_turns`` (the model's
    plays per rollout, ``None``: no cap), ``batch`` (most positions per model call)."""

    model_play: str = "sample"
    model_seats: str = "others"
    model_turns: int | None = None
    batch: int = 256

    def __post_init__(self) -> None:
        if self.model_play not in MODEL_PLAYS:
            raise ValueError(f"pimc_om: model_play={self.model_play!r}; choose from "
                             f"{list(MODEL_PLAYS)}")
        if self.model_seats not in MODEL_SEATS:
            raise ValueError(f"pimc_om: model_seats={self.model_seats!r}; choose from "
                             f"{list(MODEL_SEATS)}")
        if self.model_turns is not None and int(self.model_turns) < 0:
            raise ValueError(f"pimc_om: model_turns must be >= 0 or null "
                             f"(got {self.model_turns})")
        if int(self.batch) < 1:
            raise ValueError(f"pimc_om: batch must be >= 1 (got {self.batch})")

    def seats(self, me: int) -> tuple[int, ...]:
        """The seats the model plays when ``me`` decides."""
        others = tuple(q for q in range(3) if q != me)
        if self.model_seats == "others" or me == LANDLORD:
            return others
        return (LANDLORD,)


@dataclass
class _Rollout:
    """One (determinization, candidate) rollout: its state and the model's plays so far."""

    cand: int
    state: State
    model_plays: int = 0


class ModelPIMCBot(PIMCBot):
    """``ddz_mc`` whose rollouts let ``model`` play the modelled seats (see the module doc).

    ``model``: any object :func:`as_play_model` accepts, or ``None`` (then exactly ``ddz_mc``).
    ``config``: a :class:`RolloutModelConfig`. The other keywords are :class:`.pimc.PIMCBot`'s.
    Counts of the last decision are in :attr:`last`: ``rollouts``, ``model_positions``
    (positions the model played), ``model_calls`` and ``default_plays`` (plies of the default
    policy in the rollouts)."""

    def __init__(self, bot_id: str = "ddz_mc_om", *, model: Any = None,
                 config: RolloutModelConfig | None = None, **pimc: Any):
        super().__init__(bot_id, **pimc)
        self.model = as_play_model(model)
        self.config = config or RolloutModelConfig()
        self.deterministic = False
        self.last: dict[str, Any] = {}
        self._ids = _ids()
        self._meta = np.empty((CAPACITY, 4), np.int64)
        self._counts = np.empty((CAPACITY, 15), np.int8)
        self._cards = np.empty((CAPACITY, 20), np.int64)

    def act(self, state: State, ctx: DecisionContext) -> Action:
        self._state = state
        self.last = {"rollouts": 0, "model_positions": 0, "model_calls": 0, "default_plays": 0}
        if hasattr(self.model, "bind"):
            self.model.bind(ctx)
        try:
            return super().act(state, ctx)
        finally:
            self._state = None

    def _evaluate(self, view: SeatView, cands: list[int], n_det: int, seed: int) -> np.ndarray:
        self.last["rollouts"] = self.last.get("rollouts", 0) + n_det * len(cands)
        if self.model is None:
            return super()._evaluate(view, cands, n_det, seed)
        return self._model_evaluate(self._state, view, cands, n_det, seed)

    # --- rollouts with the model -----------------------------------------------------------------
    def _deal(self, state: Any, me: int, rng: np.random.Generator) -> Any:
        """A determinization: ``state`` with the cards ``me`` has not seen dealt at random to
        the two other seats (their counts kept, the landlord's unplayed public cards forced to
        it); the history is kept. Reads no hidden hand: only ``me``'s hand, the public cards,
        the plays and the counts."""
        unseen = np.asarray(state.unseen_by(me), np.int64)
        others = [q for q in range(3) if q != me]
        forced: list[int] = []
        if me != LANDLORD:
            gone = set(state.played_by(LANDLORD))
            forced = [c for c in state.public_cards if c not in gone]
        free = np.asarray([c for c in unseen.tolist() if c not in set(forced)], np.int64)
        rng.shuffle(free)
        first, second = (LANDLORD, others[1]) if me != LANDLORD else (others[0], others[1])
        need = state.cards_left(first) - len(forced)
        s = state.clone()  # its own copy of ``where``
        s.where[np.asarray(forced, np.int64)] = first
        s.where[free[:need]] = first
        s.where[free[need:]] = second
        played: dict[int, list[int]] = {q: [] for q in range(3)}
        for q, cards in s.history:
            played[q].extend(cards)
        s._dealt = [s._dealt[q] if q == me else
                    frozenset(np.flatnonzero(s.where == q).tolist() + played[q])
                    for q in range(3)]  # what the judge checks a play against
        s._legal = None
        return s

    def _default(self, s: Any, rng: np.random.Generator) -> Action:
        """The default policy of :mod:`.playout` for the seat to move (its compiled rule; the
        ``epsilon`` random move drawn from ``rng``, uniform over the legal actions as there)."""
        p = s.to_move
        legal = s.legal_actions(p)
        if self.epsilon > 0.0 and rng.random() < self.epsilon:
            return legal[int(rng.integers(len(legal)))]
        h = np.stack([s.hand_counts(q) for q in range(3)]).astype(np.int64)
        last = s.last_play
        lead = s.leading
        if lead:
            lp, kind, rank, chain = p, 0, -1, 0
        else:
            lp, _, combo = last
            kind, rank, chain = int(combo.kind), int(combo.rank), int(combo.chain)
        j = policy(h, p, lead, kind, rank, chain, lp, self._ids, self._meta, self._counts,
                   self._cards, 0.0, self.bomb_at)
        if j < 0:
            return ()
        return s.cards_for(p, self._counts[j].astype(np.int64))

    def _reward(self, s: Any, me: int) -> float:
        side = 0 if me == LANDLORD else 1
        won = (0 if s.winner == LANDLORD else 1) == side
        if self.margin <= 0.0:
            return 1.0 if won else 0.0
        left = [s.cards_left(q) for q in range(3)]
        if won:
            return 1.0 + self.margin * sum(n for q, n in enumerate(left)
                                           if (0 if q == LANDLORD else 1) != side)
        return -self.margin * sum(n for q, n in enumerate(left)
                                  if (0 if q == LANDLORD else 1) == side)

    def _model_evaluate(self, state: Any, view: SeatView, cands: list[int], n_det: int,
                        seed: int) -> np.ndarray:
        """Each candidate's mean reward over ``n_det`` determinizations (shared by all
        candidates), the rollouts played with the model at the modelled seats."""
        cfg = self.config
        me = view.me
        seats = set(cfg.seats(me))
        rng = np.random.default_rng(seed)
        wins = np.zeros(len(cands))
        running: list[_Rollout] = []
        for _ in range(n_det):
            base = self._deal(state, me, rng)
            for c, i in enumerate(cands):
                s = base.clone()
                s.apply_action(view.legal[i])
                if s.is_terminal():
                    wins[c] += 1.0  # as ddz_mc: going out at once scores 1, no margin
                else:
                    running.append(_Rollout(c, s))
        heads = int(getattr(self.model, "heads", 1))
        while running:
            asked = [r for r in running if r.state.to_move in seats
                     and (cfg.model_turns is None or r.model_plays < cfg.model_turns)]
            ask = {id(r) for r in asked}
            # draws in rollout order: the default policy's, then the model's, per step
            for r in running:
                if id(r) not in ask:
                    r.state.apply_action(self._default(r.state, rng))
                    self.last["default_plays"] += 1
            uniforms = (None if cfg.model_play == "argmax"
                        else rng.random((len(asked), heads)))
            for lo in range(0, len(asked), cfg.batch):
                part = asked[lo:lo + cfg.batch]
                plays = self.model.plays([r.state for r in part],
                                         [r.state.to_move for r in part],
                                         None if uniforms is None else uniforms[lo:lo + len(part)])
                self.last["model_calls"] += 1
                self.last["model_positions"] += len(part)
                for r, a in zip(part, plays, strict=True):
                    legal = r.state.legal_actions(r.state.to_move)
                    if a not in legal:
                        raise RuntimeError(f"pimc_om {self.bot_id}: the model played {a!r}, "
                                           f"not a legal play ({len(legal)} legal)")
                    r.state.apply_action(a)
                    r.model_plays += 1
            still = []
            for r in running:
                if r.state.is_terminal():
                    wins[r.cand] += self._reward(r.state, me)
                else:
                    still.append(r)
            running = still
        return wins / n_det


_PIMC_PARAMS = ("simulations", "max_determinizations", "epsilon", "bomb_at", "margin",
                "halving")
_MODEL_PARAMS = ("model_play", "model_seats", "model_turns", "batch")


def make(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    """The zoo factory of kind ``pimc_om``: ``ddz_mc``'s params, ``opponent`` (as
    ``om_search``'s: ``{bot, net, fold, checkpoints}`` or ``{bot, source: zoo}``; absent: no
    model) and :class:`RolloutModelConfig`'s knobs."""
    from ime.bots.om_search import build_opponent

    p = dict(params)
    opponent = p.pop("opponent", None)
    unknown = sorted(set(p) - set(_PIMC_PARAMS) - set(_MODEL_PARAMS))
    if unknown:
        raise ValueError(f"pimc_om {bot_id!r}: unknown params {unknown}; known: "
                         f"{sorted(['opponent', *_PIMC_PARAMS, *_MODEL_PARAMS])}")
    config = RolloutModelConfig(**{k: p.pop(k) for k in _MODEL_PARAMS if k in p})
    model = build_opponent(game, bot_id, opponent) if opponent else None
    return ModelPIMCBot(bot_id, model=model, config=config, **p)


__all__ = ["MODEL_PLAYS", "MODEL_SEATS", "BotPlays", "ImitatorPlays", "ModelPIMCBot",
           "PlayModel", "RolloutModelConfig", "as_play_model", "make"]
