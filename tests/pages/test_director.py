"""The director's pages with Django's test client: who may see them, and every workflow they
drive through the services (create, set up, register, check in, pair, swap, publish, score,
correct, close, finish), each POST answered with a message and a redirect."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal

import pytest
from django.contrib import messages as django_messages
from django.contrib.auth import get_user_model

from tests.tournaments.builders import HAND_1
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import (
    AuditEvent,
    Entry,
    HandSubmission,
    KeepApart,
    Match,
    Round,
    Tournament,
)
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


# -- fixtures and helpers -------------------------------------------------------------------------


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("td")


@pytest.fixture
def other_td(db):
    return get_user_model().objects.create_user("other")


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_superuser("admin", "admin@example.org", None)


@pytest.fixture
def as_td(client, td):
    client.force_login(td)
    return client


def make(user, *, teams: int = 0, players: int = 0, open_: bool = True, **options) -> Tournament:
    actor = Actor(user=user)
    settings = {
        "name": "Friday Spades",
        "game": "spades",
        "rules": "standard",
        "format": "swiss",
        "rounds": 3,
        **options,
    }
    tournament = services.create_tournament(actor=actor, **settings)
    if open_:
        services.open_registration(tournament=tournament, actor=actor)
    for n in range(1, teams + 1):
        services.register_entry(
            tournament=tournament,
            actor=actor,
            players=[f"T{n} North", f"T{n} South"],
            name=f"Team {n}",
        )
    for n in range(1, players + 1):
        services.register_entry(tournament=tournament, actor=actor, players=[f"Player {n}"])
    tournament.refresh_from_db()
    return tournament


#: (request, message) for every message a page added (`added_messages`).
ADDED: list[tuple[object, str]] = []


@pytest.fixture(autouse=True)
def added_messages(monkeypatch):
    """Record each message as a page adds it (Django's documented `messages.add_message`, which
    `messages.success` and the others call), so a test reads what one request said."""
    ADDED.clear()
    add = django_messages.api.add_message

    def recording(request, level, message, *args, **kwargs):
        ADDED.append((request, str(message)))
        return add(request, level, message, *args, **kwargs)

    monkeypatch.setattr(django_messages.api, "add_message", recording)
    yield
    ADDED.clear()


def texts(response) -> list[str]:
    """The messages this request added (not those still queued from earlier redirects)."""
    return [text for request, text in ADDED if request is response.wsgi_request]


def form_data(form) -> dict[str, str]:
    """What a browser would post for a form as shown (its current values)."""
    data: dict[str, str] = {}
    for bound in form:
        value = bound.value()
        if bound.field.disabled:
            continue
        if bound.widget_type == "checkbox":
            if value:
                data[bound.html_name] = "on"
            continue
        if value is None:
            value = ""
        if hasattr(value, "strftime"):
            value = value.strftime("%Y-%m-%dT%H:%M")
        data[bound.html_name] = str(value)
    if hasattr(form, "options_for"):
        data["options_for"] = form.options_for
    return data


def url(tournament: Tournament, rest: str = "") -> str:
    return f"/director/{tournament.slug}/{rest}"


# -- who may see the pages ------------------------------------------------------------------------

PAGES = ["", "setup/", "entries/", "audit/", "finish/"]


@pytest.mark.parametrize("page", ["/director/", *[f"/director/friday-spades/{p}" for p in PAGES]])
def test_anonymous_visitors_are_sent_to_sign_in(client, td, page):
    make(td)

    response = client.get(page)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("page", PAGES)
def test_a_director_of_another_tournament_is_refused(client, td, other_td, page):
    tournament = make(td)
    make(other_td, name="Their event")
    client.force_login(other_td)

    assert client.get(url(tournament, page)).status_code == 403


def test_a_director_of_another_tournament_cannot_post_either(client, td, other_td):
    tournament = make(td, open_=False)
    client.force_login(other_td)

    response = client.post(url(tournament, "open/"))

    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.SETUP


@pytest.mark.parametrize("page", PAGES)
def test_a_superuser_directs_every_tournament(client, td, admin, page):
    tournament = make(td)
    client.force_login(admin)

    assert client.get(url(tournament, page)).status_code == 200


def test_an_unknown_tournament_is_not_found(as_td):
    assert as_td.get("/director/no-such-event/").status_code == 404


def test_posts_are_csrf_protected(td):
    from django.test import Client

    tournament = make(td, open_=False)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(td)

    assert strict.post(url(tournament, "open/")).status_code == 403
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.SETUP


def test_actions_only_answer_posts(as_td, td):
    tournament = make(td, open_=False)

    assert as_td.get(url(tournament, "open/")).status_code == 405


# -- home: my tournaments and a new one -----------------------------------------------------------


def test_home_lists_the_tournaments_i_direct_and_no_others(as_td, td, other_td):
    make(td, name="Mine")
    make(other_td, name="Theirs")

    page = as_td.get("/director/").content.decode()

    assert "Mine" in page
    assert "Theirs" not in page


def test_a_superuser_sees_every_tournament_at_home(client, td, other_td, admin):
    make(td, name="Mine")
    make(other_td, name="Theirs")
    client.force_login(admin)

    page = client.get("/director/").content.decode()

    assert "Mine" in page and "Theirs" in page


def test_the_new_tournament_form_offers_the_presets_options_and_metrics(as_td):
    response = as_td.get("/director/")
    page = response.content.decode()

    assert 'name="preset"' in page and 'value="pagat-1996"' in page
    assert 'name="opt_nil_value"' in page and 'name="opt_sandbag"' in page
    assert 'value="sonneborn_berger"' in page  # the standings metric registry
    assert re.search(r'<option value="match_points" selected', page)  # the default chain


def test_creating_a_tournament_with_house_options_makes_me_its_director(as_td, td):
    form = as_td.get("/director/").context["form"]
    data = form_data(form)
    data.update(
        {
            "name": "Friday Spades",
            "preset": "standard",
            "opt_sandbag": "on",
            "opt_nil_value": "50",
            "rounds": "5",
            "points_win": "3",
            "venue": "Club room",
            "tiebreak_1": "match_points",
            "tiebreak_2": "buchholz",
            "tiebreak_3": "",
            "tiebreak_4": "",
            "tiebreak_5": "",
            "tiebreak_6": "",
            "late_entry": "draw",
        }
    )

    response = as_td.post("/director/", data)

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url(tournament)
    assert tournament.rules == {"preset": "standard", "options": {"nil_value": 50, "sandbag": True}}
    assert (tournament.rounds, tournament.points_win, tournament.venue) == (
        5,
        Decimal(3),
        "Club room",
    )
    assert tournament.tiebreaks == ["match_points", "buchholz"]
    assert tournament.late_entry == "draw"
    assert list(tournament.directors.all()) == [td]


def test_a_refused_setup_is_shown_against_the_form_and_nothing_is_created(as_td):
    data = form_data(as_td.get("/director/").context["form"])
    data.update({"name": "Cutthroat", "format": "individual"})  # partnership rules

    response = as_td.post("/director/", data)

    assert response.status_code == 400
    assert "fixed partnerships" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_changed_game_without_javascript_shows_its_options_first(as_td):
    data = form_data(as_td.get("/director/").context["form"])
    data.update({"name": "Solo night", "game": "solo-whist"})  # options still Spades'

    response = as_td.post("/director/", data)

    assert response.status_code == 200
    assert not Tournament.objects.exists()
    form = response.context["form"]
    assert (form.game, form.preset) == ("solo-whist", "phillips")
    assert form.initial["name"] == "Solo night"
    assert 'name="opt_misere_below_solo"' in response.content.decode()

    again = form_data(form)
    again.update({"format": "individual", "tiebreak_1": "match_points"})
    created = as_td.post("/director/", again)
    assert created.status_code == 302
    assert Tournament.objects.get().game == "solo-whist"


def test_showing_the_options_again_keeps_what_was_typed_and_unticked(as_td):
    data = form_data(as_td.get("/director/").context["form"])
    del data["opt_nil"]  # unticked
    data.update({"name": "Club night", "opt_nil_value": "50", "reload": "1"})

    response = as_td.post("/director/", data)

    assert response.status_code == 200
    form = response.context["form"]
    assert not form.is_bound
    assert (form.initial["name"], form.initial["opt_nil_value"]) == ("Club night", "50")
    assert form.initial["opt_nil"] is False
    assert not Tournament.objects.exists()


def test_the_options_fragment_follows_game_and_preset(as_td):
    response = as_td.get("/director/new/options/", {"game": "whist", "preset": "long-whist"})

    page = response.content.decode()
    assert 'name="opt_rubber"' in page
    assert 'value="whist:long-whist"' in page
    assert re.search(r'name="opt_target"[^>]*value="10"', page)
    assert as_td.get("/director/new/options/", {"game": "chess"}).status_code == 404


# -- the dashboard and its actions ----------------------------------------------------------------


def test_the_dashboard_shows_state_counts_and_links(as_td, td):
    tournament = make(td, teams=4)

    page = as_td.get(url(tournament)).content.decode()

    assert "Registration open" in page
    assert "4 registered" in page
    assert f"/director/{tournament.slug}/import/entries/" in page
    assert f"/t/{tournament.slug}/export/standings.csv" in page
    assert f"/t/{tournament.slug}/export/archive.json" in page


def test_opening_registration_redirects_with_a_message(as_td, td):
    tournament = make(td, open_=False)

    response = as_td.post(url(tournament, "open/"))

    assert response.status_code == 302
    assert texts(response) == ["Registration is open."]
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.REGISTRATION


def test_a_refused_action_shows_the_services_message(as_td, td):
    tournament = make(td)  # registration already open

    response = as_td.post(url(tournament, "open/"))

    assert response.status_code == 302
    assert texts(response) == ["registration opens from setup, not registration"]


def test_finishing_needs_the_confirmation_box(as_td, td):
    tournament = make(td, teams=2, rounds=1)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    play_all(round_, director)
    services.close_round(round=round_, actor=director)

    assert "make the results final" in as_td.get(url(tournament, "finish/")).content.decode()
    as_td.post(url(tournament, "finish/"))
    tournament.refresh_from_db()
    assert tournament.state != Tournament.State.FINISHED

    response = as_td.post(url(tournament, "finish/"), {"confirm": "yes"})

    assert texts(response)[-1] == "The tournament is finished. Its results are final."
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED


# -- setup edit -----------------------------------------------------------------------------------


def test_the_setup_page_saves_changes_through_the_service(as_td, td):
    tournament = make(td, teams=2)
    data = form_data(as_td.get(url(tournament, "setup/")).context["form"])
    data.update(
        {
            "rounds": "6",
            "points_win": "3",
            "tiebreak_2": "wins",
            "tiebreak_3": "",
            "tiebreak_4": "",
            "tiebreak_5": "",
        }
    )

    response = as_td.post(url(tournament, "setup/"), data)

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.points_win) == (6, Decimal(3))
    assert tournament.tiebreaks == ["match_points", "wins"]
    event = AuditEvent.objects.get(tournament=tournament, action="setup-changed")
    assert set(event.data["changes"]) == {"rounds", "points_win", "tiebreaks"}


def test_the_director_chooses_how_hands_are_confirmed_on_the_setup_page(as_td, td):
    """PINs by default; the trusting club's same-phone mode is an explicit choice, audited."""
    tournament = make(td, teams=2)
    assert tournament.confirmation == "pin"
    data = form_data(as_td.get(url(tournament, "setup/")).context["form"])
    assert data["confirmation"] == "pin"
    data["confirmation"] = "same-phone"

    assert as_td.post(url(tournament, "setup/"), data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.confirmation == "same-phone"
    event = AuditEvent.objects.get(tournament=tournament, action="setup-changed")
    assert set(event.data["changes"]) == {"confirmation"}


def test_the_setup_page_locks_the_rules_once_a_round_is_published(as_td, td):
    tournament = make(td, teams=4)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    play_all(round_, director)
    services.close_round(round=round_, actor=director)
    services.generate_round(tournament=tournament, actor=director)  # round 2, a draft

    response = as_td.get(url(tournament, "setup/"))
    form = response.context["form"]
    assert form.fields["format"].disabled and form.fields["opt_nil_value"].disabled
    data = form_data(form)
    data.update({"rounds": "1", "format": "round-robin"})  # below the rounds made

    refused = as_td.post(url(tournament, "setup/"), data)

    assert refused.status_code == 400
    assert "2 rounds are already paired" in refused.content.decode()
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.format) == (3, "swiss")


