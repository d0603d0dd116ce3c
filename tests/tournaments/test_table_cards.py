"""One card per table for the whole event (issue 28, item 1): a card printed once, before the
first round is drawn, scores the match at its table in every round of every format (Swiss, round
robin, individual and progressive movements, knockout, duplicate) and stops when the event ends;
printing one table's card again revokes that card only."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.duplicate.builders import make_event, played
from tests.tournaments.builders import make_director
from tournaments import services
from tournaments.demo.simulate import answerer, next_hand
from tournaments.duplicate import services as dup
from tournaments.knockout import services as knockout
from tournaments.models import EventTable, Match, Round, Table, TableToken, Tournament
from tournaments.printing import paper as printing
from tournaments.selectors.cards import CardState, card_now
from tournaments.services import Actor, ServiceError

pytestmark = pytest.mark.django_db


def card_scorers(match: Match, card: int) -> list[Actor]:
    """The sides of the match as a phone holding the table's card speaks for them."""
    pins: dict[str, str] = {}
    for side, pin in match.seats.values_list("side", "entry__pin").order_by("side", "entry_id"):
        pins.setdefault(side, pin)
    return [Actor(card=card, side=s, pin=p, label=f"card {s}") for s, p in sorted(pins.items())]


def play_with_card(match: Match, card: int, rng: random.Random, limit: int = 60) -> None:
    """Hands entered and confirmed by the card's phone until the match ends."""
    for _ in range(limit):
        match.refresh_from_db()
        if match.state == Match.State.FINISHED:
            return
        sides = card_scorers(match, card)
        submitted = services.submit_hand(
            match=match,
            actor=sides[0],
            record=next_hand(match, rng),
            idempotency_key=f"card-{match.pk}-{rng.getrandbits(64):016x}",
        ).submission
        answering = answerer(match, submitted)  # not the side that entered it, nor its declarer's
        by_card = Actor(card=card, side=answering.side, pin=answering.pin, label=answering.label)
        services.confirm_hand(
            submission=submitted, expected_version=submitted.version, actor=by_card
        )
    raise AssertionError(f"match {match.pk} did not end in {limit} hands")


def token_answer(secret: str) -> dict:
    response = Client().get("/api/v1/auth/table-token", HTTP_AUTHORIZATION=f"Table {secret}")
    assert response.status_code == 200, response.content
    return response.json()


def printed_before_the_draw(tournament: Tournament, director: Actor) -> dict[int, str]:
    """The event's cards printed before any round: {table number: secret}."""
    assert not Round.objects.filter(tournament=tournament).exists()
    numbers = range(1, printing.tables_needed(tournament) + 1)
    printed = services.print_cards(tournament=tournament, numbers=numbers, actor=director)
    return {n: secret for n, (_table, secret) in printed.items()}


def play_every_round(tournament: Tournament, director: Actor, secrets: dict[int, str]) -> int:
    """Draw, publish and play each round with the cards printed before round 1; returns how
    many rounds were played. Each round the card's answer is that round's match."""
    cards = {t.number: t.pk for t in EventTable.objects.filter(tournament=tournament)}
    rng = random.Random(7)
    played_rounds = 0
    latest = None
    while services.can_generate_round(tournament=tournament, latest=latest) is None:
        round_ = services.generate_round(tournament=tournament, actor=director)
        services.publish_round(round=round_, actor=director)
        matches = Match.objects.filter(round=round_, is_bye=False).select_related("table")
        for match in matches:
            number = match.table.number
            assert number in secrets, f"round {round_.number}: table {number} has no card"
            answer = token_answer(secrets[number])
            assert (answer["round"], answer["match"], answer["now"]) == (
                {"id": round_.pk, "number": round_.number},
                match.pk,
                "playing",
            )
            assert answer["table"] == {"id": match.table_id, "number": number}
            assert answer["card"] == {"id": cards[number], "number": number}
            other = next(n for n in cards if n != number)
            with pytest.raises(ServiceError) as refused:  # another table's card scores nothing
                services.submit_hand(
                    match=match,
                    actor=card_scorers(match, cards[other])[0],
                    record=next_hand(match, rng),
                )
            assert refused.value.code == "wrong-table"
            play_with_card(match, cards[number], rng)
        latest = services.close_round(round=round_, actor=director)
        played_rounds += 1
        for secret in secrets.values():
            assert token_answer(secret)["now"] == "waiting"
    return played_rounds


