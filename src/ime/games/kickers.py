"""Major + kicker-step action heads for climbing card games (Doudizhu's model, thesis 5.3.1).

Doudizhu's nets choose a play in steps: a *major* code (the combination without its kickers:
what decides whether it beats) and then, for types that carry kickers, one *minor* code per
kicker, smallest rank first, each step seeing the kickers chosen before it. Big-2 reuses the
model so that the thesis's Doudizhu nets fit it unchanged. This module holds what the two games
share; each game gives its code tables (:class:`KickerCodes`, from its ``actions`` module) and
what a seat sees before it plays (:meth:`KickerStepEncoder.major_planes`).

A card set is a ``4 x R`` 0/1 matrix (:func:`card_planes`: column ``r`` is rank ``r``, row ``k``
is set when the set holds more than ``k`` cards of that rank). A row is ``6 + 4 * K`` planes:
the game's 6 major planes, then for kicker step ``k`` of ``K``: own hand minus the kickers
chosen before step ``k``; the chosen major's main cards; the number of single kickers still
needed (this one included) and of pair kickers still needed, each a thermometer over columns.
With ``actions`` given (teacher forcing), step ``k``'s planes and mask are those that apply
after the played major and its first ``k`` kickers; without, the minor planes and masks are
zero and :meth:`KickerStepEncoder.select` re-encodes one step at a time.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ime.core.encoding import UNENCODABLE, ActionHead, Encoder, Observation, Policy
from ime.core.game import Action, State

ROWS = 4
MAJOR_PLANES = 6
MINOR_PLANES = 4
AFTER_PLANES = 8
"""Planes of a major's afterstate (:meth:`KickerStepEncoder.afterstates`)."""
_ROW = np.arange(ROWS)[:, None]


@dataclass(frozen=True)
class KickerCodes:
    """A game's major and minor codes, as the kicker steps need them."""

    num_minor: int
    max_kickers: int
    major_counts: np.ndarray  # int64[num_major, ranks]: main cards per rank
    major_kickers: np.ndarray  # int64[num_major]: kickers each major carries
    major_kicker_size: np.ndarray  # int64[num_major]: cards per kicker (0: none)
    minor_code: Callable[[int, int], int]  # (rank, size) -> code
    minor_rank: Callable[[int], int]  # code -> rank
    kicker_candidates: Callable[[np.ndarray, int], np.ndarray]  # (hand, major) -> ranks
    counts_from_codes: Callable[[int, Sequence[int]], np.ndarray]  # the play's counts

    @property
    def num_major(self) -> int:
        return int(self.major_counts.shape[0])

    @property
    def num_ranks(self) -> int:
        return int(self.major_counts.shape[1])

    def minor_mask(self, hand: np.ndarray, major: int, prefix: Sequence[int]) -> np.ndarray:
        """``uint8[num_minor]``: the legal minor codes of the next kicker of ``major`` after the
        kicker codes ``prefix`` (ascending): above the last one, and leaving enough candidates
        above it for the kickers still needed, so that every code of the mask completes to a
        legal play. All zero when no kicker is left to choose."""
        mask = np.zeros(self.num_minor, dtype=np.uint8)
        need, size = int(self.major_kickers[major]), int(self.major_kicker_size[major])
        k = len(prefix)
        if k >= need:
            return mask
        cand = self.kicker_candidates(hand, major)
        if k:
            cand = cand[cand > self.minor_rank(prefix[-1])]
        left = need - k - 1
        ok = cand[: len(cand) - left] if left else cand
        mask[[self.minor_code(int(r), size) for r in ok]] = 1
        return mask


def card_planes(counts: np.ndarray) -> np.ndarray:
    """``[..., R]`` counts -> ``uint8[..., 4, R]`` (row ``k`` set when the count is > ``k``)."""
    return (np.asarray(counts)[..., None, :] > _ROW).astype(np.uint8)