# -- entries --------------------------------------------------------------------------------------


def test_a_director_registers_a_team(as_td, td):
    tournament = make(td)

    response = as_td.post(
        url(tournament, "entries/"),
        {
            "player_1": "Aiko Sato",
            "player_2": "Ben Smith",
            "name": "Nil Desperandum",
            "seed": "1",
        },
    )

    assert response.status_code == 302
    assert texts(response) == ["Nil Desperandum is entered."]
    entry = Entry.objects.get(tournament=tournament)
    assert (entry.name, entry.seed) == ("Nil Desperandum", 1)


def test_a_refused_registration_shows_the_reason_on_the_form(as_td, td):
    tournament = make(td, teams=1)

    response = as_td.post(
        url(tournament, "entries/"),
        {
            "player_1": "T1 North",
            "player_2": "Someone Else",
        },
    )

    assert response.status_code == 400
    assert "already holds one of these players" in response.content.decode()


def test_an_individual_event_registers_one_player(as_td, td):
    tournament = make(td, game="solo-whist", rules="phillips", format="individual")

    page = as_td.get(url(tournament, "entries/")).content.decode()
    assert 'name="player_2"' not in page
    as_td.post(url(tournament, "entries/"), {"player_1": "Mai Ito"})

    assert Entry.objects.get(tournament=tournament).name == "Mai Ito"


