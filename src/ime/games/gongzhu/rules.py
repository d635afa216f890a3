"""Gongzhu (拱猪) rules core: deal, show phase, 13 tricks, legality and scoring.

The agreed API of ``/work/gongzhu_api.md`` (shared with the agents helper): cards are ints
``suit * 13 + rank`` (suits S=0 H=1 D=2 C=3, ranks 0='2' .. 12='A'), one action space of 68 ints
(0..51 play that card, ``52 + m`` show the subset ``m`` of :data:`SHOWABLE`), hands and won piles
are 52-bit masks in python ints so that ``legal_actions`` and ``apply`` stay cheap enough for
Deep Monte-Carlo self-play (no numpy in the hot path, :meth:`GongzhuState.copy` copies a few
small lists).

Rules (seed: the GZero paper, and where it is silent the common Chinese table, see
``docs/games/gongzhu.md`` for sources):

* Show phase: starting with the holder of the club 2 and going round the table (seat + 1), each
  seat once chooses which of its SQ, DJ, C10, HA to show (``m = 0`` shows nothing). Shows are
  public. The club-2 holder then leads the first trick and must lead the club 2.
* Play: follow the led suit if you can, else play any card (a discard counts as the lowest).
  The highest card of the led suit wins the trick and leads the next. A shown card may not be
  played while its suit has not yet been led in an earlier trick, neither as a lead nor as a
  follow to the first trick of its suit, unless it is the only card of that suit in hand; it may
  be discarded on another suit's trick. ``led_suits`` holds the suits led in *completed* tricks.
* Scoring (:func:`score_of`): SQ -100, DJ +100, hearts A -50 K -40 Q -30 J -20 10..5 -10 4..2 0;
  a shown SQ / DJ counts double, a shown HA doubles every heart; all 13 hearts in one pile count
  +200 (+400 with HA shown) instead; all 16 scoring cards (13 hearts, SQ, DJ, C10) also turn the
  pig positive (+800 unshown). The C10 multiplies the pile's other points by 2 (4 when shown);
  taken with no other scoring card it scores +50 (+100 when shown).

Rule options (:class:`RuleOptions`, the game's ``params`` in ``config/game/gongzhu.yaml``; the
defaults are the rules above, on which the shipped agents were trained):

* ``ha_doubling``: ``"all"`` (default: a shown HA doubles every heart) or ``"ha_only"`` (the
  seed's table: a shown HA doubles only the HA itself; the all-hearts bonus is +400 either way).
* ``first_lead``: ``"club2"`` (default: the club-2 holder must lead the club 2) or ``"free"``
  (the seed: the club-2 holder "usually" leads, with any card; the shown-card bar still holds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_LETTERS = "SHDC"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NUM_CARDS = 52
NUM_PLAYERS = 4
NUM_TRICKS = 13
N_ACTIONS = 68
SHOW_BASE = 52
N_SHOW_ACTIONS = 16


def card_of(suit: int, rank: int) -> int:
    """Card id of ``suit`` and ``rank`` (0='2' .. 12='A')."""
    return suit * 13 + rank


SQ = card_of(SPADES, 10)
DJ = card_of(DIAMONDS, 9)
C10 = card_of(CLUBS, 8)
HA = card_of(HEARTS, 12)
C2 = card_of(CLUBS, 0)
SHOWABLE: tuple[int, int, int, int] = (SQ, DJ, C10, HA)
"""The four cards a seat may show, in the order of the seed's 1x4 show vector (bit i <-> [i])."""

SUIT_MASKS: tuple[int, int, int, int] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]
SCORING_MASK = HEARTS_MASK | (1 << SQ) | (1 << DJ) | (1 << C10)
"""The 16 scoring cards (分牌): all hearts, the pig, the goat and the transformer."""
ALL_CARDS = (1 << NUM_CARDS) - 1

HEART_VALUES: tuple[int, ...] = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
"""Base value of each heart by rank 2..A (sums to -200)."""
PIG_VALUE = -100
GOAT_VALUE = 100
TRANSFORMER_ALONE = 50
ALL_HEARTS_VALUE = 200


HA_DOUBLING = ("all", "ha_only")
FIRST_LEAD = ("club2", "free")


