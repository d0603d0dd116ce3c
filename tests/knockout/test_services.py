"""The knockout through the services: worked knockouts of 5, 8, 12 and 16 entries, a Swiss with a
top cut the director confirms (a tie at the line shown and decided by the chain), knockout
matches that never end level, best of N, and the refusals with their codes."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.gameplay import first_dealer
from tournaments.knockout import services as knockout
from tournaments.knockout.engine import seed_lines
from tournaments.models import AuditEvent, Match, Round
from tournaments.services import ServiceError
from tournaments.services.history import standings_rows

from ..tournaments.builders import calls
from ..tournaments.conftest import play_round
from .helpers import first_round_pairs, knockout_round

pytestmark = pytest.mark.django_db


def knockout_of(make_tournament, director, n: int, **settings):
    tournament = make_tournament(format="knockout", teams=n, rounds=1)
    settings = {"length": "hands", "count": 1} | settings
    return knockout.set_knockout(tournament=tournament, actor=director, **settings)


def confirmed(tournament, director):
    listed = services.cut_list(tournament=tournament)
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("n", [5, 8, 12, 16])
def test_a_worked_knockout_seeds_its_first_round_gives_byes_to_the_top_and_ends_with_a_champion(
    make_tournament, director, n
):
    tournament = confirmed(knockout_of(make_tournament, director, n, third_place=True), director)
    seed_of = {e: s for s, e in enumerate(knockout.seeds(tournament), 1)}
    size = 1 << (n - 1).bit_length()

    first = knockout_round(tournament, director)

    lines = seed_lines(size)
    expected = [(a, b) for a, b in zip(lines[::2], lines[1::2], strict=True) if b <= n]
    assert first_round_pairs(first, seed_of) == expected
    byes = sorted(
        seed_of[s.entry_id] for m in first.matches.filter(is_bye=True) for s in m.seats.all()
    )
    assert byes == list(range(1, size - n + 1)), "byes to the top seeds"
    rounds = 1
    while services.can_generate_round(tournament=tournament, latest=first) is None:
        first = knockout_round(tournament, director, seed=rounds)
        rounds += 1
    assert rounds == (size.bit_length() - 1)
    assert services.can_generate_round(tournament=tournament, latest=first) == "knockout-complete"
    board = knockout.board(tournament)
    assert board.complete
    assert sorted(board.placings) == sorted(seed_of)
    assert list(board.placings.values()).count(1) == 1
    assert sorted(p for p in board.placings.values() if p <= 4) == [1, 2, 3, 4]


def test_a_knockout_waits_for_its_bracket(make_tournament, director):
    tournament = knockout_of(make_tournament, director, 4)
    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)
    assert caught.value.code == "cut-not-confirmed"
    assert not Round.objects.filter(tournament=tournament).exists()


def swiss_with_cut(swiss, director, n=10, rounds=3, **settings):
    tournament = swiss(n, rounds=rounds)
    settings = {"top_cut": 8, "length": "hands", "count": 1} | settings
    tournament = knockout.set_knockout(tournament=tournament, actor=director, **settings)
    for seed in range(rounds):
        play_round(tournament, director, seed=seed)
    tournament.refresh_from_db()
    return tournament


def test_the_top_cut_goes_into_the_bracket_seeded_by_swiss_places_and_the_rest_play_on(
    swiss, director
):
    tournament = swiss_with_cut(swiss, director, third_place=True, consolation=True)
    rows = standings_rows(tournament)
    listed = services.cut_list(tournament=tournament)
    assert listed.refusal is None and not listed.confirmed
    assert listed.ids == [r.entrant for r in rows[:8]]
    assert [c.rank for c in listed.entries] == [r.rank for r in rows[:8]]
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    tournament.refresh_from_db()
    swiss_points = {r.entrant: r.values["match_points"] for r in rows}

    quarter = knockout_round(tournament, director)

    seed_of = {e: s for s, e in enumerate(listed.ids, 1)}
    knockout_matches = quarter.matches.filter(bracket_round__isnull=False)
    assert first_round_pairs(quarter, seed_of) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert knockout_matches.count() == 4
    consolation = quarter.matches.filter(bracket_round__isnull=True, is_bye=False)
    assert {s.entry_id for m in consolation for s in m.seats.all()} == {
        r.entrant for r in rows[8:]
    }, "the two outside the cut play on"
    after = {r.entrant: r.values["match_points"] for r in standings_rows(tournament)}
    assert all(after[e] == swiss_points[e] for e in listed.ids), (
        "knockout matches stay out of the Swiss standings"
    )
    semi = knockout_round(tournament, director, seed=2)
    final = knockout_round(tournament, director, seed=3)
    assert final.matches.filter(bracket_round=3).count() == 2, "the final and the third place"
    board = knockout.board(tournament)
    assert board.complete and board.bracket.champion in listed.ids
    assert semi.number == tournament.rounds + 2


def test_a_tie_at_the_cut_line_is_shown_and_the_chain_decides_it(swiss, director):
    # Six teams, one round: three win and three lose, so a cut of 2 falls inside the winners.
    tournament = swiss_with_cut(swiss, director, n=6, rounds=1, top_cut=2)
    rows = standings_rows(tournament)
    listed = services.cut_list(tournament=tournament)
    level = rows[1].values["match_points"]
    assert rows[2].values["match_points"] == level, "the line falls inside a level group"
    assert [c.entry.pk for c in listed.line] == [
        r.entrant for r in rows if r.values["match_points"] == level
    ]
    assert all(c.at_line for c in listed.entries if c.entry.pk in {e.entry.pk for e in listed.line})
    chain = tournament.tiebreaks
    separating = next((m for m in chain[1:] if rows[1].values[m] != rows[2].values[m]), "final-key")
    assert listed.decided_by == separating
    assert listed.ids == [rows[0].entrant, rows[1].entrant]
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    [event] = AuditEvent.objects.filter(tournament=tournament, action="cut-confirmed")
    assert event.data["decided_by"] == separating
    assert event.data["line"] == [c.entry.pk for c in listed.line]


def test_the_cut_waits_for_the_last_swiss_round(swiss, director):
    tournament = swiss(6, rounds=2)
    knockout.set_knockout(tournament=tournament, actor=director, top_cut=4)
    play_round(tournament, director)
    tournament.refresh_from_db()
    listed = services.cut_list(tournament=tournament)
    assert listed.refusal.code == "swiss-not-over"
    with pytest.raises(ServiceError) as caught:
        services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    assert caught.value.code == "swiss-not-over"
    play_round(tournament, director, seed=2)
    with pytest.raises(ServiceError) as later:
        services.generate_round(tournament=tournament, actor=director)
    assert later.value.code == "cut-not-confirmed"


def test_a_list_that_is_not_the_cut_is_refused_and_nothing_is_made(swiss, director):
    tournament = swiss_with_cut(swiss, director, n=6, rounds=1, top_cut=4)
    listed = services.cut_list(tournament=tournament)
    wrong = list(reversed(listed.ids))
    with pytest.raises(ServiceError) as caught:
        services.confirm_cut(tournament=tournament, actor=director, entries=wrong)
    assert (caught.value.code, caught.value.details["entries"]) == ("cut-changed", listed.ids)
    tournament.refresh_from_db()
    assert tournament.bracket == {}
    assert not AuditEvent.objects.filter(action="cut-confirmed").exists()


def test_confirming_the_same_cut_twice_makes_one_bracket_and_another_list_is_refused(
    swiss, director
):
    tournament = swiss_with_cut(swiss, director, n=6, rounds=1, top_cut=4)
    ids = services.cut_list(tournament=tournament).ids
    services.confirm_cut(tournament=tournament, actor=director, entries=ids)
    again = services.confirm_cut(tournament=tournament, actor=director, entries=ids)
    assert knockout.seeds(again) == ids
    assert AuditEvent.objects.filter(action="cut-confirmed").count() == 1
    with pytest.raises(ServiceError) as caught:
        services.confirm_cut(tournament=tournament, actor=director, entries=ids[::-1])
    assert caught.value.code == "cut-confirmed"


def test_only_a_director_confirms_the_cut(swiss, director, stranger, public):
    tournament = swiss_with_cut(swiss, director, n=6, rounds=1, top_cut=2)
    ids = services.cut_list(tournament=tournament).ids
    for someone in (stranger, public):
        with pytest.raises(ServiceError) as caught:
            services.confirm_cut(tournament=tournament, actor=someone, entries=ids)
        assert caught.value.code == "not-director"
    tournament.refresh_from_db()
    assert tournament.bracket == {}


def tied_hand(dealer: str) -> dict:
    """Both sides bid 8 and are set: -80 each, level."""
    return {
        "dealer": dealer,
        "calls": calls(dealer, ["8", "8", "8", "8"]),
        "tricks": {"N": 3, "E": 4, "S": 3, "W": 3},
    }


def leading_hand(dealer: str) -> dict:
    return {
        "dealer": dealer,
        "calls": calls(dealer, ["4", "3", "7", "6"]),
        "tricks": {"N": 3, "E": 4, "S": 3, "W": 3},
    }


def first_knockout_match(tournament, director) -> Match:
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return round_.matches.filter(is_bye=False).first()


def test_a_knockout_match_level_after_its_hands_plays_the_tie_break_hands(
    make_tournament, director
):
    tournament = confirmed(knockout_of(make_tournament, director, 2, tiebreak_hands=2), director)
    match = first_knockout_match(tournament, director)
    dealer = first_dealer("NESW", 1)
    services.submit_hand(match=match, actor=director, record=tied_hand(dealer))
    match.refresh_from_db()
    assert match.state == Match.State.PLAYING, "level after its one hand: it goes on"
    with pytest.raises(ServiceError) as caught:
        services.finish_match(match=match, actor=director)
    assert caught.value.code == "knockout-tied", "never closed level, never a coin"
    services.submit_hand(match=match, actor=director, record=leading_hand("E"))
    match.refresh_from_db()
    assert match.state == Match.State.PLAYING, "a tie-break of two hands is played whole"
    services.submit_hand(match=match, actor=director, record=leading_hand("S"))
    match.refresh_from_db()
    assert (match.state, match.result["ended_by"], match.result["hands"]) == (
        "finished",
        "tie-break",
        3,
    )
    assert sorted(s.outcome for s in match.seats.all()) == ["loss", "win"]


def test_best_of_three_plays_another_match_while_no_one_has_won_two(make_tournament, director):
    tournament = confirmed(
        knockout_of(make_tournament, director, 2, length="best-of", count=3), director
    )
    legs = 0
    latest = None
    while services.can_generate_round(tournament=tournament, latest=latest) is None:
        latest = knockout_round(tournament, director, seed=legs)
        legs += 1
    board = knockout.board(tournament)
    [series] = board.series.values()
    wins = sorted(series.wins.values())
    assert wins in ([2], [1, 2]) and legs == sum(wins) == len(series.legs)
    assert board.bracket.champion == series.wins.most_common(1)[0][0]


def test_knockout_settings_are_checked_and_fixed_once_the_bracket_is_made(
    make_tournament, swiss, director
):
    tournament = swiss(4, rounds=1)
    for bad, code in (
        (dict(top_cut=3), "bad-top-cut"),
        (dict(length="best-of", count=2), "bad-knockout-length"),
        (dict(length="hands"), "bad-knockout-length"),
        (dict(tiebreak_hands=0), "bad-tiebreak-hands"),
        (dict(length="coin"), "bad-knockout-length"),
    ):
        with pytest.raises(ServiceError) as caught:
            knockout.set_knockout(tournament=tournament, actor=director, **bad)
        assert caught.value.code == code
    tournament.refresh_from_db()
    assert (tournament.top_cut, tournament.knockout_length) == (0, "target")
    same = knockout.set_knockout(tournament=tournament, actor=director, top_cut=0)
    assert same.top_cut == 0
    assert not AuditEvent.objects.filter(action="knockout-set").exists(), "nothing changed"
    cup = confirmed(knockout_of(make_tournament, director, 2), director)
    with pytest.raises(ServiceError) as locked:
        knockout.set_knockout(tournament=cup, actor=director, third_place=True)
    assert locked.value.code == "bracket-made"


def test_a_knockout_draft_cannot_be_swapped(make_tournament, director):
    tournament = confirmed(knockout_of(make_tournament, director, 4), director)
    round_ = services.generate_round(tournament=tournament, actor=director)
    a, b = [s.entry for s in round_.matches.first().seats.all()]
    with pytest.raises(ServiceError) as caught:
        services.swap_entries(round=round_, actor=director, first=a, second=b)
    assert caught.value.code == "bracket-fixed"


def test_simulated_play_of_a_knockout_never_finishes_a_match_level(make_tournament, director):
    tournament = confirmed(knockout_of(make_tournament, director, 8), director)
    knockout_round(tournament, director, seed=11)
    for match in Match.objects.filter(round__tournament=tournament, is_bye=False):
        outcomes = sorted(s.outcome for s in match.seats.all())
        assert outcomes == ["loss", "win"]


def test_an_entry_withdrawn_from_the_bracket_gives_its_opponent_a_walkover(
    make_tournament, director
):
    tournament = confirmed(knockout_of(make_tournament, director, 4), director)
    seed_of = {e: s for s, e in enumerate(knockout.seeds(tournament), 1)}
    four = tournament.entries.get(pk=knockout.seeds(tournament)[3])
    services.withdraw(entry=four, actor=director)

    first = knockout_round(tournament, director)

    assert first_round_pairs(first, seed_of) == [(2, 3)], "only 2 v 3 is played"
    [walkover] = first.matches.filter(is_bye=True)
    assert [seed_of[s.entry_id] for s in walkover.seats.all()] == [1]
    board = knockout.board(tournament)
    assert board.bracket.rounds[0][0].winner == knockout.seeds(tournament)[0]
    assert board.placings[four.pk] == 3, "the withdrawn entry goes out in the semi-final"
    final = knockout_round(tournament, director, seed=2)
    assert final.matches.filter(bracket_round=2, is_bye=False).count() == 1
    assert knockout.board(tournament).complete


def test_every_refusal_of_a_knockout_setting_is_listed_for_the_forms():
    """The forms show `SETTING_REFUSALS` against the knockout's own fields: a new refusal code
    in `set_knockout`'s checks that the list lacks would show against the wrong part."""
    import inspect
    import re

    source = inspect.getsource(knockout.set_knockout)
    checks = source[: source.index("changed = ")]
    raised = set(re.findall(r'"(bad-[a-z-]+)"', checks))
    raised |= {f"bad-{name.replace('_', '-')}" for name in ("third_place", "consolation")}
    assert raised == knockout.SETTING_REFUSALS