def test_check_in_seed_fixed_table_and_withdraw(as_td, td):
    tournament = make(td, teams=2)
    entry = tournament.entries.first()
    act = url(tournament, f"entries/{entry.pk}/")

    assert texts(as_td.post(act + "check-in/")) == [f"{entry.name} is checked in."]
    as_td.post(act + "seed/", {"seed": "3"})
    as_td.post(act + "table/", {"table": "5", "reason": "wheelchair access"})
    asked = as_td.post(act + "withdraw/", {"reason": "ill"})
    assert asked.status_code == 200 and "Yes, withdraw" in asked.content.decode()
    assert Entry.objects.get(pk=entry.pk).status != "withdrawn"  # not before the confirmation
    withdrawn = as_td.post(act + "withdraw/", {"reason": "ill", "confirm": "yes"})

    assert withdrawn["Location"].endswith(f"#entry-{entry.pk}")
    entry.refresh_from_db()
    assert (entry.status, entry.seed, entry.fixed_table) == ("withdrawn", 3, 5)
    reasons = dict(AuditEvent.objects.filter(tournament=tournament).values_list("action", "reason"))
    assert reasons["withdrawn"] == "ill"
    assert reasons["table-fixed"] == "wheelchair access"


def test_a_taken_seed_is_refused_with_a_message(as_td, td):
    tournament = make(td, teams=2)
    first, second = tournament.entries.order_by("id")
    as_td.post(url(tournament, f"entries/{first.pk}/seed/"), {"seed": "1"})

    response = as_td.post(url(tournament, f"entries/{second.pk}/seed/"), {"seed": "1"})

    assert texts(response) == ["seed 1 is taken"]
    second.refresh_from_db()
    assert second.seed is None


