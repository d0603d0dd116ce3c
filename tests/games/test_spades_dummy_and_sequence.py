"""Spades, issue 19: the dummy at the dealer's right (`dummy_seat`) and the last-trick `sequence`
bonus as the spec's resolution reads it (which trumps won the last tricks, not their order).

Every expected figure is worked out by hand from spades.md (and written out in docs/spades.md),
never by the engine.
"""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import check_record
from games.cards import CARD_IDS
from games.schema import load_schema
from games.simulate.spades import random_hand
from games.spades import BOOK, closing_high_trumps, sequence_length
from tests import sizes
from tests.games.spades_records import calls, opts

RIGHT = opts(players=2, partnership=False, two_player_deal="dummy", dummy_seat="right")
LEFT = opts(players=2, partnership=False, two_player_deal="dummy")


def check(record: dict) -> dict:
    return check_record(json.loads(json.dumps(record)))


# --- the dummy at the dealer's right -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "dealer", "seats", "dummy", "bid_order", "first_lead"),
    [
        (LEFT, "N", "NES", "E", "SN", "S"),  # the dummy E is at N's left: the lead passes to S
        (LEFT, "S", "NSW", "W", "NS", "N"),
        (RIGHT, "N", "NSW", "W", "SN", "S"),  # W is at N's right; S sits next at N's left
        (RIGHT, "S", "NES", "E", "NS", "N"),
    ],
)
def test_who_sits_where_bids_first_and_leads_first_with_the_dummy_left_or_right(
    rules, dealer, seats, dummy, bid_order, first_lead
):
    table = BOOK.resolve(rules)[0].tables[dealer]
    assert table.seats == seats
    assert seats[table.dummy] == dummy
    assert "".join(seats[i] for i in table.bid_order) == bid_order
    assert seats[table.left] == first_lead


def right_dummy_record() -> dict:
    """docs/spades.md, "The dummy at the dealer's right": N deals, the dummy is W."""
    deal = {
        "N": [r + "H" for r in "AKQJT98765432"] + ["AD", "KD", "QD", "JD"],
        "W": [r + "S" for r in "AKQJT98765432"] + ["TD", "9D", "8D", "7D"],
        "S": [r + "C" for r in "AKQJT98765432"] + ["6D", "5D", "4D", "3D"],
    }
    # Trick 1: S (N's left) leads, then the dummy W, then N. W's top card AS wins, and the
    # player on the dummy's left, N, leads every later trick: N, S, W.
    play = [["AC", "AS", "AH"]]
    play += [[f"{r}H", f"{r}C", f"{r}S"] for r in "KQJT98765432"]
    play += [["AD", "6D", "TD"], ["KD", "5D", "9D"], ["QD", "4D", "8D"], ["JD", "3D", "7D"]]
    return {
        "format": "hand/1",
        "game": "spades",
        "rules": RIGHT,
        "dealer": "N",
        "deal": deal,
        "calls": calls("S:0 N:4"),
        "play": play,
    }


def test_the_dummy_at_the_dealers_right_hands_the_lead_to_the_player_on_its_left():
    result = check(right_dummy_record())
    assert result["ok"], result.get("errors")
    assert result["tricks"] == {"N": 4, "S": 0, "W": 13}
    assert result["score"] == {"N": 40, "S": 0}


def test_after_the_right_dummy_wins_the_dummys_left_leads_not_the_dealers_left():
    record = right_dummy_record()
    record["play"][1] = ["KC", "KS", "KH"]  # as if S (the dealer's left) led trick 2
    result = check(record)
    assert not result["ok"]
    error = result["errors"][0]
    assert (error["code"], error["trick"], error["seat"], error["card"]) == (
        "card-not-held",
        2,
        "N",
        "KC",
    )


def test_the_right_dummy_plays_its_top_card():
    record = right_dummy_record()
    record["play"][0] = ["AC", "KS", "AH"]
    error = check(record)["errors"][0]
    assert (error["code"], error["seat"], error["card"]) == ("must-play-top-card", "W", "KS")


def test_a_summary_record_names_the_seat_the_right_dummy_sits_in():
    base = {"format": "hand/1", "game": "spades", "rules": RIGHT, "calls": calls("S:0 N:4")}
    ok = check({**base, "dealer": "N", "tricks": {"N": 4, "S": 0, "W": 13}})
    assert ok["ok"] and ok["score"] == {"N": 40, "S": 0}
    wrong = check({**base, "dealer": "N", "tricks": {"N": 4, "E": 13, "S": 0}})
    assert not wrong["ok"]


