"""Read-side queries for the public pages: the club's tournaments, leaderboards, pairings,
standings, matches hand by hand and players' histories, shaped for the templates.

Plain reads, no writes. Scores are never computed here: they come from the rules engine's
results stored with each hand, the match's settled result, or the standings snapshot. The one
thing worked out for display is who led and who won each trick of a full record, which the
engine checks but does not store; `tricks` derives it from the engine's own card tables and
drops the winners whenever they disagree with the engine's trick counts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from games.cards import CARD_IDS, NAMES, RANK_OF
from games.records import get_game
from tournaments import gameplay
from tournaments.labels import metric_label
from tournaments.models import (
    GAMES,
    Entry,
    HandSubmission,
    Match,
    Player,
    Rating,
    Round,
    Seat,
    StandingsSnapshot,
    Tournament,
)
from tournaments.rules_words import call_word
from tournaments.rules_words import card as card_label
from tournaments.services import standings as standings_service

GAME_NAMES = dict(GAMES)
S = HandSubmission.Status

VULGAR = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def number(value: Any) -> str:
    """A score as people write it: 62, -12, 32¼, 4.33 (exact fractions stay exact where a
    score sheet would write them so; other fractions get two decimals)."""
    if value is None or value == "":
        return "—"
    try:
        exact = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return str(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    sign = "-" if exact < 0 else ""
    whole, part = divmod(abs(exact), 1)
    if part in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[part]}"
    return f"{float(exact):.2f}".rstrip("0").rstrip(".")


def side_numbers(scores: dict | None) -> dict[str, str]:
    """{"NS": "129/4"} -> {"NS": "32¼"}, for the `side_scores` filter."""
    return {side: number(value) for side, value in (scores or {}).items()}


# --- the club home ----------------------------------------------------------------------------


@dataclass
class ClubTournaments:
    running: list[Tournament]
    upcoming: list[Tournament]
    finished: list[Tournament]


def club_tournaments() -> ClubTournaments:
    """Every tournament, grouped the way a visitor looks for them: now, soon, past."""
    groups: dict[str, list[Tournament]] = defaultdict(list)
    for tournament in _with_entry_counts():
        groups[tournament.state].append(tournament)
    upcoming = groups[Tournament.State.REGISTRATION] + groups[Tournament.State.SETUP]
    return ClubTournaments(
        running=groups[Tournament.State.RUNNING],
        upcoming=upcoming,
        finished=groups[Tournament.State.FINISHED],
    )


def _with_entry_counts() -> QuerySet[Tournament]:
    active = ~Q(entries__status=Entry.Status.WITHDRAWN)
    return Tournament.objects.annotate(entry_count=Count("entries", filter=active))


def rated_games() -> list[tuple[str, str]]:
    """(game, name) for every game, in the club's order."""
    return [(game, str(name)) for game, name in GAMES]


# --- leaderboards ---------------------------------------------------------------------------


@dataclass
class LeaderRow:
    rank: int
    rating: Rating

    @property
    def win_rate(self) -> float | None:
        games = self.rating.games
        return self.rating.wins / games if games else None


def leaderboard(game: str) -> list[LeaderRow]:
    """The game's ratings, best ordinal first (ties: more games, then the older player)."""
    ratings = (
        Rating.objects.filter(game=game)
        .select_related("player")
        .order_by("-ordinal", "-games", "player_id")
    )
    return [LeaderRow(rank, rating) for rank, rating in enumerate(ratings, 1)]


# --- a tournament ---------------------------------------------------------------------------


def tournament_by_slug(slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug).first()


def entries(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .select_related("team__first", "team__second", "player")
        .order_by("registered_at", "id")
    )


def visible_rounds(tournament: Tournament, *, director: bool) -> list[Round]:
    """The rounds a visitor may see: published ones, and drafts for the directors."""
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    if not director:
        rounds = rounds.exclude(state=Round.State.DRAFT)
    return list(rounds)


def current_round(tournament: Tournament) -> Round | None:
    """The round a room watches: the newest one published."""
    return (
        Round.objects.filter(tournament=tournament)
        .exclude(state=Round.State.DRAFT)
        .order_by("-number")
        .first()
    )