def test_an_entry_of_another_tournament_is_not_found(as_td, td):
    mine = make(td, teams=1)
    theirs = make(td, teams=1, name="Other")
    entry = theirs.entries.get()

    assert as_td.post(url(mine, f"entries/{entry.pk}/check-in/")).status_code == 404
    assert as_td.post(url(mine, f"entries/{mine.entries.get().pk}/dance/")).status_code == 404


# -- the full round cycle through the pages -------------------------------------------------------


def play_all(round_: Round, director: Actor) -> None:
    rng = random.Random(3)
    for match in Match.objects.filter(round=round_, is_bye=False):
        simulate.play_match(match, rng, director=director, hands=2)


def test_a_round_from_draft_to_closed_through_the_pages(as_td, td):
    tournament = make(td, teams=5, rounds=2)

    generated = as_td.post(url(tournament, "rounds/generate/"))
    round_ = Round.objects.get(tournament=tournament)
    assert generated["Location"] == url(tournament, "rounds/1/")
    review = as_td.get(url(tournament, "rounds/1/"))
    assert review.status_code == 200
    assert "Review the draft" in review.content.decode()
    assert len(review.context["rows"]) == 2 and len(review.context["byes"]) == 1

    seats = [s for row in review.context["rows"] for side in row.sides for s in side.seats]
    first, second = seats[0].entry, seats[-1].entry
    swapped = as_td.post(
        url(tournament, "rounds/1/swap/"),
        {"first": first.pk, "second": second.pk, "reason": "friends"},
    )
    assert texts(swapped) == [f"{first.name} and {second.name} swapped places."]
    assert AuditEvent.objects.get(action="entries-swapped").reason == "friends"

    as_td.post(url(tournament, "rounds/1/publish/"))
    round_.refresh_from_db()
    assert round_.state == Round.State.PUBLISHED

    refused = as_td.post(url(tournament, "rounds/1/close/"), {"confirm": "yes"})
    assert "have not finished" in texts(refused)[0]

    match = Match.objects.filter(round=round_, is_bye=False).first()
    simulate.play_hand(match, random.Random(1), confirm=False)
    progress = as_td.get(url(tournament)).context["rows"]
    row = next(r for r in progress if r.match.pk == match.pk)
    assert (row.submitted, row.pending, row.confirmed, row.finished) == (1, 1, 0, False)
    queue = as_td.get(url(tournament)).context["queue"]
    assert [q.hand.match_id for q in queue] == [match.pk]

    confirm = as_td.post(url(tournament, f"matches/{match.pk}/hands/1/confirm/"), {"version": 1})
    assert texts(confirm) == ["Hand 1 confirmed."]
    play_all(round_, Actor(user=td))
    asked = as_td.post(url(tournament, "rounds/1/close/"))
    assert "Yes, close round 1" in asked.content.decode()
    round_.refresh_from_db()
    assert round_.state != Round.State.CLOSED  # the first post only asks
    closed = as_td.post(url(tournament, "rounds/1/close/"), {"confirm": "yes"})
    assert texts(closed) == ["Round 1 is closed."]
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED
    assert "Pair round 2" in as_td.get(url(tournament)).content.decode()


