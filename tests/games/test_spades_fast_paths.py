"""Issue 18: the Spades replay's fast paths (`games.spades.FAST_PATHS`: the trick loop on bits
and masks, the usual deal read at once, stated tricks equal to the play's, no exchange when
nobody bid nil) decide exactly as the general code they fall back to. Every record here is
checked twice, fast paths on and off, and the two results must be the same object: the same
tricks, scores, notes (text, code and parameters) and trick winners for a legal hand; the same
error code, message, trick, seat, card, trick winners and next leader for an illegal one.

The hands are generated legal hands of several rule sets (the fast trick loop's and others),
then, for most examples, spoiled the way a wrong record is: two cards swapped within a trick or
between tricks, a card replaced by another, by a lower-case or unknown spelling or by a
non-string, a trick cut short or lengthened, the play cut short (with or without a claim),
a seat's two cards played in the other order (a revoke, an early spade), spades led
early, the stated tricks changed, a card moved between hands in the deal, a call changed,
moved, dropped, repeated or misshapen."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import check_record, spades
from games.cards import NAMES
from games.simulate.spades import random_hand, to_summary
from tests import sizes

# standard, hoyle, windswept, winspades take the fast trick loop; pagat-barmore (2S high) and
# pagat-1996 (lowest clubs lead) do not, and must not be changed by the other fast paths.
HIGH_AD: dict[str, Any] = {"preset": "standard", "options": {"high_trumps": ["AD"]}}
SUM_MOON: dict[str, Any] = {
    "preset": "standard",
    "options": {"bidding": "sum", "moon": True, "thirteen_is_moon": True, "minimum_bid": 2},
}
PRESETS: list[Any] = [
    "standard",
    "hoyle",
    "windswept",
    "winspades",
    "network-spades",
    HIGH_AD,
    SUM_MOON,
    "spaceways",
    "dan-brad",
    "pagat-barmore",
    "pagat-1996",
    "pagat-3p",
]
CALL_NAMES = sorted(spades.CALLS)


def both(record: dict, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, dict]:
    fast = check_record(copy.deepcopy(record))
    with monkeypatch.context() as m:
        m.setattr(spades, "FAST_PATHS", False)
        reference = check_record(copy.deepcopy(record))
    return fast, reference


def notes_in_full(result: dict) -> list:
    """Each note with its code and parameters (a note compares equal by its text alone)."""
    return [(str(n), n.code, n.params) for n in result.get("notes", [])]


def spoil_calls(record: dict, rng: random.Random, how: str) -> None:
    calls: list[Any] = record["calls"]
    if not calls or any(not isinstance(c, dict) for c in calls):
        return
    i = rng.randrange(len(calls))
    if how == "call":
        calls[i] = dict(calls[i], call=rng.choice(CALL_NAMES + [" 4", 4, None, "13", "0"]))
    elif how == "call-seat":
        calls[i] = dict(calls[i], seat=rng.choice(["N", "E", "S", "W", "X", None]))
    elif how == "call-order":
        j = rng.randrange(len(calls))
        calls[i], calls[j] = calls[j], calls[i]
    elif how == "call-count":
        if rng.random() < 0.5:
            del calls[i]
        else:
            calls.append(dict(calls[i]))
    elif how == "call-shape":
        calls[i] = rng.choice(
            [
                [calls[i].get("seat"), calls[i].get("call")],
                dict(calls[i], extra=1),
                {"side": "NS", "call": "blind-7"},
            ]
        )
    else:
        raise AssertionError(how)


def spoil(record: dict, rng: random.Random, how: str) -> None:
    if how.startswith("call"):
        spoil_calls(record, rng, how)
        return
    play: list[Any] = record["play"]
    t = rng.randrange(len(play))
    trick = play[t]
    if (
        not isinstance(trick, list)
        or len(trick) < 2
        or any(
            not isinstance(x, list) or not x or not all(isinstance(c, str) for c in x) for x in play
        )
        or any(not isinstance(h, list) or len(h) < 2 for h in record["deal"].values())
    ):
        return  # spoilt beyond what the next change can take
    if how == "swap-in-trick":
        i, j = rng.sample(range(len(trick)), 2)
        trick[i], trick[j] = trick[j], trick[i]
    elif how == "swap-between-tricks":
        u = rng.randrange(len(play))
        i, j = rng.randrange(len(trick)), rng.randrange(len(play[u]))
        trick[i], play[u][j] = play[u][j], trick[i]
    elif how == "same-seat-swap":  # a seat plays two of its cards in the other order
        owner = {c: seat for seat, hand in record["deal"].items() for c in hand}
        u = rng.randrange(len(play))
        i = rng.randrange(len(trick))
        mine = [j for j, c in enumerate(play[u]) if owner.get(c) == owner.get(trick[i])]
        if mine:
            j = mine[0]
            trick[i], play[u][j] = play[u][j], trick[i]
    elif how == "replace":
        trick[rng.randrange(len(trick))] = rng.choice(NAMES)
    elif how == "spelling":
        i = rng.randrange(len(trick))
        trick[i] = rng.choice(
            [trick[i].lower(), trick[i][::-1], "ZZ", 7, None, ["AS"], trick[i].replace("T", "10")]
        )
    elif how == "short-trick":
        del trick[rng.randrange(len(trick))]
    elif how == "long-trick":
        trick.append(rng.choice(NAMES))
    elif how == "trick-shape":
        play[t] = rng.choice([" ".join(trick), tuple(trick), {"cards": trick}, None])
    elif how == "cut":
        tricks = len(play)
        del play[t:]
        record.pop("tricks", None)
        if rng.random() < 0.5:
            seat = rng.choice(sorted(record["deal"]))
            record["claim"] = {"seat": seat, "tricks": rng.randrange(tricks - t + 1)}
    elif how == "lead-spade":  # the first leader leads one of its spades instead
        owner = {c: seat for seat, hand in record["deal"].items() for c in hand}
        seat = owner.get(play[0][0])
        for other in play[1:]:
            spade = next(
                (
                    c
                    for c in other
                    if isinstance(c, str) and c.endswith("S") and owner.get(c) == seat
                ),
                None,
            )
            if spade is not None:
                play[0][0], other[other.index(spade)] = spade, play[0][0]
                break
    elif how == "tricks":
        if not isinstance(record.get("tricks"), dict):
            return
        seat = rng.choice(sorted(record["tricks"]))
        record["tricks"][seat] = rng.choice([0, 1, 13, True, "3", 2.0, -1])
    elif how == "deal":
        a, b = rng.sample(sorted(record["deal"]), 2)
        hand_a, hand_b = record["deal"][a], record["deal"][b]
        i, j = rng.randrange(len(hand_a)), rng.randrange(len(hand_b))
        hand_a[i], hand_b[j] = hand_b[j], hand_a[i]
    elif how == "duplicate-in-deal":
        a = rng.choice(sorted(record["deal"]))
        hand = record["deal"][a]
        hand[0] = hand[1]
    elif how == "deal-shape":
        a = rng.choice(sorted(record["deal"]))
        record["deal"][a] = rng.choice(
            [" ".join(record["deal"][a]), tuple(record["deal"][a]), record["deal"][a][:-1]]
        )
    else:
        raise AssertionError(how)


SPOILS = [
    "none",
    "same-seat-swap",
    "same-seat-swap",
    "swap-in-trick",
    "swap-between-tricks",
    "replace",
    "spelling",
    "short-trick",
    "long-trick",
    "trick-shape",
    "cut",
    "lead-spade",
    "tricks",
    "deal",
    "duplicate-in-deal",
    "deal-shape",
    "call",
    "call",
    "call-seat",
    "call-order",
    "call-count",
    "call-shape",
]


@settings(
    max_examples=sizes.examples(400),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    spoils=st.lists(st.sampled_from(SPOILS), min_size=1, max_size=3),
    summary=st.booleans(),
)
def test_fast_paths_decide_as_the_general_code(preset, seed, spoils, summary, monkeypatch):
    rng = random.Random(seed)
    record = random_hand(rng, preset)
    for how in spoils:
        if how != "none" and record.get("play"):
            spoil(record, rng, how)
    if summary:
        record = to_summary(record)
    fast, reference = both(record, monkeypatch)
    assert fast == reference
    assert notes_in_full(fast) == notes_in_full(reference)


@pytest.mark.parametrize("preset", ["standard", "winspades", "windswept", HIGH_AD], ids=str)
def test_legal_hands_of_the_fast_loop_agree_with_the_general_code(preset, monkeypatch):
    """Unspoiled hands of rule sets the fast trick loop takes: valid, and the same result."""
    assert spades.BOOK.resolve(preset)[0].fast_play
    rng = random.Random(18)
    for _ in range(150):
        record = random_hand(rng, preset)
        fast, reference = both(record, monkeypatch)
        assert fast["ok"] is True
        assert fast == reference
        assert notes_in_full(fast) == notes_in_full(reference)


def test_the_fast_loop_is_not_taken_where_trumps_do_not_rank_by_card_id():
    assert not spades.BOOK.resolve("pagat-barmore")[0].fast_play  # 2S is the high trump
    assert not spades.BOOK.resolve("pagat-1996")[0].fast_play  # lowest clubs lead
    assert not spades.BOOK.resolve("pagat-3p")[0].fast_play  # three hands
    # With jokers, a high trump (AD, id 38) ranks above the jokers (52, 53).
    high = {"preset": "standard", "options": {"jokers": 2, "high_trumps": ["AD"]}}
    assert not spades.BOOK.resolve(high)[0].fast_play
    # Alone above AS, it ranks by its id, and the fast loop takes it (tested above).
    assert spades.BOOK.resolve(HIGH_AD)[0].fast_play


@settings(
    max_examples=sizes.examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32))
def test_spades_led_before_they_are_broken_fail_alike(seed, monkeypatch):
    """Hands played where spades may be led at any time, checked under `standard`: where
    a spade is led early the record is refused, by both paths alike."""
    record = random_hand(
        random.Random(seed), {"preset": "standard", "options": {"spades_broken": False}}
    )
    record["rules"] = "standard"
    fast, reference = both(record, monkeypatch)
    assert fast == reference
    assert notes_in_full(fast) == notes_in_full(reference)


@settings(
    max_examples=sizes.examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    nils=st.sets(st.sampled_from("NESW"), min_size=1),
    call=st.sampled_from(["nil", "0"]),
)
def test_nil_calls_are_read_alike(preset, seed, nils, call, monkeypatch):
    """Some players (both partners, one, every player) call nil, or 0: the same bidding,
    scores, notes or error by either path, with or without the play."""
    record = random_hand(random.Random(seed), preset)
    for entry in record["calls"]:
        if entry.get("seat") in nils:
            entry["call"] = call
    for checked in (record, to_summary(record)):
        fast, reference = both(checked, monkeypatch)
        assert fast == reference
        assert notes_in_full(fast) == notes_in_full(reference)


def test_a_made_nil_alone_on_its_side_scores_alike(monkeypatch):
    """windswept: individual play with an exact-bid bonus that a nil's side (bid 0 from the
    nil) does not earn (RESOLUTIONS["exact-bonuses-numeric"]); a made nil is among the hands."""
    made = 0
    for seed in range(80):
        record = random_hand(random.Random(seed), "windswept")
        record["calls"][0]["call"] = "nil"
        fast, reference = both(record, monkeypatch)
        assert fast == reference
        assert notes_in_full(fast) == notes_in_full(reference)
        made += any(n.code == "spades-nil-made" for n in fast.get("notes", []))
    assert made >= 1


@settings(max_examples=sizes.examples(60), deadline=None)
@given(
    preset=st.sampled_from(
        ["standard", "hoyle", "pagat-1996", "pagat-barmore", "pagat-3p", "network-spades"]
    ),
    set_penalty=st.sampled_from(["bid", "shortfall"]),
    overtricks=st.sampled_from([1, -1, -10]),
)
def test_plain_contract_table_holds_what_contract_works_out(preset, set_penalty, overtricks):
    """`SpadesRules.plain_notes`, which `_score` reads on the fast path, holds for every side,
    bid and tricks taken the points, bags and note (text, code, parameters) `_contract`
    works out for that numeric contract."""
    options = {"set_penalty": set_penalty, "overtrick_points": overtricks}
    if overtricks != 1:
        options["sandbag"] = False
    rules = spades.BOOK.resolve({"preset": preset, "options": options})[0]
    assert rules.plain
    names = {name for table in rules.tables.values() for name in table.sides}
    total = rules.total_tricks
    assert len(rules.plain_notes) == len(names) * (total + 1) ** 2
    for name in names:
        for bid in range(total + 1):
            for taken in range(total + 1):
                notes: list = []
                points, bags = spades._contract(rules, "num", bid, taken, name, notes)
                [made] = notes
                assert rules.plain_notes[name, bid, taken] == (
                    points,
                    bags,
                    made.code,
                    str(made),
                    made.params["bid"],
                    made.params["points"],
                )
                assert made.params == {
                    "side": name,
                    "bid": str(bid),
                    "taken": taken,
                    "points": made.params["points"],
                }


def test_rules_with_scoring_bonuses_have_no_plain_contract_table():
    """Where a bonus option changes a made bid's points, `_score` works each one out."""
    assert not spades.BOOK.resolve("winspades")[0].plain_notes
    assert not spades.BOOK.resolve("windswept")[0].plain_notes


