"""Entries: register (publicly while registration is open, or by a director), check in,
withdraw, late entries, seeds and fixed tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q

from tournaments.models import (
    Club,
    Entry,
    KeepApart,
    Player,
    Round,
    Team,
    Tournament,
    home_club,
    max_length,
)

from .actors import Actor, audit, is_director, require_director, require_not_published
from .errors import Conflict, NotAllowed, NotFound, ServiceError

MAX_CLUB_NUMBER = max_length(Player, "club_number")
MAX_EMAIL = max_length(Player, "email")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    name: str
    club_number: str = ""
    email: str = ""


def find_or_create_player(
    spec: PlayerSpec, *, trusted: bool = True, club: Club | None = None
) -> Player:
    """The club's player: by club number when given, else by exact name (case-insensitive).

    Untrusted (a public registration): members' names and club numbers are public, so neither
    proves who registers. A member's record (one with a club number) is never taken by name,
    and a club number that is already a member's gives a new player without it
    (`claimed_member` says which member it named: the director links them if it is the member).
    A record without a club number is still found by its name, as before."""
    player, _claimed = _player_for(spec, trusted=trusted, club=club or home_club())
    return player


def _player_for(spec: PlayerSpec, *, trusted: bool, club: Club) -> tuple[Player, Player | None]:
    """(the player, the member whose club number an untrusted registration gave, if any), among
    the club's players (another club's members are never taken)."""
    members = Player.objects.filter(club=club)
    name = " ".join(spec.name.split())
    club_number = (spec.club_number or "").strip()
    email = (spec.email or "").strip()
    if not name:
        raise ServiceError("bad-player", "every player needs a name")
    if len(name) > 100:
        raise ServiceError("bad-player", "a player's name is at most 100 characters")
    if len(club_number) > MAX_CLUB_NUMBER:
        raise ServiceError("bad-player", f"a club number is at most {MAX_CLUB_NUMBER} characters")
    if len(email) > MAX_EMAIL:
        raise ServiceError("bad-player", f"an email address is at most {MAX_EMAIL} characters")
    if club_number:
        player = members.filter(club_number=club_number).first()
        if player is not None:
            if trusted:
                return player, None
            return Player.objects.create(club=club, name=name, email=email), player
        try:
            with transaction.atomic():
                return Player.objects.create(
                    club=club, name=name, club_number=club_number, email=email
                ), None
        except IntegrityError:  # created at the same moment by another registration
            player = members.get(club_number=club_number)
            if trusted:
                return player, None
            return Player.objects.create(club=club, name=name, email=email), player
    player = members.filter(name__iexact=name, club_number="").order_by("id").first()
    if player is None and trusted:  # a director may mean the member of that name
        player = members.filter(name__iexact=name).order_by("id").first()
    return player or Player.objects.create(club=club, name=name, email=email), None


def _check_seed(seed: object) -> None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 1):
        raise ServiceError("bad-seed", "a seed is a whole number from 1")


MAX_AFFILIATION = max_length(Entry, "affiliation")


def _affiliation(text: object) -> str:
    if not isinstance(text, str):
        raise ServiceError("bad-affiliation", "an affiliation is text")
    text = " ".join(text.split())
    if len(text) > MAX_AFFILIATION:
        raise ServiceError(
            "bad-affiliation", f"an affiliation is at most {MAX_AFFILIATION} characters"
        )
    return text


def _specs(players: Sequence[PlayerSpec | str]) -> list[PlayerSpec]:
    return [p if isinstance(p, PlayerSpec) else PlayerSpec(name=str(p)) for p in players]


def _rounds_published(tournament: Tournament) -> int:
    return tournament.round_set.public().count()


@transaction.atomic
def register_entry(
    *,
    tournament: Tournament,
    actor: Actor,
    players: Sequence[PlayerSpec | str],
    name: str = "",
    seed: int | None = None,
    late_entry: str = "",
    checked_in: bool = False,
    affiliation: str = "",
) -> Entry:
    """Enter a team (two players) or a player. Anyone may register while registration is open;
    a director may also before it opens and, as a late entry, once rounds are under way. A
    director registering someone who is at the desk checks them in at once (`checked_in`)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_not_published(actor, tournament)
    director = is_director(actor, tournament)
    if checked_in and not director:
        raise NotAllowed("not-director", "only a director checks entries in")
    state = tournament.state
    if state == Tournament.State.FINISHED:
        raise Conflict("tournament-finished", "the tournament is over")
    if not director and state != Tournament.State.REGISTRATION:
        raise NotAllowed("registration-closed", "registration is not open")
    if late_entry and late_entry not in Tournament.LateEntry.values:
        raise ServiceError(
            "bad-late-entry", f"late entry must be one of {Tournament.LateEntry.values}"
        )
    _check_seed(seed)
    specs = _specs(players)
    team_event = tournament.is_team_event
    if len(specs) != (2 if team_event else 1):
        raise ServiceError(
            "bad-entry",
            "a team entry names two players" if team_event else "an entry names one player",
        )
    resolved = [_player_for(spec, trusted=director, club=tournament.club) for spec in specs]
    found = [player for player, _claimed in resolved]
    if team_event and found[0].pk == found[1].pk:
        raise ServiceError("bad-entry", "a team needs two different players")
    taken = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    ids = [p.pk for p in found]
    clash = taken.filter(
        Q(player_id__in=ids) | Q(team__first_id__in=ids) | Q(team__second_id__in=ids)
    ).first()
    if clash is not None:
        raise Conflict("already-entered", f"{clash.name} already holds one of these players")
    if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
        raise Conflict("seed-taken", f"seed {seed} is taken")
    published = _rounds_published(tournament)
    entry = Entry(
        tournament=tournament,
        status=Entry.Status.CHECKED_IN if checked_in else Entry.Status.REGISTERED,
        affiliation=_affiliation(affiliation),
        seed=seed,
        joined_round=published + 1,
        late_entry=(late_entry or tournament.late_entry) if published else "",
    )
    if team_event:
        team_name = " ".join((name or f"{found[0].name} & {found[1].name}").split())[:100]
        team = Team.objects.filter(club=tournament.club, name=team_name).filter(
            Q(first=found[0], second=found[1]) | Q(first=found[1], second=found[0])
        ).first() or Team.objects.create(
            club=tournament.club, name=team_name, first=found[0], second=found[1]
        )
        entry.team = team
    else:
        entry.player = found[0]
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError as error:
        raise Conflict("already-entered", "already entered, or that seed is taken") from error
    if published:
        audit(
            tournament=tournament,
            actor=actor,
            action="late-entry",
            subject=entry.name,
            data={
                "entry": entry.pk,
                "joined_round": entry.joined_round,
                "policy": entry.late_entry,
            },
        )
    elif director:
        audit(
            tournament=tournament,
            actor=actor,
            action="entry-registered",
            subject=entry.name,
            data={"entry": entry.pk},
        )
    for player, claimed in resolved:
        if claimed is not None:  # for the director: link them if it is the member
            audit(
                tournament=tournament,
                actor=actor,
                action="member-claimed",
                subject=entry.name,
                data={
                    "entry": entry.pk,
                    "player": player.pk,
                    "member": claimed.pk,
                    "club_number": claimed.club_number,
                },
            )
    if checked_in:
        audit(
            tournament=tournament,
            actor=actor,
            action="checked-in",
            subject=entry.name,
            data={"entry": entry.pk},
        )
    return entry


