"""The table scoring page with Django's test client: what it renders for each game (seats,
dealer, hands with running totals, hands awaiting confirmation), the hands fragment the script
swaps in, the token probe, and the pages it refuses."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse

from tests.tournaments.builders import (
    HAND_1,
    HAND_2,
    make_director,
    make_match,
    scorer,
    spades_hand,
)
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def page(client, match):
    return client.get(reverse("tournaments:scoring-table", args=[match.table_id]))


def fragment(client, match):
    return client.get(reverse("tournaments:scoring-hands", args=[match.table_id]))


def script_json(source: str, element_id: str) -> dict:
    found = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', source, re.S
    )
    assert found, f"no {element_id} in the page"
    return json.loads(found.group(1))


def text(response) -> str:
    """The page's visible text, tags stripped and spaces collapsed."""
    body = response.content.decode()
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture
def director():
    return make_director("td")


@pytest.fixture
def spades(director):
    return make_match(director)


def test_the_spades_page_shows_the_table_its_teams_the_rules_and_the_first_hand(client, spades):
    response = page(client, spades)
    assert response.status_code == 200
    shown = text(response)
    assert "Table 1" in shown and "Round 1" in shown and "Club night" in shown
    assert "Aiko & Ben" in shown and "Chika & Dan" in shown
    assert "N/S" in shown and "E/W" in shown
    assert "Standard (the club's own rules)" in shown
    assert "Next: hand 1; the table chooses its first dealer." in shown
    assert "No hands yet." in shown
    config = script_json(response.content.decode(), "scoring-config")
    assert config["game"] == "spades" and config["rules"] == "standard"
    assert config["match"] == spades.pk and config["sides"] == ["NS", "EW"]
    assert config["api"]["hands"] == f"/api/v1/matches/{spades.pk}/hands"
    assert config["layouts"]["N"]["order"] == ["E", "S", "W", "N"]
    nxt = script_json(response.content.decode(), "scoring-next")
    assert nxt == {
        "number": 1,
        "dealer": "N",
        "dealerFixed": False,
        "reentry": False,
        "blocked": "",
        "before": {"score": {"NS": 0, "EW": 0}, "bags": {"NS": 0, "EW": 0}},
    }
    # the bid choices the standard preset allows (nil, and double nil when behind)
    body = response.content.decode()
    assert 'value="nil"' in body and 'value="double-nil"' in body
    assert 'value="double-blind-nil"' not in body and 'value="blind-7"' not in body


def test_the_page_lists_hands_with_the_engines_running_totals_and_the_next_dealer(client, spades):
    first = services.submit_hand(
        match=spades, actor=scorer(spades, "NS"), record=HAND_1, idempotency_key="page-test-1"
    ).submission
    services.confirm_hand(
        submission=first, expected_version=first.version, actor=scorer(spades, "EW")
    )
    services.submit_hand(
        match=spades, actor=scorer(spades, "EW"), record=HAND_2, idempotency_key="page-test-2"
    )
    response = page(client, spades)
    shown = text(response)
    # hand 1: NS bid 6 and took 6 (+60), EW bid 7 and took 7 (+70); hand 2: NS +61, EW +60
    assert "Confirmed" in shown and "Awaiting confirmation" in shown
    assert "+60" in shown and "+70" in shown and "+61" in shown
    assert "121" in shown and "130" in shown
    assert "Next: hand 3, dealt by S" in shown
    assert "Confirm hand 2" in shown and "Reject hand 2" in shown
    assert "N/S: check the hand, then confirm or reject it." in shown
    nxt = script_json(response.content.decode(), "scoring-next")
    assert nxt["number"] == 3 and nxt["dealer"] == "S" and nxt["dealerFixed"] is True
    assert nxt["before"] == spades.hands.get(number=2).versions.get().result["after"]


def test_a_rejected_hand_is_entered_again_with_its_dealer(client, spades):
    pending = services.submit_hand(
        match=spades, actor=scorer(spades, "NS"), record=HAND_1, idempotency_key="page-test-3"
    ).submission
    services.reject_hand(
        submission=pending,
        expected_version=pending.version,
        actor=scorer(spades, "EW"),
        reason="E took 5",
    )
    shown = text(page(client, spades))
    assert "Rejected" in shown and "Reason: E took 5" in shown
    nxt = script_json(page(client, spades).content.decode(), "scoring-next")
    assert nxt["number"] == 1 and nxt["reentry"] is True and nxt["dealer"] == "N"


