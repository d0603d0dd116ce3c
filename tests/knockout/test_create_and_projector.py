"""The knockout from the start and on the room's screen: the new-tournament form takes a
knockout (without asking for rounds) or a Swiss with its top cut and the knockout's settings, in
one service call that refuses all or nothing; the room projector shows the Swiss standings
until the bracket is made, then the bracket (the bracket page's partial), kept live."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.knockout import services as knockout
from tournaments.models import AuditEvent, Tournament

from ..pages.test_director import form_data
from ..tournaments.conftest import play_round
from .helpers import knockout_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_director(client, director_user):
    client.force_login(director_user)
    return client


def new_tournament(client, **changes) -> dict[str, str]:
    """What the new-tournament form posts as shown, with `changes` (knockout settings under
    their "knockout-" names)."""
    shown = client.get(reverse("tournaments:director-home")).context
    data = {**form_data(shown["form"]), **form_data(shown["knockout_form"])}
    data.update({"name": "Spring Cup", **changes})
    return {k: v for k, v in data.items() if v is not None}


# -- the new-tournament form ----------------------------------------------------------------------


def test_the_new_tournament_form_offers_the_knockout_settings(as_director):
    page = as_director.get(reverse("tournaments:director-home")).content.decode()
    for name in ("top_cut", "length", "count", "tiebreak_hands", "third_place", "consolation"):
        assert f'name="knockout-{name}"' in page, name
    assert 'data-show-for="swiss knockout"' in page and 'data-hide-for="knockout"' in page
    assert "Not asked for a knockout" in page


def test_a_swiss_with_a_top_cut_is_created_with_its_knockout_settings(as_director, director_user):
    data = new_tournament(
        as_director,
        **{
            "format": "swiss",
            "rounds": "5",
            "knockout-top_cut": "8",
            "knockout-length": "best-of",
            "knockout-count": "3",
            "knockout-tiebreak_hands": "2",
            "knockout-third_place": "on",
            "knockout-consolation": "on",
        },
    )

    response = as_director.post(reverse("tournaments:director-home"), data)

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert (tournament.format, tournament.rounds, tournament.top_cut) == ("swiss", 5, 8)
    assert (tournament.knockout_length, tournament.knockout_count, tournament.tiebreak_hands) == (
        "best-of",
        3,
        2,
    )
    assert tournament.third_place and tournament.consolation
    assert list(tournament.directors.all()) == [director_user]
    actions = list(
        AuditEvent.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["tournament-created", "knockout-set"]


def test_a_knockout_is_created_without_rounds_and_without_a_cut(as_director):
    # Without JavaScript every field is posted: the rounds (even unreadable) and the Swiss's
    # cut and consolation are ignored for a knockout.
    data = new_tournament(
        as_director,
        **{
            "format": "knockout",
            "rounds": "not a number",
            "knockout-top_cut": "8",
            "knockout-consolation": "on",
            "knockout-length": "hands",
            "knockout-count": "4",
            "knockout-third_place": "on",
        },
    )

    response = as_director.post(reverse("tournaments:director-home"), data)

    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.format == "knockout"
    assert (tournament.top_cut, tournament.consolation) == (0, False)
    assert (tournament.knockout_length, tournament.knockout_count) == ("hands", 4)
    assert tournament.third_place
    public = as_director.get(reverse("tournaments:public-tournament", args=[tournament.slug]))
    assert "<dt>Rounds</dt>" not in public.content.decode()


def test_a_knockout_posted_as_the_script_sends_it(as_director):
    # With JavaScript the rounds, the cut and the consolation are disabled: not posted at all.
    data = new_tournament(as_director, **{"format": "knockout", "knockout-length": "target"})
    for name in ("rounds", "knockout-top_cut", "knockout-consolation"):
        data.pop(name, None)

    response = as_director.post(reverse("tournaments:director-home"), data)

    assert response.status_code == 302
    assert Tournament.objects.get().format == "knockout"


def test_refused_knockout_settings_are_shown_in_their_section_and_nothing_is_made(as_director):
    data = new_tournament(
        as_director,
        **{
            "format": "swiss",
            "knockout-top_cut": "4",
            "knockout-length": "best-of",
            "knockout-count": "2",
        },
    )  # best of an even number: set_knockout refuses it

    response = as_director.post(reverse("tournaments:director-home"), data)

    assert response.status_code == 400
    assert not Tournament.objects.exists()
    assert response.context["knockout_form"].non_field_errors() == [
        "best of N: N is odd (1, 3, 5...)"
    ]
    assert "best of N: N is odd" in response.content.decode()


def test_another_format_ignores_the_knockout_settings(as_director):
    data = new_tournament(
        as_director,
        **{"format": "round-robin", "knockout-top_cut": "8", "knockout-length": "hands"},
    )

    response = as_director.post(reverse("tournaments:director-home"), data)

    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.top_cut, tournament.knockout_length) == (
        "round-robin",
        0,
        "target",
    )


def test_showing_the_rule_options_keeps_the_knockout_settings(as_director):
    data = new_tournament(
        as_director,
        **{
            "format": "swiss",
            "game": "whist",
            "knockout-top_cut": "4",
            "knockout-third_place": "on",
        },
    )

    response = as_director.post(reverse("tournaments:director-home"), data)

    assert response.status_code == 200 and not Tournament.objects.exists()
    kept = response.context["knockout_form"]
    assert not kept.is_bound
    assert (kept["top_cut"].value(), kept["third_place"].value()) == ("4", True)


def test_the_setup_page_of_a_knockout_saves_without_rounds(as_director, make_tournament):
    tournament = make_tournament(format="knockout", teams=4, rounds=1)
    url = reverse("tournaments:director-setup", args=[tournament.slug])
    data = form_data(as_director.get(url).context["form"])
    data.pop("rounds")

    response = as_director.post(url, data)

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds == 1


# -- the room's projector -------------------------------------------------------------------------


@pytest.fixture
def cup(swiss, director):
    tournament = swiss(6, rounds=1)
    knockout.set_knockout(
        tournament=tournament,
        actor=director,
        top_cut=4,
        length="hands",
        count=1,
        third_place=True,
        consolation=True,
    )
    play_round(tournament, director)
    tournament.refresh_from_db()
    return tournament


def projector(client, tournament: Tournament) -> tuple[str, str]:
    page = client.get(reverse("tournaments:public-projector", args=[tournament.slug]))
    fragment = client.get(reverse("tournaments:public-projector-fragment", args=[tournament.slug]))
    assert page.status_code == fragment.status_code == 200
    return page.content.decode(), fragment.content.decode()


def test_the_projector_shows_the_swiss_standings_before_the_cut(client, cup):
    for html in projector(client, cup):
        assert 'id="projector-standings"' in html
        assert "bracket-match" not in html and "knockout-stage" not in html


def test_the_projector_shows_the_bracket_once_the_cut_is_confirmed(client, director, cup):
    listed = knockout.cut_list(tournament=cup)
    knockout.confirm_cut(tournament=cup, actor=director, entries=listed.ids)
    cup.refresh_from_db()
    for html in projector(client, cup):
        assert 'id="projector-bracket"' in html and "knockout-stage" in html
        assert 'id="projector-standings"' not in html
        # two semi-finals, the final and the third-place match
        assert html.count('class="bracket-match state-') == 4
        assert "Third-place match" in html and "bracket-third" in html
        assert all(c.entry.name in html for c in listed.entries)
    page, _ = projector(client, cup)
    assert "css/bracket.css" in page
    assert 'data-live-on="standings bracket round' in page

    round_ = knockout_round(cup, director)
    assert round_.number == 2
    board = knockout.board(cup)
    winners = [m.winner for m in board.bracket.rounds[0]]
    for html in projector(client, cup):
        assert html.count("bracket-line won") == 2
        assert all(cup.entries.get(pk=w).name in html for w in winners)
        assert "Places" not in html  # the bracket page's places table stays off the screen
        assert html.count('class="badge bracket-label">Semi-final<') == 2  # the round's tables


def test_the_projector_of_a_knockout_tournament_shows_its_bracket_in_japanese(
    client, director, make_tournament
):
    tournament = make_tournament(format="knockout", teams=8, rounds=1)
    knockout.confirm_cut(
        tournament=tournament, actor=director, entries=knockout.cut_list(tournament=tournament).ids
    )
    client.cookies["django_language"] = "ja"
    page, fragment = projector(client, tournament)
    assert "トーナメント表" in page or "ブラケット" in page
    assert "決勝" in fragment and "bracket-match" in fragment
