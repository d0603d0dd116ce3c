"""One person across clubs: a director links two clubs' member records with the claim code the
person brings (never by name), and the person's page lists every club's events."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.clubs.people_builders import club_event, director_of
from tournaments import services
from tournaments.clubs import running
from tournaments.members import names
from tournaments.members import services as members
from tournaments.models import (
    ClaimCode,
    ClaimFailure,
    Club,
    MembersSettings,
    Person,
    Player,
    Tournament,
    home_club,
)
from tournaments.people import engine
from tournaments.people import services as people
from tournaments.services import Actor, Conflict, Invalid, NotAllowed, ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_redis(settings):
    settings.REDIS_URL = None


@pytest.fixture
def north(db) -> Club:
    home_club()
    return Club.objects.create(name="North Spades Club", slug="north")


@pytest.fixture
def south(db) -> Club:
    home_club()
    return Club.objects.create(name="South Whist Circle", slug="south")


@pytest.fixture
def west(db) -> Club:
    home_club()
    return Club.objects.create(name="West Card Room", slug="west")


@pytest.fixture
def north_td(north) -> Actor:
    return director_of(north, "north-td")


@pytest.fixture
def south_td(south) -> Actor:
    return director_of(south, "south-td")


@pytest.fixture
def west_td(west) -> Actor:
    return director_of(west, "west-td")


def record(club: Club, name: str) -> Player:
    return Player.objects.get(club=club, name=name)


@pytest.fixture
def two_clubs(north_td, south_td, north, south) -> tuple[Tournament, Tournament]:
    """Aiko Tanaka plays at both clubs (a record in each); the others at one."""
    at_north = club_event(
        north_td, "North Monday", [("Aiko Tanaka", "Ben Ode"), ("Cai Lun", "Dee Moss")]
    )
    at_south = club_event(
        south_td, "South Friday", [("Aiko Tanaka", "Eve Stone"), ("Fay Ng", "Gus Hart")]
    )
    return at_north, at_south


def link(director: Actor, mine: Player, code: str) -> Person:
    return people.link_by_code(actor=director, player=mine, code=code, client="10.0.0.1")


# -- the claim code ----------------------------------------------------------------------------


def test_a_claim_code_is_eight_unambiguous_characters_grouped_and_read_kindly():
    code = engine.new_code()
    assert len(code) == engine.LENGTH and set(code) <= set(engine.ALPHABET)
    assert not set("ILOU") & set(engine.ALPHABET)
    shown = engine.grouped(code)
    assert shown[4] == "-" and shown.replace("-", "") == code
    assert engine.normalise(f" {shown.lower()} ") == code
    assert engine.normalise("ｏｉｌ２ーabcd") == "0112ABCD"  # full width, look-alikes
    assert engine.normalise("ABC") is None
    assert engine.normalise("ABCD-EFG!") is None


def test_a_claim_code_is_stored_only_as_its_keyed_hash(two_clubs, north, north_td):
    aiko = record(north, "Aiko Tanaka")
    issued = people.issue_claim_code(actor=north_td, player=aiko)
    stored = ClaimCode.objects.get(player=aiko)
    plain = issued.code.replace("-", "")
    assert plain not in stored.key_hash
    assert stored.key_hash == people.code_hash(plain)
    assert stored.expires_at == issued.expires_at
    assert issued.expires_at - stored.created_at >= people.LIFETIME - timedelta(seconds=5)


def test_only_a_director_of_the_records_club_issues_its_claim_code(
    two_clubs, north, south_td, west_td
):
    aiko = record(north, "Aiko Tanaka")
    for stranger in (south_td, west_td):
        with pytest.raises(NotAllowed) as refused:
            people.issue_claim_code(actor=stranger, player=aiko)
        assert refused.value.code == "not-club-director"
    assert not ClaimCode.objects.filter(player=aiko).exists()


# -- linking -----------------------------------------------------------------------------------


def test_a_director_links_their_record_with_the_code_the_person_brings(
    two_clubs, north, south, north_td, south_td
):
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    code = people.issue_claim_code(actor=north_td, player=at_north).code
    person = link(south_td, at_south, code)
    at_north.refresh_from_db()
    at_south.refresh_from_db()
    assert at_north.person == person == at_south.person
    assert not ClaimCode.objects.filter(player=at_north).exists()  # used up
    with pytest.raises(NotAllowed) as again:
        link(south_td, record(south, "Eve Stone"), code)
    assert again.value.code == "claim-code-wrong"


def test_names_alike_link_nothing(
    client, two_clubs, north, south, west, north_td, south_td, west_td
):
    """Both clubs have an "Aiko Tanaka": no record is a person until a code links them; and
    once two are linked, a third club's "Aiko Tanaka" stays someone else."""
    assert record(north, "Aiko Tanaka").person is None
    assert record(south, "Aiko Tanaka").person is None
    assert not Person.objects.exists()
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    person = link(south_td, at_south, people.issue_claim_code(actor=north_td, player=at_north).code)
    club_event(west_td, "West Sunday", [("Aiko Tanaka", "Hal Berg"), ("Ivy Cole", "Jon Dale")])
    assert record(west, "Aiko Tanaka").person is None
    assert person.records.count() == 2
    html = read(client, f"/people/{person.uid}/")
    assert "West Card Room" not in html and "West Sunday" not in html


