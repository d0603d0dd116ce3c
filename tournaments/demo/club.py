"""A realistic club demo, deterministic for a seed: a Spades Swiss (16 teams, 5 rounds, three
played, the fourth in play), a Solo Whist evening (12 players at tables of four), a finished
Spades cup (a Swiss of three rounds, then a top-8 knockout with a third-place match while the
others play a consolation Swiss), a German Whist season (four short evenings, the best three
counted), a finished duplicate Spades evening (a Mitchell of 5 tables, every board a legal full
record played from its deal) and a barometer Whist evening in play (the ranking after each
released round)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match, Tournament
from tournaments.services import Actor, PlayerSpec

GIVEN = [
    "Aiko",
    "Ben",
    "Chika",
    "Daniel",
    "Emi",
    "Fiona",
    "Goro",
    "Hana",
    "Isamu",
    "Jun",
    "Kenta",
    "Laura",
    "Mai",
    "Naoki",
    "Olivia",
    "Priya",
    "Riku",
    "Sakura",
    "Takumi",
    "Uma",
    "Wataru",
    "Yui",
    "Zoe",
    "Haruto",
    "Mio",
    "Sota",
    "Rin",
    "Kaito",
    "Hinata",
    "Tom",
    "Ellen",
    "Marco",
]
FAMILY = [
    "Sato",
    "Suzuki",
    "Takahashi",
    "Tanaka",
    "Watanabe",
    "Ito",
    "Yamamoto",
    "Nakamura",
    "Kobayashi",
    "Kato",
    "Smith",
    "Jones",
    "Brown",
    "Taylor",
    "Wilson",
    "Evans",
    "Clarke",
    "Murphy",
    "Rossi",
    "Patel",
]
TEAMS = [
    "Nil Desperandum",
    "Bag Ladies",
    "Spade Runners",
    "Blind Ambition",
    "Moonshot",
    "The Sandbaggers",
    "Trump Cards",
    "Big Slick",
    "Double Trouble",
    "Late Bidders",
    "Kyoto Aces",
    "Shibuya Shufflers",
    "Ten for Two",
    "Overtricks",
    "Set Piece",
    "Last Trick",
]
DEMO_DIRECTOR = ("director", "tricktable")


def _names(rng: random.Random, count: int) -> list[str]:
    pool = [f"{g} {f}" for g in GIVEN for f in FAMILY]
    return rng.sample(pool, count)


def director_actor() -> Actor:
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_DIRECTOR[0]).first()
    if user is None:
        user = user_model.objects.create_superuser(
            DEMO_DIRECTOR[0], email="director@example.org", password=DEMO_DIRECTOR[1]
        )
    return Actor(user=user, label="demo director")


def _play_round(
    tournament: Tournament, director: Actor, rng: random.Random, *, finish: bool = True
) -> None:
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    matches = list(Match.objects.filter(round=round_, is_bye=False).order_by("table__number"))
    if not finish:
        _part_play(matches, director, rng)
        return
    for match in matches:
        simulate.play_match(match, rng, director=director, hands=tournament.match_hands or 24)
    services.close_round(round=round_, actor=director)


def _part_play(matches: list[Match], director: Actor, rng: random.Random) -> None:
    """A round in play: some tables done, some mid-match, one hand awaiting confirmation and
    one disputed (in the director's queue)."""
    for index, match in enumerate(matches):
        if index < len(matches) // 2:
            simulate.play_match(match, rng, director=director, hands=24)
        elif index == len(matches) - 1:
            continue  # not started yet
        else:
            simulate.play_match(match, rng, hands=2 + index % 3)
            if index == len(matches) - 2:
                simulate.play_hand(match, rng, confirm=False)
            elif index == len(matches) - 3:
                pending = simulate.play_hand(match, rng, confirm=False)
                other = simulate.answerer(match, pending)
                services.reject_hand(
                    submission=pending,
                    expected_version=pending.version,
                    actor=other,
                    reason="we counted 4 tricks for North, not 3",
                )


@transaction.atomic
def build_spades(
    seed: int = 2026, *, start: datetime | None = None, teams: int = 16, played: int = 3
) -> Tournament:
    """The Spades Swiss: `teams` teams, five rounds, `played` of them closed and the next in
    play."""
    rng = random.Random(seed)
    director = director_actor()
    start = start or timezone.now().replace(hour=18, minute=30, second=0, microsecond=0)
    tournament = services.create_tournament(
        actor=director,
        name="Friday Night Spades",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=5,
        match_length="target",
        seed=seed,
        starts_at=start,
        venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    names = _names(rng, 2 * teams)
    for index, team in enumerate(TEAMS[:teams]):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=team,
            players=[PlayerSpec(names[2 * index]), PlayerSpec(names[2 * index + 1])],
        )
    for entry in tournament.entries.all():
        services.check_in(entry=entry, actor=director)
    for _ in range(played):
        _play_round(tournament, director, rng)
    _play_round(tournament, director, rng, finish=False)
    return tournament


@transaction.atomic
def build_solo_whist(
    seed: int = 2026, *, start: datetime | None = None, players: int = 12, rounds: int = 3
) -> Tournament:
    """The Solo Whist evening: `players` players at tables of four, every round played."""
    rng = random.Random(seed + 1)
    director = director_actor()
    start = start or (timezone.now() - timedelta(days=7)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    tournament = services.create_tournament(
        actor=director,
        name="Solo Whist Evening",
        game="solo-whist",
        rules="phillips",
        format="individual",
        rounds=rounds,
        match_length="hands",
        match_hands=8,
        place_points=[3, 2, 1, 0],
        seed=seed,
        starts_at=start,
        venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    for name in _names(rng, players):
        services.register_entry(tournament=tournament, actor=director, players=[PlayerSpec(name)])
    for _ in range(rounds):
        _play_round(tournament, director, rng)
    services.finish_tournament(tournament=tournament, actor=director)
    return tournament


@transaction.atomic
def build_cup(
    seed: int = 2026,
    *,
    start: datetime | None = None,
    teams: int = 12,
    rounds: int = 3,
    cut: int = 8,
) -> Tournament:
    """The Spades cup: a Swiss of `rounds` rounds (three hands a match), the top `cut` into a
    seeded knockout (three hands a match, a tie-break hand while level, a third-place match;
    entered as summary records), the rest on in a consolation Swiss; finished."""
    rng = random.Random(seed + 2)
    director = director_actor()
    start = start or (timezone.now() - timedelta(days=14)).replace(
        hour=13, minute=0, second=0, microsecond=0
    )
    tournament = services.create_tournament(
        actor=director,
        name="Spring Spades Cup",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=rounds,
        match_length="hands",
        match_hands=3,
        seed=seed,
        starts_at=start,
        venue="Koenji Community Hall",
    )
    services.set_knockout(
        tournament=tournament,
        actor=director,
        top_cut=cut,
        length="hands",
        count=3,
        tiebreak_hands=1,
        third_place=True,
        consolation=True,
    )
    services.open_registration(tournament=tournament, actor=director)
    names = _names(rng, 2 * teams)
    for index, team in enumerate(TEAMS[-teams:]):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=team,
            players=[PlayerSpec(names[2 * index]), PlayerSpec(names[2 * index + 1])],
        )
    for _ in range(rounds):
        _play_round(tournament, director, rng)
    tournament.refresh_from_db()
    listed = services.cut_list(tournament=tournament)
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    tournament.refresh_from_db()
    latest = tournament.round_set.order_by("-number").first()
    while services.can_generate_round(tournament=tournament, latest=latest) is None:
        latest = services.generate_round(tournament=tournament, actor=director)
        services.publish_round(round=latest, actor=director)
        for match in Match.objects.filter(round=latest, is_bye=False).order_by("table__number"):
            if match.bracket_round is not None:  # played out: a knockout match ends by itself
                simulate.play_match(match, rng, summary=True)
            else:
                simulate.play_match(match, rng, director=director, hands=3, summary=True)
        latest = services.close_round(round=latest, actor=director)
    services.finish_tournament(tournament=tournament, actor=director)
    return tournament


SEASON_EVENINGS = 4
SEASON_BEST = 3


@transaction.atomic
def build_season(
    seed: int = 2026,
    *,
    start: datetime | None = None,
    players: int = 6,
    evenings: int = SEASON_EVENINGS,
) -> list[Tournament]:
    """A German Whist season: `evenings` short Swiss evenings (two rounds of one-deal matches)
    a week apart for the same club players (one misses an evening), added up by placing
    points, the best SEASON_BEST evenings counted, so a dropped evening shows."""
    from tournaments.seasons import services as seasons

    rng = random.Random(seed + 3)
    director = director_actor()
    start = start or (timezone.now() - timedelta(days=7 * evenings)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    series = seasons.create_series(
        actor=director,
        name="German Whist Winter Season",
        game="german-whist",
        rule="placing",
        points=[10, 8, 6, 5, 4, 3],
        best=SEASON_BEST,
    )
    names = _names(rng, players)
    out = []
    for night in range(evenings):
        tournament = services.create_tournament(
            actor=director,
            name=f"German Whist Night {night + 1}",
            game="german-whist",
            rules="standard",
            format="swiss",
            rounds=2,
            match_length="hands",
            match_hands=1,
            seed=seed + night,
            starts_at=start + timedelta(days=7 * night),
            venue="Koenji Community Hall",
        )
        services.open_registration(tournament=tournament, actor=director)
        present = [n for i, n in enumerate(names) if i != night % players or night == 0]
        for name in present:
            services.register_entry(
                tournament=tournament, actor=director, players=[PlayerSpec(name)]
            )
        for _ in range(2):
            _play_round(tournament, director, rng)
        services.finish_tournament(tournament=tournament, actor=director)
        seasons.add_tournament(actor=director, series=series, tournament=tournament)
        tournament.refresh_from_db()
        out.append(tournament)
    return out


DUPLICATE_PAIRS = [
    "Aces High",
    "Quiet Nil",
    "Two Bags",
    "North Star",
    "Cut & Run",
    "Tokyo Trumps",
    "Blue Suits",
    "Last Lead",
    "Fast Finesse",
    "Kitchen Table",
]


def _duplicate_round(
    tournament: Tournament, director: Actor, rng: random.Random, *, complete: bool = True
) -> None:
    """Start the next round; each table plays its boards as legal full records from the
    boards' deals (`duplicate.simulate.play_board`), NS entering, EW confirming with its PIN.
    `complete=False` leaves the round in play: a table done, one awaiting a confirmation."""
    from tournaments.duplicate import services as dup
    from tournaments.duplicate.engine import Board as Dealt
    from tournaments.duplicate.engine.simulate import play_board
    from tournaments.models import Board

    round_ = dup.start_round(tournament=tournament, actor=director)
    event = dup.event_of(tournament)
    boards = {b.number: b for b in Board.objects.filter(tournament=tournament)}
    matches = list(round_.matches.select_related("table", "round").order_by("table__number"))
    for index, match in enumerate(matches):
        pins = dict(match.seats.values_list("side", "entry__pin"))
        ns = Actor(table=match.table_id, side="NS", pin=pins["NS"], label="NS scorer")
        ew = Actor(table=match.table_id, side="EW", pin=pins["EW"], label="EW scorer")
        assert match.table is not None  # a duplicate round has no byes
        numbers = dup.boards_of(event, round_.number, match.table.number)
        if not complete:
            numbers = numbers if index == 0 else numbers[:1] if index == 1 else []
        for number in numbers:
            b = boards[number]
            dealt = Dealt(
                number=number,
                dealer=b.dealer,
                hands={s: tuple(c) for s, c in b.hands.items()},
                turned=b.turned or None,
            )
            record = play_board(
                dealt, tournament.game, tournament.rules, seed=rng.randrange(1 << 30)
            )
            out = dup.submit_board_result(match=match, board=number, record=record, actor=ns)
            if complete or index == 0:
                dup.confirm_board_result(
                    result=out.result, actor=ew, expected_version=out.result.version
                )
    if complete:
        dup.close_duplicate_round(round=round_, actor=director)


def _duplicate_pairs(
    tournament: Tournament, director: Actor, rng: random.Random, count: int
) -> None:
    names = _names(rng, 2 * count)
    for index in range(count):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=DUPLICATE_PAIRS[index % len(DUPLICATE_PAIRS)],
            players=[PlayerSpec(names[2 * index]), PlayerSpec(names[2 * index + 1])],
        )


@transaction.atomic
def build_duplicate_spades(
    seed: int = 2026, *, start: datetime | None = None, tables: int = 5, boards_per_round: int = 2
) -> Tournament:
    """A finished duplicate Spades evening: a Mitchell of `tables` tables, every round played
    and released, the deals and travellers published."""
    from tournaments.duplicate import services as dup

    rng = random.Random(seed + 2)
    director = director_actor()
    start = start or (timezone.now() - timedelta(days=3)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    tournament = dup.create_duplicate_tournament(
        actor=director,
        name="Duplicate Spades Night",
        game="spades",
        rules="standard",
        movement="mitchell",
        tables=tables,
        boards_per_round=boards_per_round,
        board_scoring="cga",
        comparison="matchpoints",
        deal_seed=f"demo-{seed}",
        starts_at=start,
        venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    _duplicate_pairs(tournament, director, rng, 2 * tables)
    dup.start_duplicate(tournament=tournament, actor=director)
    for _ in range(tournament.rounds):
        _duplicate_round(tournament, director, rng)
    dup.finish_duplicate(tournament=tournament, actor=director)
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def build_duplicate_whist(
    seed: int = 2026, *, start: datetime | None = None, tables: int = 3, played: int = 2
) -> Tournament:
    """A barometer Whist evening in play: `played` rounds closed and released (the ranking
    after each round), the next round under way."""
    from tournaments.duplicate import services as dup

    rng = random.Random(seed + 3)
    director = director_actor()
    start = start or timezone.now().replace(hour=19, minute=30, second=0, microsecond=0)
    tournament = dup.create_duplicate_tournament(
        actor=director,
        name="Barometer Whist",
        game="whist",
        rules="short-whist",
        movement="barometer",
        tables=tables,
        rounds=played + 2,
        boards_per_round=2,
        comparison="matchpoints",
        deal_seed=f"demo-whist-{seed}",
        starts_at=start,
        venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    _duplicate_pairs(tournament, director, rng, 2 * tables)
    dup.start_duplicate(tournament=tournament, actor=director)
    for number in range(1, played + 1):
        _duplicate_round(tournament, director, rng)
        dup.release_results(tournament=tournament, actor=director, through_round=number)
    _duplicate_round(tournament, director, rng, complete=False)
    tournament.refresh_from_db()
    return tournament


def build(seed: int = 2026) -> list[Tournament]:
    return [
        build_solo_whist(seed),
        build_cup(seed),
        build_spades(seed),
        *build_season(seed),
        build_duplicate_spades(seed),
        build_duplicate_whist(seed),
    ]