def _locked_entry(entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)


@transaction.atomic
def check_in(*, entry: Entry, actor: Actor) -> Entry:
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    if entry.status == Entry.Status.WITHDRAWN:
        raise Conflict("withdrawn", f"{entry.name} has withdrawn")
    if entry.status != Entry.Status.CHECKED_IN:
        entry.status = Entry.Status.CHECKED_IN
        entry.save(update_fields=["status"])
        audit(
            tournament=entry.tournament,
            actor=actor,
            action="checked-in",
            subject=entry.name,
            data={"entry": entry.pk},
        )
    return entry


@transaction.atomic
def withdraw(*, entry: Entry, actor: Actor, reason: str = "") -> Entry:
    """Withdraw an entry from later rounds. Its finished matches still count; it stays in the
    standings, marked withdrawn. A draft round it sits in must be generated again."""
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_round = _rounds_published(entry.tournament)
    entry.save(update_fields=["status", "withdrawn_after_round"])
    in_draft = entry.seats.filter(match__round__state=Round.State.DRAFT).exists()
    audit(
        tournament=entry.tournament,
        actor=actor,
        action="withdrawn",
        subject=entry.name,
        reason=reason,
        data={"entry": entry.pk, "in_draft_round": in_draft},
    )
    from . import notify

    notify.results_changed(entry.tournament)
    return entry


