"""Read queries behind the downloads: what a public export may show (published rounds only,
confirmed hands only), loaded in a handful of queries however large the tournament."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import F

from tournaments.models import HandSubmission, Match, Round, Seat, Tournament

S = HandSubmission.Status


def result_seats(tournament: Tournament) -> list[Seat]:
    """Every seat of every match in a published round, in the order a results sheet reads:
    round, table (byes last), match, seats."""
    return list(
        Seat.objects.filter(match__round__tournament=tournament)
        .filter(Round.public_q("match__round__"))
        .select_related(
            "match__round",
            "match__table",
            "entry__team__first",
            "entry__team__second",
            "entry__player",
        )
        .order_by(
            "match__round__number",
            F("match__table__number").asc(nulls_last=True),
            "match_id",
            "seats",
        )
    )


def public_match(tournament: Tournament, match_id: int) -> Match | None:
    """A played-at-a-table match of a published round of this tournament (byes have no
    record)."""
    return (
        Match.objects.filter(pk=match_id, round__tournament=tournament, is_bye=False)
        .filter(Round.public_q("round__"))
        .select_related("round", "table")
        .prefetch_related(
            "seats__entry__team__first", "seats__entry__team__second", "seats__entry__player"
        )
        .first()
    )


def current_versions(match: Match) -> list[HandSubmission]:
    """The current version of each hand of a match, in hand order (any status)."""
    return list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .order_by("hand__number")
    )


def confirmed_records(tournament: Tournament, *, chunk: int = 500) -> Iterator[dict]:
    """Every confirmed hand of the tournament's published rounds with where it was played: dicts
    of `round`, `table`, `hand` (numbers) and `record` (the canonical record), by round, table
    and hand number; streamed (a big event holds thousands of hands)."""
    rows = (
        HandSubmission.objects.filter(
            hand__match__round__tournament=tournament, is_current=True, status=S.CONFIRMED
        )
        .filter(Round.public_q("hand__match__round__"))
        .order_by(
            "hand__match__round__number",
            "hand__match__table__number",
            "hand__match_id",
            "hand__number",
        )
        .values_list(
            "hand__match__round__number", "hand__match__table__number", "hand__number", "record"
        )
    )
    for round_, table, hand, record in rows.iterator(chunk_size=chunk):
        yield {"round": round_, "table": table, "hand": hand, "record": record}
