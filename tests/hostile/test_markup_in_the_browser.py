"""The evening of markup names (conftest.py) in real Chromium: the standings — also after the live
update swaps a new fragment in — the match, the scoring and the tournament pages show the
names as text; no alert dialog ever opens and no injected element (image, SVG, iframe, bold
with a handler, executable script) exists in the document. (The scoring page's `json_script`
blocks do hold the names, as inert `application/json` data.)"""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.demo import simulate
from tournaments.live import event_log
from tournaments.models import HandSubmission, Match

from .conftest import ALL, TEAM_API, TEAM_PAGE, build_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INJECTED = """() => ({
  images: document.querySelectorAll('img[src="x"], img[onerror]').length,
  svgs: document.querySelectorAll('svg[onload]').length,
  iframes: document.querySelectorAll('iframe').length,
  bolds: document.querySelectorAll('b[onmouseover]').length,
  scripts: [...document.scripts].filter(s => ['', 'text/javascript', 'module'].includes(s.type)
    && (s.textContent.includes('alert(') || s.src.includes('alert'))).length,
})"""
NONE = {"images": 0, "svgs": 0, "iframes": 0, "bolds": 0, "scripts": 0}


@pytest.fixture(autouse=True)
def in_process(settings):
    """No Redis: standings are recomputed in-process and events stay in this process, where
    the live server's thread reads them (as in tests/browser/test_public.py)."""
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


def test_markup_names_never_run_in_the_browser(page, live_server):
    evening = build_evening()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match = Match.objects.get(
        round__tournament_id=evening.tournament_id,
        round__number=2,
        seats__entry__team__name=TEAM_API,
    )
    base = f"{live_server.url}/t/{evening.slug}"
    pages = [
        f"{base}/",
        f"{base}/matches/{match.pk}/",
        f"{base}/rounds/2/",
        f"{base}/projector/",
        f"{live_server.url}/table/{match.table_id}/",
    ]
    for url in pages:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(INJECTED) == NONE, url
    page.goto(f"{base}/standings/")
    text = page.locator("main").inner_text()
    assert TEAM_PAGE in text and TEAM_API in text, "the names show as text"
    version = int(page.locator("[data-version]").get_attribute("data-version"))

    pending = HandSubmission.objects.get(hand__match=match, status="pending")
    other = simulate.answerer(match, pending)
    services.confirm_hand(
        submission=pending, expected_version=pending.version, actor=other
    )  # the match ends: standings change

    page.wait_for_function(
        "v => Number(document.querySelector('[data-version]').dataset.version) > v",
        arg=version,
    )
    assert page.evaluate(INJECTED) == NONE, "after the live fragment was swapped in"
    assert TEAM_API in page.locator("main").inner_text()
    assert dialogs == [], dialogs
    assert not [e for e in errors if "alert" in e], errors
    assert all(name not in page.content() for name in ALL if "<" in name)
