"""Rule bots for Gongzhu: a few hand-written playing styles plus uniform random.

Every style is a pure function of what the deciding seat may see: its own hand
(``state.hands[seat]``) and the public fields (shows, piles won, cards played, current trick).
:func:`public_view` copies exactly those, so a style cannot peek at another hand by accident.
Only ``random`` (and the optional ``epsilon`` noise of the bot kinds) draws from ``rng``, which the
caller keys by (seed, match, ply, seat).

Styles (``docs/games/gongzhu.md`` has the details):

* ``duck`` - the cautious player: ducks under the trick's winning card, dumps the pig and high
  hearts on void suits, chases the pig by leading low spades when it holds no SQ/SK/SA, wins a
  trick only when it carries net positive points and it plays last; shows a well-guarded SQ or DJ.
* ``shoot`` - the collector: with a hand strong in hearts (HA, HK and >= 6 hearts) it runs for
  all hearts (shows HA, leads its top hearts, takes every heart trick) until some other seat wins
  a heart; otherwise it plays for the goat and transformer, taking tricks whose points are
  positive, and ducks the rest.
* ``low`` - the simplest heuristic: leads and follows with its lowest card, discards its highest
  card (the pig first), never shows.
* ``random`` - a uniformly random legal action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ime.games.gongzhu.rules import (
    C10,
    DIAMONDS,
    DJ,
    HA,
    HEART_VALUES,
    HEARTS,
    HEARTS_MASK,
    SHOW_BASE,
    SHOWABLE,
    SPADES,
    SQ,
    SUIT_MASKS,
    GongzhuState,
    cards_of_mask,
    legal_actions,
)

RULE_STYLES: tuple[str, ...] = ("duck", "shoot", "low", "random")
"""Every style :func:`rule_action` knows, deterministic ones first."""

SK = SPADES * 13 + 11
SA = SPADES * 13 + 12
HK = HEARTS * 13 + 11


@dataclass(frozen=True)
class PublicView:
    """What ``seat`` may see: its hand and the public record (never another seat's hand)."""

    seat: int
    hand: int
    phase: str
    shown: tuple[int, ...]
    won: tuple[int, ...]
    played_mask: int
    trick: tuple[tuple[int, int], ...]
    led_suits: int
    tricks_done: int
    legal: tuple[int, ...]
    my_played: int

    @property
    def shown_cards(self) -> int:
        m = 0
        for s in self.shown:
            for i in range(4):
                if s >> i & 1:
                    m |= 1 << SHOWABLE[i]
        return m

    @property
    def start_hand(self) -> int:
        """The seat's dealt hand (its hand plus what it played: both known to it)."""
        return self.hand | self.my_played

    def out(self) -> int:
        """Cards neither in my hand nor played yet (held by the other seats)."""
        return ~(self.hand | self.played_mask) & ((1 << 52) - 1)


def public_view(state: GongzhuState, seat: int) -> PublicView:
    """Copy the fields ``seat`` may read (``state.hands[seat]`` and the public ones)."""
    played = 0
    for p in state.played:
        for c in p:
            played |= 1 << c
    mine = 0
    for c in state.played[seat]:
        mine |= 1 << c
    return PublicView(seat=seat, hand=state.hands[seat], phase=state.phase,
                   shown=tuple(state.shown), won=tuple(state.won), played_mask=played,
                   trick=tuple(state.trick), led_suits=state.led_suits,
                   tricks_done=state.tricks_done, legal=tuple(legal_actions(state)),
                   my_played=mine)


# --- card values as the bots estimate them -------------------------------------------------------

def point_value(card: int, shown_cards: int) -> int:
    """Face value of a card in a pile (shows included; the C10 multiplier is left out)."""
    if card == SQ:
        return -200 if shown_cards >> SQ & 1 else -100
    if card == DJ:
        return 200 if shown_cards >> DJ & 1 else 100
    if card // 13 == HEARTS:
        return HEART_VALUES[card % 13] * (2 if shown_cards >> HA & 1 else 1)
    return 0


def pile_value(view: PublicView) -> int:
    """What the seat's own pile is worth now (shows included, the C10 left out)."""
    sc = view.shown_cards
    return sum(point_value(c, sc) for c in cards_of_mask(view.won[view.seat]))


def trick_points(view: PublicView) -> int:
    """Points on the table now for the seat if it took the trick. The C10 doubles the seat's
    pile: it is worth the pile's value (+50 on an empty pile)."""
    sc = view.shown_cards
    total = sum(point_value(c, sc) for _, c in view.trick)
    if any(c == C10 for _, c in view.trick):
        pile = pile_value(view) + total
        total += pile if pile else 50
    return total


def winning_card(view: PublicView) -> int:
    """The card now winning the trick (the trick must have a lead)."""
    su = view.trick[0][1] // 13
    return max(c for _, c in view.trick if c // 13 == su)


def _rank_key(c: int) -> tuple[int, int]:
    return (c % 13, c // 13)


def _lowest(cards: list[int]) -> int:
    return min(cards, key=_rank_key)


def _highest(cards: list[int]) -> int:
    return max(cards, key=_rank_key)


def _discard_priority(view: PublicView, cards: list[int]) -> int:
    """The card to throw on a void suit: the pig, then the highest heart, then high spades while
    the pig is still out, then the highest card; the goat and transformer are kept."""
    if SQ in cards:
        return SQ
    hearts = [c for c in cards if c // 13 == HEARTS]
    if hearts:
        return max(hearts)
    pig_out = bool(view.out() >> SQ & 1)
    if pig_out:
        guards = [c for c in cards if c in (SA, SK)]
        if guards:
            return max(guards)
    rest = [c for c in cards if c not in (DJ, C10)] or cards
    return _highest(rest)


# --- styles ----------------------------------------------------------------------------------

def _show_duck(view: PublicView) -> int:
    """Show a pig guarded by >= 5 spades, or a goat with >= 4 diamonds including the ace."""
    m = 0
    spades = (view.hand & SUIT_MASKS[SPADES]).bit_count()
    diamonds = view.hand & SUIT_MASKS[DIAMONDS]
    if view.hand >> SQ & 1 and spades >= 5:
        m |= 1
    if view.hand >> DJ & 1 and diamonds.bit_count() >= 4 and diamonds >> (DIAMONDS * 13 + 12) & 1:
        m |= 2
    return SHOW_BASE + m


def _lead_duck(view: PublicView) -> int:
    """Chase the pig with a low spade when holding no SQ/SK/SA; else lead the lowest card of the
    shortest safe suit (to make a void for the pig and the hearts later)."""
    legal = list(view.legal)
    pig_out = bool(view.out() >> SQ & 1)
    spades = [c for c in legal if c // 13 == SPADES]
    if pig_out and spades and not any(view.hand >> c & 1 for c in (SQ, SK, SA)):
        return min(spades)  # chase the pig
    safe = [c for c in legal if c // 13 != HEARTS and c != SQ
            and not (pig_out and c in (SK, SA)) and c not in (DJ, C10)]
    if safe:
        length = {su: (view.hand & SUIT_MASKS[su]).bit_count() for su in range(4)}
        return min(safe, key=lambda c: (length[c // 13], c % 13, c // 13))
    return _lowest([c for c in legal if c != SQ] or legal)


def _follow_duck(view: PublicView, greedy: bool) -> int:
    legal = list(view.legal)
    su = view.trick[0][1] // 13
    follow = [c for c in legal if c // 13 == su]
    if not follow:
        return _discard_priority(view, legal)
    win = winning_card(view)
    last = len(view.trick) == 3
    pts = trick_points(view)
    under = [c for c in follow if c < win]
    over = [c for c in follow if c > win]
    if last and over and (pts > 0 or (greedy and pts >= 0)):
        keep = [c for c in over if c != SQ]
        return min(keep or over)  # take the positive trick cheaply
    if under:
        return max(under)
    # every card wins for now
    if last:
        keep = [c for c in follow if c != SQ]
        return max(keep or follow)  # it is ours anyway: shed the highest (never our own pig)
    keep = [c for c in follow if c != SQ and c not in (DJ, C10)]
    return min(keep or follow)


def _duck(view: PublicView, greedy: bool = False) -> int:
    if view.phase == "show":
        return _show_duck(view)
    if not view.trick:
        return _lead_duck(view)
    return _follow_duck(view, greedy)


def _shooting(view: PublicView) -> bool:
    """Still running for all hearts: a strong heart hand and no heart won by anyone else."""
    start = view.start_hand
    hearts = start & HEARTS_MASK
    strong = hearts.bit_count() >= 6 and hearts >> HA & 1 and hearts >> HK & 1
    if not strong:
        return False
    others = 0
    for i, w in enumerate(view.won):
        if i != view.seat:
            others |= w
    return not others & HEARTS_MASK


def _shoot(view: PublicView) -> int:
    if view.phase == "show":
        if _shooting(view):
            m = 8  # HA
            if view.hand >> C10 & 1:
                m |= 4
            return SHOW_BASE + m
        return _show_duck(view)
    if not _shooting(view):
        return _duck(view, greedy=True)
    legal = list(view.legal)
    if not view.trick:
        hearts = [c for c in legal if c // 13 == HEARTS]
        if hearts:
            return max(hearts)  # cash the top hearts
        return _highest(legal)  # win tricks to keep the lead
    su = view.trick[0][1] // 13
    follow = [c for c in legal if c // 13 == su]
    if not follow:
        # keep our hearts; throw something harmless
        non_hearts = [c for c in legal if c // 13 != HEARTS]
        return _discard_priority(view, non_hearts or legal)
    win = winning_card(view)
    over = [c for c in follow if c > win]
    has_hearts = any(c // 13 == HEARTS for _, c in view.trick) or su == HEARTS
    if over and (has_hearts or len(view.trick) < 3):
        return max(over) if len(view.trick) < 3 else min(over)
    return min(follow)


def _low(view: PublicView) -> int:
    if view.phase == "show":
        return SHOW_BASE
    legal = list(view.legal)
    if view.trick and not any(c // 13 == view.trick[0][1] // 13 for c in legal):
        return SQ if SQ in legal else _highest(legal)
    return _lowest(legal)


def rule_action(style: str, state: GongzhuState, seat: int, rng: np.random.Generator) -> int:
    """The action of ``style`` for ``seat`` (the seat to move) in ``state``.

    Reads only ``state.hands[seat]`` and the public fields; ``rng`` is used by ``random`` only.
    """
    if seat != state.to_move:
        raise ValueError(f"seat {seat} is not to move (seat {state.to_move} is)")
    if style == "random":
        legal = legal_actions(state)
        return legal[int(rng.integers(len(legal)))]
    view = public_view(state, seat)
    if not view.legal:
        raise ValueError("the deal is over: no action to choose")
    if style == "duck":
        a = _duck(view)
    elif style == "shoot":
        a = _shoot(view)
    elif style == "low":
        a = _low(view)
    else:
        raise ValueError(f"unknown Gongzhu rule style {style!r}; known: {RULE_STYLES}")
    if a not in view.legal:  # pragma: no cover - a style bug, caught by the legality tests
        raise AssertionError(f"style {style} chose illegal {a} from {view.legal}")
    return a


__all__ = ["RULE_STYLES", "PublicView", "point_value", "public_view", "rule_action"]