def count_plane(n: int, num_ranks: int) -> np.ndarray:
    """``uint8[4, num_ranks]`` with columns ``0 .. n - 1`` set in every row (a thermometer)."""
    out = np.zeros((ROWS, num_ranks), dtype=np.uint8)
    out[:, :n] = 1
    return out


def cell_plane(n: int, num_ranks: int) -> np.ndarray:
    """``uint8[4, num_ranks]`` with the first ``n`` cells set, row by row (a count up to
    ``4 * num_ranks``: a seat's cards left)."""
    out = np.zeros(ROWS * num_ranks, dtype=np.uint8)
    out[:n] = 1
    return out.reshape(ROWS, num_ranks)


def minor_planes(codes: KickerCodes, hand: np.ndarray, major: int,
                 kickers: Sequence[int]) -> np.ndarray:
    """``uint8[4, 4, R]`` of the kicker step after ``kickers`` (ranks, ascending) of ``major``
    from ``hand`` (``R`` counts)."""
    size = int(codes.major_kicker_size[major])
    left = np.array(hand, dtype=np.int64)
    for r in kickers:
        left[r] -= size
    need = int(codes.major_kickers[major]) - len(kickers)
    r = codes.num_ranks
    return np.stack([card_planes(left), card_planes(codes.major_counts[major]),
                     count_plane(need if size == 1 else 0, r),
                     count_plane(need if size == 2 else 0, r)])


def _masked_argmax(probs: np.ndarray, mask: np.ndarray) -> int:
    """The legal code of highest probability (lowest code on ties)."""
    p = np.where(np.asarray(mask) > 0, np.asarray(probs, dtype=np.float64), -np.inf)
    return int(np.argmax(p))


def _masked_pick(probs: np.ndarray, mask: np.ndarray, u: float | None) -> int:
    """:func:`_masked_argmax` when ``u`` is ``None``; else the legal code drawn by inverse CDF
    at ``u`` in [0, 1) from the probabilities restricted to the legal codes (uniform over them
    when those sum to zero). A draw is a function of ``u`` alone, so the caller's draws, not the
    batch they travel in, decide the sample."""
    if u is None:
        return _masked_argmax(probs, mask)
    codes = np.flatnonzero(np.asarray(mask) > 0)
    q = np.clip(np.asarray(probs, dtype=np.float64)[codes], 0.0, None)
    total = float(q.sum())
    cdf = np.cumsum(q) / total if total > 0 else np.arange(1, len(codes) + 1) / len(codes)
    return int(codes[min(int(np.searchsorted(cdf, float(u), side="right")), len(codes) - 1)])