@dataclass(frozen=True)
class RuleOptions:
    """The two rule choices where common tables and the seed differ (module doc)."""

    ha_doubling: str = "all"
    first_lead: str = "club2"

    def __post_init__(self) -> None:
        if self.ha_doubling not in HA_DOUBLING:
            raise ValueError(f"gongzhu rule ha_doubling={self.ha_doubling!r}: "
                             f"must be one of {HA_DOUBLING}")
        if self.first_lead not in FIRST_LEAD:
            raise ValueError(f"gongzhu rule first_lead={self.first_lead!r}: "
                             f"must be one of {FIRST_LEAD}")

    @classmethod
    def of(cls, rules: RuleOptions | dict | None) -> RuleOptions:
        """``rules`` itself, the options of a mapping (unknown keys are an error), or the
        defaults for ``None``."""
        if rules is None:
            return DEFAULT_RULES
        if isinstance(rules, RuleOptions):
            return rules
        unknown = set(rules) - {"ha_doubling", "first_lead"}
        if unknown:
            raise ValueError(f"unknown gongzhu rule option(s) {sorted(unknown)}; "
                             f"known: ha_doubling, first_lead")
        return cls(**rules)

    def as_dict(self) -> dict[str, str]:
        return {"ha_doubling": self.ha_doubling, "first_lead": self.first_lead}


DEFAULT_RULES = RuleOptions()
SEED_RULES = RuleOptions(ha_doubling="ha_only", first_lead="free")
"""The seed's reading: HA-only doubling and a free first lead."""


class IllegalMove(ValueError):
    """An action the rules do not allow in this state (the message says which and why)."""


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def card_name(card: int) -> str:
    """``"SQ"``, ``"H10"``, ``"C2"``."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"not a card id: {card}")
    return SUIT_LETTERS[card // 13] + RANK_NAMES[card % 13]


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name` (case-insensitive, ``"T"`` accepted for 10)."""
    s = name.strip().upper()
    if len(s) < 2 or s[0] not in SUIT_LETTERS:
        raise ValueError(f"not a card name: {name!r}")
    rank = "10" if s[1:] == "T" else s[1:]
    if rank not in RANK_NAMES:
        raise ValueError(f"not a card name: {name!r}")
    return card_of(SUIT_LETTERS.index(s[0]), RANK_NAMES.index(rank))


def cards_of_mask(mask: int) -> list[int]:
    """Card ids set in a 52-bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def show_cards(m: int) -> list[int]:
    """The SHOWABLE cards in a 4-bit show subset ``m``."""
    return [SHOWABLE[i] for i in range(4) if m >> i & 1]


def show_subset_of_hand(hand: int) -> int:
    """4-bit mask of the SHOWABLE cards held in ``hand``."""
    return sum(1 << i for i, c in enumerate(SHOWABLE) if hand >> c & 1)


def action_name(action: int) -> str:
    """``"SQ"`` for a play, ``"show[SQ,C10]"`` / ``"show[]"`` for a show."""
    if 0 <= action < SHOW_BASE:
        return card_name(action)
    if SHOW_BASE <= action < N_ACTIONS:
        return "show[" + ",".join(card_name(c) for c in show_cards(action - SHOW_BASE)) + "]"
    raise ValueError(f"not an action id: {action}")


@dataclass
class GongzhuState:
    """A deal in progress. Public: everything except ``hands`` of the other seats."""

    hands: list[int]
    phase: str = "show"
    shown: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    to_move: int = 0
    leader: int = 0
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks_done: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    played: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    led_suits: int = 0
    history: list[tuple[int, int]] = field(default_factory=list)
    first_seat: int = 0
    """Seat that held the club 2 (showed first, led the first trick)."""
    trick_winners: list[int] = field(default_factory=list)
    """Winner of each completed trick, in order (public)."""
    rules: RuleOptions = DEFAULT_RULES
    """The rule options of this deal (immutable, shared by copies)."""

    def copy(self) -> GongzhuState:
        return GongzhuState(
            hands=list(self.hands), phase=self.phase, shown=list(self.shown),
            to_move=self.to_move, leader=self.leader, trick=list(self.trick),
            tricks_done=self.tricks_done, won=list(self.won),
            played=[list(p) for p in self.played], led_suits=self.led_suits,
            history=list(self.history), first_seat=self.first_seat,
            trick_winners=list(self.trick_winners), rules=self.rules)

    def shown_cards(self) -> int:
        """52-bit mask of every shown card (public, whoever holds or won it)."""
        m = 0
        for s in self.shown:
            for i in range(4):
                if s >> i & 1:
                    m |= 1 << SHOWABLE[i]
        return m

    def led_suit(self) -> int | None:
        """Suit of the current trick's lead, or None before the lead."""
        return self.trick[0][1] // 13 if self.trick else None


