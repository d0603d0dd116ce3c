"""The words a phone shows when a PIN is refused (the evening walk, bench/evening_walk.py): a
wrong PIN said "That PIN is not one of this table's entries': check the card." — a stray
apostrophe, and "the card" read as the table card, which carries no PIN."""

from __future__ import annotations

import re

from django.utils import translation

from tournaments.views.scoring import error_labels


def test_a_wrong_pin_points_to_the_entrys_card_in_plain_english():
    with translation.override("en"):
        labels = error_labels()
    wrong = labels["side-pin-wrong"]
    assert "entry's card" in wrong
    # no possessive left without its noun ("entries': check")
    assert not [text for text in labels.values() if re.search(r"s'[:;,.]", text)]


def test_a_wrong_pin_is_said_in_japanese():
    with translation.override("ja"):
        wrong = error_labels()["side-pin-wrong"]
    assert "PIN" in wrong and "カード" in wrong
    assert not re.search(r"[a-oq-z]", wrong), wrong  # no English left but "PIN"
