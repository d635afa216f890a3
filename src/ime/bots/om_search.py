"""Opponent-model search (issue 49): alpha-beta whose opponent nodes follow a model of the opponent.

Why: the thesis's outlook (6.2) proposes to use an imitator of the opponent inside a search:
where the opponent moves, follow what it is likely to play instead of assuming its worst reply
for us, so the tree is smaller and the play better against *that* opponent. This module is that
search, generic over two-player games through the game API alone (``legal_actions``, ``clone``,
``apply_action(s)``, ``is_terminal``, ``current_players``); docs/opponent_model.md has the modes,
the parameters, the references and the zoo-entry format.

* **Our nodes** (the deciding seat) maximise our evaluation: an *evaluation object* that a game's
  own search bot offers through ``search_evaluation()`` (Reversi's and Snake's alpha-beta, Connect
  Four's open-line alpha-beta), so the search and the plain search it is compared with value
  positions identically. Its protocol (duck-typed, :class:`Evaluation`): ``value(state, player)``
  of a running position, ``terminal(state, player, plies)`` of a finished one, ``order(state,
  player, actions, depth)`` (move ordering, may return ``actions`` as they are) and
  ``free(state, action)`` (an action that uses no depth: Reversi's forced pass).
* **Opponent nodes** by ``mode``:

  - ``none``: minimum (plain alpha-beta: the control with no model; same code, same evaluation);
  - ``policy`` (M* with the model as a policy, Carmel & Markovitch 1996): one child, the model's
    most probable legal move (ties: the first in ``legal_actions`` order);
  - ``search``: one child, the move the model *decides* (its own ``act``): for an imitator this
    is its distribution's argmax with its lowest-code tie rule (a search-family imitator's
    argmax is its search's move), for a bot model (``source: zoo``, the true opponent) its search;
  - ``prom`` (Donkers, Uiterwijk & van den Herik 2001): the expectation of the children's values
    under the model's distribution over the legal moves, mixed with their minimum:
    ``mix * E + (1 - mix) * min`` (``mix: 1`` pure expectation). Children whose probability is
    below ``min_prob`` leave the expectation (the rest renormalised); they still count in the
    minimum when ``mix < 1``.

* **Budgets are node counts, never time.** Iterative deepening from depth 1 to ``depth`` (plies:
  one per state transition; a simultaneous game's joint step is one ply, so Snake's depth counts
  turns as its own search does) shares one budget of ``nodes``; a node is a state the search
  creates (one ``apply``), so one is one model-free unit of work in every game. An iteration that
  runs out is discarded and the last complete one decides; iteration 1 always completes (its nodes
  are the root's children and any forced passes after them), so the slack over the budget is at
  most the nodes of iteration 1 when the budget is smaller than that. ``model_cost`` charges each
  position the model is asked about to the same budget (default 0: model calls are counted, not
  charged). Deepening stops early once an iteration cut no line by depth (the tree is solved).
* **Determinism.** The model is asked in batches whose make-up depends only on the search path;
  ties between our root moves follow ``tie`` (``first``/``last`` in search order, ``random``
  seeded by :func:`ime.core.bot.decision_rng`), so the same (config, position, context) gives the
  same move and the same counts.
* **Counts** of the last decision are in :attr:`OpponentModelSearchBot.last`: ``nodes``,
  ``model_positions`` (positions the model evaluated), ``model_calls`` (batched calls),
  ``model_queries`` (opponent nodes that consulted the model, cache hits included), ``depth``
  (deepest completed iteration), ``score``, ``solved``, ``scores`` (root values).

A model is any object with ``distributions(states, players)`` (probabilities aligned with each
state's ``legal_actions(player)``) and/or ``replies(states, players, ctxs)``;
:func:`as_model` wraps an :class:`ime.bots.imitator.ImitatorBot` (any family: nets and fitted
searches alike load as modules) or any :class:`ime.core.bot.Bot` (its ``act``, one-hot). The bot
takes the model as a constructor argument, so tests plug in a known model.

Registered as kind ``om_search`` for every game (``make_bot`` imports this module on first use).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ime.core.bot import Bot, DecisionContext, decision_rng
from ime.core.game import Action, State

MODES = ("none", "policy", "search", "prom")
TIES = ("first", "last", "random")
SOURCES = ("imitator", "zoo")
INF = math.inf


class Evaluation(Protocol):
    """What our nodes need of a game's evaluation (offered by its search bot's
    ``search_evaluation()``). Values are from ``player``'s side, larger is better."""

    def value(self, state: State, player: int) -> float:
        """Heuristic value of a running position (one whose side to move has only a
        :meth:`free` action valued as the position after it: the search does not expand it)."""

    def terminal(self, state: State, player: int, plies: int) -> float:
        """Value of a finished game, ``plies`` transitions below the root."""

    def order(self, state: State, player: int, actions: list[Action],
              depth: int) -> list[Action]:
        """``actions`` (``player``'s legal moves) in search order, ``depth`` plies left."""

    def free(self, state: State, action: Action) -> bool:
        """Whether ``action`` uses no depth (a forced pass)."""