def from_hands(hands: list[list[int]], rules: RuleOptions | dict | None = None) -> GongzhuState:
    """Start of a deal (show phase) from four 13-card hands that split the deck, under
    ``rules`` (default: :data:`DEFAULT_RULES`)."""
    if len(hands) != NUM_PLAYERS:
        raise ValueError(f"need 4 hands, got {len(hands)}")
    masks = []
    total = 0
    for seat, h in enumerate(hands):
        if len(h) != NUM_TRICKS:
            raise ValueError(f"hand of seat {seat} has {len(h)} cards, need 13")
        m = mask_of(h)
        if m.bit_count() != NUM_TRICKS or m & ~ALL_CARDS:
            raise ValueError(f"hand of seat {seat} has repeated or invalid cards: {h}")
        if total & m:
            raise ValueError(f"hand of seat {seat} shares cards with an earlier hand")
        total |= m
        masks.append(m)
    first = next(s for s in range(NUM_PLAYERS) if masks[s] >> C2 & 1)
    return GongzhuState(hands=masks, to_move=first, leader=first, first_seat=first,
                        rules=RuleOptions.of(rules))


def deal(seed_or_rng: int | np.random.Generator,
         rules: RuleOptions | dict | None = None) -> GongzhuState:
    """A random deal; the same int seed always gives the same deal (the rule options do not
    change the cards)."""
    rng = (seed_or_rng if isinstance(seed_or_rng, np.random.Generator)
           else np.random.default_rng(seed_or_rng))
    perm = rng.permutation(NUM_CARDS)
    return from_hands([sorted(int(c) for c in perm[13 * i:13 * i + 13]) for i in range(4)],
                      rules)


def _restricted(state: GongzhuState, seat: int) -> int:
    """Shown cards of ``seat`` still barred because their suit has not been led yet."""
    s = state.shown[seat]
    if not s:
        return 0
    bar = 0
    hand = state.hands[seat]
    for i in range(4):
        if s >> i & 1:
            c = SHOWABLE[i]
            su = c // 13
            if hand >> c & 1 and not state.led_suits >> su & 1:
                if (hand & SUIT_MASKS[su]).bit_count() > 1:
                    bar |= 1 << c
    return bar


def legal_mask_int(state: GongzhuState) -> int:
    """Legal card plays of the seat to move as a 52-bit mask (play phase only)."""
    seat = state.to_move
    hand = state.hands[seat]
    if not state.trick:
        if state.tricks_done == 0 and state.rules.first_lead == "club2":
            return 1 << C2
        return hand & ~_restricted(state, seat)
    su = state.trick[0][1] // 13
    follow = hand & SUIT_MASKS[su]
    if not follow:
        return hand
    if state.led_suits >> su & 1:
        return follow
    return follow & ~_restricted(state, seat)


def legal_actions(state: GongzhuState) -> list[int]:
    """Legal actions of ``state.to_move``, ascending; empty when the deal is over."""
    if state.phase == "play":
        return cards_of_mask(legal_mask_int(state))
    if state.phase == "show":
        avail = show_subset_of_hand(state.hands[state.to_move])
        return [SHOW_BASE + m for m in range(N_SHOW_ACTIONS) if m & ~avail == 0]
    return []