def test_the_hands_fragment_holds_the_list_and_the_next_hand(client, spades):
    services.submit_hand(
        match=spades, actor=scorer(spades, "NS"), record=HAND_1, idempotency_key="page-test-4"
    )
    response = fragment(client, spades)
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    assert "<html" not in body
    assert 'data-hand="1"' in body and 'data-status="pending"' in body
    assert script_json(body, "scoring-next")["number"] == 2


@pytest.mark.parametrize(
    ("game", "rules", "seats", "sides"),
    [
        ("whist", "short-whist", "NESW", ["NS", "EW"]),
        ("solo-whist", "phillips", "NESW", ["N", "E", "S", "W"]),
        ("german-whist", "standard", "NS", ["N", "S"]),
    ],
)
def test_every_game_renders_its_seats_form_and_played_hands(
    client, director, game, rules, seats, sides
):
    fmt = "individual" if game == "solo-whist" else "swiss"
    match = make_match(director, game=game, rules=rules, fmt=fmt)
    rng = random.Random(7)
    for _ in range(2):
        simulate.play_hand(match, rng, summary=True)
    simulate.play_hand(match, rng, confirm=False, summary=True)
    response = page(client, match)
    assert response.status_code == 200
    body = response.content.decode()
    config = script_json(body, "scoring-config")
    assert config["seats"] == seats and config["sides"] == sides
    assert f'data-game-form="{game}"' in body
    shown = text(response)
    assert shown.count("Confirmed") >= 2 and "Awaiting confirmation" in shown
    nxt = script_json(body, "scoring-next")
    last = match.hands.order_by("-number").first().versions.get(is_current=True)
    if nxt["number"] is not None:
        assert nxt["number"] == 4 and nxt["dealerFixed"]
        assert nxt["before"] == last.result["after"]
    for seat in seats:
        assert f'data-seat="{seat}"' in body
    if game == "solo-whist":
        assert "Player N" in shown and "Misère" in shown and "Abundance" in shown
        assert "Proposal and acceptance" in shown
    if game == "whist":
        assert "Trump honours" in shown and "Revokes" in shown


def test_an_unknown_table_is_404(client, spades):
    assert client.get(reverse("tournaments:scoring-table", args=[99999])).status_code == 404
    assert client.get(reverse("tournaments:scoring-hands", args=[99999])).status_code == 404


def test_a_draft_rounds_table_is_hidden_from_all_but_its_directors(client, spades, director):
    Round.objects.filter(pk=spades.round_id).update(state=Round.State.DRAFT)
    assert page(client, spades).status_code == 404
    client.force_login(director.user)
    assert page(client, spades).status_code == 200


def test_a_closed_round_shows_its_hands_but_takes_no_more(client, spades):
    Round.objects.filter(pk=spades.round_id).update(state=Round.State.CLOSED)
    response = page(client, spades)
    assert "This round is not in play" in text(response)
    assert script_json(response.content.decode(), "scoring-next")["number"] is None


def test_the_token_probe_tells_this_tables_token_from_others(client, spades, director):
    _, secret = services.issue_table_token(table=spades.table, actor=director)
    other = make_match(director)
    _, stranger = services.issue_table_token(table=other.table, actor=director)
    url = reverse("tournaments:scoring-token", args=[spades.table_id])

    def probe(header=None):
        extra = {"HTTP_AUTHORIZATION": header} if header else {}
        return client.get(url, **extra).json()["state"]

    assert probe() == "missing"
    assert probe(f"Table {secret}") == "active"
    assert probe(f"Table {stranger}") == "other-table"
    assert probe("Table not-a-real-secret") == "unknown"
    token = spades.table.event_table.tokens.get()
    services.revoke_table_token(token=token, actor=director)
    assert probe(f"Table {secret}") == "revoked"


