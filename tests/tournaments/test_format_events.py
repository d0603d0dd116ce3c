"""Issue 29: a small event of each format played through the services with known hands, from the
draw to the final standings: the order, each entry's totals and the ties.

The hands are written out (whist tricks, Solo Whist contracts, Spades bids, German Whist tricks),
chosen by table and hand number; what each entry should total is added up here from the hands
as the club would on paper (tricks over six, the settlement, the running score), independently of
the services; then the final snapshot must rank by what the format plays for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

import pytest

from tournaments import gameplay, services
from tournaments.models import Match, Seat, StandingsSnapshot, Tournament
from tournaments.standings import METRICS

from .builders import spades_hand

pytestmark = pytest.mark.django_db

Hand = Callable[[int, int, int, str], dict]  # (round, table, hand, dealer) -> record


def _play_event(tournament: Tournament, director, hands: int, make: Hand, capture) -> list[dict]:
    """Every round: drawn, published, each table's hands entered by the director (confirmed),
    the match finished, the round closed; then the event finished. Each finished seat, as the
    club's score sheet would list it."""
    g = services.hands.get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    sheet = []
    with capture(execute=True):
        for number in range(1, tournament.rounds + 1):
            round_ = services.generate_round(tournament=tournament, actor=director)
            services.publish_round(round=round_, actor=director)
            for match in Match.objects.filter(round=round_, is_bye=False).select_related("table"):
                dealer = gameplay.first_dealer(g.seats(compiled), number)
                results = []
                for h in range(1, hands + 1):
                    match.refresh_from_db()
                    if match.state == Match.State.FINISHED:
                        break
                    record = make(number, match.table.number, h, dealer)
                    results.append(
                        services.submit_hand(
                            match=match, actor=director, record=record
                        ).submission.result
                    )
                    dealer = g.next_dealer(compiled, dealer)
                match.refresh_from_db()
                if match.state != Match.State.FINISHED:
                    services.finish_match(match=match, actor=director)
                for seat in Seat.objects.filter(match=match):
                    sheet.append(
                        {
                            "entry": seat.entry_id,
                            "side": seat.side,
                            "round": number,
                            "match": match.pk,
                            "hands": [r["score"] for r in results],
                            "place": seat.place,
                            "outcome": seat.outcome,
                        }
                    )
            services.close_round(round=round_, actor=director)
        services.finish_tournament(tournament=tournament, actor=director)
    return sheet


def _final(tournament: Tournament) -> list[dict]:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    assert snapshot.payload["rounds_closed"] == tournament.rounds
    return snapshot.payload["rows"]


def _value(row: dict, name: str) -> Fraction:
    return Fraction(str(row["values"][name]))


def _check_order_and_ties(rows: list[dict], chain: list[str]) -> None:
    """Best first by the chain, each metric in its direction; equal on the whole chain = a
    shared rank (1, 1, 3), different = ranks apart."""

    def key(row):
        return tuple(
            -_value(row, n) if METRICS[n].higher_is_better else _value(row, n) for n in chain
        )

    for k, (before, row) in enumerate(zip(rows, rows[1:], strict=False), 2):
        assert key(before) <= key(row), (before["name"], row["name"])
        if key(before) == key(row):
            assert row["rank"] == before["rank"] and row["tied"] and before["tied"]
        else:
            assert row["rank"] == k


def _own_totals(sheet: list[dict]) -> dict[int, Fraction]:
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for line in sheet:
        totals[line["entry"]] += sum(
            (Fraction(str(score[line["side"]])) for score in line["hands"]), Fraction(0)
        )
    return totals


# -- a whist drive (progressive partnerships) -----------------------------------------------------


def _whist(number: int, table: int, hand: int, dealer: str) -> dict:
    ns = [9, 5, 7, 6, 8, 4][(number + table + hand) % 6]  # NS's tricks: 3, 0, 1, 0, 2, 0 points
    return {
        "dealer": dealer,
        "trump": "S",
        "tricks": {"NS": ns, "EW": 13 - ns},
        "honours": {"NS": 2, "EW": 2},  # nobody holds three: no honours
    }


