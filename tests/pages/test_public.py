"""The public pages through Django's test client: the club home, leaderboards, a tournament with
its rules and registration, pairings (drafts for directors only), live standings and their
fragment, a match hand by hand, a player's record, the projector; in English and Japanese."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.demo import simulate
from tournaments.models import (
    Entry,
    HandSubmission,
    Match,
    Player,
    Rating,
    Round,
    StandingsSnapshot,
    Tournament,
)
from tournaments.selectors.public.match import tricks as trick_views
from tournaments.selectors.public.player import rating_chart
from tournaments.services import Actor, PlayerSpec
from tournaments.services import standings as standings_service
from tournaments.words.formatting import number as written

pytestmark = pytest.mark.django_db


# --- building the club ------------------------------------------------------------------------


@pytest.fixture
def director() -> Actor:
    user = get_user_model().objects.create_user("td", password="x")
    return Actor(user=user, label="td")


@pytest.fixture
def built(django_capture_on_commit_callbacks):
    """Run a builder with its after-commit work (standings snapshots, ratings) done."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def event(
    director: Actor,
    *,
    name: str = "Friday Spades",
    teams: int = 5,
    game: str = "spades",
    rules: str = "standard",
    fmt: str = "swiss",
    hands: int = 2,
    **options,
) -> Tournament:
    """A tournament with `teams` team entries (or players for individual games), registration
    open."""
    tournament = services.create_tournament(
        actor=director,
        name=name,
        game=game,
        rules=rules,
        format=fmt,
        rounds=3,
        match_length="hands",
        match_hands=hands,
        venue="Koenji Hall",
        **options,
    )
    services.open_registration(tournament=tournament, actor=director)
    for n in range(1, teams + 1):
        players = (
            [PlayerSpec(f"{name} {n}N"), PlayerSpec(f"{name} {n}S")]
            if tournament.is_team_event
            else [PlayerSpec(f"{name} player {n}")]
        )
        services.register_entry(
            tournament=tournament,
            actor=director,
            players=players,
            name=f"{name} team {n}" if tournament.is_team_event else "",
        )
    tournament.refresh_from_db()
    return tournament


def play_round(tournament: Tournament, director: Actor, rng: random.Random) -> Round:
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    for match in Match.objects.filter(round=round_, is_bye=False).order_by("table__number"):
        simulate.play_match(match, rng, director=director)
    return services.close_round(round=round_, actor=director)


@dataclass
class Club:
    spades: Tournament  # round 1 closed, round 2 in play: a pending and a disputed hand
    in_play: Round
    pending: HandSubmission
    disputed: HandSubmission


def build_club(director: Actor, seed: int = 7) -> Club:
    rng = random.Random(seed)
    spades = event(director)
    play_round(spades, director, rng)
    round_ = services.generate_round(tournament=spades, actor=director)
    services.publish_round(round=round_, actor=director)
    first, second = Match.objects.filter(round=round_, is_bye=False).order_by("table__number")
    simulate.play_hand(first, rng)
    pending = simulate.play_hand(first, rng, confirm=False)
    disputed = simulate.play_hand(second, rng, confirm=False)
    other = simulate.answerer(second, disputed)
    disputed = services.reject_hand(
        submission=disputed,
        expected_version=disputed.version,
        actor=other,
        reason="4 tricks, not 3",
    )
    return Club(spades=spades, in_play=round_, pending=pending, disputed=disputed)


@pytest.fixture
def club(director, built, built_once) -> Club:
    """`build_club`'s evening, played once per run (`built_once`) and loaded again for each
    test: the tests read it, or change it inside their own transaction."""

    def build() -> dict[str, int]:
        made = built(build_club, director)
        return {
            "in_play": made.in_play.pk,
            "pending": made.pending.pk,
            "disputed": made.disputed.pk,
        }

    ids = built_once.kept("public-pages-club", build)
    # The loaded rows hold the director's account as the build saved it: the test's copy is
    # read again, so that a sign-in with it matches the stored password.
    director.user.refresh_from_db()
    in_play = Round.objects.select_related("tournament").get(pk=ids["in_play"])
    return Club(
        spades=in_play.tournament,
        in_play=in_play,
        pending=HandSubmission.objects.get(pk=ids["pending"]),
        disputed=HandSubmission.objects.get(pk=ids["disputed"]),
    )


