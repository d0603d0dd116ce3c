"""The hand checker page in real Chromium, in English and Japanese, at phone and laptop sizes:
the engine's notes and errors as sentences in the page's language, the game and its house rules
in words (no preset id, no option value as the engine spells it), no bracketed code for a
visitor, and no accessibility violation (axe-core, WCAG 2.1 AA)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {
    "format": "hand/1",
    "game": "spades",
    "dealer": "N",
    "rules": {
        "preset": "standard",
        "options": {"double_nil": "when-behind", "ten_for_200": "off", "nil": True},
    },
    "calls": [
        {"seat": "E", "call": "4"},
        {"seat": "S", "call": "nil"},
        {"seat": "W", "call": "6"},
        {"seat": "N", "call": "5"},
    ],
    "tricks": {"N": 3, "E": 4, "S": 0, "W": 6},
}
BAD = {**HAND, "rules": "standard", "tricks": {"N": 3, "E": 4, "S": 0, "W": 5}}

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
WORDS = {
    "en": [
        "S made nil (+100)",
        "Only when behind",
        "Ten for 200: Off",
        "The tricks do not add up to the tricks in the hand.",
    ],
    "ja": [
        "Sがニル成功（+100）",
        "負けているときだけ",
        "トリック数の合計が、1ハンドのトリック数と合いません。",
    ],
}
RAW = ["when-behind", "ten_for_200", "double_nil", "tricks-do-not-sum", "[", "made nil (+"]


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_checker_says_the_engines_words_in_the_pages_language(
    page, live_server, screenshot, accessibility, language, size
):
    page.set_viewport_size(SIZES[size])
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(live_server.url + "/check/")
    page.locator("textarea").fill("\n".join(json.dumps(r) for r in (HAND, BAD)))
    page.locator("form.check button[type=submit]").click()
    results = page.locator("#results")
    expect(results).to_be_visible()
    text = results.inner_text()
    for words in WORDS[language]:
        assert words in text, (words, text)
    for raw in RAW if language == "ja" else RAW[:-1]:
        assert raw not in text, (raw, text)
    expect(results.locator("[data-code=tricks-do-not-sum]")).to_have_count(1)
    expect(results.locator("code")).to_have_count(0)
    assert accessibility(page) == []
    screenshot(page, f"check-hands-words-{size}-{language}")
