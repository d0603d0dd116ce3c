"""Rating history (one point per game per player) and the leaderboard's order."""

from __future__ import annotations

from hypothesis import given

from tests.ratings.strategies import PROPERTY, T0, bits, game, game_lists, stored
from tournaments.ratings import PlayerRating, leaderboard, new_rating, rate


@PROPERTY
@given(game_lists())
def test_history_has_one_point_per_game_per_player(games):
    out = rate(games)
    played: dict[int, list[int]] = {}
    for g in sorted(games, key=lambda g: (g.played_at, g.id)):
        for side in g.sides:
            for p in side:
                played.setdefault(p, []).append(g.id)
    assert {p: [h.game for h in r.history] for p, r in out.items()} == played
    for r in out.values():
        assert r.games == len(r.history)
        last = r.history[-1]
        assert (last.mu, last.sigma, last.ordinal) == (r.mu, r.sigma, r.ordinal)
        assert r.last_played == last.played_at
        assert all(h.ordinal == h.mu - 3 * h.sigma for h in r.history)
        assert [(h.played_at, h.game) for h in r.history] == sorted(
            (h.played_at, h.game) for h in r.history
        )


def test_history_follows_each_game():
    out = rate(
        [
            game(1, 0, (1,), (2,), places=(1, 2)),
            game(2, 10, (1,), (3,), places=(2, 1)),
        ]
    )
    assert [(h.played_at, h.game) for h in out[1].history] == [
        (T0, 1),
        (T0.replace(minute=10), 2),
    ]
    assert out[1].history[0].mu > 25 > out[1].history[1].mu
    assert [h.game for h in out[2].history] == [1] and [h.game for h in out[3].history] == [2]


def rating(player: int, ordinal: float, games: int) -> PlayerRating:
    return PlayerRating(player, ordinal, 0.0, ordinal, games, 0, 0, None, ())


def test_leaderboard_orders_by_ordinal_then_games_then_player_id():
    ratings = {
        r.player: r
        for r in [
            rating(5, 10.0, 3),
            rating(2, 12.5, 1),
            rating(9, 10.0, 7),
            rating(1, 10.0, 3),
            rating(4, -2.0, 20),
        ]
    }
    assert [r.player for r in leaderboard(ratings)] == [2, 9, 1, 5, 4]


def test_leaderboard_leaves_out_players_below_min_games():
    ratings = {1: rating(1, 30.0, 2), 2: rating(2, 5.0, 10), 3: new_rating(3)}
    assert [r.player for r in leaderboard(ratings, min_games=3)] == [2]
    assert [r.player for r in leaderboard(ratings)] == [1, 2, 3]
    assert leaderboard({}) == []


def test_leaderboard_from_real_games_puts_the_winner_first():
    out = rate(
        [
            game(1, 0, (1, 2), (3, 4), places=(1, 2)),
            game(2, 5, (1,), (3,), places=(1, 2)),
        ]
    )
    board = leaderboard(out)
    assert board[0].player == 1 and board[-1].player == 3
    assert [r.ordinal for r in board] == sorted((r.ordinal for r in board), reverse=True)


@PROPERTY
@given(game_lists())
def test_leaderboard_is_deterministic(games):
    out = rate(games)
    board = leaderboard(out)
    assert bits({r.player: r for r in board}) == bits({r.player: r for r in leaderboard(out)})
    keys = [(-r.ordinal, -r.games, r.player) for r in board]
    assert keys == sorted(keys)


def test_leaderboard_accepts_stored_ratings():
    board = leaderboard(stored((1, 20.0, 2.0), (2, 30.0, 8.0)))
    assert [r.player for r in board] == [1, 2]  # 14.0 before 6.0
