"""The Doudizhu bot zoo (issue 14 part 3): every bot is legal in every seat, reproducible from
(seed, match, ply, seat), blind to the hidden hands, and follows its documented rules."""

from __future__ import annotations

import numpy as np
import pytest
from shedding_helpers import Checked, assert_reproducible, ctx, decision_sample

from ime.bots.registry import load_bot_specs
from ime.core.bot import Bot
from ime.games.doudizhu import GAME
from ime.games.doudizhu.bots import BOT_KINDS
from ime.games.doudizhu.bots.analysis import make_zoo_bot, round_robin
from ime.games.doudizhu.bots.rule4 import Rule4Bot, ordered_split
from ime.games.doudizhu.bots.rule5 import Rule5Bot, follow_key, lead_key
from ime.games.doudizhu.bots.splits import best_split, split_value
from ime.games.doudizhu.bots.view import SeatView, seat_view
from ime.games.doudizhu.bots.zoo import ZOO_KINDS
from ime.games.doudizhu.cards import cards_from_text, counts_of, parse_ranks
from ime.games.doudizhu.combos import PASS, classify
from ime.games.doudizhu.movegen import generate_moves
from ime.matches.judge import run_match

SPECS = load_bot_specs("doudizhu")
FAST = {**SPECS, "ddz_mc": {"kind": "pimc", "params": {"simulations": 60,
                                                       "max_determinizations": 12}}}
"""The zoo with a smaller search budget for ``ddz_mc`` (test time)."""
ZOO = ["ddz1", "ddz2", "ddz3", "ddz4", "ddz5", "ddz_mc"]


def bot(bot_id: str) -> Bot:
    return make_zoo_bot(bot_id, FAST)