@settings(
    max_examples=sizes.examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    preset=st.sampled_from(["standard", "hoyle", "pagat-barmore"]),
    set_penalty=st.sampled_from(["bid", "shortfall"]),
    seed=st.integers(0, 2**32),
    scores=st.lists(st.integers(-600, 600), min_size=2, max_size=2),
    bags=st.lists(st.integers(0, 30), min_size=2, max_size=2),
    spoils=st.lists(st.sampled_from(SPOILS), min_size=1, max_size=2),
    summary=st.booleans(),
)
def test_plain_scoring_fast_path_scores_as_the_general_code(
    preset, set_penalty, seed, scores, bags, spoils, summary, monkeypatch
):
    """`_score_plain` (partnerships, plain contracts, no bonus, no bag limit) against
    `_score`, from any score and bags before the hand, on legal and spoiled hands, full and
    summary: the same scores, state after, notes (with codes and parameters) or error."""
    rules = {"preset": preset, "options": {"set_penalty": set_penalty}}
    assert spades.BOOK.resolve(rules)[0].fast_score
    rng = random.Random(seed)
    record = random_hand(rng, rules)
    for how in spoils:
        if how != "none" and record.get("play"):
            spoil(record, rng, how)
    if summary:
        record = to_summary(record)
    record["before"] = {
        "score": dict(zip(("NS", "EW"), scores, strict=True)),
        "bags": dict(zip(("NS", "EW"), bags, strict=True)),
    }
    fast, reference = both(record, monkeypatch)
    assert fast == reference
    assert notes_in_full(fast) == notes_in_full(reference)