def test_a_whist_drive_ranks_players_by_their_tricks_over_six(
    make_tournament, director, django_capture_on_commit_callbacks
):
    drive = make_tournament(
        game="whist",
        rules="short-whist",
        format="progressive",
        rounds=3,
        players=8,
        match_length="hands",
        match_hands=2,
        confirmation="same-phone",
    )
    assert drive.tiebreaks == [
        "points_for",
        "hands_won",
        "match_points",
        "buchholz",
        "head_to_head",
    ]
    sheet = _play_event(drive, director, 2, _whist, django_capture_on_commit_callbacks)
    rows = _final(drive)
    # each player's total: the tricks over six their side took, hand by hand, every round
    paper = defaultdict(Fraction)
    won = defaultdict(int)
    for line in sheet:
        for score in line["hands"]:
            other = "EW" if line["side"] == "NS" else "NS"
            paper[line["entry"]] += score[line["side"]]
            won[line["entry"]] += score[line["side"]] > score[other]
    assert {r["entry"]: _value(r, "points_for") for r in rows} == paper
    assert {r["entry"]: r["values"]["hands_won"] for r in rows} == won
    assert sum(paper.values()) == 2 * sum(
        max(0, t - 6) + max(0, 7 - t)
        for n in (1, 2, 3)
        for table in (1, 2)
        for h in (1, 2)
        for t in [[9, 5, 7, 6, 8, 4][(n + table + h) % 6]]
    )
    _check_order_and_ties(rows, drive.tiebreaks)
    best = max(paper.values())
    assert rows[0]["rank"] == 1 and _value(rows[0], "points_for") == best
    leaders = [r for r in rows if _value(r, "points_for") == best]
    most = max(r["values"]["hands_won"] for r in leaders)
    assert {r["entry"] for r in rows if r["rank"] == 1} <= {
        r["entry"] for r in leaders if r["values"]["hands_won"] == most
    }, "equal totals: the hands won decide"


# -- Solo Whist (individual tables of four) -------------------------------------------------------


def _solo(number: int, table: int, hand: int, dealer: str) -> dict:
    seats = "NESW"
    order = [seats[(seats.index(dealer) + k) % 4] for k in range(1, 5)]  # from dealer's left
    declarer = order[(number + table + hand) % 4]
    made = (number + hand) % 2 == 0
    tricks = {s: 2 for s in seats}
    tricks[declarer] = 7 if made else 4
    rest = [s for s in seats if s != declarer]
    tricks[rest[0]] += 13 - sum(tricks.values())
    return {
        "dealer": dealer,
        "turned": "5H",
        "calls": [{"seat": s, "call": "solo" if s == declarer else "pass"} for s in order],
        "tricks": tricks,
    }


def test_a_solo_whist_evening_ranks_players_by_their_own_settlements(
    make_tournament, director, django_capture_on_commit_callbacks
):
    solo = make_tournament(
        game="solo-whist",
        rules="phillips",
        format="individual",
        rounds=2,
        players=8,
        match_length="hands",
        match_hands=2,
        confirmation="same-phone",
    )
    assert solo.tiebreaks[0] == "points_for"
    sheet = _play_event(solo, director, 2, _solo, django_capture_on_commit_callbacks)
    # a made solo with 7 tricks: +9/2 to the declarer, -3/2 each other; failed with 4: -3, +1
    assert sorted({str(v) for line in sheet for s in line["hands"] for v in s.values()}) == [
        "-3",
        "-3/2",
        "1",
        "9/2",
    ]
    rows = _final(solo)
    paper = _own_totals(sheet)
    assert {r["entry"]: _value(r, "points_for") for r in rows} == paper
    assert sum(paper.values()) == 0, "every settlement is paid by the others"
    places = defaultdict(int)
    for line in sheet:
        places[line["entry"]] += line["place"]
        assert line["outcome"] in ("win", "draw", "loss")
    assert {r["entry"]: _value(r, "placings") for r in rows} == places
    _check_order_and_ties(rows, solo.tiebreaks)
    assert _value(rows[0], "points_for") == max(paper.values())
    from tournaments.selectors.public.standings import standings_view

    view = standings_view(solo)  # the page: each player's total, never "Lost"
    assert [c.name for c in view.columns] == ["played", *solo.tiebreaks]
    assert [c.label for c in view.columns][:2] == ["Played", "Total points"]