def test_a_swap_into_a_rematch_warns(as_td, td):
    tournament = make(td, teams=4, rounds=3)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    play_all(round_, director)
    services.close_round(round=round_, actor=director)
    met = {m.pk: [s.entry for s in m.seats.all()] for m in round_.matches.all()}
    services.generate_round(tournament=tournament, actor=director)
    a, b = next(iter(met.values()))  # they met in round 1; round 2 keeps them apart
    draft = Round.objects.get(tournament=tournament, number=2)
    opponent_of_a = next(
        s.entry
        for m in draft.matches.all()
        for s in m.seats.all()
        if a.pk in {x.entry_id for x in m.seats.all()} and s.entry_id != a.pk
    )

    response = as_td.post(
        url(tournament, "rounds/2/swap/"), {"first": opponent_of_a.pk, "second": b.pk}
    )

    # the round page it returns to warns about the rematch, once (no message beside it)
    assert not any("have met before" in text for text in texts(response))
    page = as_td.get(url(tournament, "rounds/2/")).content.decode()
    first, second = sorted([a.name, b.name])
    assert page.count(f"{first} and {second} have met before.") == 1


def test_an_unavoidable_rematch_is_warned_about_once(as_td, td):
    """Two teams, two rounds: round 2 cannot avoid the rematch. The engine's note (why) stands
    in the rematch list; it is not said again beside it (issue 29)."""
    tournament = make(td, teams=2, rounds=2)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    play_all(round_, director)
    services.close_round(round=round_, actor=director)
    draft = services.generate_round(tournament=tournament, actor=director)
    assert any(note.startswith("rematch unavoidable") for note in draft.notes)

    page = as_td.get(url(tournament, "rounds/2/")).content.decode()

    assert page.count("is a rematch: no pairing avoids every rematch.") == 1
    assert "have met before" not in page


# -- hands: versions and corrections --------------------------------------------------------------


@pytest.fixture
def scored(td):
    """A published round with one confirmed hand at table 1."""
    tournament = make(td, teams=2)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.get(round=round_, is_bye=False)
    services.submit_hand(match=match, actor=director, record=HAND_1)
    return tournament, match


def test_the_hand_page_shows_the_versions_and_prefills_the_record(as_td, scored):
    tournament, match = scored

    response = as_td.get(url(tournament, f"matches/{match.pk}/hands/1/"))

    assert response.status_code == 200
    record = json.loads(response.context["form"].initial["record"])
    assert record["dealer"] == "N" and "before" not in record
    assert "Version 1" in response.content.decode()


def test_a_correction_needs_a_reason(as_td, scored):
    tournament, match = scored
    fixed = dict(HAND_1, tricks={"N": 4, "E": 3, "S": 3, "W": 3})

    response = as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/"),
        {"record": json.dumps(fixed), "reason": "  ", "version": 1},
    )

    assert response.status_code == 400
    assert HandSubmission.objects.filter(hand__match=match).count() == 1


def test_a_correction_is_a_new_version_with_its_reason(as_td, scored):
    tournament, match = scored
    fixed = dict(HAND_1, tricks={"N": 4, "E": 3, "S": 3, "W": 3})

    response = as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/"),
        {"record": json.dumps(fixed), "reason": "N miscounted", "version": 1},
    )

    assert response.status_code == 302
    assert texts(response) == ["Hand 1 corrected."]
    versions = list(HandSubmission.objects.filter(hand__match=match).order_by("version"))
    assert [v.status for v in versions] == ["superseded", "confirmed"]
    assert versions[1].reason == "N miscounted"
    page = as_td.get(url(tournament, f"matches/{match.pk}/hands/1/")).content.decode()
    assert "Version 2" in page and "N miscounted" in page


