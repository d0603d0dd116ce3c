"""Issue 29: a finished match records each side's points and place as the format plays for, for
every game at every table size (two sides, progressive pairs, tables of 3 and 4). A whist drive's
table is scored by the hands' own points (tricks over six, honours), never a 0-0 draw when a hand
had a winner."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tournaments import gameplay, services
from tournaments.demo.simulate import next_hand
from tournaments.models import Match, Round, Seat

pytestmark = pytest.mark.django_db

#: (game, preset, format, entries): every table shape the games offer.
SHAPES = [
    ("spades", "standard", "swiss", "teams"),
    ("spades", "standard", "progressive", "players"),
    ("spades", "network-spades", "individual", "players"),  # cutthroat, a table of 4
    ("spades", "pagat-3p", "individual", "players"),  # a table of 3
    ("whist", "short-whist", "swiss", "teams"),
    ("whist", "short-whist", "progressive", "players"),  # a whist drive
    ("whist", "american-whist", "progressive", "players"),
    ("solo-whist", "phillips", "individual", "players"),
    ("german-whist", "standard", "swiss", "players"),
]


def _event(director, make_tournament, game, rules, fmt, kind, hands):
    size = len(gameplay.layout(game, rules).seats)
    count = 2 if kind == "teams" or size == 2 else size
    tournament = make_tournament(
        game=game,
        rules=rules,
        format=fmt,
        match_length="hands",
        match_hands=hands,
        confirmation="same-phone",
        **{kind: count},
    )
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return tournament, round_.matches.get(is_bye=False)


def _play(match: Match, director, records) -> list[dict]:
    """Submit each record as the director (confirmed at once); the hands' results."""
    results = []
    for record in records:
        sub = services.submit_hand(match=match, actor=director, record=record).submission
        results.append(sub.result)
    return results


def _expected_places(points: dict[str, Fraction], won: str | None) -> dict[str, int]:
    rank = {s: (0 if s == won else 1, -p) for s, p in points.items()}
    return {s: 1 + sum(1 for o in points if rank[o] < rank[s]) for s in points}