def test_a_claim_code_links_whoever_holds_it_whatever_the_names(
    two_clubs, north, south, north_td, south_td
):
    """The code, not the name, says whose record it is: Eve at South brings Dee's code (the
    same person under another name) and only those two records are linked."""
    dee = record(north, "Dee Moss")
    eve = record(south, "Eve Stone")
    person = link(south_td, eve, people.issue_claim_code(actor=north_td, player=dee).code)
    assert set(person.records.values_list("pk", flat=True)) == {dee.pk, eve.pk}
    assert record(north, "Aiko Tanaka").person is None


def test_a_wrong_code_is_refused_and_counted(two_clubs, south, south_td):
    aiko = record(south, "Aiko Tanaka")
    with pytest.raises(NotAllowed) as refused:
        link(south_td, aiko, "ABCD-EFGH")
    assert refused.value.code == "claim-code-wrong"
    assert ClaimFailure.objects.filter(club=south, user=south_td.user).count() == 1
    aiko.refresh_from_db()
    assert aiko.person is None


def test_a_code_that_cannot_be_one_is_refused_uncounted(two_clubs, south, south_td):
    with pytest.raises(Invalid) as refused:
        link(south_td, record(south, "Aiko Tanaka"), "123")
    assert refused.value.code == "bad-claim-code"
    assert not ClaimFailure.objects.exists()


def test_an_expired_code_is_refused(two_clubs, north, south, north_td, south_td):
    at_north = record(north, "Aiko Tanaka")
    code = people.issue_claim_code(actor=north_td, player=at_north).code
    ClaimCode.objects.filter(player=at_north).update(
        expires_at=ClaimCode.objects.get(player=at_north).created_at
    )
    with pytest.raises(NotAllowed) as refused:
        link(south_td, record(south, "Aiko Tanaka"), code)
    assert refused.value.code == "claim-code-expired"
    assert not Person.objects.exists()


def test_a_reissued_code_replaces_the_old_one(two_clubs, north, south, north_td, south_td):
    at_north = record(north, "Aiko Tanaka")
    old = people.issue_claim_code(actor=north_td, player=at_north).code
    new = people.issue_claim_code(actor=north_td, player=at_north).code
    assert old != new
    assert ClaimCode.objects.filter(player=at_north).count() == 1
    at_south = record(south, "Aiko Tanaka")
    with pytest.raises(NotAllowed) as refused:
        link(south_td, at_south, old)
    assert refused.value.code == "claim-code-wrong"
    assert link(south_td, at_south, new) is not None


def test_guessing_is_refused_each_time_then_locked_for_the_club(two_clubs, south, south_td):
    """Guesses spread out past each wait: every one is tested and refused, until the club's
    hour's budget is used up; then none is tested."""
    at_south = record(south, "Aiko Tanaka")
    refusals = []
    for n in range(people.BUDGET + 2):
        ClaimFailure.objects.update(at=timezone.now() - timedelta(minutes=6))
        try:
            link(south_td, at_south, f"ZZZZ-{n:04d}")
        except ServiceError as error:
            refusals.append(error.code)
    assert refusals == ["claim-code-wrong"] * people.BUDGET + ["claim-code-locked"] * 2
    assert ClaimFailure.objects.filter(club=south).count() == people.BUDGET