def test_an_illegal_correction_shows_the_engines_errors(as_td, scored):
    tournament, match = scored
    broken = dict(HAND_1, tricks={"N": 9, "E": 3, "S": 3, "W": 3})

    response = as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/"),
        {"record": json.dumps(broken), "reason": "typo", "version": 1},
    )

    assert response.status_code == 400
    assert "tricks-do-not-sum" in response.content.decode()
    assert HandSubmission.objects.filter(hand__match=match).count() == 1


def test_an_illegal_correction_reads_in_japanese_with_the_code_for_the_director(as_td, scored):
    tournament, match = scored
    broken = dict(HAND_1, tricks={"N": 9, "E": 3, "S": 3, "W": 3})
    as_td.cookies["django_language"] = "ja"

    response = as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/"),
        {"record": json.dumps(broken), "reason": "typo", "version": 1},
    )

    page = response.content.decode()
    assert response.status_code == 400
    assert "ルールエンジンはこのハンドを受け付けませんでした。" in page
    assert "トリック数の合計が、1ハンドのトリック数と合いません。 [tricks-do-not-sum]" in page
    assert "the rules engine refused the hand" not in page and "add up to" not in page


def test_broken_json_is_a_form_error(as_td, scored):
    tournament, match = scored

    response = as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/"), {"record": "{nope", "reason": "typo"}
    )

    assert response.status_code == 400
    assert "This is not JSON" in response.content.decode()


def test_the_match_page_lists_hands_and_ends_the_match(as_td, scored):
    tournament, match = scored

    page = as_td.get(url(tournament, f"matches/{match.pk}/")).content.decode()
    assert "Hand 1" in page and "Confirmed" in page
    asked = as_td.post(url(tournament, f"matches/{match.pk}/finish/"))
    assert "Yes, end the match" in asked.content.decode()
    response = as_td.post(url(tournament, f"matches/{match.pk}/finish/"), {"confirm": "yes"})

    assert texts(response) == ["The match is finished."]
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED


def test_unknown_matches_and_hands_are_not_found(as_td, scored, td):
    tournament, match = scored
    other = make(td, name="Elsewhere")

    assert as_td.get(url(other, f"matches/{match.pk}/")).status_code == 404
    assert as_td.get(url(tournament, f"matches/{match.pk}/hands/9/")).status_code == 404
    assert as_td.get(url(tournament, "rounds/7/")).status_code == 404


# -- the audit trail ------------------------------------------------------------------------------


def test_the_audit_trail_lists_actions_newest_first(as_td, td):
    tournament = make(td, teams=2)
    entry = tournament.entries.first()
    services.withdraw(entry=entry, actor=Actor(user=td), reason="went home")

    response = as_td.get(url(tournament, "audit/"))

    events = list(response.context["page"])
    assert events[0].action == "withdrawn" and events[0].reason == "went home"
    assert events[-1].action == "tournament-created"
    assert "went home" in response.content.decode()


def test_round_match_and_hand_pages_refuse_another_director(client, scored, other_td):
    tournament, match = scored
    client.force_login(other_td)
    pages = ["rounds/1/", f"matches/{match.pk}/", f"matches/{match.pk}/hands/1/"]
    posts = [
        "rounds/generate/",
        "rounds/1/publish/",
        "rounds/1/close/",
        f"matches/{match.pk}/finish/",
        f"matches/{match.pk}/hands/1/",
        f"matches/{match.pk}/hands/1/confirm/",
        f"matches/{match.pk}/hands/1/void/",
    ]

    assert [client.get(url(tournament, p)).status_code for p in pages] == [403] * len(pages)
    assert [client.post(url(tournament, p)).status_code for p in posts] == [403] * len(posts)
    assert HandSubmission.objects.filter(hand__match=match).count() == 1


def test_every_link_on_the_dashboard_leads_somewhere(as_td, td):
    tournament = make(td, teams=4)
    actor = Actor(user=td)
    services.publish_round(
        round=services.generate_round(tournament=tournament, actor=actor), actor=actor
    )
    page = as_td.get(url(tournament)).content.decode()
    hrefs = sorted(set(re.findall(r'href="(/(?:director|t)/[^"#]*)"', page)))
    assert any("/print/" in h for h in hrefs) and any("/export/" in h for h in hrefs)
    assert any("/import/" in h for h in hrefs)
    # The static site's zip is made by `manage.py export_site` in a child process, which cannot
    # see this test's database: tests/staticsite/test_site_zip_server.py downloads it from a
    # real server.
    zipped = [h for h in hrefs if h.endswith("/static-site.zip")]
    assert zipped == [f"/director/{tournament.slug}/static-site.zip"]
    for href in sorted(set(hrefs) - set(zipped)):
        response = as_td.get(href)
        assert response.status_code == 200, (href, response.status_code)


