"""Bad input is refused with a RatingError and a code, before anything is rated."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from tests.ratings.strategies import T0, game, stored
from tournaments.ratings import RatedGame, RatingError, new_rating, rate

GOOD = game(1, 0, (1, 2), (3, 4), places=(1, 2))


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(replace(GOOD, sides=((1, 2),), places=(1,)), id="one-side"),
        pytest.param(replace(GOOD, sides=(), places=()), id="no-sides"),
        pytest.param(replace(GOOD, sides=((1, 2), (2, 3))), id="player-on-two-sides"),
        pytest.param(replace(GOOD, sides=((1, 1), (3, 4))), id="player-twice-on-a-side"),
        pytest.param(replace(GOOD, sides=((1, 2), ())), id="empty-side"),
        pytest.param(replace(GOOD, places=(1,)), id="too-few-places"),
        pytest.param(replace(GOOD, places=(1, 2, 3)), id="too-many-places"),
        pytest.param(replace(GOOD, places=(0, 1)), id="place-zero"),
        pytest.param(replace(GOOD, places=(1.0, 2)), id="float-place"),
        pytest.param(replace(GOOD, sides=((1, "2"), (3, 4))), id="player-not-int"),
        pytest.param(replace(GOOD, sides=((1, True), (3, 4))), id="player-bool"),
        pytest.param(replace(GOOD, id="1"), id="id-not-int"),
        pytest.param(replace(GOOD, played_at=datetime(2026, 3, 1, 19)), id="naive-datetime"),
        pytest.param(replace(GOOD, played_at="2026-03-01T19:00Z"), id="time-not-datetime"),
        pytest.param(replace(GOOD, tournament="cup"), id="tournament-not-int"),
        pytest.param(((1, 2), (3, 4)), id="not-a-rated-game"),
    ],
)
def test_bad_game_is_refused_with_code_bad_game(bad):
    with pytest.raises(RatingError) as err:
        rate([game(0, 0, (1,), (2,), places=(1, 2)), bad])
    assert err.value.code == "bad-game"
    assert isinstance(err.value, ValueError)


def test_error_names_the_game():
    with pytest.raises(RatingError) as err:
        rate([replace(GOOD, id=42, places=(1,))])
    assert err.value.game == 42 and "game 42" in str(err.value)


def test_same_game_id_twice_is_refused_with_duplicate_game():
    with pytest.raises(RatingError) as err:
        rate([GOOD, game(1, 9, (5,), (6,), places=(1, 2))])
    assert (err.value.code, err.value.game) == ("duplicate-game", 1)


def test_rating_a_stored_game_again_is_refused_with_duplicate_game():
    before = rate([GOOD])
    with pytest.raises(RatingError) as err:
        rate([GOOD], previous=before)
    assert (err.value.code, err.value.game) == ("duplicate-game", 1)


def test_a_game_older_than_stored_ones_is_refused_with_out_of_order():
    before = rate([game(5, 10, (1,), (2,), places=(1, 2))])
    with pytest.raises(RatingError) as err:
        rate([game(6, 9, (2,), (3,), places=(1, 2))], previous=before)
    assert (err.value.code, err.value.game, err.value.player) == ("out-of-order", 6, 2)
    with pytest.raises(RatingError) as err:  # same time, lower id: sorts before game 5 too
        rate([game(4, 10, (1,), (3,), places=(1, 2))], previous=before)
    assert err.value.code == "out-of-order"


def test_an_older_game_of_other_players_is_accepted():
    # Ratings only depend on the players' own games, so this still equals a recompute.
    before = rate([game(5, 10, (1,), (2,), places=(1, 2))])
    older = game(6, 1, (3,), (4,), places=(1, 2))
    assert rate([older], previous=before) == rate([game(5, 10, (1,), (2,), places=(1, 2)), older])


def test_nothing_is_rated_when_any_game_is_bad():
    games = [GOOD, replace(GOOD, id=2, places=(1,))]
    with pytest.raises(RatingError):
        rate(iter(games))


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"player": 7}, id="wrong-key"),
        pytest.param({"sigma": 0.0}, id="sigma-zero"),
        pytest.param({"mu": float("nan")}, id="mu-nan"),
        pytest.param({"games": 2}, id="history-shorter-than-games"),
        pytest.param({"wins": 2}, id="more-wins-than-games"),
        pytest.param({"draws": -1}, id="negative-draws"),
        pytest.param({"mu": 30.000000000000004}, id="mu-rounded-apart-from-history"),
        pytest.param({"last_played": T0}, id="last-played-apart-from-history"),
    ],
)
def test_inconsistent_stored_rating_is_refused_with_bad_previous(change):
    good = stored((1, 30.0, 5.0))[1]
    with pytest.raises(RatingError) as err:
        rate([GOOD], previous={1: replace(good, **change)})
    assert err.value.code == "bad-previous"


def test_stored_rating_without_games_must_have_no_last_played():
    with pytest.raises(RatingError) as err:
        rate([], previous={3: replace(new_rating(3), last_played=T0)})
    assert err.value.code == "bad-previous"


def test_previous_must_hold_player_ratings():
    with pytest.raises(RatingError) as err:
        rate([], previous={1: (25.0, 8.3)})
    assert err.value.code == "bad-previous"


def test_unknown_model_is_refused_with_bad_model():
    with pytest.raises(RatingError) as err:
        rate([GOOD], model="trueskill")
    assert err.value.code == "bad-model"


def test_rated_game_is_immutable():
    with pytest.raises(AttributeError):
        GOOD.id = 2  # type: ignore[misc]
    assert isinstance(GOOD, RatedGame)