@pytest.fixture
def guesses(south, south_td):
    """Wrong codes typed at South this hour, each long enough ago to be past its wait."""

    def make(count: int, *, user=None, minutes_ago: int = 30) -> None:
        at = timezone.now() - timedelta(minutes=minutes_ago)
        ClaimFailure.objects.bulk_create(
            ClaimFailure(club=south, user=user or south_td.user, client="x", at=at)
            for _n in range(count)
        )

    return make


def test_after_a_few_wrong_codes_a_director_waits_before_the_next(
    two_clubs, south, south_td, guesses
):
    guesses(people.FREE, minutes_ago=0)
    with pytest.raises(ServiceError) as waiting:
        link(south_td, record(south, "Aiko Tanaka"), "ZZZZ-ZZZZ")
    assert waiting.value.code == "claim-code-wrong"  # the FREE+1-th is tested, then a wait
    assert waiting.value.retry_after == people.wait_after(people.FREE + 1)
    with pytest.raises(ServiceError) as next_try:
        link(south_td, record(south, "Aiko Tanaka"), "ZZZZ-ZZZY")
    assert next_try.value.code == "claim-code-wait"
    assert next_try.value.status == 429
    assert ClaimFailure.objects.count() == people.FREE + 1  # the waiting try is not tested


def test_a_club_with_its_hours_budget_used_up_tests_no_code_not_even_a_right_one(
    two_clubs, north, south, north_td, guesses
):
    other = get_user_model().objects.create_user("south-td-2")
    south.directors.add(other)
    guesses(people.BUDGET)  # by south-td, half an hour ago
    right = people.issue_claim_code(actor=north_td, player=record(north, "Aiko Tanaka")).code
    with pytest.raises(ServiceError) as locked:
        link(Actor(user=other, club=south), record(south, "Aiko Tanaka"), right)
    assert locked.value.code == "claim-code-locked"
    assert locked.value.status == 429
    assert 0 < (locked.value.retry_after or 0) <= 31 * 60
    assert record(south, "Aiko Tanaka").person is None
    assert ClaimCode.objects.filter(player=record(north, "Aiko Tanaka")).exists()


def test_a_director_of_a_third_club_cannot_link_others_records(
    two_clubs, north, south, west, north_td, west_td
):
    code = people.issue_claim_code(actor=north_td, player=record(north, "Aiko Tanaka")).code
    with pytest.raises(NotAllowed) as refused:
        link(west_td, record(south, "Aiko Tanaka"), code)
    assert refused.value.code == "not-club-director"
    assert not Person.objects.exists()
    assert ClaimCode.objects.count() == 1  # the code still works for the person


def test_a_third_club_director_cannot_undo_a_link(
    two_clubs, north, south, north_td, south_td, west_td
):
    at_south = record(south, "Aiko Tanaka")
    link(
        south_td,
        at_south,
        people.issue_claim_code(actor=north_td, player=record(north, "Aiko Tanaka")).code,
    )
    with pytest.raises(NotAllowed) as refused:
        people.unlink(actor=west_td, player=at_south)
    assert refused.value.code == "not-club-director"
    at_south.refresh_from_db()
    assert at_south.person is not None


def test_a_director_of_either_club_undoes_the_link(two_clubs, north, south, north_td, south_td):
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    for undoer, undone in ((north_td, at_south), (south_td, at_south), (south_td, at_north)):
        link(south_td, at_south, people.issue_claim_code(actor=north_td, player=at_north).code)
        people.unlink(actor=undoer, player=undone)
        at_north.refresh_from_db()
        at_south.refresh_from_db()
        assert at_north.person is None and at_south.person is None
        assert not Person.objects.exists()


def test_a_code_of_the_same_club_links_nothing(two_clubs, north, north_td):
    code = people.issue_claim_code(actor=north_td, player=record(north, "Aiko Tanaka")).code
    with pytest.raises(Invalid) as refused:
        link(north_td, record(north, "Ben Ode"), code)
    assert refused.value.code == "claim-same-club"


