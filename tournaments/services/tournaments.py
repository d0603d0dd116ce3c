"""Creating a tournament and moving it through its life: setup → registration → running →
finished."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tournaments import gameplay
from tournaments.models import Round, Tournament

from .actors import Actor, audit, require_director
from .errors import Conflict, Invalid, ServiceError


def _check_tiebreaks(names: Any) -> list[str]:
    from tournaments.standings import StandingsError, validate_tiebreaks

    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ServiceError("bad-tiebreaks", "tiebreaks must be a list of metric names")
    try:
        return list(validate_tiebreaks(names))
    except StandingsError as error:
        raise ServiceError("bad-tiebreaks", str(error)) from error


def default_tiebreaks() -> list[str]:
    from tournaments.standings import DEFAULT_TIEBREAKS

    return list(DEFAULT_TIEBREAKS)


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:60] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
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
    rounds: int,
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
    seed: int = 0,
    starts_at: Any = None,
    venue: str = "",
) -> Tournament:
    """A tournament in setup, with its rules checked by the rules engine; the acting user (if
    any) becomes its first director."""
    if not name or not name.strip():
        raise ServiceError("bad-name", "a tournament needs a name")
    if format not in Tournament.Format.values:
        raise ServiceError("bad-format", f"format must be one of {Tournament.Format.values}")
    if match_length not in Tournament.MatchLength.values:
        raise ServiceError(
            "bad-match-length", f"match length must be one of {Tournament.MatchLength.values}"
        )
    if match_length == Tournament.MatchLength.HANDS and not (match_hands and match_hands > 0):
        raise ServiceError("bad-match-length", "a fixed-length match needs its number of hands")
    if not isinstance(rounds, int) or rounds < 1:
        raise ServiceError("bad-rounds", "a tournament has at least one round")
    if late_entry not in Tournament.LateEntry.values:
        raise ServiceError(
            "bad-late-entry", f"late entry must be one of {Tournament.LateEntry.values}"
        )
    try:
        canonical = gameplay.canonical_rules(game, rules)
        shape = gameplay.layout(game, canonical)
        size = table_size or len(shape.seats)
        gameplay.check_format(game, canonical, format, size)
    except gameplay.RulesProblem as problem:
        raise ServiceError(problem.code, problem.message) from problem
    if not (points_win >= points_draw >= points_loss):
        raise ServiceError("bad-points", "points must be win ≥ draw ≥ loss")
    if place_points is None:
        place_points = list(range(size - 1, -1, -1)) if format == "individual" else []
    if format == "individual" and (
        len(place_points) != size or not all(isinstance(p, int | float) for p in place_points)
    ):
        raise ServiceError("bad-points", f"give points for each of the {size} places")
    chain = _check_tiebreaks(tiebreaks) if tiebreaks is not None else default_tiebreaks()
    tournament = Tournament.objects.create(
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
        points_bye=points_win if points_bye is None else points_bye,
        place_points=[str(Decimal(str(p))) for p in place_points],
        tiebreaks=chain,
        late_entry=late_entry,
        show_provisional=show_provisional,
        seed=seed,
        starts_at=starts_at,
        venue=venue,
    )
    if actor.user_or_none() is not None:
        tournament.directors.add(actor.user)
    audit(tournament=tournament, actor=actor, action="tournament-created", subject=tournament.slug)
    return tournament


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
    audit(
        tournament=tournament,
        actor=actor,
        action="tournament-finished",
        data={"at": timezone.now().isoformat()},
    )
    from . import notify

    notify.results_changed(tournament)
    return tournament
