"""Creating a tournament and moving it through its life: setup → registration → running →
finished."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import gameplay
from tournaments.models import GAMES, Round, Tournament, max_length

from .actors import Actor, acting_club, audit, require_club_director, require_director
from .errors import Conflict, Invalid, ServiceError
from .table_access import expire_event_cards

MAX_NAME = max_length(Tournament, "name")
MAX_VENUE = max_length(Tournament, "venue")
MAX_SLUG = max_length(Tournament, "slug")
MAX_ROUNDS = 32767  # a PositiveSmallIntegerField
MAX_SEED = 2**31 - 1  # a PositiveIntegerField
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
MAX_POINTS = Decimal("9999.9")  # DecimalField(max_digits=5, decimal_places=1)


def _points_ok(value: Any) -> bool:
    """A number the points columns hold (five digits, one of them after the point)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return False
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        return False
    return number.is_finite() and abs(number) <= MAX_POINTS


def _check_tiebreaks(names: Any) -> list[str]:
    from tournaments.standings import StandingsError, validate_tiebreaks

    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ServiceError("bad-tiebreaks", "tiebreaks must be a list of metric names")
    try:
        return list(validate_tiebreaks(names))
    except StandingsError as error:
        raise ServiceError("bad-tiebreaks", str(error)) from error


CHAIN_FOR_FORMAT = {"round-robin": "round_robin", "individual": "tables"}


def default_tiebreaks(fmt: str = "swiss") -> list[str]:
    """The standings engine's suggested chain for a format (docs/standings.md says why)."""
    from tournaments.standings import DEFAULT_CHAINS, DEFAULT_TIEBREAKS

    return list(DEFAULT_CHAINS.get(CHAIN_FOR_FORMAT.get(fmt, fmt), DEFAULT_TIEBREAKS))


#: Addresses under /director/ that are pages, not tournaments (`director/publishing/`): a
#: tournament named so gets the next free slug, as if an event already had it.
RESERVED_SLUGS = frozenset({"new", "publishing", "members", "club"})


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:60] or "tournament"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS
    slug, n = base, 1
    while slug in taken:  # one query, however many events share the name
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_tournament(
    *,
    actor: Actor,
    name: str,
    game: str,
    rules: Any,
    format: str,
    rounds: int | None = None,
    slug: str = "",
    match_length: str = Tournament.MatchLength.TARGET,
    match_hands: int | None = None,
    table_size: int | None = None,
    double_round_robin: bool = False,
    points_win: Decimal = Decimal(2),
    points_draw: Decimal = Decimal(1),
    points_loss: Decimal = Decimal(0),
    points_bye: Decimal | None = None,
    place_points: list | None = None,
    tiebreaks: list[str] | None = None,
    late_entry: str = Tournament.LateEntry.ZERO,
    show_provisional: bool = False,
    confirmation: str = Tournament.Confirmation.PIN,
    seed: int = 0,
    starts_at: Any = None,
    venue: str = "",
    duplicate: bool = False,
    knockout: dict[str, Any] | None = None,
) -> Tournament:
    """A tournament in setup, with its rules checked by the rules engine; the acting user (if
    any) becomes its first director. A duplicate event is made by
    `services.duplicate.create_duplicate_tournament` (which passes `duplicate=True`).

    A knockout's rounds follow from its field: `rounds` may be left out (it is stored as 1 and
    never read). `knockout`: the knockout's settings at once (the keyword arguments of
    `knockout.set_knockout`, which checks them), in the same transaction: refused, nothing is
    created."""
    if rounds is None and format == Tournament.Format.KNOCKOUT:
        rounds = 1
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("bad-name", "a tournament needs a name")
    if len(name.strip()) > MAX_NAME:
        raise ServiceError("bad-name", f"a tournament's name is at most {MAX_NAME} characters")
    if len(venue or "") > MAX_VENUE:
        raise ServiceError("bad-venue", f"a venue is at most {MAX_VENUE} characters")
    if slug:
        if not isinstance(slug, str) or len(slug) > MAX_SLUG or not SLUG.fullmatch(slug):
            raise ServiceError("bad-slug", f"a slug is 1 to {MAX_SLUG} of a-z, 0-9, '-' and '_'")
        if Tournament.objects.filter(slug=slug).exists():
            raise Conflict("slug-taken", f"the slug {slug!r} is taken")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise ServiceError("bad-seed", f"the pairing seed is a whole number from 0 to {MAX_SEED}")
    if game not in {g for g, _ in GAMES}:
        raise ServiceError("bad-game", f"game must be one of {[g for g, _ in GAMES]}")
    if format not in Tournament.Format.values:
        raise ServiceError("bad-format", f"format must be one of {Tournament.Format.values}")
    if (format == Tournament.Format.DUPLICATE) != duplicate:
        raise ServiceError(
            "bad-format",
            "a duplicate event is created with its movement (create_duplicate_tournament)",
        )
    if match_length not in Tournament.MatchLength.values:
        raise ServiceError(
            "bad-match-length", f"match length must be one of {Tournament.MatchLength.values}"
        )
    if match_length == Tournament.MatchLength.HANDS and not (
        isinstance(match_hands, int)
        and not isinstance(match_hands, bool)
        and 1 <= match_hands <= MAX_ROUNDS
    ):
        raise ServiceError("bad-match-length", _("a fixed-length match needs its number of hands"))
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(
            "bad-rounds", _("a tournament has 1 to %(max)d rounds") % {"max": MAX_ROUNDS}
        )
    if late_entry not in Tournament.LateEntry.values:
        raise ServiceError(
            "bad-late-entry", f"late entry must be one of {Tournament.LateEntry.values}"
        )
    if confirmation not in Tournament.Confirmation.values:
        raise ServiceError(
            "bad-confirmation",
            f"confirmation must be one of {Tournament.Confirmation.values}",
        )
    try:
        canonical = gameplay.canonical_rules(game, rules)
        shape = gameplay.layout(game, canonical)
        size = table_size or len(shape.seats)
        gameplay.check_format(game, canonical, format, size)
    except gameplay.RulesProblem as problem:
        raise ServiceError(problem.code, problem.message) from problem
    if size != len(shape.seats):
        raise ServiceError(
            "bad-format",
            _("these rules seat %(seats)d players at a table, not %(size)d")
            % {"seats": len(shape.seats), "size": size},
        )
    if place_points is not None and not isinstance(place_points, list | tuple):
        raise ServiceError("bad-points", "points by place are a list of numbers")
    points = [points_win, points_draw, points_loss, points_bye, *(place_points or [])]
    if not all(_points_ok(p) for p in points if p is not None):
        raise ServiceError(
            "bad-points",
            _("points are numbers between -%(max)s and %(max)s") % {"max": MAX_POINTS},
        )
    if not (points_win >= points_draw >= points_loss):
        raise ServiceError("bad-points", _("points must be win ≥ draw ≥ loss"))
    if place_points is None:
        place_points = list(range(size - 1, -1, -1)) if format == "individual" else []
    if format == "individual" and (
        len(place_points) != size or not all(isinstance(p, int | float) for p in place_points)
    ):
        raise ServiceError(
            "bad-points", _("give points for each of the %(size)d places") % {"size": size}
        )
    chain = _check_tiebreaks(tiebreaks) if tiebreaks is not None else default_tiebreaks(format)
    club = acting_club(actor)
    require_club_director(actor, club)
    tournament = Tournament.objects.create(
        club=club,
        name=name.strip(),
        slug=slug or _unique_slug(name),
        game=game,
        rules=canonical,
        format=format,
        double_round_robin=double_round_robin,
        rounds=rounds,
        table_size=size,
        match_length=match_length,
        match_hands=match_hands if match_length == Tournament.MatchLength.HANDS else None,
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        points_bye=_bye_points(format, points_bye, points_win, points_draw, place_points),
        place_points=[str(Decimal(str(p))) for p in place_points],
        tiebreaks=chain,
        late_entry=late_entry,
        show_provisional=show_provisional,
        confirmation=confirmation,
        seed=seed,
        starts_at=starts_at,
        venue=venue,
    )
    if actor.user_or_none() is not None:
        tournament.directors.add(actor.user)
    audit(tournament=tournament, actor=actor, action="tournament-created", subject=tournament.slug)
    if knockout:
        from tournaments.knockout.services import set_knockout

        tournament = set_knockout(tournament=tournament, actor=actor, **knockout)
    return tournament