@pytest.fixture(scope="module")
def mixed_games():
    """100 full games, three zoo bots drawn per game (every bot in every seat): decisions."""
    made = {b: bot(b) for b in ZOO}
    rng = np.random.default_rng(14)
    seats_seen = {b: set() for b in ZOO}
    out = []
    for g in range(100):
        names = [ZOO[int(i)] for i in rng.integers(len(ZOO), size=3)]
        if g < len(ZOO) * 3:  # make sure every bot sits in every seat
            names[g % 3] = ZOO[g // 3]
        for s, n in enumerate(names):
            seats_seen[n].add(s)
        res = run_match(GAME, [Checked(made[n]) for n in names], match_id=f"t-{g}", seed=g,
                        record_decisions=True)
        assert res.fault is None, (names, res.fault)
        assert res.final_state.is_terminal() and res.final_state.winner is not None
        out.extend((names[d.player], d) for d in res.decisions)
    assert all(seats_seen[b] == {0, 1, 2} for b in ZOO)
    return out


def test_every_spec_builds_and_kinds_merge_cleanly():
    # ZOO_KINDS adds kinds without shadowing the baselines (also once merged into BOT_KINDS)
    assert not set(ZOO_KINDS) & {"random", "smallest"}
    assert all(BOT_KINDS.get(k, f) is f for k, f in ZOO_KINDS.items())
    for bot_id, spec in SPECS.items():
        assert spec["kind"] in {**BOT_KINDS, **ZOO_KINDS}
        b = make_zoo_bot(bot_id)
        assert b.bot_id == bot_id


@pytest.mark.slow
def test_all_bots_legal_in_mixed_tables(mixed_games):
    by_bot = {b: 0 for b in ZOO}
    for name, _ in mixed_games:
        by_bot[name] += 1
    assert min(by_bot.values()) > 200


@pytest.fixture(scope="module")
def positions(mixed_games):
    return decision_sample(mixed_games, 60)


@pytest.mark.parametrize("bot_id", ZOO)
@pytest.mark.slow
def test_decisions_reproducible(bot_id, positions):
    assert_reproducible(bot(bot_id), bot(bot_id), positions)


def test_search_bot_depends_on_seed_match_and_ply(positions):
    b = bot("ddz_mc")
    base = [b.act(st.clone(), ctx(st)) for st in positions]
    other = [b.act(st.clone(), ctx(st, seed=1, match="other")) for st in positions]
    assert base != other


def test_fork_from_a_middle_ply_reproduces_the_match():
    made = [bot("ddz_mc"), bot("ddz3"), bot("ddz1")]
    full = run_match(GAME, made, match_id="fork", seed=77)
    entries = [e for e in full.log if "output" not in e]
    for k in (len(entries) // 3, len(entries) // 2):
        fork = run_match(GAME, [bot("ddz_mc"), bot("ddz3"), bot("ddz1")], match_id="fork",
                         seed=77, prefix=entries[:k])
        assert fork.log == full.log and fork.scores == full.scores


def _permuted(state, me: int, rng) -> object:
    """The same history with the two hidden hands' unplayed cards re-dealt between them
    (consistent with their sizes and with the public cards the landlord still holds)."""
    others = [q for q in range(3) if q != me]
    forced = [] if me == 0 else [c for c in state.public_cards
                                 if c not in state.played_by(0)]
    free = [c for q in others for c in state.hand(q) if c not in forced]
    free = [free[int(i)] for i in rng.permutation(len(free))]
    alloc = [None, None, None]
    alloc[me] = list(state.allocation[me])
    for q in others:
        keep = forced if q == 0 else []
        n = state.cards_left(q) - len(keep)
        alloc[q] = list(state.played_by(q)) + keep + free[:n]
        free = free[n:]
    new = GAME.new_initial_state(initdata={"allocation": alloc,
                                           "publiccard": list(state.public_cards)})
    for _, cards in state.history:
        new.apply_action(cards)
    assert new.hand(me) == state.hand(me) and new.to_move == state.to_move
    return new


@pytest.mark.parametrize("bot_id", ZOO)
def test_decisions_ignore_the_hidden_hands(bot_id, positions):
    b = bot(bot_id)
    rng = np.random.default_rng(5)
    changed = 0
    for st in positions[:40]:
        me = st.to_move
        alt = _permuted(st, me, rng)
        changed += any(alt.hand(q) != st.hand(q) for q in range(3) if q != me)
        assert b.act(st.clone(), ctx(st)) == b.act(alt, ctx(st)), (bot_id, str(st))
    assert changed >= 30


def test_ddz4_never_bombs_its_teammate(mixed_games):
    over_teammate = 0
    for name, d in mixed_games:
        v = seat_view(d.state, d.player)
        if name == "ddz4" and v.by_teammate:
            over_teammate += 1
            assert not d.state.combo_of(d.action).is_bomb
    assert over_teammate > 20
    # a bomb and the rocket in hand, the teammate's 2 to beat: pass; the landlord's: bomb
    assert _choice(Rule4Bot(), _view("3333XD5", "2", me=2, last_by=1, left=(3, 3, 7))) == "pass"
    assert _choice(Rule4Bot(), _view("333355", "2", me=2, last_by=0, left=(3, 3, 6))) == "3333"
    assert _choice(Rule4Bot(), _view("333355", "2", me=2, last_by=0, left=(9, 3, 6))) == "pass"


def test_ddz4_feeds_a_teammate_about_to_go_out():
    assert _choice(Rule4Bot(), _view("34JJ2", None, me=1, left=(9, 5, 1))) == "3"
    assert _choice(Rule4Bot(), _view("34JJ2", None, me=1, left=(9, 5, 2))) == "JJ"
    assert _choice(Rule4Bot(), _view("34JJ2", None, me=1, left=(9, 5, 9))) == "JJ"


def test_ddz5_plays_the_smallest(mixed_games):
    seen = 0
    for name, d in mixed_games:
        if name != "ddz5":
            continue
        v = seat_view(d.state, d.player)
        played = d.state.combo_of(d.action)
        plays = [c for c in v.combos if not c.is_pass]
        if v.leading:
            assert played == min(plays, key=lead_key)
        elif not played.is_pass:
            if v.by_teammate:
                plays = [c for c in plays if not c.is_bomb]
            assert played == min(plays, key=follow_key)
            seen += 1
        elif not v.by_teammate:
            assert plays == []  # passes an opponent only when nothing beats
    assert seen > 100
    assert _choice(Rule5Bot(), _view("3344JJQQ22", "77", me=1, last_by=0)) == "JJ"
    assert _choice(Rule5Bot(), _view("3345678JJ", None, me=1)) == "345678"
    assert _choice(Rule5Bot(), _view("3344JJQQ22", "77", me=2, last_by=1)) == "JJ"
    assert _choice(Rule5Bot(), _view("3344JJQQ22", "QQ", me=2, last_by=1)) == "pass"
    assert _choice(Rule5Bot(), _view("3344JJQQ22", "77", me=1, last_by=2)) == "pass"


def test_farmers_yield_to_their_teammate(mixed_games):
    """From seat 1 (the landlord already passed) ddz1 and ddz2 always pass the teammate's play;
    from seat 2 ddz1 tops it only with a Q, K or A over a single or pair below J."""
    topped = 0
    for name, d in mixed_games:
        v = seat_view(d.state, d.player)
        if name not in ("ddz1", "ddz2") or not v.by_teammate or v.finishing() is not None:
            continue
        if d.player == 1:
            assert d.action == ()
        elif name == "ddz1" and d.action != ():
            last, mine = v.last[1], d.state.combo_of(d.action)
            assert last.kind in (1, 2) and last.rank < 8 and mine.kind == last.kind
            assert 9 <= mine.rank <= 11
            topped += 1
    assert topped > 0


def test_cooperation_rules_on_hand_made_positions():
    from ime.games.doudizhu.bots.rule2 import Rule2Bot
    from ime.games.doudizhu.bots.rule3 import Rule3Bot

    # ddz2: from seat 2 a small single of the teammate is topped with a free K, a Q is let
    # through; from seat 1 everything is let through
    assert _choice(Rule2Bot(), _view("K3", "5", me=2, last_by=1)) == "K"
    assert _choice(Rule2Bot(), _view("K3", "Q", me=2, last_by=1)) == "pass"
    assert _choice(Rule2Bot(), _view("K3", "5", me=1, last_by=2)) == "pass"
    # ddz3: the teammate's KK can be beaten (AA, 22 unseen); with 10 cards left its chance is
    # 0.6 / 3 + 0.4 * 0.4 = 0.36 -> play on; with 2 cards left 0.6 -> yield
    assert _choice(Rule3Bot(), _view("AA55", "KK", me=2, last_by=1, left=(10, 10, 4))) == "AA"
    assert _choice(Rule3Bot(), _view("AA55", "KK", me=2, last_by=1, left=(10, 2, 4))) == "pass"
    # a play that empties the hand is taken, also over the teammate (never a bomb by ddz4)
    for b in (Rule2Bot(), Rule3Bot(), Rule4Bot()):
        assert _choice(b, _view("JJ", "99", me=2, last_by=1, left=(9, 9, 2))) == "JJ"
        assert _choice(b, _view("8889", None, me=0)) == "8889"
    assert _choice(Rule4Bot(), _view("JJJJ", "99", me=2, last_by=1)) == "pass"


def test_splits_partition_the_hand_into_combinations():
    from ime.games.doudizhu.bots.rule1 import V1
    from ime.games.doudizhu.bots.rule3 import V3

    rng = np.random.default_rng(2)
    for _ in range(60):
        hand = rng.choice(54, int(rng.integers(1, 21)), replace=False)
        h = counts_of(hand)
        for val in (V1, V3):
            s = best_split(h, val)
            assert (sum(c.counts for c in s.combos) == h).all()
            assert all(classify(c.counts) == c for c in s.combos)
            assert s.turns == sum(not c.is_bomb for c in s.combos)
            assert split_value(h, val) == (s.value, s.turns)
    s = best_split(parse_ranks("33445566778899TTJJQQ"), V1)
    assert [c.text() for c in s.combos] == ["33445566778899TTJJQQ"]
    # kickers: the lowest free singles (never a 2, a joker or a body rank), else pairs
    assert [c.text() for c in best_split(parse_ranks("3334445556XD"), V1).combos] == \
        ["XD", "333444555", "6"]
    assert [c.text() for c in best_split(parse_ranks("3334445568"), V1).combos] == \
        ["33344468", "55"]


def test_ordered_split_follows_the_fixed_order():
    def texts(hand: str) -> list[str]:
        return [c.text() for c in ordered_split(parse_ranks(hand))]

    assert texts("3456789TTJJQQ222XD") == ["XD", "3456789TJQ", "T222", "J", "Q"]
    assert texts("3334445556") == ["334455", "3", "4", "5", "6"]  # pair straights first
    assert texts("33344458") == ["33344458"]
    assert texts("33334445") == ["3333", "4445"]


def test_round_robin_counts():
    r = round_robin(["ddz4", "ddz5"], rounds=2, seed=0, specs=FAST)
    assert r["matches"] == 4 and r["faults"] == 0
    assert sum(r["wins"].values()) == 4 and sum(r["points"].values()) == 12


# --- hand-made positions ---------------------------------------------------------------------
def _view(mine: str, last: str | None, me: int, last_by: int | None = None,
          left: tuple[int, int, int] = (10, 10, 10)) -> SeatView:
    """Seat ``me``'s view holding ``mine``, to beat ``last`` played by ``last_by`` (``None``:
    leading); the cards it has not seen are the rest of the deck."""
    hand = list(cards_from_text(mine))
    if last is None:
        moves, lead = generate_moves(hand), True
        combo_last = None
    else:
        combo_last = classify(parse_ranks(last))
        moves = generate_moves(hand, int(combo_last.kind), combo_last.rank, combo_last.chain)
        lead = False
    actions = moves.actions()
    combos = [classify(counts_of(a)) for a in actions]
    left = tuple(len(hand) if q == me else n for q, n in enumerate(left))
    return SeatView(me=me, counts=parse_ranks(mine), left=left,
                    last=None if lead else (last_by, combo_last),
                    unseen=np.array([4] * 13 + [1, 1]) - parse_ranks(mine),
                    landlord_public=np.zeros(15, np.int64),
                    legal=actions if lead else [(), *actions],
                    combos=combos if lead else [PASS, *combos])


def _choice(b, view: SeatView) -> str:
    return view.combos[b.choose(view)].text()
