"""The duplicate phone's smaller findings of issue 28: a call-the-director button and the round
clock as on the scoring page, a PIN typed unseen, bids that start empty, scores written with the
project's minus sign, travellers that say the bids and tricks, and the director's page saying
plainly that no round is released yet."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.duplicate.builders import make_event, play_round
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult, DirectorCall
from tournaments.services.table_access import issue_round_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


def phone_of(tournament, td, number=1):
    round_ = tournament.round_set.order_by("-number").first()
    secrets = issue_round_tokens(round=round_, actor=td)
    secret = secrets[round_.tables.get(number=number).pk]
    return {"HTTP_AUTHORIZATION": f"Table {secret}"}


def panel(tournament, auth, number=1) -> str:
    url = reverse("tournaments:duplicate-table-panel", args=[tournament.slug, number])
    response = Client().get(url, **auth)
    assert response.status_code == 200
    return response.content.decode()


def act(tournament, auth, data, number=1):
    url = reverse("tournaments:duplicate-table-act", args=[tournament.slug, number])
    return Client().post(url, data, **auth)


def spades_form(board: int, calls: dict, tricks: dict) -> dict:
    data = {"action": "submit", "board": board, "side": "NS"}
    data |= {f"call_{s}": v for s, v in calls.items()}
    data |= {f"tricks_{s}": str(v) for s, v in tricks.items()}
    return data


def test_the_bids_start_empty_and_a_missing_bid_is_refused(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    auth = phone_of(tournament, td)
    html = panel(tournament, auth)
    selects = re.findall(r'<select name="call_[NESW]".*?</select>', html, re.S)
    assert len(selects) == 4
    for select in selects:
        assert "required" in select
        assert re.findall(r"<option[^>]*selected[^>]*>([^<]*)<", select) == ["—"]
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    answer = act(
        tournament,
        auth,
        spades_form(board, {"N": "6", "E": "4", "S": ""}, {"N": 3, "E": 4, "S": 3, "W": 3}),
    )
    assert answer.status_code == 400
    assert "Give every seat&#x27;s bid." in answer.content.decode()
    assert not BoardResult.objects.exists()


def test_the_pin_is_typed_unseen_on_a_number_pad_and_scores_use_the_minus_sign(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    auth = phone_of(tournament, td)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    # NS bid 6 (last-bidder) and take 4: set, -60; EW bid 4 and take 9: 45
    form = spades_form(
        board, {"N": "6", "E": "4", "S": "6", "W": "4"}, {"N": 2, "E": 5, "S": 2, "W": 4}
    )
    match = tournament.round_set.get(number=1).tables.get(number=1).match
    form["pin"] = match.seats.get(side="NS").entry.pin  # the pair entering proves itself
    answer = act(tournament, auth, form)
    assert answer.status_code == 200, answer.content.decode()
    assert BoardResult.objects.get().ns_score == -60
    html = answer.content.decode()
    assert "NS \u221260 · EW 45" in html and "NS -60" not in html
    pin = re.search(r'<input id="pin-\d+"[^>]*>', html).group(0)
    assert 'type="password"' in pin and 'inputmode="none"' in pin  # its keypad, no keyboard
    assert 'autocomplete="off"' in pin


def test_the_table_calls_the_director_from_the_phone(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    auth = phone_of(tournament, td)
    html = panel(tournament, auth)
    assert "Call the director" in html and 'name="action" value="call"' in html
    answer = act(tournament, auth, {"action": "call", "reason": "", "note": "revoke?"})
    assert answer.status_code == 200, answer.content.decode()
    call = DirectorCall.objects.get()
    assert call.table == round_.tables.get(number=1) and call.note == "revoke?"
    assert "Call received: a director will come to this table." in answer.content.decode()
    again = act(tournament, auth, {"action": "call"})  # the same open call
    assert again.status_code == 200 and DirectorCall.objects.count() == 1


def test_the_phone_shows_the_rounds_clock(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    page = Client().get(reverse("tournaments:duplicate-table", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert "data-clock" in html
    assert f'data-clock-url="{reverse("api:round-clock", args=[round_.pk])}"' in html
    assert f'data-round="{round_.number}"' in html
    assert "js/scoring/clock.js" in html


def test_a_traveller_says_the_bids_and_tricks_and_writes_minus_signs(td):
    tournament = make_event(td)
    play_round(tournament, td)
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    html = (
        Client()
        .get(reverse("tournaments:duplicate-traveller", args=[tournament.slug, board]))
        .content.decode()
    )
    assert '<th scope="col">Bids</th>' in html and '<th scope="col">Tricks</th>' in html
    cells = re.findall(r'<td class="plays">([^<]*)</td>', html)
    bids, tricks = cells[0::2], cells[1::2]
    assert bids and all(re.fullmatch(r"([NESW] (\d+|Nil|[\w ]+))( · [NESW] .+)*", b) for b in bids)
    for line in tricks:
        ns, ew = re.fullmatch(r"NS (\d+) · EW (\d+)", line).groups()
        assert int(ns) + int(ew) == 13
    scores = BoardResult.objects.filter(board__number=board, status="confirmed")
    if any(r.ns_score < 0 for r in scores):
        assert "\u2212" in html
    assert not re.search(r'class="num">-\d', html)


def test_the_director_page_says_no_round_is_released_yet(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    client = Client()
    client.force_login(td.user)
    html = client.get(reverse("tournaments:duplicate-director", args=[tournament.slug]))
    text = html.content.decode()
    assert "up to round 0" not in text
    assert "The tables see no other table's results yet" in text


def test_a_directors_session_at_the_phone_is_checked_for_csrf_and_a_table_token_is_not(td):
    """The director's cookie is a credential a forged form could carry: without the form's CSRF
    token the post is refused before the view reads it; with it, the view answers (here: an
    unknown action). The table's token in a header cannot be forged by a page elsewhere, so it
    needs none."""
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    url = reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1])
    director = Client(enforce_csrf_checks=True)
    director.force_login(td.user)
    refused = director.post(url, {"action": "nothing"})
    assert refused.status_code == 403 and 'data-code="bad-action"' not in refused.content.decode()
    director.get(reverse("tournaments:duplicate-table", args=[tournament.slug, 1]))
    token = director.cookies["csrftoken"].value
    answered = director.post(url, {"action": "nothing", "csrfmiddlewaretoken": token})
    assert answered.status_code == 400 and 'data-code="bad-action"' in answered.content.decode()
    phone = Client(enforce_csrf_checks=True)
    called = phone.post(url, {"action": "call"}, **phone_of(tournament, td))
    assert called.status_code == 200 and DirectorCall.objects.count() == 1