def test_the_audit_trail_reads_as_sentences_and_narrows_to_a_kind(as_td, td):
    tournament = make(td, teams=2)
    entry = tournament.entries.first()
    services.withdraw(entry=entry, actor=Actor(user=td), reason="went home")

    page = as_td.get(url(tournament, "audit/?kind=entries")).content.decode()
    everything = as_td.get(url(tournament, "audit/")).content.decode()

    assert f"Withdrew {entry.name}." in page and "Created the tournament." not in page
    assert "Created the tournament." in everything
    assert as_td.get(url(tournament, "audit/?kind=nonsense&round=x")).status_code == 200


def test_the_desk_checks_in_the_selected_entries_and_takes_one_back(as_td, td):
    tournament = make(td, teams=3)
    first, second, third = tournament.entries.order_by("pk")

    response = as_td.post(url(tournament, "entries/check-in/"), {"entry": [first.pk, third.pk]})
    assert "2 entries checked in." in texts(response)
    undone = as_td.post(url(tournament, f"entries/{third.pk}/undo-check-in/"))
    assert f"The check-in of {third.name} is taken back." in texts(undone)
    nothing = as_td.post(url(tournament, "entries/check-in/"))
    assert "Choose the entries to check in first." in texts(nothing)

    assert list(tournament.entries.order_by("pk").values_list("status", flat=True)) == [
        "checked-in",
        "registered",
        "registered",
    ]


def test_a_new_entry_is_checked_in_at_once_only_once_the_desk_is_open(as_td, td):
    tournament = make(td, teams=2)
    box = 'name="checked_in" id="id_checked_in" checked'

    before = as_td.get(url(tournament, "entries/")).content.decode()
    services.check_in(entry=tournament.entries.first(), actor=Actor(user=td))
    after = as_td.get(url(tournament, "entries/")).content.decode()

    assert 'name="checked_in"' in before and box not in before
    assert box in after


def test_the_entries_page_keeps_two_entries_apart_and_lets_them_meet_again(as_td, td):
    tournament = make(td, teams=3)
    first, second, _third = tournament.entries.order_by("pk")

    kept = as_td.post(
        url(tournament, "entries/keep-apart/"),
        {"first": first.pk, "second": second.pk, "reason": "a couple"},
    )
    page = as_td.get(url(tournament, "entries/")).content.decode()
    pair = KeepApart.objects.get(tournament=tournament)
    freed = as_td.post(url(tournament, f"entries/keep-apart/{pair.pk}/remove/"))
    same = as_td.post(
        url(tournament, "entries/keep-apart/"), {"first": first.pk, "second": first.pk}
    )

    assert texts(kept) == [
        f"{first.name} and {second.name} are kept apart in the pairings while the draw can."
    ]
    assert f"{first.name} and {second.name}" in page and "(a couple)" in page
    assert texts(freed) == [f"{first.name} and {second.name} may meet again."]
    assert texts(same) == ["Choose two different entries."]
    assert not KeepApart.objects.exists()


def test_a_drafts_notes_name_the_entries(as_td, td):
    tournament = make(td, teams=4)
    round_ = services.generate_round(tournament=tournament, actor=Actor(user=td))
    first, second = tournament.entries.order_by("pk")[:2]
    Round.objects.filter(pk=round_.pk).update(
        notes=[f"kept apart, unavoidable: {first.pk} v {second.pk}", "something new"]
    )

    page = as_td.get(url(tournament, "rounds/1/")).content.decode()

    assert f"{first.name} and {second.name} meet although they are to be kept apart" in page
    assert "something new" in page and "unavoidable:" not in page


# -- repairs: the version seen, voiding, ending a match with a hand still open -------------------


@pytest.fixture
def pending_hand(td):
    """A published round whose table 1 entered hand 1, awaiting the other side."""
    from tests.tournaments.builders import scorer

    tournament = make(td, teams=2)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.get(round=round_, is_bye=False)
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    return tournament, match


def test_a_director_cannot_confirm_a_version_the_page_did_not_show(as_td, pending_hand):
    tournament, match = pending_hand
    for sent in ({}, {"version": "2"}, {"version": "x"}):
        response = as_td.post(url(tournament, f"matches/{match.pk}/hands/1/confirm/"), sent)
        assert "now at version 1" in texts(response)[0]
    assert HandSubmission.objects.get(hand__match=match).status == "pending"