class OpponentModel(Protocol):
    """A model of the opponent; either method may be missing (see :func:`as_model`)."""

    def distributions(self, states: Sequence[State], players: Sequence[int]) -> list[np.ndarray]:
        """Per state, probabilities aligned with ``state.legal_actions(player)``."""

    def replies(self, states: Sequence[State], players: Sequence[int],
                ctxs: Sequence[DecisionContext]) -> list[Action]:
        """Per state, the action the model decides for ``player``."""


# --- models ------------------------------------------------------------------------------------
class ImitatorModel:
    """An imitator (anything with ``encoder`` and ``head_policy``, i.e.
    :class:`ime.bots.imitator.ImitatorBot`) as a model: its masked, ensemble-averaged softmax
    restricted to the legal moves, in one batched call for many positions.

    ``replies`` is the imitator's own decision: the argmax of the first head, lowest code on
    ties (:meth:`ime.core.encoding.Encoder.select`); encoders with more than one head ask
    ``act`` position by position.
    """

    def __init__(self, imitator: Any):
        self.imitator = imitator
        self.encoder = imitator.encoder
        self.deterministic = bool(getattr(imitator, "deterministic", True))

    def _codes(self, state: State, player: int, legal: list[Action]) -> np.ndarray:
        n = len(legal)
        return np.asarray(self.encoder.action_codes([state] * n, [player] * n, legal))[:, 0]

    def distributions(self, states: Sequence[State], players: Sequence[int]) -> list[np.ndarray]:
        obs = self.encoder.encode(list(states), list(players))
        probs = np.asarray(self.imitator.head_policy(obs)[0], dtype=np.float64)
        out = []
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            codes = self._codes(s, p, s.legal_actions(p))
            q = np.where(codes >= 0, probs[i, np.clip(codes, 0, None)], 0.0)
            out.append(q)
        return out

    def replies(self, states: Sequence[State], players: Sequence[int],
                ctxs: Sequence[DecisionContext]) -> list[Action]:
        if len(self.encoder.heads) > 1:
            return [self.imitator.act(s, c) for s, c in zip(states, ctxs, strict=True)]
        dists = self.distributions(states, players)
        out = []
        for s, p, q in zip(states, players, dists, strict=True):
            legal = s.legal_actions(p)
            if len(legal) == 1:
                out.append(legal[0])
                continue
            codes = self._codes(s, p, legal)
            top = np.flatnonzero(q == q.max())
            out.append(legal[int(top[np.argmin(codes[top])])])
        return out