def test_the_plain_scoring_fast_path_is_not_taken_where_more_is_scored():
    """A bag limit, a last-trick or all-tricks bonus, bonus options or individual play: the
    general `_score`."""
    for rules in [
        "pagat-1996",
        "network-spades",
        "windswept",
        "winspades",
        "dan-brad",
        "spaceways",
        "pagat-3p",
        {"preset": "standard", "options": {"all_tricks_bonus": 100}},
    ]:
        assert not spades.BOOK.resolve(rules)[0].fast_score, rules


@pytest.mark.parametrize("spelling", [float, bool, str], ids=lambda f: f.__name__)
def test_stated_tricks_equal_to_the_play_but_not_ints_fail_alike(spelling, monkeypatch):
    """The play's tricks stated as 2.0, True or "2": equal in value (or not) to the play's,
    never read as counts, by either path; a seat's count moved to another seat too."""
    rng = random.Random(7)
    checked = 0
    while checked < 20:
        record = random_hand(rng, "standard")
        tricks = record["tricks"]
        seat = next((s for s in tricks if tricks[s] in (0, 1)), None)
        if seat is None:
            continue
        record["tricks"][seat] = spelling(tricks[seat])
        fast, reference = both(record, monkeypatch)
        assert fast == reference
        assert fast["ok"] is False
        checked += 1
    record = random_hand(rng, "standard")
    record["tricks"] = dict(reversed(list(record["tricks"].items())))  # another order: valid
    fast, reference = both(record, monkeypatch)
    assert fast == reference
    assert fast["ok"] is True


def test_a_card_dealt_twice_in_place_of_the_next_is_refused_alike(monkeypatch):
    """A hand dealt one card twice in place of the next (5S, 5S for 5S, 6S: the same sum of
    bits as 6S alone) is refused as `bad-deal` by either path, whichever hand it is."""
    rng = random.Random(11)
    for seat in "NESW":
        while True:
            record = random_hand(rng, "standard")
            hand = record["deal"][seat]
            pair = next(
                (
                    (a, b)
                    for a in hand
                    for b in hand
                    if NAMES.index(b) == NAMES.index(a) + 1 and a[-1] == b[-1]
                ),
                None,
            )
            if pair is not None:
                break
        hand[hand.index(pair[1])] = pair[0]
        fast, reference = both(record, monkeypatch)
        assert fast == reference
        assert fast["errors"][0]["code"] == "bad-deal"