def apply(state: GongzhuState, action: int) -> None:
    """Play ``action`` for ``state.to_move`` in place; raises :class:`IllegalMove`."""
    seat = state.to_move
    if state.phase == "show":
        m = action - SHOW_BASE
        if not 0 <= m < N_SHOW_ACTIONS:
            raise IllegalMove(f"seat {seat}: action {action} is not a show action (52..67) "
                              f"in the show phase")
        if m & ~show_subset_of_hand(state.hands[seat]):
            raise IllegalMove(f"seat {seat}: cannot show {action_name(action)}, "
                              f"not all of those cards are in hand")
        state.shown[seat] = m
        state.history.append((seat, action))
        nxt = (seat + 1) % NUM_PLAYERS
        if nxt == state.first_seat:
            state.phase = "play"
        state.to_move = nxt
        return
    if state.phase != "play":
        raise IllegalMove(f"seat {seat}: the deal is over, no action {action} allowed")
    if not 0 <= action < NUM_CARDS:
        raise IllegalMove(f"seat {seat}: action {action} is not a card (0..51) in the play phase")
    if not legal_mask_int(state) >> action & 1:
        raise IllegalMove(f"seat {seat}: cannot play {card_name(action)}: "
                          f"{_why_illegal(state, action)}")
    state.hands[seat] &= ~(1 << action)
    state.played[seat].append(action)
    state.trick.append((seat, action))
    state.history.append((seat, action))
    if len(state.trick) < NUM_PLAYERS:
        state.to_move = (seat + 1) % NUM_PLAYERS
        return
    winner = trick_winner(state.trick)
    for _, c in state.trick:
        state.won[winner] |= 1 << c
    state.led_suits |= 1 << (state.trick[0][1] // 13)
    state.trick = []
    state.trick_winners.append(winner)
    state.tricks_done += 1
    state.leader = winner
    state.to_move = winner
    if state.tricks_done == NUM_TRICKS:
        state.phase = "done"


def _why_illegal(state: GongzhuState, card: int) -> str:
    seat = state.to_move
    hand = state.hands[seat]
    if not hand >> card & 1:
        return "not in hand"
    if not state.trick and state.tricks_done == 0 and state.rules.first_lead == "club2":
        return "the first trick must be led with the club 2"
    if state.trick:
        su = state.trick[0][1] // 13
        if card // 13 != su and hand & SUIT_MASKS[su]:
            return f"must follow suit {SUIT_LETTERS[su]}"
    return ("a shown card may not be played in its suit's first trick unless it is the only "
            "card of that suit in hand")


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """Seat that played the highest card of the led suit."""
    su = trick[0][1] // 13
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if c // 13 == su and c > best:
            best_seat, best = seat, c
    return best_seat


def is_terminal(state: GongzhuState) -> bool:
    return state.phase == "done"


def score_of(won: int, shown_cards: int, ha_doubling: str = "all") -> int:
    """Score of one pile of won cards given the mask of shown cards (rules in the module doc);
    ``ha_doubling`` is the :class:`RuleOptions` field."""
    pile = won & SCORING_MASK
    if not pile:
        return 0
    ha_shown = bool(shown_cards >> HA & 1)
    heart_factor = 2 if ha_shown and ha_doubling == "all" else 1
    has_c10 = bool(pile >> C10 & 1)
    others = pile & ~(1 << C10)
    if has_c10 and not others:
        return TRANSFORMER_ALONE * (2 if shown_cards >> C10 & 1 else 1)
    hearts = pile & HEARTS_MASK
    total = 0
    if hearts == HEARTS_MASK:
        total += ALL_HEARTS_VALUE * (2 if ha_shown else 1)
    else:
        h = hearts >> 13
        while h:
            low = h & -h
            total += HEART_VALUES[low.bit_length() - 1] * heart_factor
            h ^= low
        if ha_shown and ha_doubling == "ha_only" and hearts >> HA & 1:
            total += HEART_VALUES[12]  # the HA alone counts twice
    if pile >> SQ & 1:
        pig = PIG_VALUE * (2 if shown_cards >> SQ & 1 else 1)
        total += -pig if pile == SCORING_MASK else pig
    if pile >> DJ & 1:
        total += GOAT_VALUE * (2 if shown_cards >> DJ & 1 else 1)
    if has_c10:
        total *= 4 if shown_cards >> C10 & 1 else 2
    return total


def scores(state: GongzhuState) -> list[int]:
    """The four scores of the deal from the won piles and the shows (valid at any time; final
    when :func:`is_terminal`)."""
    sc = state.shown_cards()
    return [score_of(w, sc, state.rules.ha_doubling) for w in state.won]


def relative_scores(scores: list[int] | list[float]) -> list[float]:
    """The seed's (GZero's) per-seat utility ``3 * s_i - sum_{j != i} s_j`` (= ``4 s_i - sum``):
    a seat "wins" on the seed's metric when this is ``> 0``, so on a tie several seats can win
    (three seats on 0 and one on -100 all count as winners)."""
    total = sum(scores)
    return [4 * s - total for s in scores]


def winners(state: GongzhuState) -> list[int]:
    """Seats with the highest score (several on a tie)."""
    s = scores(state)
    best = max(s)
    return [i for i in range(NUM_PLAYERS) if s[i] == best]