@transaction.atomic
def set_seed(*, entry: Entry, actor: Actor, seed: int | None) -> Entry:
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    _check_seed(seed)
    entry.seed = seed
    try:
        with transaction.atomic():
            entry.save(update_fields=["seed"])
    except IntegrityError as error:
        raise Conflict("seed-taken", f"seed {seed} is taken") from error
    audit(
        tournament=entry.tournament,
        actor=actor,
        action="seeded",
        subject=entry.name,
        data={"entry": entry.pk, "seed": seed},
    )
    return entry


@transaction.atomic
def fix_table(*, entry: Entry, actor: Actor, table: int | None, reason: str = "") -> Entry:
    """Always seat an entry at one table number (or free it again with None)."""
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    if table is not None and table < 1:
        raise ServiceError("bad-table", "table numbers start at 1")
    clash = (
        Entry.objects.filter(tournament=entry.tournament, fixed_table=table)
        .exclude(pk=entry.pk)
        .exclude(status=Entry.Status.WITHDRAWN)
    )
    taken = clash.first() if table is not None else None
    if taken is not None:
        raise Conflict("table-taken", f"table {table} is already fixed for {taken.name}")
    entry.fixed_table = table
    entry.save(update_fields=["fixed_table"])
    audit(
        tournament=entry.tournament,
        actor=actor,
        action="table-fixed",
        subject=entry.name,
        reason=reason,
        data={"entry": entry.pk, "table": table},
    )
    return entry


@transaction.atomic
def check_in_entries(
    *, tournament: Tournament, actor: Actor, entries: Sequence[int]
) -> list[Entry]:
    """Check in several entries at once (the registration desk's "check in all"): every one or
    none. Entries already checked in are left as they are; a withdrawn one refuses the lot.
    Returns the entries checked in now."""
    require_director(actor, tournament)
    wanted = set(entries)
    found = list(
        Entry.objects.select_for_update(of=("self",))  # not the nullable team/player joins
        .filter(tournament=tournament, pk__in=wanted)
        .select_related("team", "player")
        .order_by("pk")
    )
    if len(found) != len(wanted):
        missing = sorted(wanted - {e.pk for e in found})
        raise NotFound(
            "no-such-entry", "the tournament has no such entry", details={"entries": missing}
        )
    withdrawn = [e.name for e in found if e.status == Entry.Status.WITHDRAWN]
    if withdrawn:
        raise Conflict(
            "withdrawn",
            f"{', '.join(withdrawn)} withdrew: nothing was checked in",
            details={"entries": withdrawn},
        )
    now = [e for e in found if e.status == Entry.Status.REGISTERED]
    for entry in now:
        entry.status = Entry.Status.CHECKED_IN
        audit(
            tournament=tournament,
            actor=actor,
            action="checked-in",
            subject=entry.name,
            data={"entry": entry.pk},
        )
    Entry.objects.bulk_update(now, ["status"])
    return now