def test_the_right_dummy_record_is_a_valid_hand_record_by_the_schema():
    validator = jsonschema.Draft202012Validator(load_schema("hand-records"))
    assert list(validator.iter_errors(right_dummy_record())) == []


@pytest.mark.parametrize(
    "options",
    [
        {"dummy_seat": "right"},
        {"players": 2, "partnership": False, "dummy_seat": "right"},  # the drawing deal
        {"dummy_seat": "middle", "players": 2, "partnership": False, "two_player_deal": "dummy"},
    ],
)
def test_dummy_seat_right_needs_the_dummy_deal_and_takes_only_left_or_right(options):
    result = check(
        {
            "format": "hand/1",
            "game": "spades",
            "rules": opts(**options),
            "dealer": "N",
            "calls": calls("E:3 S:3 W:3 N:3"),
            "tricks": {"N": 3, "E": 3, "S": 3, "W": 4},
        }
    )
    assert result["errors"][0]["code"] == "bad-rules"


@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from("NS"))
@settings(max_examples=sizes.examples(60), deadline=None)
def test_any_random_right_dummy_hand_validates_and_the_dummy_takes_no_score(seed, dealer):
    record = random_hand(random.Random(seed), RIGHT, dealer=dealer)
    result = check(record)
    assert result["ok"], result.get("errors")
    dummy = "W" if dealer == "N" else "E"
    assert set(record["deal"]) == {"N", "S", dummy}
    assert set(result["score"]) == {"N", "S"}
    assert sum(result["tricks"].values()) == 17


# --- the last-trick sequence bonus -------------------------------------------------------------


def last_tricks_record(n_cards: tuple[str, str, str], e_extra: str, bonus: str) -> dict:
    """docs/spades.md, "The last-trick bonus": W deals; N wins nine tricks with the tops of
    hearts, diamonds and clubs, W trumps the JH, then N wins the last three with `n_cards` in
    that order (N, E, S, W play clockwise from each leader). NS bid 12 and take exactly 12."""
    q, a, k = n_cards
    play = []
    for suit in "HDC":
        play += [
            [f"A{suit}", f"2{suit}", f"3{suit}", f"4{suit}"],
            [f"K{suit}", f"5{suit}", f"6{suit}", f"7{suit}"],
            [f"Q{suit}", f"8{suit}", f"9{suit}", f"T{suit}"],
        ]
    play += [
        ["JH", "2S", "3S", "4S"],  # trick 10: W trumps and leads the 5S
        ["5S", q, "6S", "7S"],  # trick 11 (W, N, E, S): N wins
        [a, "8S", "9S", "JD"],  # trick 12
        [k, e_extra, "JS", "JC"],
    ]  # trick 13
    deal: dict[str, list[str]] = {seat: [] for seat in "NESW"}
    order = "NESW"
    leader = "N"
    for number, trick in enumerate(play, 1):
        start = order.index(leader)
        for j, c in enumerate(trick):
            deal[order[(start + j) % 4]].append(c)
        leader = "W" if number == 10 else "N"
    return {
        "format": "hand/1",
        "game": "spades",
        "dealer": "W",
        "rules": opts(last_trick_bonus=bonus),
        "deal": deal,
        "calls": calls("N:6 E:0 S:12 W:1"),
        "play": play,
    }


def ns_points(record: dict) -> int:
    result = check(record)
    assert result["ok"], result.get("errors")
    assert result["tricks"] == {"N": 12, "E": 0, "S": 0, "W": 1}
    assert result["score"]["EW"] == 10  # W's 1 made exactly; EW won the last tricks with none
    return result["score"]["NS"]


def test_q_a_k_won_in_that_order_is_a_sequence_of_three():
    # NS bid 12, took 12: 120; the last three won with Q, A, K: {Q, K, A} is a run of 3: +30.
    assert ns_points(last_tricks_record(("QS", "AS", "KS"), "TS", "sequence")) == 150


def test_ten_a_k_is_not_a_sequence_of_three_but_its_last_two_are():
    # Counter-example: {10, A, K} has a gap (no Q, J): not a run of 3. The last two, {A, K},
    # are a run of 2: +20. (E holds the QS and follows with it to the last trick.)
    assert ns_points(last_tricks_record(("TS", "AS", "KS"), "QS", "sequence")) == 140