class BotModel:
    """Any bot as a model: its decision (``act``) as the reply (``policy`` and ``prom`` see it
    one-hot). It decides at an inner node with the root decision's seed and match, that node's
    ply and the opponent's seat."""

    batches = False
    """Asking a bot about a position costs the same alone or in a batch: one at a time."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.deterministic = bool(getattr(bot, "deterministic", True))

    def replies(self, states: Sequence[State], players: Sequence[int],
                ctxs: Sequence[DecisionContext]) -> list[Action]:
        return [self.bot.act(s, c) for s, c in zip(states, ctxs, strict=True)]


def as_model(obj: Any) -> Any:
    """``obj`` as an opponent model: an object with ``distributions``/``replies`` as it is, an
    imitator (``encoder`` + ``head_policy``) as an :class:`ImitatorModel`, any other bot as a
    :class:`BotModel`."""
    if obj is None:
        return None
    if hasattr(obj, "distributions") or hasattr(obj, "replies"):
        return obj
    if hasattr(obj, "head_policy") and hasattr(obj, "encoder"):
        return ImitatorModel(obj)
    if isinstance(obj, Bot) or hasattr(obj, "act"):
        return BotModel(obj)
    raise TypeError(f"not an opponent model: {type(obj).__name__} (needs distributions/replies, "
                    f"an imitator's head_policy, or a bot's act)")


def _normalised(q: np.ndarray) -> np.ndarray:
    q = np.asarray(q, dtype=np.float64)
    s = float(q.sum())
    return q / s if s > 0 else np.full(len(q), 1.0 / len(q))


# --- the search --------------------------------------------------------------------------------
class _Abort(Exception):
    """The node budget ran out in an iteration that may be discarded."""


@dataclass
class _Node:
    """A position the search reaches: the state, the actions from the root to it (the cache
    key of model answers), and the transitions from the root."""

    state: State
    path: tuple
    plies: int


class OpponentModelSearchBot(Bot):
    """Depth-limited alpha-beta (iterative deepening, a node budget) whose opponent nodes follow
    ``model`` according to ``mode``; see the module doc.

    ``evaluation``: our evaluation (:class:`Evaluation`). ``model``: the opponent model (any
    object :func:`as_model` accepts; unused with ``mode: none``). ``depth``: the deepening cap in
    plies; ``nodes``: the budget. ``mix``/``min_prob``: PrOM's mixing weight and probability
    floor. ``tie``: our root tie rule. ``pv_first``: the previous iteration's best root move is
    searched first. ``model_cost``: nodes charged per position the model evaluates. ``batch``:
    the most positions the model is asked about in one call (1 for a bot model).
    """

    def __init__(self, bot_id: str, evaluation: Evaluation, *, model: Any = None,
                 mode: str = "policy", depth: int = 4, nodes: int = 20000, mix: float = 1.0,
                 min_prob: float = 0.0, tie: str = "first", pv_first: bool = True,
                 model_cost: int = 0, batch: int = 64):
        if mode not in MODES:
            raise ValueError(f"om_search {bot_id!r}: mode={mode!r}; choose from {list(MODES)}")
        if tie not in TIES:
            raise ValueError(f"om_search {bot_id!r}: tie={tie!r}; choose from {list(TIES)}")
        if int(depth) < 1 or int(nodes) < 1:
            raise ValueError(f"om_search {bot_id!r}: depth and nodes must be >= 1 "
                             f"(got {depth}, {nodes})")
        if not 0.0 <= float(mix) <= 1.0 or not 0.0 <= float(min_prob) < 1.0:
            raise ValueError(f"om_search {bot_id!r}: mix must be in [0, 1] and min_prob in "
                             f"[0, 1) (got {mix}, {min_prob})")
        if int(batch) < 1:
            raise ValueError(f"om_search {bot_id!r}: batch must be >= 1 (got {batch})")
        if mode != "none" and model is None:
            raise ValueError(f"om_search {bot_id!r}: mode {mode!r} needs an opponent model")
        self.bot_id = bot_id
        self.evaluation = evaluation
        self.model = as_model(model) if mode != "none" else None
        self.mode = mode
        self.depth = int(depth)
        self.nodes = int(nodes)
        self.mix = float(mix)
        self.min_prob = float(min_prob)
        self.tie = tie
        self.pv_first = bool(pv_first)
        self.model_cost = int(model_cost)
        self.batch = int(batch) if getattr(self.model, "batches", True) else 1
        self.deterministic = tie != "random" and bool(
            getattr(self.model, "deterministic", True))
        self.last: dict[str, Any] = {}

    def search_evaluation(self) -> Evaluation:
        """Our evaluation (so another search may name this bot as its evaluation)."""
        return self.evaluation

    # --- bookkeeping ---------------------------------------------------------------------------
    def _reset(self, me: int, ctx: DecisionContext, simultaneous: bool) -> None:
        self._me = me
        self._opp = 1 - me
        self._ctx = ctx
        self._sim = simultaneous
        self._spent = 0
        self._limit = INF  # no abort in iteration 1
        self._cut = False
        self._cache: dict[tuple, Any] = {}
        self._frontier: list[_Node] = []
        self._queue: list[_Node] = []
        self._pending: dict[tuple, int] = {}
        self._model_positions = 0
        self._model_calls = 0
        self._model_queries = 0

    def _charge(self) -> None:
        used = self._spent + self.model_cost * self._model_positions
        if used >= self._limit:
            raise _Abort
        self._spent += 1

    def _child(self, node: _Node, actions: Mapping[int, Action], key: Any) -> _Node:
        """The position after ``actions`` (one per current player); uncounted."""
        s = node.state.clone()
        if self._sim:
            s.apply_actions(actions)
        else:
            (a,) = actions.values()
            s.apply_action(a)
        return _Node(s, node.path + (key,), node.plies + 1)

    def _ctx_at(self, state: State, player: int) -> DecisionContext:
        return DecisionContext(seed=self._ctx.seed, match_id=self._ctx.match_id,
                               ply=state.ply, player=player)

    # --- the model -------------------------------------------------------------------------------
    def _ask(self, todo: list[_Node]) -> None:
        """Fill the cache with the model's answers for ``todo`` (the opponent to decide in each,
        none cached yet) in one call."""
        states = [n.state for n in todo]
        players = [self._opp] * len(todo)
        self._model_positions += len(todo)
        self._model_calls += 1
        if self.mode == "search":
            if not hasattr(self.model, "replies"):
                raise TypeError(f"om_search {self.bot_id!r}: mode search needs a model with "
                                f"replies (a bot or an imitator)")
            answers = self.model.replies(states, players,
                                         [self._ctx_at(s, self._opp) for s in states])
        else:
            if hasattr(self.model, "distributions"):
                answers = [_normalised(q) for q in self.model.distributions(states, players)]
            else:  # a model that only decides: one-hot on its reply
                replies = self.model.replies(states, players,
                                             [self._ctx_at(s, self._opp) for s in states])
                answers = [np.asarray([1.0 if b == a else 0.0
                                       for b in s.legal_actions(self._opp)])
                           for s, a in zip(states, replies, strict=True)]
        for n, ans in zip(todo, answers, strict=True):
            self._cache[n.path] = ans

    def _answer(self, node: _Node) -> Any:
        """The model's answer at the opponent node ``node``. A node that was a leaf of the
        previous iteration is asked together with the next ``batch - 1`` such leaves still
        unanswered, in the order the previous iteration reached them (the order this one
        reaches them in, but for the principal variation moved first): one call for many
        positions (no more than the budget left could reach; in an iteration that runs out, at
        most ``batch - 1`` of them are not reached)."""
        self._model_queries += 1
        if node.path not in self._cache:
            i = self._pending.get(node.path)
            todo = [node]
            if i is not None:
                # each asked node costs at least one node to search (PrOM: one per legal move),
                # so no more are asked than the budget left could reach
                left = self._limit - self._spent - self.model_cost * self._model_positions
                cost = len(node.state.legal_actions(self._opp)) if self.mode == "prom" else 1
                for n in self._queue[i + 1:]:
                    if len(todo) >= self.batch or cost >= left:
                        break
                    if n.path in self._cache:
                        continue
                    k = len(n.state.legal_actions(self._opp))
                    if k > 1:
                        todo.append(n)
                        cost += (k if self.mode == "prom" else 1) + self.model_cost
            self._ask(todo)
        return self._cache[node.path]

    def _next_iteration(self) -> None:
        """The leaves where the opponent was to move become the nodes the model is asked about
        in batches (see :meth:`_answer`)."""
        self._queue = self._frontier
        self._pending = {n.path: i for i, n in enumerate(self._queue)}
        self._frontier = []

    # --- the recursion (values from our side) -----------------------------------------------------
    def _value(self, node: _Node, depth: int, alpha: float, beta: float) -> float:
        s = node.state
        if s.is_terminal():
            return self.evaluation.terminal(s, self._me, node.plies)
        if depth <= 0:  # a forced pass here is the evaluation's to value (the protocol)
            self._cut = True
            if self.model is not None and self._opp in s.current_players():
                self._frontier.append(node)  # the model's turn here next iteration
            return self.evaluation.value(s, self._me)
        if self._sim:
            return self._ours(node, depth, alpha, beta)
        (p,) = s.current_players()
        legal = s.legal_actions(p)
        if len(legal) == 1 and self.evaluation.free(s, legal[0]):
            self._charge()
            return self._value(self._child(node, {p: legal[0]}, legal[0]), depth, alpha, beta)
        if p == self._me:
            return self._ours(node, depth, alpha, beta)
        return self._theirs(node, None, depth, alpha, beta)

    def _ours(self, node: _Node, depth: int, alpha: float, beta: float) -> float:
        s = node.state
        me = self._me
        actions = self.evaluation.order(s, me, s.legal_actions(me), depth)
        best = -INF
        if self._sim:
            for a in actions:
                v = self._theirs(node, a, depth, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        for a in actions:
            self._charge()
            v = self._value(self._child(node, {me: a}, a), depth - self._uses(s, a), alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _uses(self, state: State, action: Action) -> int:
        return 0 if self.evaluation.free(state, action) else 1

    def _theirs(self, node: _Node, mine: Action | None, depth: int, alpha: float,
                beta: float) -> float:
        """An opponent node: the opponent moves in ``node`` (a simultaneous game: with our move
        ``mine`` pending, the joint step applied with its reply)."""
        s = node.state
        opp = self._opp
        legal = s.legal_actions(opp)

        def child_value(b: Action, lo: float, hi: float) -> float:
            self._charge()
            if self._sim:
                c = self._child(node, {self._me: mine, opp: b}, (mine, b))
                return self._value(c, depth - 1, lo, hi)
            return self._value(self._child(node, {opp: b}, b), depth - self._uses(s, b), lo, hi)

        if self.mode == "none" or len(legal) == 1:
            best = INF
            for b in self.evaluation.order(s, opp, legal, depth):
                v = child_value(b, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
            return best
        ans = self._answer(node)
        if self.mode == "search":
            if ans not in legal:
                raise RuntimeError(f"om_search {self.bot_id}: the model replied {ans!r}, not a "
                                   f"legal move ({legal})")
            return child_value(ans, alpha, beta)
        probs = np.asarray(ans, dtype=np.float64)
        if len(probs) != len(legal):
            raise RuntimeError(f"om_search {self.bot_id}: the model gave {len(probs)} "
                               f"probabilities for {len(legal)} legal moves")
        if self.mode == "policy":
            return child_value(legal[int(np.argmax(probs))], alpha, beta)
        return self._prom(legal, probs, child_value)

    def _prom(self, legal: list[Action], probs: np.ndarray,
              child_value: Callable[[Action, float, float], float]) -> float:
        """PrOM: ``mix * E_model[child] + (1 - mix) * min(child)``; children in the expectation
        are searched exactly (full window), the others only as far as the minimum needs."""
        idx = sorted(range(len(legal)), key=lambda i: (-probs[i], i))
        inside = [i for i in idx if probs[i] >= self.min_prob and probs[i] > 0] or [idx[0]]
        values = {i: child_value(legal[i], -INF, INF) for i in inside}
        mass = float(sum(probs[i] for i in inside))
        expect = (sum(float(probs[i]) * values[i] for i in inside) / mass if mass > 0
                  else sum(values.values()) / len(values))
        if self.mix >= 1.0:
            return expect
        low = min(values.values())
        for i in idx:
            if i not in values:
                low = min(low, child_value(legal[i], -INF, low))
        return self.mix * expect + (1.0 - self.mix) * low

    # --- the root --------------------------------------------------------------------------------
    def _root(self, root: _Node, order: list[Action], depth: int) -> dict[Action, float]:
        """Every root move's value at ``depth`` (exact for the best and, unless ``tie: first``,
        for every move tied with it; an upper bound for the others)."""
        s = root.state
        me = self._me
        scores: dict[Action, float] = {}
        best = -INF
        for a in order:
            alpha = best if self.tie == "first" or best == -INF else math.nextafter(best, -INF)
            if self._sim:
                v = self._theirs(root, a, depth, alpha, INF)
            else:
                self._charge()
                v = self._value(self._child(root, {me: a}, a), depth - self._uses(s, a), alpha,
                                INF)
            scores[a] = v
            best = max(best, v)
        return scores

    def _pick(self, scores: dict[Action, float], order: list[Action],
              rng: np.random.Generator | None) -> Action:
        best = max(scores.values())
        tied = [a for a in order if scores[a] == best]
        if self.tie == "last":
            return tied[-1]
        if self.tie == "random" and len(tied) > 1 and rng is not None:
            return tied[int(rng.integers(len(tied)))]
        return tied[0]

    def analyse(self, state: State, ctx: DecisionContext) -> dict[str, Any]:
        """The decision with its counts (also kept as :attr:`last`)."""
        me = int(ctx.player)
        game_type = state.game.game_type
        if game_type.num_players != 2:
            raise ValueError(f"om_search {self.bot_id}: two-player games only "
                             f"({game_type.short_name} has {game_type.num_players})")
        self._reset(me, ctx, bool(game_type.simultaneous))
        legal = state.legal_actions(me)
        info: dict[str, Any] = {"move": legal[0], "score": None, "depth": 0, "nodes": 0,
                                "model_positions": 0, "model_calls": 0, "model_queries": 0,
                                "solved": False, "scores": {}}
        if len(legal) > 1:
            root = _Node(state, (), 0)
            base = self.evaluation.order(state, me, list(legal), self.depth)
            order = base
            rng = decision_rng(ctx, "om_search") if self.tie == "random" else None
            for d in range(1, self.depth + 1):
                if d > 1:
                    if self._spent + self.model_cost * self._model_positions >= self.nodes:
                        break
                    self._limit = self.nodes
                self._cut = False
                self._next_iteration()
                try:
                    scores = self._root(root, order, d)
                except _Abort:
                    break
                move = self._pick(scores, order, rng)
                info.update(move=move, score=scores[move], depth=d, scores=scores,
                            solved=not self._cut)
                if not self._cut:
                    break
                if self.pv_first:
                    order = [move, *[a for a in base if a != move]]
            info.update(nodes=self._spent, model_positions=self._model_positions,
                        model_calls=self._model_calls, model_queries=self._model_queries)
        self._cache, self._frontier, self._queue, self._pending = {}, [], [], {}
        self.last = info
        return info

    def act(self, state: State, ctx: DecisionContext) -> Action:
        return self.analyse(state, ctx)["move"]

    def end_match(self, match_id: str) -> None:
        bot = getattr(self.model, "bot", None)
        if bot is not None:
            bot.end_match(match_id)

    def close(self) -> None:
        bot = getattr(self.model, "bot", None)
        if bot is not None:
            bot.close()


# --- zoo specs ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpponentRef:
    """Which trained model an ``om_search`` spec's opponent names: the imitator of ``bot`` by
    ``net`` (a ``config/net/`` name: a policy net or an imitator family) at ``fold``
    (``ensemble`` or a fold number). A workflow rule turns it into checkpoint paths."""

    bot: str
    net: str | None
    fold: int | str = "ensemble"


def opponent_ref(spec: Mapping[str, Any]) -> OpponentRef | None:
    """The trained model an ``om_search`` spec needs but does not list yet (``None`` for other
    kinds, ``mode: none``, ``source: zoo``, or when ``opponent.checkpoints`` is given).

    Another kind whose params hold an ``opponent`` in this format (Doudizhu's ``pimc_om``,
    whose rollouts follow the model) is resolved the same way, so one workflow step fills
    every opponent model whatever bot uses it."""
    params = dict(spec.get("params") or {})
    if spec.get("kind") != "om_search" and not isinstance(params.get("opponent"), Mapping):
        return None
    opp = dict(params.get("opponent") or {})
    if params.get("mode", "policy") == "none" or not opp:
        return None
    if opp.get("source", "imitator") != "imitator" or opp.get("checkpoints"):
        return None
    if "bot" not in opp:
        raise ValueError(f"om_search spec: opponent needs a bot (got {opp})")
    fold = opp.get("fold", "ensemble")
    return OpponentRef(str(opp["bot"]), None if opp.get("net") is None else str(opp["net"]),
                       fold if fold == "ensemble" else int(fold))


def with_checkpoints(spec: Mapping[str, Any], paths: Sequence[str]) -> dict[str, Any]:
    """A copy of an ``om_search`` spec whose opponent lists ``paths`` as its checkpoints."""
    out = {k: v for k, v in spec.items() if k != "params"}
    params = dict(spec.get("params") or {})
    params["opponent"] = {**dict(params.get("opponent") or {}),
                          "checkpoints": [str(p) for p in paths]}
    out["params"] = params
    return out


def resolve_specs(specs: Mapping[str, Mapping[str, Any]],
                  checkpoints: Callable[[OpponentRef], Sequence[str]]
                  ) -> dict[str, dict[str, Any]]:
    """``specs`` with every ``om_search`` opponent's checkpoints filled by
    ``checkpoints(ref)`` (the workflow's model paths); other specs unchanged."""
    out = {}
    for bot_id, spec in specs.items():
        ref = opponent_ref(spec)
        out[bot_id] = with_checkpoints(spec, checkpoints(ref)) if ref else dict(spec)
    return out


def build_evaluation(game: str, bot_id: str, spec: Any) -> Evaluation:
    """Our evaluation from a zoo bot id of ``game`` or an inline ``{kind, params}`` spec: the
    ``search_evaluation()`` of that (search) bot."""
    from ime.bots.registry import make_bot

    if isinstance(spec, str):
        bot = make_bot(game, spec)
    elif isinstance(spec, Mapping) and "kind" in spec:
        name = f"{bot_id}.evaluation"
        bot = make_bot(game, name, {name: dict(spec)})
    else:
        raise ValueError(f"om_search {bot_id!r}: params.evaluation must name a zoo search bot "
                         f"or be a {{kind, params}} spec, got {spec!r}")
    get = getattr(bot, "search_evaluation", None)
    if get is None:
        raise ValueError(f"om_search {bot_id!r}: bot {spec!r} ({type(bot).__name__}) offers no "
                         f"search_evaluation(); name one of {game}'s alpha-beta bots")
    return get()


def build_opponent(game: str, bot_id: str, spec: Mapping[str, Any]) -> Any:
    """The opponent model of a zoo entry: its imitator from ``checkpoints`` (any family), or
    with ``source: zoo`` the zoo bot ``bot`` itself (the true model)."""
    opp = dict(spec or {})
    source = str(opp.get("source", "imitator"))
    if source not in SOURCES:
        raise ValueError(f"om_search {bot_id!r}: opponent.source={source!r}; choose from "
                         f"{list(SOURCES)}")
    if source == "zoo":
        from ime.bots.registry import make_bot

        if "bot" not in opp:
            raise ValueError(f"om_search {bot_id!r}: opponent.source zoo needs opponent.bot")
        return make_bot(game, str(opp["bot"]))
    paths = opp.get("checkpoints")
    if isinstance(paths, str):
        paths = [paths]
    if not paths:
        raise ValueError(f"om_search {bot_id!r}: opponent.checkpoints is empty; the workflow "
                         f"fills it from opponent {{bot, net, fold}} (om_search.resolve_specs), "
                         f"outside it list the imitator's checkpoint files")
    from ime.bots.imitator import ImitatorBot

    return ImitatorBot.from_checkpoints(f"{bot_id}.opponent", list(paths),
                                        device=str(opp.get("device", "cpu")), game=game,
                                        game_params=opp.get("game_params"))


_SEARCH_PARAMS = ("depth", "nodes", "mix", "min_prob", "tie", "pv_first", "model_cost", "batch")


def _factory(game: str, bot_id: str, params: Mapping[str, Any]) -> Bot:
    """``params``: ``evaluation`` (a zoo search bot's id or an inline spec), ``mode``,
    ``opponent`` (``{bot, net, fold, checkpoints, source}``), and the search's knobs
    (``depth``, ``nodes``, ``mix``, ``min_prob``, ``tie``, ``pv_first``, ``model_cost``)."""
    p = dict(params)
    mode = str(p.pop("mode", "policy"))
    if "evaluation" not in p:
        raise ValueError(f"om_search {bot_id!r}: params.evaluation (a zoo search bot) is required")
    evaluation = build_evaluation(game, bot_id, p.pop("evaluation"))
    opponent = p.pop("opponent", None)
    unknown = sorted(set(p) - set(_SEARCH_PARAMS))
    if unknown:
        raise ValueError(f"om_search {bot_id!r}: unknown params {unknown}; known: "
                         f"{sorted(['evaluation', 'mode', 'opponent', *_SEARCH_PARAMS])}")
    model = build_opponent(game, bot_id, opponent) if mode != "none" else None
    return OpponentModelSearchBot(bot_id, evaluation, model=model, mode=mode, **p)


def register() -> None:
    """Make ``kind: om_search`` buildable through :func:`ime.bots.registry.make_bot`."""
    from ime.bots.registry import register_kind

    register_kind("om_search", _factory)


register()