def the_event_ends(tournament: Tournament, director: Actor, secrets: dict[int, str]) -> None:
    tournament.refresh_from_db()
    if tournament.state != Tournament.State.FINISHED:
        services.finish_tournament(tournament=tournament, actor=director)
    for secret in secrets.values():
        assert TableToken.by_secret(secret).state == "expired"
        response = Client().get("/api/v1/auth/table-token", HTTP_AUTHORIZATION=f"Table {secret}")
        assert (response.status_code, response.json()["code"]) == (401, "token-expired")


@pytest.mark.parametrize(
    ("options", "rounds"),
    [
        pytest.param({"format": "swiss", "teams": 8, "rounds": 3}, 3, id="swiss"),
        pytest.param({"format": "round-robin", "teams": 4, "rounds": 3}, 3, id="round-robin"),
        pytest.param(
            {
                "format": "individual",
                "game": "solo-whist",
                "rules": "phillips",
                "players": 8,
                "table_size": 4,
                "rounds": 3,
            },
            3,
            id="individual",
        ),
        pytest.param({"format": "progressive", "players": 8, "rounds": 3}, 3, id="progressive"),
    ],
)
def test_one_card_printed_before_the_draw_scores_its_table_in_every_round(
    make_tournament, director, options, rounds
):
    tournament = make_tournament(match_length="hands", match_hands=1, **options)
    secrets = printed_before_the_draw(tournament, director)

    assert play_every_round(tournament, director, secrets) == rounds

    assert TableToken.objects.filter(table__tournament=tournament).count() == len(secrets)
    assert Table.objects.filter(round__tournament=tournament).count() > len(secrets)
    the_event_ends(tournament, director, secrets)


def test_one_card_scores_its_table_through_a_knockout_and_says_when_its_table_is_empty(
    make_tournament, director
):
    tournament = make_tournament(format="knockout", teams=4, rounds=1)
    knockout.set_knockout(tournament=tournament, actor=director, length="hands", count=1)
    services.confirm_cut(
        tournament=tournament, actor=director, entries=services.cut_list(tournament=tournament).ids
    )
    tournament.refresh_from_db()
    secrets = printed_before_the_draw(tournament, director)
    assert sorted(secrets) == [1, 2]

    assert play_every_round(tournament, director, secrets) == 2  # the semi-finals, the final

    final = Round.objects.get(tournament=tournament, number=2)
    assert final.tables.count() == 1
    table_2 = EventTable.objects.get(tournament=tournament, number=2)
    assert card_now(table_2).table is None  # the final was played at table 1 only
    the_event_ends(tournament, director, secrets)


def test_a_knockout_table_without_a_match_in_the_round_in_play_is_idle(make_tournament, director):
    tournament = make_tournament(format="knockout", teams=4, rounds=1)
    knockout.set_knockout(tournament=tournament, actor=director, length="hands", count=1)
    services.confirm_cut(
        tournament=tournament, actor=director, entries=services.cut_list(tournament=tournament).ids
    )
    secrets = printed_before_the_draw(tournament, director)
    rng = random.Random(3)
    first = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=first, actor=director)
    for match in Match.objects.filter(round=first, is_bye=False).select_related("table"):
        play_with_card(match, match.table.event_table_id, rng)
    services.close_round(round=first, actor=director)
    final = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=final, actor=director)

    answer = token_answer(secrets[2])
    assert (answer["now"], answer["round"]["number"], answer["match"]) == ("idle", 2, None)
    assert token_answer(secrets[1])["now"] == "playing"