def _bye_points(
    fmt: str, given: Decimal | None, win: Decimal, draw: Decimal, place_points: list
) -> Decimal:
    """A bye scores a win in a two-sided event by default; a sit-out from tables scores the
    average place (individual) or a draw (progressive), so sitting out neither wins nor loses."""
    if given is not None:
        return given
    if fmt == Tournament.Format.INDIVIDUAL:
        mean = sum((Decimal(str(p)) for p in place_points), Decimal(0)) / len(place_points)
        return mean.quantize(Decimal("0.1"))
    if fmt == Tournament.Format.PROGRESSIVE:
        return draw
    return win


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def open_registration(*, tournament: Tournament, actor: Actor) -> Tournament:
    require_director(actor, tournament)
    tournament = _locked(tournament)
    if tournament.state != Tournament.State.SETUP:
        raise Conflict("bad-state", f"registration opens from setup, not {tournament.state}")
    tournament.state = Tournament.State.REGISTRATION
    tournament.save(update_fields=["state"])
    audit(tournament=tournament, actor=actor, action="registration-opened")
    return tournament


@transaction.atomic
def close_registration(*, tournament: Tournament, actor: Actor) -> Tournament:
    """Stop public registration (back to setup): nobody but a director enters anyone until
    it opens again — the director's answer to a form flooded with made-up entries (issue 30,
    item 4). Entries made so far stay; pairing is not affected."""
    require_director(actor, tournament)
    tournament = _locked(tournament)
    if tournament.state != Tournament.State.REGISTRATION:
        raise Conflict("bad-state", f"only open registration closes, not {tournament.state}")
    tournament.state = Tournament.State.SETUP
    tournament.save(update_fields=["state"])
    audit(tournament=tournament, actor=actor, action="registration-closed")
    return tournament


@transaction.atomic
def finish_tournament(*, tournament: Tournament, actor: Actor) -> Tournament:
    """Close the event: every round generated so far must be closed."""
    require_director(actor, tournament)
    tournament = _locked(tournament)
    if tournament.state == Tournament.State.FINISHED:
        return tournament
    open_rounds = tournament.round_set.exclude(state=Round.State.CLOSED)
    if open_rounds.exists():
        numbers = ", ".join(str(r.number) for r in open_rounds)
        raise Invalid("rounds-open", f"close round(s) {numbers} first")
    if not tournament.round_set.exists():
        raise Invalid("no-rounds", "no round has been played")
    tournament.state = Tournament.State.FINISHED
    tournament.save(update_fields=["state"])
    expire_event_cards(tournament)  # the table cards were valid until the event ended
    audit(
        tournament=tournament,
        actor=actor,
        action="tournament-finished",
        data={"at": timezone.now().isoformat()},
    )
    from . import notify, standings

    notify.results_changed(tournament)
    standings.round_closed(tournament.pk)  # the final standings at once
    return tournament