def test_linking_two_persons_merges_them_into_one(
    two_clubs, north, south, west, north_td, south_td, west_td
):
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    club_event(west_td, "West Sunday", [("Aiko T.", "Hal Berg"), ("Ivy Cole", "Jon Dale")])
    at_west = record(west, "Aiko T.")
    first = link(south_td, at_south, people.issue_claim_code(actor=north_td, player=at_north).code)
    # West's record is already a person with... nobody yet: link it to North's via a new code.
    merged = link(west_td, at_west, people.issue_claim_code(actor=north_td, player=at_north).code)
    assert merged == first
    assert set(merged.records.values_list("pk", flat=True)) == {
        at_north.pk,
        at_south.pk,
        at_west.pk,
    }
    assert Person.objects.count() == 1
    with pytest.raises(Conflict) as twice:
        link(south_td, at_south, people.issue_claim_code(actor=west_td, player=at_west).code)
    assert twice.value.code == "already-linked"


def test_two_persons_each_of_two_records_merge_into_the_older(
    two_clubs, north, south, west, north_td, south_td, west_td
):
    other_home = Club.objects.create(name="East Bridge", slug="east")
    east_td = director_of(other_home, "east-td")
    club_event(west_td, "West Sunday", [("Aiko T.", "Hal Berg"), ("Ivy Cole", "Jon Dale")])
    club_event(east_td, "East Tuesday", [("A. Tanaka", "Kim Roe"), ("Lu Wei", "Max Orr")])
    n, s = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    w, e = record(west, "Aiko T."), record(other_home, "A. Tanaka")
    older = link(south_td, s, people.issue_claim_code(actor=north_td, player=n).code)
    newer = link(east_td, e, people.issue_claim_code(actor=west_td, player=w).code)
    assert older.pk < newer.pk
    merged = link(west_td, w, people.issue_claim_code(actor=south_td, player=s).code)
    assert merged == older
    assert not Person.objects.filter(pk=newer.pk).exists()
    assert set(merged.records.values_list("pk", flat=True)) == {n.pk, s.pk, w.pk, e.pk}


def test_a_person_keeps_one_record_a_club(two_clubs, north, south, north_td, south_td):
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    link(south_td, at_south, people.issue_claim_code(actor=north_td, player=at_north).code)
    # South's "Eve Stone" is someone else; Aiko's North code cannot make her Aiko too.
    code = people.issue_claim_code(actor=north_td, player=at_north).code
    with pytest.raises(Conflict) as refused:
        link(south_td, record(south, "Eve Stone"), code)
    assert refused.value.code == "person-club-twice"


# -- the pages ---------------------------------------------------------------------------------


def read(client, url: str, language: str = "en") -> str:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.content.decode()


@pytest.fixture
def linked(two_clubs, north, south, north_td, south_td) -> Person:
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    return link(south_td, at_south, people.issue_claim_code(actor=north_td, player=at_north).code)


def test_the_person_page_lists_both_clubs_events_with_their_addresses(client, linked, two_clubs):
    at_north, at_south = two_clubs
    html = read(client, f"/people/{linked.uid}/")
    assert "North Spades Club" in html and "South Whist Circle" in html
    assert f'href="/c/north/t/{at_north.slug}/"' in html
    assert f'href="/c/south/t/{at_south.slug}/"' in html
    # each linked address is the club's page of the event
    assert client.get(f"/c/north/t/{at_north.slug}/").status_code == 200
    assert client.get(f"/c/south/t/{at_south.slug}/").status_code == 200
    assert "Aiko Tanaka" in html


def test_the_person_page_speaks_japanese(client, linked):
    html = read(client, f"/people/{linked.uid}/", "ja")
    assert "このサイトの2クラブでプレイ" in html
    assert "Plays at" not in html


def test_the_person_page_at_a_club_address_is_sent_to_the_root(client, linked):
    answer = client.get(f"/c/north/people/{linked.uid}/")
    assert answer.status_code == 301
    assert answer["Location"] == f"/people/{linked.uid}/"


