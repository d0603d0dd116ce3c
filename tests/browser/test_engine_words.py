"""A player's phone says the rules engine's error in the page's language, as a sentence without
a bracketed code (the code stays in the item's data for the director), in real Chromium at phone
size, in English and Japanese."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from tests.conftest import sign_in_browser
from tests.tournaments.builders import make_director, make_match
from tournaments import services
from tournaments.words.engine import ERROR_MESSAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_table_in(page, live_server, match, director, language: str) -> None:
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    _, secret = services.issue_table_token(table=match.table, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    assert page.locator("html").get_attribute("lang") == language


def full_form(page) -> None:
    """The hand's full form (under the pad), where each control can be set directly."""
    page.locator("#every-detail > summary").click()


def enter_a_double_nil_nobody_may_bid(page) -> None:
    """Double nil needs the side 100 behind; nobody is behind before the first hand. The engine
    answers as the numbers go in (no check step)."""
    full_form(page)
    for seat, bid in (("E", "double-nil"), ("S", "3"), ("W", "7"), ("N", "6")):
        page.locator(f"#bid-{seat}").select_option(bid)
    for seat, taken in (("N", "13"), ("E", "0"), ("S", "0"), ("W", "0")):
        page.locator(f"input[data-kind=tricks][data-key={seat}]").fill(taken)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_player_reads_the_engines_error_as_a_sentence_in_the_pages_language(
    page, live_server, screenshot, language
):
    director = make_director("td")
    match = make_match(director)
    open_table_in(page, live_server, match, director, language)
    enter_a_double_nil_nobody_may_bid(page)
    with translation.override(language):
        sentence = str(ERROR_MESSAGES["not-eligible"])
    error = page.locator("#preview li[data-code=not-eligible]")
    expect(error).to_contain_text(sentence)
    expect(page.locator("#preview")).not_to_contain_text("[not-eligible]")
    expect(page.locator("#preview .error-code")).to_have_count(0)
    if language == "ja":
        expect(page.locator("#preview")).not_to_contain_text("behind")  # no English left
    page.locator("#preview").scroll_into_view_if_needed()
    screenshot(page, f"scoring-engine-error-phone-{language}")


def test_a_director_on_the_scoring_page_also_sees_the_code_and_the_engines_detail(
    page, live_server
):
    director = make_director("td")
    match = make_match(director)
    sign_in_browser(page, live_server, director.user)
    open_table_in(page, live_server, match, director, "ja")
    enter_a_double_nil_nobody_may_bid(page)
    error = page.locator("#preview li[data-code=not-eligible]")
    expect(error.locator(".error-code")).to_have_text("[not-eligible]")
    expect(error.locator(".error-detail")).to_have_attribute("lang", "en")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_player_reads_the_checked_hands_notes_in_the_pages_language(
    page, live_server, screenshot, language
):
    """The live check as the hand goes in: the engine's notes come back from the API in the page's
    language (the language cookie travels with the script's request)."""
    director = make_director("td")
    match = make_match(director)
    open_table_in(page, live_server, match, director, language)
    full_form(page)
    for seat, bid in (("E", "4"), ("S", "3"), ("W", "7"), ("N", "6")):
        page.locator(f"#bid-{seat}").select_option(bid)
    for seat, taken in (("N", "3"), ("E", "4"), ("S", "3"), ("W", "3")):
        page.locator(f"input[data-kind=tricks][data-key={seat}]").fill(taken)
    expect(page.locator("#preview")).to_have_class(re.compile(r"\bok\b"))
    notes = page.locator("#preview ul li")
    expected = {"en": "NS bid 6, took 6 (+60)", "ja": "NS：ビッド6、6トリック獲得（+60）"}
    expect(notes.first).to_have_text(expected[language])
    if language == "ja":
        expect(page.locator("#preview")).not_to_contain_text("took")
    page.locator("#preview").scroll_into_view_if_needed()
    screenshot(page, f"scoring-check-notes-phone-{language}")