@pytest.mark.parametrize(("game", "rules", "fmt", "kind"), SHAPES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_table_records_points_and_places(
    director, make_tournament, game, rules, fmt, kind, seed
):
    tournament, match = _event(director, make_tournament, game, rules, fmt, kind, hands=3)
    rng = random.Random(seed)
    results = []
    for _ in range(3):
        match.refresh_from_db()
        if match.state == Match.State.FINISHED:
            break
        results += _play(match, director, [next_hand(match, rng)])
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED
    after = results[-1]["after"]
    if fmt == "progressive":  # the drive's measure: the hands' points added up
        points = gameplay.hand_totals([r["score"] for r in results])
    else:  # the rules' own match measure (a rubber's game points, the running score)
        g = services.hands.get_game(game)
        compiled = g.book.resolve(tournament.rules)[0]
        source = g.match_summary(compiled, after).get("game_points") or after["score"]
        points = {s: Fraction(str(v)) for s, v in source.items()}
    places = _expected_places(points, after.get("won"))
    seats = list(Seat.objects.filter(match=match))
    assert {s.side for s in seats} == set(points)
    place_points = [Fraction(p) for p in tournament.place_points]
    for seat in seats:
        mine = points[seat.side]
        others = [p for side, p in points.items() if side != seat.side]
        assert Fraction(seat.points_for) == mine
        assert Fraction(seat.points_against) == sum(others, Fraction(0)) / len(others)
        assert seat.place == places[seat.side]
        sharing = sum(1 for p in places.values() if p == seat.place)
        if seat.place == 1:
            assert seat.outcome == ("win" if sharing == 1 else "draw")
        else:
            assert seat.outcome == "loss"
        if len(points) == 2:
            assert Fraction(seat.match_points) == Fraction(
                {
                    "win": tournament.points_win,
                    "draw": tournament.points_draw,
                    "loss": tournament.points_loss,
                }[seat.outcome]
            )
        else:  # tables of 3-4: the place's points, shared places split
            span = place_points[seat.place - 1 : seat.place - 1 + sharing]
            assert Fraction(seat.match_points) == sum(span) / len(span)
    for seat in seats:  # hands won: the hands in which its side made the top score
        mine = [Fraction(str(r["score"][seat.side])) for r in results]
        tops = [max(Fraction(str(v)) for v in r["score"].values()) for r in results]
        level = [len({str(v) for v in r["score"].values()}) == 1 for r in results]
        assert seat.hands_won == sum(
            1 for m, t, lv in zip(mine, tops, level, strict=True) if m == t and not lv
        )
    if fmt == "progressive" and len(set(points.values())) > 1:
        assert not any(s.outcome == "draw" for s in seats)  # a hand had a winner: no draw


def _whist(dealer: str, ns: int, honours_ns: int = 2) -> dict:
    return {
        "dealer": dealer,
        "trump": "S",
        "tricks": {"NS": ns, "EW": 13 - ns},
        "honours": {"NS": honours_ns, "EW": 4 - honours_ns},
    }


def test_a_whist_drive_hand_ns_6_ew_7_is_won_by_ew(director, make_tournament):
    """The issue's hand: EW took 7 tricks (+1); the table is EW's, not a 0-0 draw."""
    tournament, match = _event(
        director, make_tournament, "whist", "short-whist", "progressive", "players", hands=1
    )
    _play(match, director, [_whist("N", 6)])
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED
    assert match.result["points"] == {"NS": "0", "EW": "1"}
    assert match.result["places"] == {"NS": 2, "EW": 1}
    by_side = {}
    for seat in Seat.objects.filter(match=match):
        by_side.setdefault(seat.side, set()).add(
            (seat.outcome, seat.place, seat.points_for, str(seat.match_points))
        )
    assert by_side == {"EW": {("win", 1, "1", "2.0")}, "NS": {("loss", 2, "0", "0.0")}}


def test_a_whist_drive_adds_up_every_hand_across_games(director, make_tournament):
    """Four hands: NS reach game (5) in the third, so the rubber's running score starts again
    at 0; the drive still counts every point each side made: NS 2+2+1 (+honours 4 in hand 3)
    and EW 1 in the last."""
    tournament, match = _event(
        director, make_tournament, "whist", "short-whist", "progressive", "players", hands=4
    )
    results = _play(
        match,
        director,
        [_whist("N", 8), _whist("E", 8), _whist("S", 7, honours_ns=4), _whist("W", 6)],
    )
    assert [r["score"] for r in results] == [
        {"NS": 2, "EW": 0},
        {"NS": 2, "EW": 0},
        {"NS": 1, "EW": 0},  # NS reach game on tricks: game over, honours not needed
        {"NS": 0, "EW": 1},
    ]
    match.refresh_from_db()
    assert match.result["points"] == {"NS": "5", "EW": "1"}
    ns = Seat.objects.filter(match=match, side="NS")
    assert {(s.outcome, s.points_for, s.points_against) for s in ns} == {("win", "5", "1")}
    won = dict(Seat.objects.filter(match=match).values_list("side", "hands_won").distinct())
    assert won == {"NS": 3, "EW": 1}


def test_a_drive_level_on_points_is_a_draw(director, make_tournament):
    tournament, match = _event(
        director, make_tournament, "whist", "short-whist", "progressive", "players", hands=2
    )
    _play(match, director, [_whist("N", 7), _whist("E", 6)])
    match.refresh_from_db()
    assert match.result["points"] == {"NS": "1", "EW": "1"}
    assert set(Seat.objects.filter(match=match).values_list("outcome", "place")) == {("draw", 1)}


def test_the_drive_s_running_score_is_the_hands_total(director, make_tournament):
    """The round page's running score of a drive in play: the points made so far (the rubber's
    game points would say 0-0)."""
    from tournaments.selectors.public.round import round_view

    tournament, match = _event(
        director, make_tournament, "whist", "short-whist", "progressive", "players", hands=3
    )
    _play(match, director, [_whist("N", 9), _whist("E", 5)])
    view = round_view(Round.objects.get(pk=match.round_id))
    (table,) = view.tables
    assert {side.side: side.points for side in table.sides} == {"NS": "3", "EW": "2"}