def test_k_a_q_and_a_q_k_count_the_same_as_q_a_k():
    # Which cards, not their order: the same three trumps in any order are +30.
    for order in [("KS", "AS", "QS"), ("AS", "QS", "KS")]:
        assert ns_points(last_tricks_record(order, "TS", "sequence")) == 150


def test_high_trumps_that_are_no_run_earn_no_sequence_bonus_but_the_last_trick_bonus():
    # Won with A, 10, K: {K, 10} is no run, nor {K, 10, A}: no k >= 2, no sequence bonus
    # (NS 120). Under `last` the KS still earns +10.
    assert ns_points(last_tricks_record(("AS", "TS", "KS"), "QS", "sequence")) == 120
    assert ns_points(last_tricks_record(("AS", "TS", "KS"), "QS", "last")) == 130


def test_the_last_option_gives_ten_for_the_last_trick_alone():
    assert ns_points(last_tricks_record(("QS", "AS", "KS"), "TS", "last")) == 130
    assert ns_points(last_tricks_record(("QS", "AS", "KS"), "TS", "off")) == 120


def test_a_trick_won_below_nine_or_by_the_other_side_ends_the_closing_tricks():
    rules = BOOK.resolve(opts(last_trick_bonus="sequence"))[0]
    table = rules.tables["W"]
    n, e = table.index["N"], table.index["E"]
    ids = {c: CARD_IDS[c] for c in ("8S", "9S", "TS", "JS", "QS")}
    won = [(n, ids["JS"]), (n, ids["8S"]), (n, ids["9S"]), (n, ids["TS"])]
    assert closing_high_trumps(0, won, table, rules) == [ids["TS"], ids["9S"]]
    won = [(n, ids["JS"]), (e, ids["QS"]), (n, ids["9S"]), (n, ids["TS"])]
    assert closing_high_trumps(0, won, table, rules) == [ids["TS"], ids["9S"]]


# Trump ranks as the engine numbers them in `standard`: 2S = 0 ... AS = 12.
RANK = {name: i for i, name in enumerate("23456789TJQKA")}


@pytest.mark.parametrize(
    ("won_in_order", "expected"),
    [
        ("QAK", 3),  # the spec's example: +30
        ("JAK", 2),  # {A, K} only
        ("TJQKA", 5),  # a run of five
        ("AKQJ9", 0),  # the last two {J, 9} are no run, nor any longer closing set with both
        ("KA", 2),
        ("A", 0),  # one trick is no sequence
        ("9QJTK", 5),  # {9, T, J, Q, K} whatever the order
        ("KQ9", 0),  # {Q, 9} is no run, nor {K, Q, 9}
        ("KJAQ", 4),  # {Q, A} is no run, {J, Q, A} neither, {K, J, A, Q} is
    ],
)
def test_sequence_length_counts_the_largest_closing_set_that_is_a_run(won_in_order, expected):
    ranks = [RANK[c] for c in reversed(won_in_order)]  # the last trick first
    assert sequence_length(ranks) == expected


def brute_force(ranks: list[int]) -> int:
    """The resolution's words: the largest k >= 2 whose first k ranks, as a set, are consecutive."""
    best = 0
    for k in range(2, len(ranks) + 1):
        first = sorted(ranks[:k])
        if first == list(range(first[0], first[0] + k)):
            best = k
    return best


distinct_ranks = st.lists(st.integers(0, 17), unique=True, max_size=10)


@given(ranks=distinct_ranks)
def test_sequence_length_agrees_with_the_resolutions_words(ranks):
    assert sequence_length(ranks) == brute_force(ranks)


@given(ranks=distinct_ranks, data=st.data())
def test_reordering_the_counted_tricks_never_changes_the_bonus(ranks, data):
    k = sequence_length(ranks)
    shuffled = data.draw(st.permutations(ranks[:k])) + ranks[k:]
    assert sequence_length(shuffled) >= k
    assert sequence_length(shuffled) == brute_force(shuffled)


@given(start=st.integers(0, 12), k=st.integers(2, 6), data=st.data())
def test_any_order_of_a_run_is_a_sequence_of_its_length(start, k, data):
    run = data.draw(st.permutations(list(range(start, start + k))))
    assert sequence_length(run) == k