@transaction.atomic
def undo_check_in(*, entry: Entry, actor: Actor) -> Entry:
    """Take back a check-in made by mistake: the entry is registered again, as long as no
    round has seated it yet (after that, withdrawing is the way)."""
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    if entry.status != Entry.Status.CHECKED_IN:
        raise Conflict("not-checked-in", f"{entry.name} is not checked in")
    seat = entry.seats.select_related("match__round").order_by("match__round__number").first()
    if seat is not None:
        raise Conflict(
            "already-seated",
            f"{entry.name} is in round {seat.match.round.number}'s pairings: "
            "withdraw the entry instead",
        )
    entry.status = Entry.Status.REGISTERED
    entry.save(update_fields=["status"])
    audit(
        tournament=entry.tournament,
        actor=actor,
        action="check-in-undone",
        subject=entry.name,
        data={"entry": entry.pk},
    )
    return entry


# -- keeping apart ----------------------------------------------------------------------------


@transaction.atomic
def set_affiliation(*, entry: Entry, actor: Actor, affiliation: str) -> Entry:
    """An entry's club or family (empty: none). Entries with the same affiliation (compared
    without case or spacing) are kept apart in the pairings while the draw can."""
    entry = _locked_entry(entry)
    require_director(actor, entry.tournament)
    text = _affiliation(affiliation)
    if text != entry.affiliation:
        entry.affiliation = text
        entry.save(update_fields=["affiliation"])
        audit(
            tournament=entry.tournament,
            actor=actor,
            action="affiliation-set",
            subject=entry.name,
            data={"entry": entry.pk, "affiliation": text},
        )
    return entry


@transaction.atomic
def keep_apart(
    *, tournament: Tournament, actor: Actor, first: Entry, second: Entry, reason: str = ""
) -> KeepApart:
    """Ask the pairings to keep two entries apart while they can (a couple, a coach and a
    pupil). Asking again for the same pair changes nothing."""
    require_director(actor, tournament)
    if first.pk == second.pk:
        raise ServiceError("bad-pair", "keep apart two different entries")
    if {first.tournament_id, second.tournament_id} != {tournament.pk}:
        raise NotFound("no-such-entry", "the tournament has no such entry")
    low, high = sorted((first, second), key=lambda e: e.pk)
    pair, made = KeepApart.objects.get_or_create(
        tournament=tournament, first=low, second=high, defaults={"reason": reason.strip()[:200]}
    )
    if made:
        audit(
            tournament=tournament,
            actor=actor,
            action="kept-apart",
            subject=f"{low.name} / {high.name}"[:100],
            reason=pair.reason,
            data={"entries": [low.pk, high.pk]},
        )
    return pair


@transaction.atomic
def allow_together(*, pair: KeepApart, actor: Actor) -> None:
    """Take back a request to keep two entries apart."""
    require_director(actor, pair.tournament)
    entries = [pair.first_id, pair.second_id]
    subject = f"{pair.first.name} / {pair.second.name}"[:100]
    if KeepApart.objects.filter(pk=pair.pk).delete()[0]:
        audit(
            tournament=pair.tournament,
            actor=actor,
            action="kept-apart-removed",
            subject=subject,
            data={"entries": entries},
        )


def apart_sets(tournament: Tournament, entries: Sequence[Entry]) -> dict[int, frozenset[int]]:
    """For each of these entries, the others it is to be kept apart from: the same affiliation
    (without case or spacing), or a pair the director named."""
    clubs: dict[str, set[int]] = {}
    for entry in entries:
        key = "".join(entry.affiliation.split()).casefold()
        if key:
            clubs.setdefault(key, set()).add(entry.pk)
    out: dict[int, set[int]] = {entry.pk: set() for entry in entries}
    for members in clubs.values():
        for pk in members:
            out[pk] |= members - {pk}
    for first, second in KeepApart.objects.filter(tournament=tournament).values_list(
        "first_id", "second_id"
    ):
        if first in out and second in out:
            out[first].add(second)
            out[second].add(first)
    return {pk: frozenset(others) for pk, others in out.items()}
