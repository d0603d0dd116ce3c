"""The card-printing forms (the evening walk: their inputs were small and unstyled): the site's
form fields and buttons, every control a finger's target of at least 44 px, on a phone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from .test_director import PASSWORD, make, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_event_cards_form_has_targets_a_finger_can_hit(page, live_server):
    td = get_user_model().objects.create_user("aiko", password=PASSWORD)
    tournament = make(td, teams=4)
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, f"/director/{tournament.slug}/print/cards/")
    page.locator("#print-all").wait_for()
    controls = page.locator(
        ".print-form input:not([type=hidden]), .print-form select, .print-form button"
    )
    assert controls.count() >= 5
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box is not None and box["height"] >= 44, (i, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (i, box)
    # the site's fields: a bordered box, not the browser's bare input
    border = page.locator("#id_tables").evaluate("e => getComputedStyle(e).borderTopLeftRadius")
    assert border not in ("", "0px")