class KickerStepEncoder(Encoder):
    """A major head and ``max_kickers`` minor heads over ``6 + 4 * max_kickers`` planes.

    A subclass gives the game's :class:`KickerCodes`, :meth:`major_planes`, and its plays:
    :meth:`legal_plays` (one per legal action, in that order), :meth:`play_of` and
    :meth:`split`. A play has ``kickers`` (ranks). ``keep_forced``: give a decision with a
    single legal play its masks instead of empty ones (which datasets drop and count).
    """

    position_planes = MAJOR_PLANES  # the kicker planes follow the action played
    afterstate_planes = AFTER_PLANES  # the lookahead imitator's major afterstates
    later_head_planes = (MAJOR_PLANES, MINOR_PLANES, MINOR_PLANES)  # kicker steps' planes
    game_name = "card game"  # for error messages: "<game_name> encoder: ... is no <play_noun>"
    play_noun = "play"

    seat_plane_count: ClassVar[int] = 0
    """Planes :meth:`seat_planes` gives (0: the game has no seat planes to offer)."""

    def __init__(self, codes: KickerCodes, version: str, major_doc: str, minor_doc: str,
                 keep_forced: bool = False, seats: bool = False) -> None:
        self.codes = codes
        self.keep_forced = bool(keep_forced)
        if seats and not self.seat_plane_count:
            raise ValueError(f"the {self.game_name} encoder has no seat planes to add")
        self.tail = self.seat_plane_count if seats else 0
        self.kicker_end = MAJOR_PLANES + MINOR_PLANES * codes.max_kickers
        super().__init__(
            version=version + ("-seats" if seats else ""),
            heads=(ActionHead("major", codes.num_major, major_doc),
                   *(ActionHead(f"minor{k}", codes.num_minor, minor_doc.format(k=k))
                     for k in range(codes.max_kickers))),
            state_shape=(self.kicker_end + self.tail, ROWS, codes.num_ranks),
        )
        self.position_tail_planes = self.tail  # type: ignore[misc]
        self.afterstate_planes = AFTER_PLANES + self.tail  # type: ignore[misc]

    # --- the game's part ------------------------------------------------------------------------
    @abstractmethod
    def major_planes(self, state: State, player: int) -> np.ndarray:
        """``uint8[6, 4, R]``: what ``player`` sees of ``state`` before it plays."""

    def seat_planes(self, state: State, player: int) -> np.ndarray:
        """``uint8[seat_plane_count, 4, R]``: what ``player`` knows of the other seats beyond
        the major planes (the game's ``seats`` observation: the planes follow the kicker
        steps, so the thesis's nets, which read planes ``0 .. 6 + 4K``, are unchanged)."""
        raise ValueError(f"the {self.game_name} encoder has no seat planes")

    @abstractmethod
    def legal_plays(self, state: State, player: int) -> Sequence[Any]:
        """The play of each of ``player``'s legal actions."""

    @abstractmethod
    def play_of(self, state: State, action: Action) -> Any | None:
        """The play of any card ids (``None``: none)."""

    @abstractmethod
    def split(self, play: Any) -> tuple[int, list[int]]:
        """``(major code, minor codes smallest first)``; ``(-1, [])`` when it has no code."""

    # --- shared ---------------------------------------------------------------------------------
    def afterstates(self, planes: Any, codes: Any) -> Any:
        """What a major leaves, for the lookahead imitator (:mod:`ime.nets.lookahead`): rows of
        ``planes`` (``Tensor[M, C, 4, R]``, this encoder's) with major codes ``codes`` ->
        ``Tensor[M, 8, 4, R]`` (:data:`AFTER_PLANES`): 0 the hand without the major's main
        cards; 1 those cards; 2 and 3 the single and pair kickers the major still needs (the
        kicker steps' thermometers; which kickers is the later heads' choice); 4-7 the major
        planes 2-5 as they are (the seat, the unseen cards, the two last plays); then the seat
        planes as they are, when the encoder has them (``seats``). A rule bot
        judges a play by the hand it leaves (how many plays that hand needs, which bombs it
        keeps); here a value net learns that judgement from the bot's decisions."""
        import torch

        counts, kick, size = self._after_tables(planes.device)
        majors, kick, size = counts[codes], kick[codes], size[codes]
        hand = planes[:, 0].sum(dim=1)  # the thermometer's rows add up to the counts
        rows = torch.arange(ROWS, device=planes.device, dtype=planes.dtype)[:, None]
        cols = torch.arange(self.codes.num_ranks, device=planes.device)

        def thermo(c: Any) -> Any:
            return (c[:, None, :] > rows).to(planes.dtype)

        def need(n: Any) -> Any:
            return (cols[None, :] < n[:, None]).to(planes.dtype)[:, None, :].expand(-1, ROWS, -1)

        zero = torch.zeros_like(kick)
        return torch.cat([thermo(hand - majors)[:, None], thermo(majors)[:, None],
                          need(torch.where(size == 1, kick, zero))[:, None],
                          need(torch.where(size == 2, kick, zero))[:, None],
                          planes[:, 2:MAJOR_PLANES], planes[:, self.kicker_end:]], dim=1)

    def afterstate_feature_planes(self, planes: Any, codes: Any, features: Sequence[str]) -> Any:
        """One plane a feature, for the hand a major leaves, its kickers still to go with the
        major. ``hand_turns``: the fewest plays that empty it (:meth:`hand_turns`), as a
        thermometer over the columns (capped at ``R``) in every row. ``hand_split``: how a
        fewest-plays split plays each rank (:meth:`hand_split`; rows: loose singles, loose
        pairs, trios and airplanes with their kickers, chains). ``seat_sizes``: the other seats'
        cards left against the whole play's (:meth:`seat_sizes`). ``controls``: which cards
        kept, and whether the play itself, no unseen cards beat (:meth:`controls`). Why: a rule
        bot that leads weighs what a play leaves by how many more leads it needs, by what stays
        loose and by what nobody can answer, a combinatorial judgement that a small value net
        does not learn from the hand's planes (docs/imitators.md, measured)."""
        import torch

        unknown = [f for f in features if f not in self.afterstate_features]
        if unknown:
            raise ValueError(f"the {self.game_name} encoder offers no afterstate feature "
                             f"{unknown[0]!r} (it offers: {list(self.afterstate_features)})")
        majors, kick, size = self._after_tables(planes.device)
        rows: list[tuple[Any, int, int]] = []
        if any(f in ("hand_turns", "hand_split") for f in features):  # the hands, once
            idx = codes.cpu().numpy()
            hands = (planes[:, 0].sum(dim=1) - majors[codes]).round().to(torch.int64)
            rows = list(zip(hands.cpu().numpy(), self.codes.major_kickers[idx].tolist(),
                            self.codes.major_kicker_size[idx].tolist(), strict=True))
        out = []
        for name in features:
            if name == "hand_turns":
                turns = np.array([self.hand_turns(h, k, z) for h, k, z in rows], dtype=np.int64)
                cols = torch.arange(self.codes.num_ranks, device=planes.device)
                t = torch.as_tensor(turns, device=planes.device)
                out.append((cols[None, :] < t[:, None]).to(planes.dtype)[:, None, :]
                           .expand(-1, ROWS, -1))
            elif name == "seat_sizes":  # the whole play's cards, kickers counted
                cards = majors[codes].sum(dim=1).round().to(torch.int64) + kick[codes] * size[codes]
                out.append(self.seat_sizes(planes, cards))
            elif name == "controls":
                out.append(self.controls(planes, codes))
            else:  # hand_split
                split = np.stack([self.hand_split(h, k, z) for h, k, z in rows]) if rows else (
                    np.zeros((0, ROWS, self.codes.num_ranks), dtype=np.int8))
                out.append(torch.as_tensor(split, device=planes.device).to(planes.dtype))
        return torch.stack(out, dim=1)

    def seat_sizes(self, planes: Any, cards: Any) -> Any:
        """How the other seats' cards left compare with a play of ``cards`` cards,
        ``Tensor[M, ROWS, R]`` (the game's, with its seat planes: offered where
        :attr:`afterstate_features` names ``seat_sizes``)."""
        raise ValueError(f"the {self.game_name} encoder has no seat_sizes")

    def controls(self, planes: Any, codes: Any) -> Any:
        """What the unseen cards cannot beat, for the majors ``codes`` played from ``planes``,
        ``Tensor[M, ROWS, R]`` (the game's: offered where :attr:`afterstate_features` names
        ``controls``)."""
        raise ValueError(f"the {self.game_name} encoder has no controls")

    def hand_turns(self, counts: np.ndarray, kickers: int, size: int) -> int:
        """The fewest plays that empty a hand of per-rank ``counts``, ``kickers`` of its sets of
        ``size`` cards (1: singles, 2: pairs) going with the play before (the game's: offered
        where :attr:`afterstate_features` names ``hand_turns``)."""
        raise ValueError(f"the {self.game_name} encoder has no hand_turns")

    def hand_split(self, counts: np.ndarray, kickers: int, size: int) -> np.ndarray:
        """How a fewest-plays split of that hand plays each rank, ``int8[ROWS, R]`` (the game's:
        offered where :attr:`afterstate_features` names ``hand_split``)."""
        raise ValueError(f"the {self.game_name} encoder has no hand_split")

    def _after_tables(self, device: Any) -> tuple[Any, Any, Any]:
        """The code tables :meth:`afterstates` indexes, on ``device``: main cards per rank
        (float), kickers, cards per kicker (a few kilobytes)."""
        import torch

        c = self.codes
        return (torch.as_tensor(c.major_counts, dtype=torch.float32, device=device),
                torch.as_tensor(c.major_kickers, dtype=torch.int64, device=device),
                torch.as_tensor(c.major_kicker_size, dtype=torch.int64, device=device))

    def _play(self, state: State, action: Action) -> Any:
        play = self.play_of(state, action)
        if play is None:
            raise ValueError(f"{self.game_name} encoder: {action!r} is no {self.play_noun}")
        return play

    def _row(self, state: State, player: int, planes: np.ndarray, masks: list[np.ndarray],
             i: int, major: int | None, kickers: Sequence[int], steps: int) -> None:
        """Fill row ``i``: major planes and mask, and kicker steps ``0 .. steps - 1`` of
        ``major`` after the prefixes of ``kickers`` (ranks)."""
        c = self.codes
        planes[i, :MAJOR_PLANES] = self.major_planes(state, player)
        if self.tail:
            planes[i, self.kicker_end:] = self.seat_planes(state, player)
        plays = self.legal_plays(state, player)
        if not plays or (len(plays) == 1 and not self.keep_forced):
            return  # no choice: all masks stay empty
        masks[0][i, sorted({m for m in (self.split(p)[0] for p in plays) if m >= 0})] = 1
        if major is None:
            return
        hand = state.hand_counts(player)  # type: ignore[attr-defined]
        size = int(c.major_kicker_size[major])
        for k in range(steps):
            at = MAJOR_PLANES + MINOR_PLANES * k
            planes[i, at:at + MINOR_PLANES] = minor_planes(c, hand, major, kickers[:k])
            masks[1 + k][i] = c.minor_mask(hand, major,
                                           [c.minor_code(r, size) for r in kickers[:k]])

    def _empty(self, n: int) -> tuple[np.ndarray, list[np.ndarray]]:
        return (np.zeros((n, *self.state_shape), dtype=np.uint8),
                [np.zeros((n, h.size), dtype=np.uint8) for h in self.heads])

    def encode(self, states: Sequence[State], players: Sequence[int] | None = None,
               actions: Sequence[Action] | None = None) -> Observation:
        if players is None:
            players = [s.current_players()[0] for s in states]
        planes, masks = self._empty(len(states))
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            if actions is None:
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            play = self._play(s, actions[i])
            major, _ = self.split(play)
            if major < 0:  # no code: the major mask as usual, label UNENCODABLE
                self._row(s, p, planes, masks, i, None, (), 0)
                continue
            kick = sorted(play.kickers)
            self._row(s, p, planes, masks, i, major, kick, len(kick))
        return Observation(planes, masks)

    def action_codes(self, states: Sequence[State], players: Sequence[int],
                     actions: Sequence[Action]) -> np.ndarray:
        """``[major, minor0 ..]`` per action, ``-1`` where unused; a play without a code has
        major :data:`~ime.core.encoding.UNENCODABLE` (datasets drop and count the row)."""
        out = np.full((len(actions), len(self.heads)), -1, dtype=np.int64)
        for i, (s, a) in enumerate(zip(states, actions, strict=True)):
            major, minors = self.split(self._play(s, a))
            if major >= 0:
                out[i, : 1 + len(minors)] = [major, *minors]
            else:
                out[i, 0] = UNENCODABLE
        return out

    def decode(self, state: State, player: int, codes: Sequence[int]) -> Action:
        """The canonical card ids (lowest of each rank) of the major code and the minor codes
        it needs (later codes are ignored)."""
        c = self.codes
        major = int(codes[0])
        need = int(c.major_kickers[major]) if 0 <= major < c.num_major else 0
        counts = c.counts_from_codes(major, [int(x) for x in codes[1:1 + need]])
        return state.cards_for(player, counts)  # type: ignore[attr-defined]

    def select(self, state: State, player: int, policy: Policy) -> Action:
        """Fig 5.3 at play time: the most probable legal major, then each kicker in turn (the
        step re-encoded with the kickers chosen so far); a single legal play is played as is."""
        c = self.codes
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        obs = self.encode([state], [player])
        major = _masked_argmax(policy(obs)[0][0], obs.masks[0][0])
        kickers: list[int] = []
        for k in range(int(c.major_kickers[major])):
            planes, masks = self._empty(1)
            self._row(state, player, planes, masks, 0, major, kickers, k + 1)
            code = _masked_argmax(policy(Observation(planes, masks))[1 + k][0], masks[1 + k][0])
            kickers.append(c.minor_rank(code))
        size = int(c.major_kicker_size[major])
        return self.decode(state, player, [major, *(c.minor_code(r, size) for r in kickers)])

    def select_batch(self, states: Sequence[State], players: Sequence[int], policy: Policy,
                     uniforms: np.ndarray | None = None) -> list[Action]:
        """:meth:`select` for many positions with one ``policy`` call per step (the major, then
        each kicker step over the rows that need it), or, with ``uniforms``, a *sample* of the
        factorised policy: row ``i`` draws its major at ``uniforms[i, 0]`` and kicker ``k`` at
        ``uniforms[i, 1 + k]`` (:func:`_masked_pick`; shape ``[n, 1 + max_kickers]``, values in
        [0, 1)). Why: a Monte-Carlo bot asks an imitator about hundreds of rollout positions at
        once (:mod:`ime.games.doudizhu.bots.om_pimc`); per-row draws make a sample independent
        of how the rows are batched. A position with one legal play gets it without a draw."""
        c = self.codes
        out: list[Action | None] = [None] * len(states)
        todo = []
        for i, (s, p) in enumerate(zip(states, players, strict=True)):
            legal = s.legal_actions(p)
            if len(legal) == 1:
                out[i] = legal[0]
            else:
                todo.append(i)
        if todo:
            def u_at(i: int, k: int) -> float | None:
                return None if uniforms is None else float(uniforms[i, k])

            obs = self.encode([states[i] for i in todo], [players[i] for i in todo])
            probs = policy(obs)[0]
            majors = [_masked_pick(probs[j], obs.masks[0][j], u_at(i, 0))
                      for j, i in enumerate(todo)]
            need = [int(c.major_kickers[m]) for m in majors]
            kickers: list[list[int]] = [[] for _ in todo]
            for k in range(max(need)):
                rows = [j for j in range(len(todo)) if need[j] > k]
                planes, masks = self._empty(len(rows))
                for r, j in enumerate(rows):
                    i = todo[j]
                    self._row(states[i], players[i], planes, masks, r, majors[j], kickers[j],
                              k + 1)
                pol = policy(Observation(planes, masks))[1 + k]
                for r, j in enumerate(rows):
                    code = _masked_pick(pol[r], masks[1 + k][r], u_at(todo[j], 1 + k))
                    kickers[j].append(c.minor_rank(code))
            for j, i in enumerate(todo):
                size = int(c.major_kicker_size[majors[j]])
                out[i] = self.decode(states[i], players[i],
                                     [majors[j], *(c.minor_code(r, size) for r in kickers[j])])
        return out  # type: ignore[return-value]


__all__ = ["AFTER_PLANES", "MAJOR_PLANES", "MINOR_PLANES", "ROWS", "KickerCodes",
           "KickerStepEncoder", "card_planes", "cell_plane", "count_plane", "minor_planes"]