def test_one_card_scores_its_duplicate_table_in_every_round(director):
    tournament = make_event(director, tables=3)
    printed = services.print_cards(tournament=tournament, numbers=[1, 2, 3], actor=director)
    secrets = {n: secret for n, (_table, secret) in printed.items()}
    event = dup.event_of(tournament)

    for number in range(1, 4):
        round_ = dup.start_round(tournament=tournament, actor=director)
        assert round_.number == number
        for match in round_.matches.select_related("table"):
            table = match.table.number
            auth = {"HTTP_AUTHORIZATION": f"Table {secrets[table]}"}
            url = f"/api/v1/duplicate/{tournament.slug}/tables/{match.table_id}/results"
            for board in dup.boards_of(event, number, table):
                ns_pin = match.seats.get(side="NS").entry.pin
                body = {"board": board, "pin": ns_pin, "record": played(tournament, board)}
                sent = Client().post(url, body, content_type="application/json", **auth)
                assert sent.status_code == 201, sent.content
                pin = match.seats.get(side="EW").entry.pin
                confirm = Client().post(
                    f"/api/v1/duplicate/{tournament.slug}/results/{sent.json()['id']}/confirm",
                    {"side": "EW", "pin": pin, "version": sent.json()["version"]},
                    content_type="application/json",
                    **auth,
                )
                assert confirm.json()["status"] == "confirmed", confirm.content
            elsewhere = 1 + table % 3  # another table's card is refused here
            refused = Client().post(
                url,
                {"board": 1, "side": "NS", "record": {}},
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Table {secrets[elsewhere]}",
            )
            assert refused.status_code == 403
        dup.close_duplicate_round(round=round_, actor=director)

    assert TableToken.objects.filter(table__tournament=tournament).count() == 3
    dup.finish_duplicate(tournament=tournament, actor=director)
    assert {TableToken.by_secret(s).state for s in secrets.values()} == {"expired"}


def test_reprinting_one_card_revokes_that_card_only(make_tournament, director):
    tournament = make_tournament(teams=6)
    first = printed_before_the_draw(tournament, director)
    assert sorted(first) == [1, 2, 3]

    again = services.print_cards(tournament=tournament, numbers=[2], actor=director)

    assert TableToken.by_secret(first[2]).state == "revoked"
    assert TableToken.by_secret(again[2][1]).state == "active"
    assert TableToken.by_secret(first[1]).state == TableToken.by_secret(first[3]).state == "active"


def test_reprinting_one_card_from_the_event_cards_page_revokes_that_card_only(
    client, make_tournament, director, director_user
):
    tournament = make_tournament(teams=6)
    client.force_login(director_user)
    url = reverse("tournaments:printing-event-cards", args=[tournament.slug])
    assert 'value="3"' in client.get(url).content.decode()  # three tables for six teams
    client.post(url, {"tables": "3"})
    tokens = {t.table.number: t for t in TableToken.objects.select_related("table")}

    response = client.post(url, {"table": "2", "paper": "a6"})

    assert response.status_code == 200 and response["Cache-Control"].count("no-store")
    html = response.content.decode()
    assert html.count('<article class="card"') == 1 and 'id="card-2"' in html
    assert "Valid for every round until the event ends" in html
    states = {n: TableToken.objects.get(pk=t.pk).state for n, t in tokens.items()}
    assert states == {1: "active", 2: "revoked", 3: "active"}
    assert TableToken.objects.filter(table__number=2, revoked_at__isnull=True).count() == 1


def test_a_table_number_that_is_not_one_changes_nothing(client, make_tournament, director_user):
    tournament = make_tournament(teams=4)
    client.force_login(director_user)
    url = reverse("tournaments:printing-event-cards", args=[tournament.slug])
    for bad in ({"tables": "0"}, {"table": "x"}, {"tables": "1000"}, {}):
        response = client.post(url, bad)
        assert response.status_code == 422, bad
    assert not TableToken.objects.exists() and not EventTable.objects.exists()


