"""A play that stops early still says what its tricks showed (issue 15 point 10): card-by-card
entry asks the engine after every trick who won it and who leads the next. The answer for a
record cut short agrees with the engine's own answer for the whole record."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import check_record
from games.simulate import solo_whist, spades, whist
from tests import sizes

GAMES = {
    "spades": (spades.random_hand, ["standard", "pagat-1996", "hoyle"]),
    "whist": (whist.random_hand, ["short-whist", "long-whist"]),
    "solo-whist": (solo_whist.random_hand, ["phillips"]),
}


def cut_short(record: dict, tricks: int) -> dict:
    """The record as card-by-card entry holds it after `tricks` tricks: no trick counts."""
    short = {k: v for k, v in record.items() if k not in ("tricks", "honours", "claim")}
    short["play"] = record["play"][:tricks]
    return short


@settings(max_examples=sizes.examples(60), deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), data=st.data())
def test_a_play_cut_short_gives_the_winners_so_far_and_the_next_leader(game, seed, data):
    make, presets = GAMES[game]
    rules = data.draw(st.sampled_from(presets))
    dealer = data.draw(st.sampled_from("NESW"))
    record = make(random.Random(seed), rules, dealer=dealer)
    whole = check_record(dict(record))
    assert whole["ok"], whole
    if not record.get("play"):  # a thrown-in solo whist hand has no play
        return
    played = data.draw(st.integers(0, len(record["play"]) - 1))
    result = check_record(cut_short(record, played))
    if result["ok"]:  # solo whist: settled early (a misère bidder took a trick) is complete
        assert game == "solo-whist" and result["trick_winners"] == whole["trick_winners"][:played]
        return
    assert [e["code"] for e in result["errors"]] == ["play-incomplete"]
    assert result["trick_winners"] == whole["trick_winners"][:played]
    # the next trick's first card is played by the seat the engine says leads it
    first_cards = record["play"][played]
    first_card = first_cards[0] if isinstance(first_cards, list) else first_cards.split()[0]
    assert result["next_leader"] == holder_of(record, first_card)


def holder_of(record: dict, card: str) -> str:
    """Who holds `card` when the play begins: as dealt, after any exchange between partners."""
    held = {seat: {c.upper() for c in cards} for seat, cards in record["deal"].items()}
    for exchange in record.get("exchange") or []:
        for moved in exchange["cards"]:
            held[exchange["from"]].discard(moved.upper())
            held[exchange["to"]].add(moved.upper())
    return next(seat for seat, cards in held.items() if card.upper() in cards)


@pytest.mark.parametrize("error", ["bad-card", "bad-deal"])
def test_other_errors_give_no_winners(error):
    record = spades.random_hand(random.Random(5), "standard", dealer="N")
    if error == "bad-deal":
        record["deal"]["N"] = record["deal"]["N"][:12]
    else:  # a card that does not exist
        record["play"] = [["ZZ"]]
    result = check_record(record)
    assert not result["ok"] and "trick_winners" not in result and "next_leader" not in result
