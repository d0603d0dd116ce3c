"""Same games, same ratings, bit for bit: order of input, sides and partners does not matter, and
continuing from stored ratings equals rating everything from scratch."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.ratings.strategies import PROPERTY, at, bits, game, game_lists
from tournaments.ratings import HistoryPoint, PlayerRating, RatedGame, rate

ROOT = Path(__file__).resolve().parents[2]


def in_order(games: list[RatedGame]) -> list[RatedGame]:
    return sorted(games, key=lambda g: (g.played_at, g.id))


@PROPERTY
@given(game_lists())
def test_same_games_give_bit_identical_ratings(games):
    assert bits(rate(games)) == bits(rate(list(games)))


@PROPERTY
@given(game_lists(), st.randoms(use_true_random=False))
def test_input_order_does_not_matter(games, rnd):
    shuffled = list(games)
    rnd.shuffle(shuffled)
    assert bits(rate(shuffled)) == bits(rate(games))


@PROPERTY
@given(game_lists(), st.randoms(use_true_random=False))
def test_order_of_sides_and_of_partners_does_not_matter(games, rnd):
    def scramble(g: RatedGame) -> RatedGame:
        order = list(range(len(g.sides)))
        rnd.shuffle(order)
        sides = tuple(tuple(rnd.sample(g.sides[i], len(g.sides[i]))) for i in order)
        return replace(g, sides=sides, places=tuple(g.places[i] for i in order))

    assert bits(rate([scramble(g) for g in games])) == bits(rate(games))


def test_games_are_rated_by_finishing_time_then_match_id():
    g1 = game(7, 5, (1,), (2,), places=(1, 2))
    g2 = game(3, 5, (1,), (2,), places=(2, 1))  # same time, lower id: rated first
    g3 = game(1, 9, (1,), (2,), places=(1, 2))
    out = rate([g3, g1, g2])
    assert [h.game for h in out[1].history] == [3, 7, 1]


def test_finishing_times_compare_across_time_zones():
    from datetime import timedelta, timezone

    paris = timezone(timedelta(hours=1))
    early = RatedGame(2, datetime(2026, 3, 1, 20, 30, tzinfo=paris), ((1,), (2,)), (1, 2))  # 19:30Z
    late = RatedGame(1, at(45), ((1,), (2,)), (2, 1))  # 19:45Z
    assert [h.game for h in rate([late, early])[1].history] == [2, 1]


@PROPERTY
@given(game_lists(max_size=30), st.data())
def test_incremental_update_equals_rating_from_scratch(games, data):
    ordered = in_order(games)
    cut = data.draw(st.integers(0, len(ordered)), label="cut")
    first = rate(ordered[:cut])
    assert bits(rate(ordered[cut:], previous=first)) == bits(rate(ordered))


@PROPERTY
@given(game_lists(max_size=30), st.data())
def test_incremental_update_in_many_steps_equals_rating_from_scratch(games, data):
    ordered = in_order(games)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(ordered)), max_size=5), label="cuts"))
    ratings: dict[int, PlayerRating] = {}
    for lo, hi in zip([0, *cuts], [*cuts, len(ordered)], strict=True):
        ratings = rate(ordered[lo:hi], previous=ratings)
    assert bits(ratings) == bits(rate(ordered))


def to_json(ratings: dict[int, PlayerRating]) -> str:
    """What docs/ratings.md tells the caller to store, written as JSON (floats in full)."""

    def point(h: HistoryPoint) -> list:
        return [h.played_at.isoformat(), h.game, h.mu, h.sigma, h.ordinal]

    return json.dumps(
        [
            [r.player, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.draws]
            + [r.last_played and r.last_played.isoformat(), [point(h) for h in r.history]]
            for r in ratings.values()
        ]
    )


def from_json(text: str) -> dict[int, PlayerRating]:
    def when(s: str | None) -> datetime | None:
        return None if s is None else datetime.fromisoformat(s)

    out = {}
    for player, mu, sigma, ordinal, games, wins, draws, last, history in json.loads(text):
        points = tuple(HistoryPoint(when(t), g, m, s, o) for t, g, m, s, o in history)
        out[player] = PlayerRating(
            player, mu, sigma, ordinal, games, wins, draws, when(last), points
        )
    return out


@PROPERTY
@given(game_lists(max_size=30), st.data())
def test_ratings_stored_as_full_floats_continue_exactly(games, data):
    ordered = in_order(games)
    cut = data.draw(st.integers(0, len(ordered)), label="cut")
    reloaded = from_json(to_json(rate(ordered[:cut])))
    assert bits(rate(ordered[cut:], previous=reloaded)) == bits(rate(ordered))


def test_players_who_do_not_play_are_returned_unchanged():
    before = rate([game(1, 0, (1,), (2,), places=(1, 2))])
    after = rate([game(2, 1, (3,), (4,), places=(1, 2))], previous=before)
    assert list(after) == [1, 2, 3, 4]
    assert after[1] is before[1] and after[2] is before[2]


def test_rating_nothing_returns_previous():
    before = rate([game(1, 0, (1,), (2,), places=(1, 2))])
    assert rate([], previous=before) == before
    assert rate([]) == {}


def test_the_engine_does_not_import_django():
    code = (
        "import sys, tournaments.ratings; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_rounded_storage_drifts_from_a_recompute():
    # Why docs/ratings.md says to store full floats: rounding to 6 places (consistently, so the
    # engine cannot tell) gives ratings that no longer equal a recompute from scratch.
    games = [
        game(1, 0, (1, 2), (3, 4), places=(1, 2)),
        game(2, 5, (1, 3), (2, 4), places=(2, 1)),
    ]

    def rounded(r: PlayerRating) -> PlayerRating:
        h = tuple(
            replace(p, mu=round(p.mu, 6), sigma=round(p.sigma, 6), ordinal=round(p.ordinal, 6))
            for p in r.history
        )
        return replace(r, mu=round(r.mu, 6), sigma=round(r.sigma, 6), history=h)

    first = {p: rounded(r) for p, r in rate(games[:1]).items()}
    assert bits(rate(games[1:], previous=first)) != bits(rate(games))