def get(client, url: str, **headers):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=headers.pop("lang", "en"), **headers)


def text(response) -> str:
    return response.content.decode()


def squash(html: str) -> str:
    """The page's text with tags and runs of spaces removed, for reading sentences."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# --- the club home and leaderboards -----------------------------------------------------------


def test_home_groups_tournaments_by_state_and_links_each(client, director, built):
    running = built(build_club, director).spades
    upcoming = event(director, name="Next Week", teams=0)
    done = built(event, director, name="Last Month", teams=2)
    rng = random.Random(1)
    built(play_round, done, director, rng)
    built(services.finish_tournament, tournament=done, actor=director)
    html = text(get(client, "/"))
    sections = {
        m.group(1): m.group(2)
        for m in re.finditer(r'<section aria-labelledby="(\w+)">(.*?)</section>', html, re.S)
    }
    assert running.name in sections["running"]
    assert upcoming.name in sections["upcoming"]
    assert done.name in sections["finished"]
    assert running.name not in sections["finished"]
    for tournament in (running, upcoming, done):
        assert reverse("tournaments:public-tournament", args=[tournament.slug]) in html
    assert reverse("tournaments:public-standings", args=[running.slug]) in sections["running"]
    for game in ("spades", "whist", "solo-whist", "german-whist"):
        assert reverse("tournaments:public-leaderboard", args=[game]) in html
    assert reverse("tournaments:check-hands") in html


def test_an_empty_club_home_says_so_in_each_group(client):
    html = text(get(client, "/"))
    assert html.count("None at the moment.") == 3


def test_the_leaderboard_ranks_players_by_ordinal_with_win_rates(client, club):
    ratings = list(Rating.objects.filter(game="spades").order_by("-ordinal", "-games", "player_id"))
    assert len(ratings) == 8  # two tables of two teams played round 1 (one team had a bye)
    html = text(get(client, reverse("tournaments:public-leaderboard", args=["spades"])))
    positions = [html.index(f">{r.player.name}</a>") for r in ratings]
    assert positions == sorted(positions)
    best = ratings[0]
    assert reverse("tournaments:public-player", args=[best.player_id]) in html
    assert f"{best.ordinal:.1f}" in html
    assert f"{round(100 * best.wins / best.games)}%" in html


def test_a_game_without_ratings_and_an_unknown_game(client):
    assert "No rated matches in this game yet." in text(
        get(client, reverse("tournaments:public-leaderboard", args=["whist"]))
    )
    assert get(client, "/leaderboards/chess/").status_code == 404


# --- the tournament page and registration -----------------------------------------------------


def test_the_tournament_page_states_facts_rules_entries_and_rounds(client, club):
    spades = club.spades
    response = get(client, reverse("tournaments:public-tournament", args=[spades.slug]))
    assert response.status_code == 200
    page = squash(text(response))
    for fact in (
        "Spades",
        "Standard (the club's own rules)",
        "Swiss",
        "2 hands",
        "win 2, draw 1, loss 0, bye 2",
        "Koenji Hall",
        "Running",
    ):
        assert fact in page
    assert "Spades may not be led until a spade has been played" in page
    assert "Friday Spades team 3" in page
    for number in (1, 2):
        assert reverse("tournaments:public-round", args=[spades.slug, number]) in text(response)
    assert 'name="player_1"' not in text(response)  # registration is closed while running


def test_an_unknown_tournament_is_not_found(client):
    for url in (
        "/t/nope/",
        "/t/nope/standings/",
        "/t/nope/standings/fragment/",
        "/t/nope/rounds/1/",
        "/t/nope/matches/1/",
        "/t/nope/projector/",
        "/t/nope/projector/fragment/",
        "/players/999999/",
    ):
        assert get(client, url).status_code == 404, url


def register(client, tournament: Tournament, **data):
    return client.post(
        reverse("tournaments:public-tournament", args=[tournament.slug]),
        data,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_a_team_registers_on_the_public_page(client, director):
    tournament = event(director, teams=1)
    form = text(get(client, reverse("tournaments:public-tournament", args=[tournament.slug])))
    for field in ("team_name", "player_1", "player_2"):
        assert f'name="{field}"' in form
        assert f'<label for="id_{field}">' in form
    response = register(
        client,
        tournament,
        team_name="Moonshot",
        player_1="Aiko",
        player_2="Ben",
        club_number_1="C-17",
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/t/{tournament.slug}/")  # the confirmation in view
    entry = Entry.objects.get(tournament=tournament, team__name="Moonshot")
    assert [p.name for p in entry.team.players] == ["Aiko", "Ben"]
    assert entry.team.first.club_number == "C-17"
    page = text(client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en"))
    assert "Moonshot is entered. See you at the table!" in page


def test_a_player_registers_alone_for_an_individual_event(client, director):
    tournament = event(
        director, name="Solo night", teams=0, game="solo-whist", rules="phillips", fmt="individual"
    )
    form = text(get(client, reverse("tournaments:public-tournament", args=[tournament.slug])))
    assert 'name="player_2"' not in form and 'name="team_name"' not in form
    assert register(client, tournament, player_1="Chika").status_code == 302
    assert Entry.objects.get(tournament=tournament).player.name == "Chika"


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        (
            {"player_1": "Aiko", "player_2": "Aiko"},
            400,
            "Name two different players for a team, one player otherwise.",
        ),
        (
            {"player_1": "Friday Spades 1N", "player_2": "Newcomer"},
            409,
            "One of these players is already entered in this tournament.",
        ),
        ({"player_1": "", "player_2": "Ben"}, 400, "This field is required."),
        ({"player_1": "x" * 101, "player_2": "Ben"}, 400, "Ensure this value has at most 100"),
    ],
)
def test_registration_errors_are_shown_on_the_form(client, director, data, status, message):
    tournament = event(director, teams=1)
    response = register(client, tournament, **data)
    assert response.status_code == status
    html = text(response)
    assert message in html
    assert 'name="player_1"' in html  # the form is shown again, filled in
    assert Entry.objects.filter(tournament=tournament).count() == 1


@pytest.mark.parametrize(
    ("state", "status", "message"),
    [
        (Tournament.State.RUNNING, 403, "Registration is not open for this tournament."),
        (Tournament.State.SETUP, 403, "Registration is not open for this tournament."),
        (Tournament.State.FINISHED, 409, "This tournament is over."),
    ],
)
def test_registration_outside_its_window_is_refused_with_a_reason(
    client, director, state, status, message
):
    tournament = event(director, teams=1)
    tournament.state = state
    tournament.save(update_fields=["state"])
    page = text(get(client, reverse("tournaments:public-tournament", args=[tournament.slug])))
    assert 'name="player_1"' not in page  # no form outside registration
    response = register(client, tournament, player_1="Late", player_2="Comer")
    assert response.status_code == status
    assert message in text(response)
    assert not Player.objects.filter(name="Late").exists()


def test_a_field_with_an_error_points_at_its_message(client, director):
    tournament = event(director, teams=0)
    html = text(register(client, tournament, player_1="", player_2="Ben"))
    assert 'aria-describedby="id_player_1-errors"' in html
    assert 'id="id_player_1-errors"' in html


# --- pairings ---------------------------------------------------------------------------------


def test_a_round_lists_tables_sides_states_scores_and_the_bye(client, club):
    spades = club.spades
    response = get(client, reverse("tournaments:public-round", args=[spades.slug, 1]))
    assert response.status_code == 200
    html = text(response)
    matches = Match.objects.filter(round__tournament=spades, round__number=1, is_bye=False)
    assert matches.count() == 2
    for match in matches:
        for seat in match.seats.select_related("entry__team"):
            assert seat.entry.name in html
            assert f'<span class="points">{written(seat.points_for)}</span>' in html
    assert re.search(
        r'<th scope="row" class="num">1</th>.*<th scope="row" class="num">2</th>', html, re.S
    )
    bye = Match.objects.get(round__tournament=spades, round__number=1, is_bye=True)
    assert f"Byes:</strong> {bye.seats.get().entry.name}" in html
    assert html.count('class="badge finished"') == 2


def test_a_round_in_play_shows_hands_awaiting_confirmation_and_disputed(client, club):
    html = text(get(client, reverse("tournaments:public-round", args=[club.spades.slug, 2])))
    assert "In play" in html
    assert "1 awaiting confirmation" in html
    assert "1 disputed" in html


def test_a_draft_round_is_the_directors_alone(client, director, built):
    tournament = built(event, director, teams=4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    url = reverse("tournaments:public-round", args=[tournament.slug, round_.number])
    assert get(client, url).status_code == 404
    match = Match.objects.filter(round=round_, is_bye=False).first()
    match_url = reverse("tournaments:public-match", args=[tournament.slug, match.pk])
    assert get(client, match_url).status_code == 404
    overview = text(get(client, reverse("tournaments:public-tournament", args=[tournament.slug])))
    assert url not in overview
    get_user_model().objects.create_user("stranger", password="x")
    client.login(username="stranger", password="x")
    assert get(client, url).status_code == 404
    client.login(username="td", password="x")
    response = get(client, url)
    assert response.status_code == 200
    assert "Only the directors see this draft until it is published." in text(response)
    assert get(client, match_url).status_code == 200


def test_an_unknown_round_is_not_found(client, club):
    assert get(client, f"/t/{club.spades.slug}/rounds/9/").status_code == 404


# --- standings ----------------------------------------------------------------------------------


def test_standings_come_from_the_latest_snapshot_with_their_age(client, club):
    spades = club.spades
    latest = standings_service.latest(tournament=spades)
    response = get(client, reverse("tournaments:public-standings", args=[spades.slug]))
    assert response.status_code == 200
    html = text(response)
    names = [row["name"] for row in latest.snapshot.payload["rows"]]
    positions = [html.index(f"{name}\n") for name in names]
    assert positions == sorted(positions)
    assert "(version" not in html, "people read an age, not a version number"
    assert "Updated just now." in html or " ago." in html
    StandingsSnapshot.objects.filter(pk=latest.snapshot.pk).update(
        computed_at=timezone.now() - timedelta(minutes=5, seconds=10)
    )
    later = text(get(client, reverse("tournaments:public-standings", args=[spades.slug])))
    assert "Updated 5\xa0minutes ago." in later or "Updated 5 minutes ago." in later
    assert "Results have changed" not in html
    assert "<caption>Standings</caption>" in html
    assert '<th scope="col" class="num">Match points</th>' in html


def test_the_page_wires_the_live_stream_and_the_fragment(client, club):
    slug = club.spades.slug
    html = text(get(client, reverse("tournaments:public-standings", args=[slug])))
    stream = re.search(r'data-live-events="([^"]+)"', html).group(1)
    assert stream.startswith(f"/api/v1/tournaments/{slug}/events?lastEventId=")
    assert re.fullmatch(r".*lastEventId=\d+-\d+", stream)
    assert f'data-live-fragment="/t/{slug}/standings/fragment/"' in html
    assert 'aria-live="polite"' in html
    assert "/static/js/live.js" in html
    assert "<noscript>" in html


def test_stale_standings_say_so(client, club):
    spades = club.spades
    standings_service.bump(spades.pk)  # results moved on; the recompute has not run yet
    html = text(get(client, reverse("tournaments:public-standings", args=[spades.slug])))
    assert "Results have changed since these standings were computed" in html


def test_no_standings_before_any_result(client, director):
    tournament = event(director, teams=2)
    html = text(get(client, reverse("tournaments:public-standings", args=[tournament.slug])))
    assert "No standings yet: they appear once results come in." in html


def test_the_fragment_is_the_table_alone_and_follows_new_snapshots(client, club, built):
    spades = club.spades
    url = reverse("tournaments:public-standings-fragment", args=[spades.slug])
    response = get(client, url)
    assert response["Cache-Control"] == "no-cache"
    first = text(response)
    assert "<html" not in first and "<table" in first
    version = int(re.search(r'data-version="(\d+)"', first).group(1))
    assert version == standings_service.latest(tournament=spades).snapshot.version
    built(
        services.confirm_hand,
        submission=club.pending,
        expected_version=club.pending.version,
        actor=simulate.answerer(club.pending.hand.match, club.pending),
    )
    after = text(get(client, url))
    assert int(re.search(r'data-version="(\d+)"', after).group(1)) == version + 1


def test_provisional_results_are_marked_when_the_tournament_shows_them(client, director, built):
    rng = random.Random(3)
    tournament = built(event, director, teams=2, show_provisional=True, hands=4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.get(round=round_)
    built(simulate.play_hand, match, rng)
    built(simulate.play_hand, match, rng, confirm=False)
    html = text(get(client, reverse("tournaments:public-standings", args=[tournament.slug])))
    assert "Matches in play" in html
    assert html.count('class="provisional"') + html.count(' provisional"') >= 2
    assert "unconfirmed hands" in html
    assert "provisional: table 1" in html


# --- a match hand by hand -----------------------------------------------------------------------


def test_a_match_shows_every_hand_with_its_status_and_running_total(client, club):
    match = club.pending.hand.match
    url = reverse("tournaments:public-match", args=[club.spades.slug, match.pk])
    response = get(client, url)
    assert response.status_code == 200
    html = text(response)
    versions = services.current_versions(match)
    assert len(versions) == 2
    assert html.count('class="badge confirmed"') == 1
    assert html.count('class="badge pending"') == 1
    last = versions[-1].result["after"]["score"]
    for side, points in last.items():
        assert f'<span class="kv"><strong>{side} {written(points)}</strong></span>' in html
    assert "Bags" in html
    assert '<details class="play">' in html
    disputed = club.disputed.hand.match
    html = text(
        get(client, reverse("tournaments:public-match", args=[club.spades.slug, disputed.pk]))
    )
    assert 'class="badge disputed"' in html
    assert "4 tricks, not 3" in html


def test_the_play_is_shown_trick_by_trick_with_leader_and_winner(client, club):
    match = club.pending.hand.match
    version = services.current_versions(match)[0]
    version.refresh_from_db()
    tricks = trick_views("spades", club.spades.rules, version.record, version.result)
    assert len(tricks) == 13
    for trick, following in zip(tricks, tricks[1:], strict=False):
        assert trick.winner == following.leader  # each trick's winner leads the next
    html = text(get(client, reverse("tournaments:public-match", args=[club.spades.slug, match.pk])))
    assert "The play of hand 1, trick by trick" in html
    assert f'<th scope="row">1</th><td>{tricks[0].leader}</td>' in html


def test_a_match_of_another_tournament_or_a_bye_is_not_found(client, club, director):
    other = event(director, name="Elsewhere", teams=2)
    match = club.pending.hand.match
    assert get(client, f"/t/{other.slug}/matches/{match.pk}/").status_code == 404
    bye = Match.objects.filter(round__tournament=club.spades, is_bye=True).first()
    assert get(client, f"/t/{club.spades.slug}/matches/{bye.pk}/").status_code == 404


@pytest.mark.parametrize(
    ("game", "rules", "fmt", "teams", "facts"),
    [
        ("whist", "short-whist", "swiss", 2, ["Trumps", "Honours held", "Game points"]),
        ("solo-whist", "phillips", "individual", 4, ["Contract"]),
        ("german-whist", "standard", "swiss", 2, ["Winner", "Trumps"]),
    ],
)
def test_each_game_shows_its_own_facts_per_hand(
    client, director, built, game, rules, fmt, teams, facts
):
    rng = random.Random(11)
    tournament = built(
        event, director, name=game, teams=teams, game=game, rules=rules, fmt=fmt, hands=3
    )
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.filter(round=round_, is_bye=False).first()
    built(simulate.play_match, match, rng)
    html = text(get(client, reverse("tournaments:public-match", args=[tournament.slug, match.pk])))
    for label in facts:
        assert f"<dt>{label}</dt>" in html
    assert "Final score" in html


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("spades", "standard"),
        ("spades", "pagat-barmore"),
        ("spades", "pagat-3p"),
        ("whist", "short-whist"),
        ("solo-whist", "phillips"),
        ("german-whist", "standard"),
        ("german-whist", {"preset": "standard", "options": {"counted_tricks": "all-26"}}),
    ],
)
def test_the_trick_winners_shown_are_the_engines(game, rules):
    from games.records import check_hand

    sim = simulate.simulator(game)
    shown = 0
    for seed in range(40):
        record = sim.random_hand(random.Random(seed), rules, dealer="N", before=None)
        result = check_hand(record)
        views = trick_views(game, rules, record, result)
        if views is None:
            continue
        assert all(v.winner is not None for v in views), (seed, record.get("calls"))
        assert [v.winner for v in views] == result["trick_winners"]  # the engine's, not derived
        assert all(len(v.plays) == len(record["play"][v.number - 1]) for v in views)
        shown += 1
    assert shown


def test_a_result_stored_without_trick_winners_gets_the_engines_winners_again():
    from games.records import check_hand

    record = simulate.simulator("spades").random_hand(
        random.Random(1), "standard", dealer="N", before=None
    )
    result = check_hand(record)
    stored_before = {k: v for k, v in result.items() if k != "trick_winners"}
    views = trick_views("spades", "standard", record, stored_before)
    assert [v.winner for v in views] == result["trick_winners"]
    assert all(v.leader for v in views)  # who led is known from the deal


# --- players ------------------------------------------------------------------------------------


def test_a_player_page_lists_events_places_and_ratings_with_a_chart(client, club):
    entry = Entry.objects.filter(tournament=club.spades).first()
    player = entry.team.first
    rating = Rating.objects.get(player=player, game="spades")
    response = get(client, reverse("tournaments:public-player", args=[player.pk]))
    assert response.status_code == 200
    html = text(response)
    assert f"<h1>{player.name}</h1>" in html
    assert club.spades.name in html and entry.name in html
    row = next(
        r
        for r in standings_service.latest(tournament=club.spades).snapshot.payload["rows"]
        if r["entry"] == entry.pk
    )
    assert f"{row['rank']} of 5" in html
    assert f"{rating.ordinal:.1f}" in html
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count("<circle") == len(rating.history)
    assert "Rating history as a table" in html
    assert "<script" not in html.split("<main")[1]  # the chart needs no JavaScript


def test_a_player_without_ratings_or_events(client):
    player = Player.objects.create(name="Newcomer")
    html = text(get(client, reverse("tournaments:public-player", args=[player.pk])))
    assert "Not rated yet" in html and "No tournaments yet." in html


def test_the_rating_chart_scales_into_its_box():
    history = [
        ["2026-01-01T19:00:00+00:00", 1, 25.0, 8.0, -1.0],
        ["2026-01-08T19:00:00+00:00", 2, 27.0, 7.0, 6.0],
        ["2026-01-15T19:00:00+00:00", 3, 26.0, 6.5, 6.5],
    ]
    chart = rating_chart(history)
    assert [p.x for p in chart.points] == sorted(p.x for p in chart.points)
    assert all(chart.top <= p.y <= chart.bottom for p in chart.points)
    assert chart.points[0].y > chart.points[2].y  # higher rating, higher on the chart
    assert chart.zero_y is not None
    assert rating_chart([]) is None


# --- the projector ------------------------------------------------------------------------------


def test_the_projector_shows_the_current_round_and_the_standings_without_chrome(client, club):
    slug = club.spades.slug
    response = get(client, reverse("tournaments:public-projector", args=[slug]))
    assert response.status_code == 200
    html = text(response)
    assert re.search(r'<main [^>]*class="projector">', html)
    assert "API documentation" not in html  # no footer
    assert 'data-paginate="pairings"' in html and 'data-paginate="standings"' in html
    assert "Round 2" in html
    assert "/static/js/projector.js" in html and "/static/js/live.js" in html
    fragment = text(get(client, reverse("tournaments:public-projector-fragment", args=[slug])))
    assert "<html" not in fragment and 'data-paginate="standings"' in fragment
    assert 'data-rows="4"' in text(get(client, f"/t/{slug}/projector/?rows=4&seconds=2"))
    assert "data-rows" not in text(get(client, f"/t/{slug}/projector/?rows=lots"))


# --- Japanese -----------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["accept-language", "cookie"])
def test_pages_render_in_japanese(client, club, how):
    slug = club.spades.slug
    if how == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
        lang = "en"
    else:
        lang = "ja"
    match = club.pending.hand.match
    player = Entry.objects.filter(tournament=club.spades).first().team.first
    pages = {
        "/": ["スペード", "開催中"],
        f"/t/{slug}/": ["スイス式", "開催中", "締め切り済み"],
        f"/t/{slug}/rounds/2/": ["対戦中"],
        f"/t/{slug}/standings/": [],
        f"/t/{slug}/matches/{match.pk}/": ["確定", "確認待ち"],
        f"/players/{player.pk}/": ["大会"],
        "/leaderboards/spades/": [],
        f"/t/{slug}/projector/": ["対戦中"],
    }
    for url, words in pages.items():
        response = get(client, url, lang=lang)
        assert response.status_code == 200, url
        html = text(response)
        assert '<html lang="ja">' in html, url
        for word in words:
            assert word in html, (url, word)


def test_every_page_opens_with_a_link_past_the_header_to_the_content(client, club):
    """Keyboard and screen-reader users skip the site header: the first link of the page goes
    to the main content, which can take the focus."""
    for path in (
        reverse("tournaments:home"),
        reverse("tournaments:public-tournament", args=[club.spades.slug]),
    ):
        html = client.get(path).content.decode()
        first_link = re.search(r"<a [^>]*>", html).group(0)
        assert 'class="skip"' in first_link and 'href="#main"' in first_link
        assert re.search(r'<main id="main" tabindex="-1"', html)
    japanese = client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "本文へ移動" in japanese


def test_on_a_phone_the_standings_lead_with_match_points_and_difference_the_rest_behind_a_switch(
    client, club
):
    spades = club.spades
    html = text(get(client, reverse("tournaments:public-standings", args=[spades.slug])))

    heads = re.findall(r'<th scope="col" class="num( more)?">([^<]+)</th>', html)
    shown = [label for more, label in heads if not more]
    assert shown == ["Rank", "Match points", "Point difference"]
    assert {label for more, label in heads if more} >= {"Played", "Won", "Drawn", "Lost"}
    assert 'id="all-columns"' in html and "All columns" in html


def test_standings_and_the_match_page_link_every_player_to_their_page(client, club):
    """Issue 15 point 12: from the standings and a match, a reader reaches each player."""
    tournament = club.spades
    standings = text(get(client, f"/t/{tournament.slug}/standings/"))
    match = Match.objects.filter(round=club.in_play, is_bye=False).order_by("table__number")[0]
    match_page = text(
        get(client, reverse("tournaments:public-match", args=[tournament.slug, match.pk]))
    )
    for entry in tournament.entries.exclude(status="withdrawn").select_related("team"):
        for player in (entry.team.first, entry.team.second):
            link = f'<a href="{reverse("tournaments:public-player", args=[player.pk])}">'
            assert f"{link}{player.name}</a>" in standings, player.name
    for seat in match.seats.select_related("entry__team"):
        for player in (seat.entry.team.first, seat.entry.team.second):
            link = reverse("tournaments:public-player", args=[player.pk])
            assert f'<a href="{link}">{player.name}</a>' in match_page, player.name
