"""The room on the pages (issue 15 points 4–7), with Django's test client: the director's clock
controls and calls panel, the live fragment, the clock on the scoring page, the round page and
the projector, "Call the director" on the scoring page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages

from tests.tournaments.builders import HAND_1, make_director, make_match, scorer
from tournaments import services
from tournaments.models import AuditEvent, DirectorCall, RoundClock
from tournaments.room import services as room

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


@pytest.fixture
def match(td):
    return make_match(td)


@pytest.fixture
def as_td(client, td):
    client.force_login(td.user)
    return client


def slug(match) -> str:
    return match.round.tournament.slug


def test_the_round_page_shows_the_room_with_start_the_clock(as_td, match):
    page = as_td.get(f"/director/{slug(match)}/rounds/1/").content.decode()
    assert "Start the clock" in page and 'data-live-fragment="/director/' in page
    assert "No table is calling." in page


def test_the_director_starts_the_clock_from_the_page_and_it_is_recorded(as_td, match):
    answer = as_td.post(
        f"/director/{slug(match)}/rounds/1/clock/start/", {"next": f"/director/{slug(match)}/"}
    )
    assert answer.status_code == 302 and answer["Location"] == f"/director/{slug(match)}/"
    assert RoundClock.objects.get().started_at is not None
    assert AuditEvent.objects.filter(action="clock-started").exists()


def test_a_refused_clock_action_is_shown_as_a_message(as_td, match):
    answer = as_td.post(f"/director/{slug(match)}/rounds/1/clock/pause/")
    assert [m.message for m in get_messages(answer.wsgi_request)] == [
        "round 1's clock is not running"
    ]


def test_an_unsafe_next_address_is_not_followed(as_td, match):
    answer = as_td.post(
        f"/director/{slug(match)}/rounds/1/clock/start/", {"next": "https://evil.example/"}
    )
    assert answer["Location"] == f"/director/{slug(match)}/rounds/1/"


def test_the_director_sets_the_length_with_the_form(as_td, match):
    as_td.post(
        f"/director/{slug(match)}/rounds/1/clock/set/",
        {"minutes": "35", "last_hand_minutes": "7", "as_default": "on"},
    )
    clock = RoundClock.objects.get()
    assert clock.duration == timedelta(minutes=35) and clock.last_hand == timedelta(minutes=7)
    match.round.tournament.refresh_from_db()
    assert match.round.tournament.round_minutes == 35


def test_an_open_call_shows_on_the_dashboard_fragment_until_acknowledged(as_td, match, td):
    call = room.call_director(
        table=match.table, actor=scorer(match, "NS"), reason="ruling", note="lead out of turn"
    )
    fragment = as_td.get(f"/director/{slug(match)}/rounds/1/room/?from=dashboard")
    text = fragment.content.decode()
    assert f'data-open-calls="{call.pk} "' in text and "lead out of turn" in text
    assert "On my way to table 1" in text
    as_td.post(f"/director/{slug(match)}/calls/{call.pk}/acknowledge/")
    assert not DirectorCall.objects.get().is_open
    assert (
        "No table is calling."
        in as_td.get(f"/director/{slug(match)}/rounds/1/room/").content.decode()
    )


def test_another_director_cannot_acknowledge(client, match):
    call = room.call_director(table=match.table, actor=scorer(match, "NS"))
    client.force_login(make_director("other").user)
    assert client.post(f"/director/{slug(match)}/calls/{call.pk}/acknowledge/").status_code == 403
    assert DirectorCall.objects.get().is_open


def test_the_progress_table_shows_the_hand_now_and_hands_to_confirm(as_td, match):
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    text = as_td.get(f"/director/{slug(match)}/rounds/1/room/").content.decode()
    assert "tables, slowest first" in text
    row = text[text.index("<tbody>") : text.index("</tbody>")]
    assert '<td class="num">2</td>' in row  # hand 2 is being played
    assert '<td class="num">1</td>' in row  # one hand to confirm


def test_the_scoring_page_shows_the_clock_and_the_call_button(client, match, td):
    room.start_clock(round=match.round, actor=td)
    text = client.get(f"/table/{match.table_id}/").content.decode()
    assert 'data-clock data-clock-state="running"' in text
    assert f'data-clock-url="/api/v1/rounds/{match.round_id}/clock"' in text
    assert "Call the director" in text and 'id="call-director"' in text


def test_the_public_round_page_and_the_projector_show_the_clock(client, match, td):
    room.start_clock(round=match.round, actor=td)
    assert (
        'data-clock-state="running"' in client.get(f"/t/{slug(match)}/rounds/1/").content.decode()
    )
    projector = client.get(f"/t/{slug(match)}/projector/fragment/").content.decode()
    assert 'data-clock-state="running"' in projector


def test_the_projector_marks_running_scores_that_include_unconfirmed_hands(client, match):
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    text = client.get(f"/t/{slug(match)}/projector/fragment/").content.decode()
    assert "1 to confirm" in text and "Hand 2" in text
    assert "the standings count confirmed hands only" in text


def test_the_room_is_in_japanese_for_a_japanese_reader(as_td, match):
    text = as_td.get(
        f"/director/{slug(match)}/rounds/1/", HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "Start the clock" not in text