# --- pairings -------------------------------------------------------------------------------


@dataclass
class SideView:
    side: str
    members: list[tuple[Entry, str]]  # each entry at this side with the seats it holds
    points: str = ""
    place: int | None = None
    outcome: str = ""

    @property
    def entries(self) -> list[Entry]:
        return [entry for entry, _seats in self.members]

    @property
    def shared(self) -> bool:
        """Several entries make up the side (progressive partnerships)."""
        return len(self.members) > 1


@dataclass
class TableView:
    match: Match
    number: int | None
    sides: list[SideView]
    hands: int = 0
    pending: int = 0
    disputed: int = 0

    @property
    def scores(self) -> dict[str, str]:
        return {s.side: s.points for s in self.sides if s.points}


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[Entry]


def _seat_prefetch() -> Prefetch:
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related(
            "entry__team__first", "entry__team__second", "entry__player"
        ).order_by("seats"),
    )


def round_view(round_: Round) -> RoundView:
    """Every table of a round with who sits where, the match's state and its score so far."""
    tournament = round_.tournament
    matches = list(
        Match.objects.filter(round=round_)
        .select_related("table")
        .prefetch_related(_seat_prefetch())
        .order_by("is_bye", "table__number", "id")
    )
    running = _running_scores(tournament, [m for m in matches if m.state == Match.State.PLAYING])
    counts = _hand_counts([m.pk for m in matches if not m.is_bye])
    order = gameplay.layout(tournament.game, tournament.rules).sides
    tables, byes = [], []
    for match in matches:
        if match.is_bye:
            byes.extend(seat.entry for seat in match.seats.all())
            continue
        tables.append(_table_view(match, order, running.get(match.pk), counts.get(match.pk)))
    return RoundView(round=round_, tables=tables, byes=byes)


def _table_view(
    match: Match, order: tuple[str, ...], running: dict[str, str] | None, counts: dict | None
) -> TableView:
    by_side: dict[str, SideView] = {}
    for seat in match.seats.all():
        view = by_side.setdefault(seat.side, SideView(side=seat.side, members=[]))
        view.members.append((seat.entry, seat.seats))
        if match.state == Match.State.FINISHED:
            view.points = number(seat.points_for)
            view.place = seat.place
            view.outcome = seat.outcome
    if running:
        for side, points in running.items():
            if side in by_side:
                by_side[side].points = points
    sides = sorted(by_side.values(), key=lambda v: order.index(v.side) if v.side in order else 9)
    counts = counts or {}
    return TableView(
        match=match,
        number=match.table.number if match.table else None,
        sides=sides,
        hands=counts.get("hands", 0),
        pending=counts.get(S.PENDING, 0),
        disputed=counts.get(S.REJECTED, 0),
    )


def _running_scores(tournament: Tournament, matches: list[Match]) -> dict[int, dict[str, str]]:
    """The game's points per side after the hands entered so far (pending ones included, as
    the standings' provisional scores count them), for matches still in play."""
    if not matches:
        return {}
    afters: dict[int, Any] = {}
    rows = (
        HandSubmission.objects.filter(hand__match__in=matches, is_current=True)
        .exclude(status=S.REJECTED)
        .order_by("hand__match_id", "hand__number")
        .values_list("hand__match_id", "result")
    )
    for match_id, result in rows:
        afters[match_id] = result.get("after")
    out = {}
    for match in matches:
        result = gameplay.outcome(tournament.game, tournament.rules, afters.get(match.pk))
        out[match.pk] = {side: number(points) for side, points in result.points.items()}
    return out


def _hand_counts(match_ids: list[int]) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    rows = HandSubmission.objects.filter(
        hand__match_id__in=match_ids, is_current=True
    ).values_list("hand__match_id", "status")
    for match_id, status in rows:
        out[match_id]["hands"] += 1
        out[match_id][status] += 1
    return out


# --- standings ------------------------------------------------------------------------------


@dataclass
class Column:
    name: str
    label: str