def test_an_unknown_person_has_no_page(client, db):
    assert client.get("/people/6f2a7c55-3d0e-4b8e-9a57-7d7f1c7c9e21/").status_code == 404


def test_a_club_showing_initials_shows_the_person_by_initials_everywhere(
    client, linked, north, south, two_clubs
):
    MembersSettings.objects.update_or_create(
        club=south, defaults={"public_names": MembersSettings.Names.INITIALS}
    )
    html = read(client, f"/people/{linked.uid}/")
    assert "Aiko" not in html and "Tanaka" not in html
    assert "A. T." in html
    assert "Eve Stone" not in html and "E. S." in html  # South's partner as South shows him
    assert "Ben Ode" in html  # North's partner as North shows him
    assert "North Spades Club" in html and "South Whist Circle" in html
    # North's page of Aiko (full names) does not tie her full name to the initials
    aiko = Player.objects.get(club=north, person=linked)
    assert "/people/" not in read(client, f"/c/north/players/{aiko.pk}/")


def test_a_removed_name_takes_its_clubs_record_off_the_person_page(
    client, linked, north, south, two_clubs
):
    # The installation's administrator: a club's members are its own directors' and staff's
    # (docs/clubs.md, "Who sees what"), every club's are the administrators'.
    staff = Actor(user=get_user_model().objects.create_superuser("staff", password="x"))
    members.remove_name(actor=staff, player=record(south, "Aiko Tanaka"))
    html = read(client, f"/people/{linked.uid}/")
    assert "South Whist Circle" not in html
    assert "North Spades Club" in html
    members.remove_name(actor=staff, player=Player.objects.get(club=north, person=linked))
    assert client.get(f"/people/{linked.uid}/").status_code == 404
    assert Player.objects.filter(person=linked, name=names.WITHHELD).count() == 2


def test_the_player_page_links_to_the_person_page_once_linked(client, two_clubs, north, linked):
    aiko = Player.objects.get(club=north, person=linked)
    html = read(client, f"/c/north/players/{aiko.pk}/")
    assert f'href="/people/{linked.uid}/"' in html
    ben = record(north, "Ben Ode")
    assert "/people/" not in read(client, f"/c/north/players/{ben.pk}/")


def test_the_member_page_issues_a_code_once_and_links_with_it(
    client, two_clubs, north, south, north_td, south_td
):
    at_north, at_south = record(north, "Aiko Tanaka"), record(south, "Aiko Tanaka")
    client.force_login(north_td.user)
    page = reverse("tournaments:people-member", args=[at_north.pk])
    answer = client.post(f"/c/north{page}", {"action": "issue"})
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    html = answer.content.decode()
    code = next(
        word
        for word in html.replace("<", " ").replace(">", " ").split()
        if len(word) == 9 and word[4] == "-" and engine.normalise(word)
    )
    assert code not in read(client, f"/c/north{page}")  # shown once
    client.force_login(south_td.user)
    south_page = f"/c/south{reverse('tournaments:people-member', args=[at_south.pk])}"
    refused = client.post(south_page, {"action": "link", "code": code})  # not confirmed
    assert refused.status_code == 400
    answer = client.post(south_page, {"action": "link", "code": code.lower(), "confirm": "yes"})
    assert answer.status_code == 302
    at_south.refresh_from_db()
    assert at_south.person is not None
    assert "North Spades Club" in read(client, south_page)


def test_a_director_cannot_open_another_clubs_member_page(client, two_clubs, north, west_td):
    at_north = record(north, "Aiko Tanaka")
    client.force_login(west_td.user)
    page = reverse("tournaments:people-member", args=[at_north.pk])
    assert client.get(f"/c/west{page}").status_code == 404
    assert client.get(f"/c/north{page}").status_code == 403
    assert client.post(f"/c/north{page}", {"action": "issue"}).status_code == 403
    assert not ClaimCode.objects.exists()