@pytest.mark.parametrize("lifetime", [timedelta(seconds=59), timedelta(days=7, seconds=1)])
def test_a_token_lifetime_outside_a_minute_to_seven_days_is_refused_with_its_code(
    make_tournament, director, lifetime
):
    # The refusal was built with its details as a third positional argument, which
    # ServiceError does not take: a TypeError (a server error) instead of a 422 (found by mypy).
    tournament = make_tournament(teams=4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    table = round_.tables.order_by("number").first()

    with pytest.raises(ServiceError) as refused:
        services.issue_table_token(table=table, actor=director, lifetime=lifetime)

    assert (refused.value.code, refused.value.status) == ("bad-lifetime", 422)
    assert refused.value.details == {"seconds": int(lifetime.total_seconds())}
    assert not TableToken.objects.exists()


def test_a_card_printed_the_day_before_still_scores_on_the_evening(make_tournament, director):
    tournament = make_tournament(teams=4, match_length="hands", match_hands=1)
    secrets = printed_before_the_draw(tournament, director)
    TableToken.objects.update(created_at=timezone.now() - timedelta(hours=30))
    tokens = list(TableToken.objects.all())
    assert all(t.expires_at is None for t in tokens)  # until the event ends, not 12 hours

    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    for secret in secrets.values():
        assert token_answer(secret)["state"] == "active"


def test_the_card_page_follows_the_rounds_and_says_what_comes_next(
    client, make_tournament, director
):
    tournament = make_tournament(teams=4, match_length="hands", match_hands=1, rounds=2)
    printed_before_the_draw(tournament, director)
    card = EventTable.objects.get(tournament=tournament, number=1)
    page = reverse("tournaments:scoring-card", args=[card.pk])
    now = reverse("tournaments:scoring-card-now", args=[card.pk])

    html = client.get(page).content.decode()
    assert "Round 1 starts when the director publishes it." in html
    assert 'data-frame=""' in html

    round_ = services.generate_round(tournament=tournament, actor=director)
    assert "Round 1 starts when" in client.get(now).content.decode()  # a draft stays hidden
    services.publish_round(round=round_, actor=director)
    table = round_.tables.get(number=1)
    fragment = client.get(now).content.decode()
    assert f'data-frame="/table/{table.pk}/?card={card.pk}&amp;now=playing"' in fragment
    assert 'data-state="playing"' in fragment
    framed = client.get(f"/table/{table.pk}/?card={card.pk}")
    assert framed["X-Frame-Options"] == "SAMEORIGIN"

    rng = random.Random(1)
    for match in Match.objects.filter(round=round_):
        play_with_card(match, match.table.event_table_id, rng)
    services.close_round(round=round_, actor=director)
    assert "Round 2 starts when the director publishes it." in client.get(now).content.decode()

    second = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=second, actor=director)
    moved = second.tables.get(number=1)
    assert (
        f'data-frame="/table/{moved.pk}/?card={card.pk}&amp;now=playing"'
        in client.get(now).content.decode()
    )
    for match in Match.objects.filter(round=second):
        play_with_card(match, match.table.event_table_id, rng)
    services.close_round(round=second, actor=director)
    assert "The last round is over." in client.get(now).content.decode()
    services.finish_tournament(tournament=tournament, actor=director)
    over = client.get(now).content.decode()
    assert "The event is over." in over and 'data-frame=""' in over
    assert reverse("tournaments:public-standings", args=[tournament.slug]) in over


def test_the_round_pages_token_probe_accepts_the_tables_card_in_a_later_round(
    client, make_tournament, director
):
    tournament = make_tournament(teams=4, match_length="hands", match_hands=1)
    secrets = printed_before_the_draw(tournament, director)
    rng = random.Random(2)
    for _ in range(2):
        round_ = services.generate_round(tournament=tournament, actor=director)
        services.publish_round(round=round_, actor=director)
        for match in Match.objects.filter(round=round_).select_related("table"):
            probe = client.get(
                reverse("tournaments:scoring-token", args=[match.table_id]),
                HTTP_AUTHORIZATION=f"Table {secrets[match.table.number]}",
            ).json()
            assert probe["state"] == "active"
            other = secrets[3 - match.table.number]
            assert (
                client.get(
                    reverse("tournaments:scoring-token", args=[match.table_id]),
                    HTTP_AUTHORIZATION=f"Table {other}",
                ).json()["state"]
                == "other-table"
            )
            play_with_card(match, match.table.event_table_id, rng)
        services.close_round(round=round_, actor=director)


def test_every_rounds_table_is_its_events_table_once_a_round():
    director = make_director()
    tournament = make_event(director, tables=2)
    round_ = dup.start_round(tournament=tournament, actor=director)
    table = round_.tables.get(number=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=round_, number=9, event_table=table.event_table)
    with pytest.raises(IntegrityError), transaction.atomic():
        EventTable.objects.create(tournament=tournament, number=1)
    assert card_now(table.event_table).state == CardState.PLAYING


SITE = "http://192.168.1.20:8000"