@dataclass
class StandingsRow:
    rank: int
    tied: bool
    entry: int
    name: str
    players: list[str]
    withdrawn: bool
    values: list[str]
    playing: dict | None = None  # the provisional match this entry is in, if shown
    brief: list[str] = field(default_factory=list)  # the projector's few columns


@dataclass
class ProvisionalMatch:
    round: int
    table: int
    hands: int
    confirmed: bool
    sides: list[tuple[str, list[str], str]]  # (side, entry names, points)


@dataclass
class StandingsView:
    snapshot: StandingsSnapshot | None
    stale: bool
    age: float | None
    columns: list[Column]
    rows: list[StandingsRow]
    provisional: list[ProvisionalMatch] | None
    rounds_closed: int = 0
    brief_columns: list[Column] = field(default_factory=list)

    @property
    def version(self) -> int:
        return self.snapshot.version if self.snapshot else 0

    @property
    def computed_at(self) -> datetime | None:
        return self.snapshot.computed_at if self.snapshot else None


SUMMARY_COLUMNS = ("played", "won", "drawn", "lost")


def standings_view(tournament: Tournament) -> StandingsView:
    """The latest standings snapshot as table rows: played, won, drawn, lost, then the
    tournament's ranking chain (match points first), with its age and staleness."""
    latest = standings_service.latest(tournament=tournament)
    payload = latest.snapshot.payload if latest.snapshot else {}
    chain = list(payload.get("tiebreaks") or tournament.tiebreaks or ["match_points"])
    if "match_points" not in chain:
        chain.insert(0, "match_points")
    names = [*SUMMARY_COLUMNS, *[n for n in chain if n not in SUMMARY_COLUMNS]]
    columns = [Column(n, metric_label(n)) for n in names]
    provisional = _provisional(payload.get("provisional"))
    playing = {}
    for item in payload.get("provisional") or []:
        for side in item["sides"].values():
            for entry_id in side["entries"]:
                playing[entry_id] = {"table": item["table"], "points": number(side["points"]),
                                     "confirmed": item["confirmed"]}
    brief = _brief(names, chain)
    rows = [
        StandingsRow(
            rank=row["rank"],
            tied=row.get("tied", False),
            entry=row["entry"],
            name=row["name"],
            players=row.get("players", []),
            withdrawn=row.get("withdrawn", False),
            values=[number(row["values"].get(n)) for n in names],
            playing=playing.get(row["entry"]),
            brief=[number(row["values"].get(n)) for n in brief],
        )
        for row in payload.get("rows", [])
    ]
    names_by_entry = {row.entry: row.name for row in rows}
    for match in provisional or []:
        match.sides = [(side, [names_by_entry.get(e, "?") for e in ids], points)
                       for side, ids, points in match.sides]
    return StandingsView(
        snapshot=latest.snapshot,
        stale=latest.stale,
        age=latest.age,
        columns=columns,
        rows=rows,
        provisional=provisional,
        rounds_closed=payload.get("rounds_closed", 0),
        brief_columns=[c for c in columns if c.name in brief],
    )


def _brief(names: list[str], chain: list[str]) -> list[str]:
    """What a room reads from across it: matches played, the first two keys of the ranking."""
    keys = [n for n in chain if n not in SUMMARY_COLUMNS][:2]
    return [n for n in names if n == "played" or n in keys]


def _provisional(items: list[dict] | None) -> list[ProvisionalMatch] | None:
    if items is None:
        return None
    return [
        ProvisionalMatch(
            round=item["round"],
            table=item["table"],
            hands=item["hands"],
            confirmed=item["confirmed"],
            sides=[(side, data["entries"], number(data["points"]))
                   for side, data in item["sides"].items()],
        )
        for item in items
    ]


# --- a match hand by hand -------------------------------------------------------------------


@dataclass
class TrickView:
    number: int
    leader: str | None
    plays: list[tuple[str | None, str]]  # (seat, card as printed), in the order played
    winner: str | None


@dataclass
class HandView:
    number: int
    submission: HandSubmission
    status: str  # confirmed, pending, disputed
    dealer: str
    calls: list[tuple[str, str]]  # (seat or side, call)
    tricks: dict[str, str]
    score: dict[str, str]
    totals: dict[str, str]
    facts: list[tuple[str, str]]  # game-specific (label, value): bags, honours, contract ...
    notes: list[str]
    play: list[TrickView] | None
    full: bool


