"""A knockout of eight in real Chromium: the round pages (public and the director's) label each
table with its bracket round and the dashboard says what the knockout is, on a phone and the
projector, in English and Japanese; axe-core finds nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import sign_in_browser
from tournaments import services
from tournaments.live import event_log
from tournaments.services import Actor, PlayerSpec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "projector": {"width": 1920, "height": 1080}}


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


def test_knockout_tables_are_labelled_with_their_bracket_round(
    page, live_server, screenshot, accessibility
):
    user = get_user_model().objects.create_user("td", password="x")
    td = Actor(user=user, label="td")
    tournament = services.create_tournament(
        actor=td,
        name="Knockout Cup",
        game="spades",
        rules="standard",
        format="knockout",
        rounds=3,
        match_length="hands",
        match_hands=1,
        seed=4,
    )
    services.set_knockout(
        tournament=tournament, actor=td, length="best-of", count=3, third_place=True
    )
    services.open_registration(tournament=tournament, actor=td)
    for n in range(8):
        services.register_entry(
            tournament=tournament,
            actor=td,
            name=f"Team {n}",
            players=[PlayerSpec(f"P{n}a"), PlayerSpec(f"P{n}b")],
        )
    listed = services.cut_list(tournament=tournament)
    services.confirm_cut(tournament=tournament, actor=td, entries=listed.ids)
    round_ = services.generate_round(tournament=tournament, actor=td)
    services.publish_round(round=round_, actor=td)
    slug = tournament.slug
    sign_in_browser(page, live_server, user)
    pages = {
        "round": f"/t/{slug}/rounds/1/",
        "director-round": f"/director/{slug}/rounds/1/",
        "dashboard": f"/director/{slug}/",
    }
    words = {"en": ("Quarter-final", "Knockout of 8"), "ja": ("準々決勝", "8組のノックアウト")}
    for lang in ("en", "ja"):
        page.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        label, summary = words[lang]
        for name, path in pages.items():
            for size_name, size in SIZES.items():
                page.set_viewport_size(size)
                page.goto(f"{live_server.url}{path}")
                screenshot(page, f"knockout-labels-{name}-{size_name}-{lang}")
                assert accessibility(page) == [], f"{name} {size_name} {lang}"
                if name == "dashboard":
                    assert page.get_by_text(summary).first.is_visible()
                else:
                    assert page.locator(".bracket-round").count() == 4
                    assert page.locator(".bracket-round").first.inner_text() == label