def printed_urls(html: str) -> list[str]:
    return [u.replace("&amp;", "&") for u in re.findall(r'<p class="qr-url">([^<]+)</p>', html)]


def test_every_card_carries_the_public_url_duplicate_guide_cards_included(
    client, settings, make_tournament, director_user
):
    settings.PUBLIC_URL = SITE  # the laptop's browser is at testserver, the phones are not
    tournament = make_tournament(teams=4)
    client.force_login(director_user)
    event = client.post(
        reverse("tournaments:printing-event-cards", args=[tournament.slug]), {"tables": "2"}
    ).content.decode()
    director = Actor(user=director_user)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    rounds = client.post(
        reverse("tournaments:printing-cards", args=[tournament.slug, 1])
    ).content.decode()
    duplicate = make_event(director, tables=2)
    guide = client.post(
        reverse("tournaments:duplicate-guide", args=[duplicate.slug])
    ).content.decode()

    urls = printed_urls(event) + printed_urls(rounds)
    assert len(urls) == 4
    assert all(u.startswith(f"{SITE}/table/card/") and "#token=" in u for u in urls)
    links = re.findall(r'class="phone-link" href="([^"]+)"', guide)
    assert len(links) == 2  # before round 1: the codes open the tables for the whole evening
    assert all(
        u.startswith(f"{SITE}/duplicate/{duplicate.slug}/table/") and "#token=" in u for u in links
    )
    assert "Phones cannot open these codes." not in event + rounds + guide


@pytest.mark.parametrize("public_url", ["", "http://127.0.0.1:8000", "http://localhost:8000"])
def test_the_director_is_warned_when_the_cards_would_open_a_loopback_address(
    client, settings, make_tournament, director_user, public_url
):
    settings.PUBLIC_URL = public_url
    tournament = make_tournament(teams=4)
    duplicate = make_event(Actor(user=director_user), tables=2, start=False)
    client.force_login(director_user)
    pages = [
        reverse("tournaments:printing-event-cards", args=[tournament.slug]),
        reverse("tournaments:duplicate-guide", args=[duplicate.slug]),
    ]
    for url in pages:
        html = client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
        assert "Phones cannot open these codes." in html, url
    settings.PUBLIC_URL = SITE
    for url in pages:
        html = client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
        assert "Phones cannot open these codes." not in html and SITE in html, url


def test_after_the_last_swiss_round_a_top_cut_is_still_to_come(make_tournament, director):
    tournament = make_tournament(teams=4, rounds=1, match_length="hands", match_hands=1)
    tournament = knockout.set_knockout(
        tournament=tournament, actor=director, top_cut=2, length="hands", count=1
    )
    printed_before_the_draw(tournament, director)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    rng = random.Random(4)
    for match in Match.objects.filter(round=round_).select_related("table"):
        play_with_card(match, match.table.event_table_id, rng)
    services.close_round(round=round_, actor=director)

    now = card_now(EventTable.objects.get(tournament=tournament, number=1))

    assert (now.state, now.next_round, now.last_round) == (CardState.WAITING, 2, False)


def test_an_old_rounds_link_leads_a_player_to_the_tables_card_page(
    client, make_tournament, director, director_user
):
    tournament = make_tournament(teams=4, match_length="hands", match_hands=1)
    printed_before_the_draw(tournament, director)
    first = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=first, actor=director)
    old = first.tables.get(number=2)
    old_page = reverse("tournaments:scoring-table", args=[old.pk])
    assert client.get(old_page).status_code == 200  # its round is on: the page itself
    rng = random.Random(5)
    for match in Match.objects.filter(round=first).select_related("table"):
        play_with_card(match, match.table.event_table_id, rng)
    services.close_round(round=first, actor=director)
    assert client.get(old_page).status_code == 200  # no later round yet
    second = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=second, actor=director)

    response = client.get(old_page)

    card = reverse("tournaments:scoring-card", args=[old.event_table_id])
    assert (response.status_code, response["Location"]) == (302, card)
    framed = client.get(old_page + f"?card={old.event_table_id}")
    assert framed.status_code == 200  # the card page may still frame it
    client.force_login(director_user)
    assert client.get(old_page).status_code == 200  # a director looks back at it