@dataclass
class MatchView:
    match: Match
    tournament: Tournament
    sides: list[SideView]
    hands: list[HandView] = field(default_factory=list)
    final: dict[str, str] = field(default_factory=dict)

    @property
    def has_calls(self) -> bool:
        """Whether the game bids (Spades, Solo Whist): else the bids column is left out."""
        return any(hand.calls for hand in self.hands)


STATUS_WORDS = {S.CONFIRMED: "confirmed", S.PENDING: "pending", S.REJECTED: "disputed"}


def match_in(tournament: Tournament, match_id: int) -> Match | None:
    return (
        Match.objects.filter(round__tournament=tournament, pk=match_id, is_bye=False)
        .select_related("round__tournament", "table")
        .prefetch_related(_seat_prefetch())
        .first()
    )


def match_view(match: Match) -> MatchView:
    """The match's sides and every current hand version: what was bid, taken and scored."""
    tournament = match.round.tournament
    order = gameplay.layout(tournament.game, tournament.rules).sides
    table = _table_view(match, order, None, None)
    versions = (
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .order_by("hand__number")
    )
    view = MatchView(match=match, tournament=tournament, sides=table.sides)
    for version in versions:
        view.hands.append(_hand_view(tournament, version))
    if match.result:
        view.final = side_numbers(match.result.get("points"))
    return view


def _hand_view(tournament: Tournament, version: HandSubmission) -> HandView:
    record, result = version.record or {}, version.result or {}
    game = tournament.game
    return HandView(
        number=version.hand.number,
        submission=version,
        status=STATUS_WORDS.get(version.status, version.status),
        dealer=record.get("dealer", ""),
        calls=_calls(record),
        tricks={k: str(v) for k, v in (result.get("tricks") or record.get("tricks") or {}).items()},
        score=side_numbers(result.get("score")),
        totals=side_numbers((result.get("after") or {}).get("score")),
        facts=FACTS.get(game, lambda r, x: [])(record, result),
        notes=list(result.get("notes", [])),
        play=tricks(game, tournament.rules, record, result),
        full="deal" in record and "play" in record,
    )


def _calls(record: dict) -> list[tuple[str, str]]:
    out = []
    for call in record.get("calls") or []:
        who = call.get("seat") or call.get("side") or "?"
        out.append((who, call_word(record.get("game"), call.get("call", ""))))
    return out


NILS = {"nil", "double-nil", "double-blind-nil"}
NIL_LABELS = {"nil": _("Nil"), "double-nil": _("Double nil"),
              "double-blind-nil": _("Double blind nil")}


def _spades_facts(record: dict, result: dict) -> list[tuple[str, str]]:
    facts = []
    tricks = result.get("tricks") or record.get("tricks") or {}
    for call in record.get("calls") or []:
        if call.get("call") in NILS and call.get("seat") in tricks:
            made = tricks[call["seat"]] == 0
            label = NIL_LABELS[call["call"]]
            word = _("made") if made else _("failed")
            facts.append((str(label), f"{call['seat']}: {word}"))
    bags = (result.get("after") or {}).get("bags")
    if bags:
        facts.append((str(_("Bags")), " · ".join(f"{s} {v}" for s, v in bags.items())))
    return facts


def _whist_facts(record: dict, result: dict) -> list[tuple[str, str]]:
    facts = []
    trump = result.get("trump") or record.get("trump")
    if trump:
        facts.append((str(_("Trumps")), SUIT_SIGN.get(trump, trump)))
    honours = result.get("honours") or record.get("honours")
    if honours:
        facts.append((str(_("Honours held")), " · ".join(f"{s} {v}" for s, v in honours.items())))
    revokes = result.get("revokes") or []
    if revokes:
        facts.append((str(_("Revokes")), ", ".join(_revoke(r) for r in revokes)))
    after = result.get("after") or {}
    if after.get("games"):
        facts.append((str(_("Games")), " · ".join(f"{s} {v}" for s, v in after["games"].items())))
    if after.get("game_points"):
        facts.append((str(_("Game points")),
                      " · ".join(f"{s} {v}" for s, v in after["game_points"].items())))
    return facts