def test_a_wrong_code_on_the_page_says_so_and_waits_with_retry_after(
    client, two_clubs, south, south_td, guesses
):
    guesses(people.FREE + 1, minutes_ago=0)
    client.force_login(south_td.user)
    page = f"/c/south{reverse('tournaments:people-member', args=[record(south, 'Aiko Tanaka').pk])}"
    answer = client.post(page, {"action": "link", "code": "ZZZZ-ZZZZ", "confirm": "yes"})
    assert answer.status_code == 429
    assert int(answer["Retry-After"]) > 0
    assert "Too many wrong claim codes" in answer.content.decode()


def test_pin_slips_print_claim_codes_that_link(client, two_clubs, north, south, north_td, south_td):
    at_north_event, _ = two_clubs
    client.force_login(north_td.user)
    url = f"/c/north{reverse('tournaments:printing-pins', args=[at_north_event.slug])}"
    assert "Print with claim codes" in read(client, url)
    assert not ClaimCode.objects.exists()  # a GET issues nothing
    answer = client.post(url, {"claim_codes": "yes"})
    assert answer.status_code == 200
    assert ClaimCode.objects.filter(player__club=north).count() == 4
    html = answer.content.decode()
    codes = [
        word
        for word in html.replace("<", " ").replace(">", " ").split()
        if len(word) == 9 and word[4] == "-" and engine.normalise(word)
    ]
    assert len(codes) == 4
    # whose code is whose: each code links that player's record only
    aiko = record(north, "Aiko Tanaka")
    by_hash = {people.code_hash(engine.normalise(c) or ""): c for c in codes}
    aiko_code = by_hash[ClaimCode.objects.get(player=aiko).key_hash]
    person = link(south_td, record(south, "Aiko Tanaka"), aiko_code)
    assert set(person.records.values_list("club__slug", flat=True)) == {"north", "south"}
    # the PDF issues codes likewise (each player's earlier code stops working)
    pdf = client.post(url, {"claim_codes": "yes", "format": "pdf"})
    assert pdf["Content-Type"] == "application/pdf"
    assert ClaimCode.objects.filter(player__club=north).count() == 4
    assert not ClaimCode.objects.filter(key_hash__in=list(by_hash)).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_guesses_at_once_take_no_more_than_the_clubs_budget(postgres_db):
    """Six directors of one club guess at the same moment with one wrong code left in the
    club's hour: one guess is tested, the others are refused untested."""
    home_club()
    south = Club.objects.create(name="South Whist Circle", slug="south")
    mine = Player.objects.create(club=south, name="Aiko Tanaka")
    directors = [director_of(south, f"south-td-{n}") for n in range(6)]
    ClaimFailure.objects.bulk_create(
        ClaimFailure(club=south, user=None, client="x", at=timezone.now() - timedelta(minutes=30))
        for _n in range(people.BUDGET - 1)
    )
    barrier = threading.Barrier(len(directors))
    outcomes: list[str] = []

    def guess(director: Actor, n: int) -> None:
        try:
            barrier.wait()
            link(director, mine, f"ZZZZ-{n:04d}")
            outcomes.append("linked")
        except ServiceError as error:
            outcomes.append(error.code)
        except Exception as error:  # reported in the assertion below
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(d, n)) for n, d in enumerate(directors)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["claim-code-locked"] * 5 + ["claim-code-wrong"]
    assert ClaimFailure.objects.filter(club=south).count() == people.BUDGET


def test_an_installation_with_one_club_offers_no_claim_codes(client, django_user_model):
    """One club: nothing to link, so the PIN slips and the members page look as before."""
    director = Actor(user=django_user_model.objects.create_user("td"), club=home_club())
    tournament = services.create_tournament(
        actor=director, name="Friday", game="spades", rules="standard", format="swiss", rounds=1
    )
    client.force_login(director.user)
    slips = read(client, reverse("tournaments:printing-pins", args=[tournament.slug]))
    assert "claim code" not in slips.lower()
    assert reverse("tournaments:people-members") not in read(
        client, reverse("tournaments:members-director")
    )
    admin = Actor(user=django_user_model.objects.create_superuser("admin"))
    running.create_club(actor=admin, name="North Spades Club", slug="north")  # td named
    assert "Print with claim codes" in read(
        client, reverse("tournaments:printing-pins", args=[tournament.slug])
    )
    assert reverse("tournaments:people-members") in read(
        client, reverse("tournaments:members-director")
    )
