"""The knockout's pages: the director's cut list (a tie at the line said in words) and confirming
it; the public bracket, its live fragment and the projector; strangers kept out."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.knockout import services as knockout

from ..tournaments.conftest import play_round
from .helpers import knockout_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(swiss, director):
    tournament = swiss(6, rounds=1)
    knockout.set_knockout(
        tournament=tournament, actor=director, top_cut=4, length="hands", count=1, third_place=True
    )
    play_round(tournament, director)
    tournament.refresh_from_db()
    return tournament


def test_the_director_sees_the_cut_and_confirms_it(client, director_user, director, cup):
    client.force_login(director_user)
    page = client.get(reverse("tournaments:director-knockout", args=[cup.slug]))
    assert page.status_code == 200
    listed = knockout.cut_list(tournament=cup)
    html = page.content.decode()
    assert all(c.entry.name in html for c in listed.entries)
    if listed.decided_by:
        assert "A tie at the cut line" in html
    unticked = client.post(
        reverse("tournaments:director-confirm-cut", args=[cup.slug]), {"entries": listed.ids}
    )
    cup.refresh_from_db()
    assert unticked.status_code == 302 and knockout.seeds(cup) == []
    client.post(
        reverse("tournaments:director-confirm-cut", args=[cup.slug]),
        {"entries": listed.ids, "checked": "yes"},
    )
    cup.refresh_from_db()
    assert knockout.seeds(cup) == listed.ids


def test_a_stranger_cannot_open_the_knockout_page_or_confirm(client, cup):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_user("nosy"))
    ids = knockout.cut_list(tournament=cup).ids
    page = client.get(reverse("tournaments:director-knockout", args=[cup.slug]))
    post = client.post(
        reverse("tournaments:director-confirm-cut", args=[cup.slug]),
        {"entries": ids, "checked": "yes"},
    )
    cup.refresh_from_db()
    assert page.status_code == 403 and post.status_code == 403
    assert knockout.seeds(cup) == []


def test_the_bracket_page_fragment_and_projector_show_the_results(client, director, cup):
    knockout.confirm_cut(
        tournament=cup, actor=director, entries=knockout.cut_list(tournament=cup).ids
    )
    cup.refresh_from_db()
    before = client.get(reverse("tournaments:public-bracket", args=[cup.slug])).content.decode()
    assert "Semi-finals" in before and "to be decided" in before
    knockout_round(cup, director)
    board = knockout.board(cup)
    winners = [m.winner for m in board.bracket.rounds[0]]
    for name in ("public-bracket", "public-bracket-fragment", "public-bracket-projector"):
        html = client.get(reverse(f"tournaments:{name}", args=[cup.slug])).content.decode()
        assert html.count("bracket-line won") == 2, name
        assert all(cup.entries.get(pk=w).name in html for w in winners)
    assert (
        'data-live-on="bracket round match-finished hand-confirmed"'
        in client.get(reverse("tournaments:public-bracket", args=[cup.slug])).content.decode()
    )


def test_a_tournament_without_a_knockout_has_no_bracket_page(client, swiss):
    plain = swiss(4)
    assert client.get(reverse("tournaments:public-bracket", args=[plain.slug])).status_code == 404


def test_the_tournament_page_says_how_the_knockout_is_played_and_links_the_bracket(client, cup):
    html = client.get(reverse("tournaments:public-tournament", args=[cup.slug])).content.decode()
    assert "Top 4 after the Swiss" in html and "Third-place match" in html
    assert reverse("tournaments:public-bracket", args=[cup.slug]) in html


def test_the_scoring_page_offers_the_tie_break_hand_of_a_level_knockout_match(
    make_tournament, director
):
    from tournaments.selectors.scoring import scoring_view

    from .test_services import confirmed, first_knockout_match, tied_hand

    # The tournament's own length (one hand) would call the match complete; the knockout's
    # (one hand, then tie-break hands while level) does not.
    tournament = make_tournament(
        format="knockout", teams=2, rounds=1, match_length="hands", match_hands=1
    )
    knockout.set_knockout(tournament=tournament, actor=director, length="hands", count=1)
    tournament = confirmed(tournament, director)
    match = first_knockout_match(tournament, director)
    services.submit_hand(match=match, actor=director, record=tied_hand("N"))
    view = scoring_view(match.table)
    assert (view.next.blocked, view.next.number) == ("", 2), "level: the tie-break hand is next"