def _revoke(revoke: Any) -> str:
    if isinstance(revoke, dict):
        return f"{revoke.get('seat', '?')}×{revoke.get('count', 1)}"
    return str(revoke)


def _solo_facts(record: dict, result: dict) -> list[tuple[str, str]]:
    from tournaments.rules_words import BID_NAMES

    contract = result.get("contract")
    if not contract:
        return [(str(_("Contract")), str(_("thrown in (everyone passed)")))]
    bid = contract.get("bid", "")
    name = BID_NAMES[bid]() if bid in BID_NAMES else bid
    if bid == "prop":
        name = str(_("prop and cop"))
    declarer = contract.get("declarer", "?")
    if contract.get("partner"):
        declarer = f"{declarer} + {contract['partner']}"
    trump = contract.get("trump")
    facts = [
        (str(_("Contract")), str(name)),
        (str(_("Declarer")), declarer),
        (str(_("Trumps")), SUIT_SIGN.get(trump, trump) if trump else str(_("no trumps"))),
    ]
    score = result.get("score") or {}
    mine = score.get(contract.get("declarer"))
    if mine is not None:
        made = Fraction(str(mine)) > 0
        facts.append((str(_("Result")), str(_("made") if made else _("failed"))))
    return facts


def _german_facts(record: dict, result: dict) -> list[tuple[str, str]]:
    facts = []
    if result.get("winner"):
        facts.append((str(_("Winner")), result["winner"]))
    turned = record.get("turned") or (record.get("stock") or [None])[0]
    if turned:
        facts.append((str(_("Trumps")), SUIT_SIGN.get(turned[-1], turned[-1])))
    return facts


SUIT_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
FACTS = {
    "spades": _spades_facts,
    "whist": _whist_facts,
    "solo-whist": _solo_facts,
    "german-whist": _german_facts,
}


# --- tricks of a full record ----------------------------------------------------------------


def tricks(game: str, rules: Any, record: dict, result: dict) -> list[TrickView] | None:
    """Each trick of a full record: who led, who played what, who won; None without the play.

    Who played each card comes from the deal (after any exchange); who won from the engine's
    trump order (Spades) or the plain whist rule (highest trump, else highest of the suit led).
    Winners that disagree with the engine's trick counts are dropped rather than shown wrong.
    """
    play, deal = record.get("play"), record.get("deal")
    if not isinstance(play, list) or not isinstance(deal, dict) or not play:
        return None
    try:
        cards = [_trick_cards(trick) for trick in play]
    except (KeyError, TypeError, AttributeError):
        return None
    if game == "german-whist":
        views = _two_hand_tricks(record, cards)
    else:
        views = _seated_tricks(game, rules, record, result, cards)
    if not _agrees(game, rules, views, result, record):
        for view in views:
            view.winner = None
    return views


def _trick_cards(trick: Any) -> list[str]:
    names = trick.split() if isinstance(trick, str) else list(trick)
    return [_canonical(n) for n in names]


def _canonical(name: str) -> str:
    return NAMES[CARD_IDS[name]]


def _owners(record: dict) -> dict[str, str]:
    owner = {}
    for seat, held in record["deal"].items():
        for name in held:
            owner[_canonical(name)] = seat
    for move in record.get("exchange") or []:
        for name in move.get("cards", []):
            owner[_canonical(name)] = move.get("to", owner.get(_canonical(name)))
    return owner


def _seated_tricks(
    game: str, rules: Any, record: dict, result: dict, cards: list[list[str]]
) -> list[TrickView]:
    owner = _owners(record)
    beats = (
        _spades_order(rules) if game == "spades" else _whist_order(game, rules, record, result)
    )
    views = []
    for number_, trick in enumerate(cards, 1):
        seats = [owner.get(c) for c in trick]
        best = 0
        for i in range(1, len(trick)):
            if beats(number_, trick[0], trick[i], trick[best]):
                best = i
        views.append(TrickView(
            number=number_,
            leader=seats[0],
            plays=[(seat, card_label(c)) for seat, c in zip(seats, trick, strict=True)],
            winner=seats[best],
        ))
    return views


