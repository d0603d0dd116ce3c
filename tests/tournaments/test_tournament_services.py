"""Creating a tournament (validated against the rules engine) and opening registration."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments import services
from tournaments.models import AuditEvent, Tournament
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


def create(director, **kwargs) -> Tournament:
    options = {
        "name": "Friday Spades",
        "game": "spades",
        "rules": "standard",
        "format": "swiss",
        "rounds": 4,
    }
    options.update(kwargs)
    return services.create_tournament(actor=director, **options)


def test_create_tournament_starts_in_setup_with_the_creator_as_director(director):
    tournament = create(director)

    assert tournament.state == Tournament.State.SETUP
    assert list(tournament.directors.all()) == [director.user]
    assert services.is_director(director, tournament)
    assert tournament.slug == "friday-spades"
    assert tournament.table_size == 4
    assert tournament.is_team_event
    assert AuditEvent.objects.filter(tournament=tournament, action="tournament-created").exists()


def test_create_tournament_gives_each_tournament_its_own_slug(director):
    first, second = create(director), create(director)

    assert first.slug == "friday-spades"
    assert second.slug == "friday-spades-2"


def test_a_tournament_named_like_a_director_page_gets_a_slug_of_its_own(director):
    """/director/publishing/ is the publishing page: a tournament called "Publishing" would have
    had its dashboard at that address, hidden behind it."""
    assert create(director, name="Publishing").slug == "publishing-2"
    assert create(director, name="New").slug == "new-2"
    assert create(director, name="Members").slug == "members-2"  # /director/members/


def test_creator_does_not_direct_other_tournaments(director, stranger):
    theirs = create(stranger)

    assert not services.is_director(director, theirs)
    assert services.is_director(stranger, theirs)


def test_create_tournament_stores_the_canonical_rules(director):
    tournament = create(director, rules={"preset": "standard", "options": {}})

    tournament.refresh_from_db()
    assert tournament.rules == "standard"


def test_create_tournament_stores_house_options_canonically(director):
    tournament = create(director, rules={"options": {"nil": True}, "preset": "standard"})

    tournament.refresh_from_db()
    assert tournament.rules == {"preset": "standard", "options": {"nil": True}}


@pytest.mark.parametrize(
    "rules",
    ["no-such-preset", {"preset": "standard", "options": {"no_such_option": 1}}, 42, ["standard"]],
)
def test_create_tournament_refuses_rules_the_engine_refuses(director, rules):
    with pytest.raises(ServiceError) as caught:
        create(director, rules=rules)

    assert caught.value.code == "bad-rules"
    assert not Tournament.objects.exists()


def test_create_tournament_refuses_a_two_sided_format_for_three_individual_sides(director):
    with pytest.raises(ServiceError) as caught:
        create(director, rules="pagat-3p", format="swiss")

    assert caught.value.code == "bad-format"
    assert not Tournament.objects.exists()


def test_create_tournament_refuses_round_robin_for_solo_whist(director):
    with pytest.raises(ServiceError) as caught:
        create(director, game="solo-whist", rules="phillips", format="round-robin")

    assert caught.value.code == "bad-format"


def test_create_tournament_refuses_the_individual_movement_for_partnership_rules(director):
    with pytest.raises(ServiceError) as caught:
        create(director, format="individual")

    assert caught.value.code == "bad-format"


def test_create_tournament_refuses_a_table_size_the_rules_do_not_seat(director):
    with pytest.raises(ServiceError) as caught:
        create(director, game="solo-whist", rules="phillips", format="individual", table_size=3)

    assert caught.value.code == "bad-format"


def test_create_tournament_refuses_the_individual_movement_for_two_players(director):
    """German Whist as an "Individual movement (tables of 3 or 4)" was created, then its round 1
    could not be paired ("the table size must be 3 or 4, not 2"): the evening walk."""
    with pytest.raises(ServiceError) as caught:
        create(director, game="german-whist", rules="standard", format="individual")

    assert caught.value.code == "bad-format" and "Swiss" in caught.value.message
    assert not Tournament.objects.exists()
    assert create(director, game="german-whist", rules="standard", format="swiss").table_size == 2


def test_create_tournament_refuses_an_unknown_format(director):
    with pytest.raises(ServiceError) as caught:
        create(director, format="ladder")

    assert caught.value.code == "bad-format"


def test_create_tournament_accepts_cutthroat_rules_as_an_individual_movement(director):
    tournament = create(director, rules="pagat-3p", format="individual")

    assert tournament.table_size == 3
    assert tournament.place_points == ["2", "1", "0"]
    assert not tournament.is_team_event


def test_create_tournament_refuses_fixed_hands_without_a_count(director):
    with pytest.raises(ServiceError) as caught:
        create(director, match_length="hands")

    assert caught.value.code == "bad-match-length"


def test_create_tournament_keeps_the_hand_count_only_for_fixed_length_matches(director):
    fixed = create(director, match_length="hands", match_hands=8)
    to_target = create(director, match_hands=8)

    assert (fixed.match_length, fixed.match_hands) == ("hands", 8)
    assert (to_target.match_length, to_target.match_hands) == ("target", None)


@pytest.mark.parametrize("tiebreaks", [["no-such-metric"], "match_points", [1, 2]])
def test_create_tournament_refuses_bad_tiebreaks(director, tiebreaks):
    with pytest.raises(ServiceError) as caught:
        create(director, tiebreaks=tiebreaks)

    assert caught.value.code == "bad-tiebreaks"


def test_create_tournament_uses_the_default_tiebreaks_when_none_are_given(director):
    from tournaments.standings import DEFAULT_TIEBREAKS

    assert create(director).tiebreaks == list(DEFAULT_TIEBREAKS)


def test_create_tournament_keeps_a_valid_tiebreak_chain(director):
    from tournaments.standings import DEFAULT_TIEBREAKS

    chain = list(reversed(DEFAULT_TIEBREAKS))
    assert create(director, tiebreaks=chain).tiebreaks == chain


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "   ", "bad-name"),
        ("name", "x" * 151, "bad-name"),
        ("venue", "x" * 151, "bad-venue"),
        ("slug", "spaces are not allowed", "bad-slug"),
        ("slug", "x" * 81, "bad-slug"),
        ("seed", -1, "bad-seed"),
        ("game", "bridge", "bad-game"),
        ("rounds", 0, "bad-rounds"),
        ("rounds", True, "bad-rounds"),
        ("rounds", 40_000, "bad-rounds"),
        ("late_entry", "sometimes", "bad-late-entry"),
        ("match_length", "forever", "bad-match-length"),
        ("points_draw", Decimal(3), "bad-points"),
        ("points_win", Decimal(100_000), "bad-points"),
        ("points_bye", "two", "bad-points"),
        ("place_points", 3, "bad-points"),
        ("table_size", 5, "bad-format"),
        ("table_size", 3, "bad-format"),
    ],
)
def test_create_tournament_refuses_bad_settings(director, field, value, code):
    with pytest.raises(ServiceError) as caught:
        create(director, **{field: value})

    assert caught.value.code == code
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("match_hands", [0, -2, "8", 40_000])
def test_create_tournament_refuses_a_bad_number_of_hands(director, match_hands):
    with pytest.raises(ServiceError) as caught:
        create(director, match_length="hands", match_hands=match_hands)

    assert caught.value.code == "bad-match-length"


def test_create_tournament_keeps_a_chosen_slug_and_refuses_it_twice(director):
    assert create(director, slug="spring-open").slug == "spring-open"

    with pytest.raises(ServiceError) as caught:
        create(director, slug="spring-open")

    assert caught.value.code == "slug-taken"
    assert Tournament.objects.count() == 1


def test_create_tournament_slugs_a_name_without_latin_letters(director):
    assert create(director, name="春のスペード大会").slug == "tournament"


def test_bye_points_default_to_a_win(director):
    tournament = create(director, points_win=Decimal(3))

    assert tournament.points_bye == Decimal(3)


def test_individual_movement_needs_points_for_every_place(director):
    with pytest.raises(ServiceError) as caught:
        create(
            director, game="solo-whist", rules="phillips", format="individual", place_points=[3, 1]
        )

    assert caught.value.code == "bad-points"


def test_open_registration_moves_setup_to_registration_once(director):
    tournament = create(director)

    opened = services.open_registration(tournament=tournament, actor=director)

    assert opened.state == Tournament.State.REGISTRATION
    assert AuditEvent.objects.filter(tournament=tournament, action="registration-opened").exists()
    with pytest.raises(ServiceError) as caught:
        services.open_registration(tournament=tournament, actor=director)
    assert caught.value.code == "bad-state"


def test_only_a_director_opens_registration(director, stranger):
    tournament = create(director)

    with pytest.raises(ServiceError) as caught:
        services.open_registration(tournament=tournament, actor=stranger)

    assert caught.value.code == "not-director"
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.SETUP


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "rules", "fmt", "chain"),
    [
        ("spades", "standard", "swiss", "swiss"),
        ("spades", "standard", "round-robin", "round_robin"),
        ("solo-whist", "phillips", "individual", "tables"),
        ("spades", "standard", "progressive", "progressive"),
    ],
)
def test_each_format_gets_the_standings_engines_chain_for_it_by_default(game, rules, fmt, chain):
    from tournaments.standings import DEFAULT_CHAINS

    made = services.create_tournament(
        actor=services.SYSTEM, name=f"{fmt} night", game=game, rules=rules, format=fmt, rounds=3
    )
    assert made.tiebreaks == list(DEFAULT_CHAINS[chain])