def test_the_page_is_in_japanese_when_asked(client, spades):
    response = client.get(
        reverse("tournaments:scoring-table", args=[spades.table_id]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert response.status_code == 200
    assert '<html lang="ja">' in response.content.decode()


def test_a_finished_match_shows_its_result_and_takes_no_more_hands(client, spades, director):
    simulate.play_match(spades, random.Random(5), hands=2, director=director)
    response = page(client, spades)
    shown = text(response)
    assert "The match is finished." in shown and "Result" in shown and "place 1" in shown
    assert script_json(response.content.decode(), "scoring-next")["blocked"] == "finished"


def test_players_at_the_table_see_no_sign_in_or_api_links_and_a_director_keeps_theirs(
    client, spades, director
):
    players = page(client, spades).content.decode()
    client.force_login(director.user)
    directors = page(client, spades).content.decode()

    assert "/accounts/login/" not in players and "/api/docs" not in players
    assert "Sign in" not in players and "API documentation" not in players
    assert reverse("tournaments:director-home") in directors


def test_the_first_hand_is_dealt_by_the_first_dealer_the_table_card_prints(client, spades):
    from tournaments import gameplay

    Round.objects.filter(pk=spades.round_id).update(number=2)

    nxt = script_json(page(client, spades).content.decode(), "scoring-next")

    assert nxt["dealer"] == gameplay.first_dealer("NESW", 2) == "E"
    assert nxt["dealerFixed"] is False  # the players may still choose another


def test_the_seat_diagram_names_the_player_in_each_seat_under_their_team(client, spades):
    body = page(client, spades).content.decode()
    found = re.findall(
        r'<li class="seat seat-([NESW])"[^>]*>.*?<span class="seat-name">([^<]*)'
        r'</span>\s*<span class="seat-entry">([^<]*)</span>',
        body,
        re.S,
    )
    seats = {seat: (player, html.unescape(team)) for seat, player, team in found}
    # a team's first player sits in its first seat and the partner opposite, as on the card
    assert seats == {
        "N": ("Aiko", "Aiko & Ben"),
        "S": ("Ben", "Aiko & Ben"),
        "E": ("Chika", "Chika & Dan"),
        "W": ("Dan", "Chika & Dan"),
    }


def test_the_turned_cards_rank_is_a_cards_rank_in_japanese_not_a_placing(client, director):
    """Issue 28: the turned card's "Rank" read 順位 (a place in the standings)."""
    match = make_match(director, game="solo-whist", rules="phillips", fmt="individual")
    response = client.get(
        reverse("tournaments:scoring-table", args=[match.table_id]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    found = re.search(r'<label for="turned-rank">([^<]*)</label>', response.content.decode())
    assert found is not None
    assert found.group(1) != "順位" and "ランク" in found.group(1)


def test_the_entry_has_a_pin_keypad_and_send_says_why_it_waits(client, spades):
    """The PIN is typed on the page's own keypad (no phone keyboard: inputmode none), and the
    Send button has a line beside it to say what it waits for; no "Check the score" step."""
    body = page(client, spades).content.decode()
    assert 'id="entry-pin"' in body and 'inputmode="none"' in body
    assert body.count('data-keypad="entry-pin"') == 1
    assert 'id="send-why"' in body
    assert "Check the score" not in body and 'id="check-button"' not in body
    config = script_json(body, "scoring-config")
    assert config["pinDigits"] == 4 and config["pinNeeded"] is True


def test_partners_tricks_are_shown_per_side_unless_a_nil_makes_a_seats_count_matter(
    client, spades, django_capture_on_commit_callbacks, in_process_tasks
):
    """The pad enters a side's tricks against its first bidder: the list says N/S 6 · E/W 7
    (as the paper sheet does), not N 0 · E 7 · S 6 · W 0; with a nil, each seat's count. (The
    workflows' after-commit work runs, in process, as on the club laptop.)"""
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_hand(
            match=spades,
            actor=scorer(spades, "NS"),
            record={**HAND_1, "tricks": {"N": 0, "E": 7, "S": 6, "W": 0}},
            idempotency_key="per-side-1",
        )
    shown = text(page(client, spades))
    assert "Tricks: N/S 6 · E/W 7" in shown and "N 0 · E 7" not in shown
    first = spades.hands.get(number=1).versions.get()
    nil = spades_hand("E", ["nil", "3", "7", "6"], {"N": 7, "E": 3, "S": 0, "W": 3})
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_hand(
            submission=first, expected_version=first.version, actor=scorer(spades, "EW")
        )
        services.submit_hand(
            match=spades, actor=scorer(spades, "NS"), record=nil, idempotency_key="per-side-2"
        )
    shown = text(page(client, spades))
    assert "Tricks: N 7 · E 3 · S 0 · W 3" in shown  # clockwise, as stored or not (jsonb)