# -- cutthroat Spades: 3-player tables ------------------------------------------------------------


def _three(number: int, table: int, hand: int, dealer: str) -> dict:
    seats = "NES"
    order = [seats[(seats.index(dealer) + k) % 3] for k in range(1, 4)]
    bids = {s: ["4", "5", "6"][(number + table + hand + k) % 3] for k, s in enumerate(order)}
    taken = {s: int(bids[s]) for s in seats}
    taken[order[0]] += 17 - sum(taken.values())  # 17 tricks of 3 cards (one card unused)
    return {
        "dealer": dealer,
        "calls": [{"seat": s, "call": bids[s]} for s in order],
        "tricks": taken,
    }


def test_a_three_player_spades_evening_ranks_by_each_player_s_score(
    make_tournament, director, django_capture_on_commit_callbacks
):
    event = make_tournament(
        game="spades",
        rules="pagat-3p",
        format="individual",
        rounds=2,
        players=6,
        match_length="hands",
        match_hands=2,
        confirmation="same-phone",
    )
    sheet = _play_event(event, director, 2, _three, django_capture_on_commit_callbacks)
    rows = _final(event)
    assert {r["entry"]: _value(r, "points_for") for r in rows} == _own_totals(sheet)
    _check_order_and_ties(rows, event.tiebreaks)


# -- a partnership Swiss and a round robin: match points ------------------------------------------


def _spades(number: int, table: int, hand: int, dealer: str) -> dict:
    seats = "NESW"
    order = [seats[(seats.index(dealer) + k) % 4] for k in range(1, 5)]
    ns_first = (number + table) % 2 == 0  # NS win at even tables of even rounds, EW otherwise
    tricks = {"N": 4, "S": 4, "E": 2, "W": 3} if ns_first else {"N": 2, "S": 3, "E": 4, "W": 4}
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    said: dict[str, int] = {}
    bids = []
    for s in order:  # the first of a side bids its own tricks, its partner the side's total
        first = side[s] not in said
        said[side[s]] = tricks[s] + (0 if first else said[side[s]])
        bids.append(str(said[side[s]]))
    return spades_hand(dealer, bids, tricks)


def test_a_partnership_swiss_ranks_by_match_points(
    swiss, director, django_capture_on_commit_callbacks
):
    event = swiss(6, rounds=3, match_length="hands", match_hands=1, confirmation="same-phone")
    assert event.tiebreaks[0] == "match_points"
    sheet = _play_event(event, director, 1, _spades, django_capture_on_commit_callbacks)
    rows = _final(event)
    mp = defaultdict(Fraction)
    for line in sheet:
        mp[line["entry"]] += {"win": 2, "draw": 1, "loss": 0}[line["outcome"]]
    assert {r["entry"]: _value(r, "match_points") for r in rows} == mp
    assert {r["entry"]: _value(r, "points_for") for r in rows} == _own_totals(sheet)
    _check_order_and_ties(rows, event.tiebreaks)
    assert _value(rows[0], "match_points") == max(mp.values())


def _german(number: int, table: int, hand: int, dealer: str) -> dict:
    north = [8, 5, 7, 6][(number + table) % 4]
    return {"dealer": dealer, "trump": "H", "tricks": {"N": north, "S": 13 - north}}


def test_a_round_robin_ranks_by_match_points_then_head_to_head(
    make_tournament, director, django_capture_on_commit_callbacks
):
    event = make_tournament(
        game="german-whist",
        rules="standard",
        format="round-robin",
        rounds=3,
        players=4,
        match_length="hands",
        match_hands=1,
        confirmation="same-phone",
    )
    assert event.tiebreaks[:2] == ["match_points", "head_to_head"]
    sheet = _play_event(event, director, 1, _german, django_capture_on_commit_callbacks)
    rows = _final(event)
    wins = defaultdict(int)
    for line in sheet:
        wins[line["entry"]] += line["outcome"] == "win"
    assert {r["entry"]: r["values"]["won"] for r in rows} == wins
    assert sum(wins.values()) == 6, "four players, six games, each won by one"
    _check_order_and_ties(rows, event.tiebreaks)