def _spades_order(rules: Any):
    compiled = get_game("spades").book.resolve(rules)[0]

    def beats(_number: int, lead: str, card: str, best: str) -> bool:
        keys = compiled.keys[compiled.suit[CARD_IDS[lead]]]
        return keys[CARD_IDS[card]] > keys[CARD_IDS[best]]

    return beats


def _whist_order(game: str, rules: Any, record: dict, result: dict):
    """Highest trump, else highest of the suit led; Solo Whist's trumps come from the
    contract (the turned suit for an abundance's first trick when the rules say so) and its
    joker plays as the turned card."""
    turned = record.get("turned")
    if game == "whist":
        trump, first = result.get("trump") or record.get("trump"), None
    else:
        contract = result.get("contract") or {}
        trump, first = contract.get("trump"), None
        compiled = get_game(game).book.resolve(rules)[0]
        if compiled.turned_first and contract.get("bid") == "abundance" and turned:
            first = turned[-1]

    def effective(card: str) -> str:
        return turned if card == "BJ" and turned else card

    def beats(number_: int, lead: str, card: str, best: str) -> bool:
        suit_trump = first if number_ == 1 and first else trump
        card, best = effective(card), effective(best)
        if card[-1] == best[-1]:
            return RANK_OF[CARD_IDS[card]] > RANK_OF[CARD_IDS[best]]
        return card[-1] == suit_trump

    return beats


def _two_hand_tricks(record: dict, cards: list[list[str]]) -> list[TrickView]:
    """German Whist: the non-dealer leads first, each winner leads the next; trumps are the
    turned card's suit (the stock's first card)."""
    stock = record.get("stock") or []
    turned = record.get("turned") or (stock[0] if stock else None)
    trump = _canonical(turned)[-1] if turned else None
    dealer = record.get("dealer", "N")
    leader = "S" if dealer == "N" else "N"
    views = []
    for number_, trick in enumerate(cards, 1):
        other = "S" if leader == "N" else "N"
        lead, follow = trick[0], trick[1] if len(trick) > 1 else trick[0]
        if follow[-1] == lead[-1]:
            winner = other if RANK_OF[CARD_IDS[follow]] > RANK_OF[CARD_IDS[lead]] else leader
        else:
            winner = other if follow[-1] == trump else leader
        views.append(TrickView(
            number=number_, leader=leader,
            plays=[(leader, card_label(lead)), (other, card_label(follow))], winner=winner,
        ))
        leader = winner
    return views


def _agrees(game: str, rules: Any, views: list[TrickView], result: dict, record: dict) -> bool:
    """Whether the derived winners add up to the engine's trick counts (when the whole play is
    there to count)."""
    stated = result.get("tricks")
    if not stated or record.get("claim") is not None:
        return True
    won: dict[str, int] = defaultdict(int)
    counted = views
    if game == "german-whist":
        compiled = get_game(game).book.resolve(rules)[0]
        if not compiled.all_count:
            counted = views[compiled.drawing:]
    for view in counted:
        if view.winner is None:
            return False
        key = view.winner
        if game == "whist":
            key = "NS" if view.winner in "NS" else "EW"
        won[key] += 1
    if sum(won.values()) != sum(int(v) for v in stated.values()):
        return True  # an early-settled play (misère lost at once): nothing to compare
    return all(won.get(seat, 0) == int(count) for seat, count in stated.items())


# --- a player ---------------------------------------------------------------------------------


@dataclass
class EventRow:
    tournament: Tournament
    entry: Entry
    rank: int | None
    tied: bool
    field_size: int
    match_points: str
    points_for: str


@dataclass
class ChartPoint:
    x: float
    y: float
    when: datetime | None
    ordinal: float
    mu: float
    sigma: float


@dataclass
class RatingChart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str
    low: float
    high: float
    y_low: float
    y_high: float
    zero_y: float | None
    left: int = 0  # the plotting area, in the SVG's own units
    right: int = 0
    top: int = 0
    bottom: int = 0