def test_the_hand_page_sends_the_version_it_shows(as_td, pending_hand):
    tournament, match = pending_hand
    page = as_td.get(url(tournament, f"matches/{match.pk}/hands/1/")).content.decode()
    assert page.count('name="version" value="1"') == 2  # the confirmation and the correction
    assert 'name="void-version" value="1"' in page


def test_a_director_voids_a_pending_hand_with_a_reason_and_the_table_enters_it_again(
    as_td, pending_hand
):
    tournament, match = pending_hand
    address = url(tournament, f"matches/{match.pk}/hands/1/void/")
    refused = as_td.post(address, {"void-version": 1, "void-reason": " "})
    assert texts(refused) == ["Say why the hand is voided."]
    response = as_td.post(address, {"void-version": 1, "void-reason": "dealt twice"})
    assert texts(response) == ["Hand 1 is voided: the table enters it again."]
    voided = HandSubmission.objects.get(hand__match=match)
    assert (voided.status, voided.reason, voided.is_current) == ("voided", "dealt twice", True)
    event = AuditEvent.objects.get(action="hand-voided")
    assert event.reason == "dealt twice" and event.data["was"] == "pending"
    from tournaments.selectors.scoring import scoring_view

    assert scoring_view(match.table).next.number == 1


def test_ending_a_match_with_a_pending_hand_offers_to_confirm_or_void_it(as_td, pending_hand):
    tournament, match = pending_hand
    asked = as_td.post(url(tournament, f"matches/{match.pk}/finish/"))
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Confirm hand 1" in page and "Void hand 1" in page
    back = url(tournament, f"matches/{match.pk}/finish/")
    as_td.post(
        url(tournament, f"matches/{match.pk}/hands/1/void/"),
        {"void-version": 1, "void-reason": "not played", "next": back},
    )
    ended = as_td.post(url(tournament, f"matches/{match.pk}/finish/"), {"confirm": "yes"})
    assert texts(ended) == ["The match is finished."]
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED and match.result["hands"] == 0


def test_revoking_a_tables_scoring_link_asks_first_then_revokes_it(as_td, pending_hand, td):
    tournament, match = pending_hand
    token, _secret = services.issue_table_token(table=match.table, actor=Actor(user=td))
    page = as_td.get(url(tournament, f"matches/{match.pk}/")).content.decode()
    assert "Scoring links of table" in page and f"tokens/{token.pk}/revoke/" in page
    address = url(tournament, f"matches/{match.pk}/tokens/{token.pk}/revoke/")
    asked = as_td.post(address)
    assert "Yes, revoke the scoring link" in asked.content.decode()
    token.refresh_from_db()
    assert token.state == "active"  # the first post only asks
    done = as_td.post(address, {"confirm": "yes"})
    assert texts(done) == ["The scoring link is revoked."]
    token.refresh_from_db()
    assert token.state == "revoked"
    assert AuditEvent.objects.filter(action="table-token-revoked").count() == 1


def test_another_tables_link_cannot_be_revoked_from_this_match(as_td, pending_hand, td):
    tournament, match = pending_hand
    other = Match.objects.create(
        round=match.round, table=match.table.__class__.objects.create(round=match.round, number=9)
    )
    token, _secret = services.issue_table_token(table=other.table, actor=Actor(user=td))
    address = url(tournament, f"matches/{match.pk}/tokens/{token.pk}/revoke/")
    assert as_td.post(address, {"confirm": "yes"}).status_code == 404
    token.refresh_from_db()
    assert token.state == "active"


def test_the_match_and_hand_pages_write_a_negative_score_with_the_minus_sign(as_td, scored):
    """ "NS -69" on the director's match and hand pages, where the phone and every other page
    write "−69" (the evening walk, bench/evening_walk.py). N/S bid 8 and take 2: set."""
    tournament, match = scored
    set_hand = {
        "dealer": "E",
        "calls": [{"seat": seat, "call": "4"} for seat in "SWNE"],
        "tricks": {"N": 1, "E": 4, "S": 1, "W": 7},
    }
    director = Actor(user=match.round.tournament.directors.first())
    services.submit_hand(match=match, actor=director, record=set_hand)
    for path in (f"matches/{match.pk}/", f"matches/{match.pk}/hands/2/"):
        page = as_td.get(url(tournament, path)).content.decode()
        assert "NS \u2212" in page and not re.search(r"NS -\d", page), path
