"""Helpers and Hypothesis strategies shared by the ratings tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import settings
from hypothesis import strategies as st

from tournaments.ratings import HistoryPoint, PlayerRating, RatedGame

T0 = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)
PLAYERS = list(range(1, 11))

#: For the property tests: no per-example deadline (timings on a loaded CI machine are not what
#: these tests are about).
PROPERTY = settings(deadline=None)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def game(gid: int, minutes: int, *sides: tuple[int, ...], places: tuple[int, ...]) -> RatedGame:
    return RatedGame(id=gid, played_at=at(minutes), sides=tuple(sides), places=places)


def bits(ratings: dict[int, PlayerRating]) -> list[tuple]:
    """Everything in `ratings`, floats as exact hex (so equality means bit for bit)."""
    return [
        (
            r.player,
            r.mu.hex(),
            r.sigma.hex(),
            r.ordinal.hex(),
            r.games,
            r.wins,
            r.draws,
            r.last_played,
            [(h.played_at, h.game, h.mu.hex(), h.sigma.hex(), h.ordinal.hex()) for h in r.history],
        )
        for r in ratings.values()
    ]


def stored(*players_mu_sigma: tuple[int, float, float]) -> dict[int, PlayerRating]:
    """Stored ratings for players at the given (mu, sigma), each after one earlier game (whose id
    is minus the player's id), the day before T0."""
    when = T0 - timedelta(days=1)
    return {
        p: PlayerRating(
            player=p,
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
            games=1,
            wins=0,
            draws=0,
            last_played=when,
            history=(HistoryPoint(when, -p, mu, sigma, mu - 3 * sigma),),
        )
        for p, mu, sigma in players_mu_sigma
    }


@st.composite
def a_game(draw, gid: int) -> RatedGame:
    """A random table: 2v2 partnership, 1v1 (German Whist), or 3-4 individuals (ties allowed)."""
    kind = draw(st.sampled_from(["2v2", "1v1", "ffa"]))
    if kind == "2v2":
        four = draw(st.permutations(PLAYERS).map(lambda p: p[:4]))
        sides = ((four[0], four[1]), (four[2], four[3]))
    elif kind == "1v1":
        two = draw(st.permutations(PLAYERS).map(lambda p: p[:2]))
        sides = ((two[0],), (two[1],))
    else:
        n = draw(st.integers(3, 4))
        some = draw(st.permutations(PLAYERS).map(lambda p, n=n: p[:n]))
        sides = tuple((p,) for p in some)
    places = tuple(draw(st.integers(1, len(sides))) for _ in sides)
    minutes = draw(st.integers(0, 30))  # a small range: many games share a finishing time
    return RatedGame(id=gid, played_at=at(minutes), sides=sides, places=places, tournament=1)


@st.composite
def game_lists(draw, max_size: int = 25) -> list[RatedGame]:
    ids = draw(st.lists(st.integers(1, 10_000), unique=True, max_size=max_size))
    return [draw(a_game(gid)) for gid in ids]