@dataclass
class PlayerRating:
    rating: Rating
    rank: int
    of: int
    chart: RatingChart | None

    @property
    def win_rate(self) -> float | None:
        return self.rating.wins / self.rating.games if self.rating.games else None

    @property
    def game_name(self) -> str:
        return str(GAME_NAMES.get(self.rating.game, self.rating.game))


def player_entries(player: Player) -> list[Entry]:
    return list(
        Entry.objects.filter(
            Q(player=player) | Q(team__first=player) | Q(team__second=player)
        )
        .select_related("tournament", "team__first", "team__second", "player")
        .order_by("-tournament__starts_at", "-tournament_id")
    )


def player_events(player: Player) -> list[EventRow]:
    """The tournaments the player entered (alone or in a team) with the place and points from
    each tournament's latest standings."""
    found = player_entries(player)
    latest: dict[int, dict] = {}
    snapshots = StandingsSnapshot.objects.filter(
        tournament_id__in={e.tournament_id for e in found}
    ).order_by("tournament_id", "-version")
    for snapshot in snapshots.iterator():
        latest.setdefault(snapshot.tournament_id, snapshot.payload)
    out = []
    for entry in found:
        payload = latest.get(entry.tournament_id, {})
        rows = payload.get("rows", [])
        mine = next((r for r in rows if r["entry"] == entry.pk), None)
        values = mine["values"] if mine else {}
        out.append(EventRow(
            tournament=entry.tournament,
            entry=entry,
            rank=mine["rank"] if mine else None,
            tied=bool(mine and mine.get("tied")),
            field_size=len(rows),
            match_points=number(values.get("match_points")) if mine else "—",
            points_for=number(values.get("points_for")) if mine else "—",
        ))
    return out


def player_ratings(player: Player) -> list[PlayerRating]:
    """The player's rating in each game with their place on that game's leaderboard."""
    out = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        ahead = Rating.objects.filter(game=rating.game).filter(
            Q(ordinal__gt=rating.ordinal)
            | Q(ordinal=rating.ordinal, games__gt=rating.games)
            | Q(ordinal=rating.ordinal, games=rating.games, player_id__lt=rating.player_id)
        ).count()
        total = Rating.objects.filter(game=rating.game).count()
        out.append(PlayerRating(rating, ahead + 1, total, rating_chart(rating.history)))
    return out


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 240, 56


def rating_chart(history: list) -> RatingChart | None:
    """Points for an inline SVG line of the ordinal over the rated matches (left to right in
    the order played); None for no history."""
    points = []
    for item in history or []:
        try:
            when, _match, mu, sigma, ordinal = item
        except (TypeError, ValueError):
            continue
        points.append((parse_datetime(when) if isinstance(when, str) else None,
                       float(mu), float(sigma), float(ordinal)))
    if not points:
        return None
    low = min(p[3] for p in points)
    high = max(p[3] for p in points)
    y_low, y_high = _nice_range(low, high)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(points) - 1)

    def y_of(value: float) -> float:
        return round(CHART_PAD + inner_h * (y_high - value) / (y_high - y_low), 1)

    chart_points = [
        ChartPoint(
            x=round(CHART_PAD + (i * step if len(points) > 1 else inner_w / 2), 1),
            y=y_of(ordinal), when=when, ordinal=ordinal, mu=mu, sigma=sigma,
        )
        for i, (when, mu, sigma, ordinal) in enumerate(points)
    ]
    return RatingChart(
        width=CHART_WIDTH, height=CHART_HEIGHT, points=chart_points,
        polyline=" ".join(f"{p.x},{p.y}" for p in chart_points),
        low=low, high=high, y_low=y_low, y_high=y_high,
        zero_y=y_of(0.0) if y_low < 0 < y_high else None,
        left=CHART_PAD, right=CHART_WIDTH - CHART_PAD,
        top=CHART_PAD, bottom=CHART_HEIGHT - CHART_PAD,
    )


def _nice_range(low: float, high: float) -> tuple[float, float]:
    """Axis ends on whole numbers a little outside the data (never an empty range)."""
    return float(math.floor(low) - 1), float(math.ceil(high) + 1)
