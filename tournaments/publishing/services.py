"""Publishing's workflows: the room sends its events to the club's site, the site receives them.

The room (`save_target`, `request_publish`, `send`): a trigger (a round closed, the event ended,
"Publish now") marks the event as owed; `send` makes one attempt and records what came back; a
failure that may pass (no connection, the site busy or down) is tried again after a backoff
that doubles up to `PUBLISH_RETRY_MAX` seconds; a refusal (wrong key, slug taken) waits for the
director. `sender` decides where attempts run (a Celery worker, or a thread of the evening
server).

The site (`create_key`, `revoke_key`, `receive`, `take_over`, `reshow`): a publish creates the
event of that slug or updates it in place (the same tournament, rounds, entries, matches,
players and teams: the same ids and links), in one transaction; the same document again changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.exports import archive
from tournaments.exports.archive import check_archive
from tournaments.members import names
from tournaments.models import (
    Club,
    Entry,
    Match,
    Player,
    Publication,
    PublishAttempt,
    PublishedEvent,
    PublishingKey,
    PublishTarget,
    Round,
    Seat,
    Series,
    SeriesMember,
    Team,
    Tournament,
    hash_secret,
    home_club,
    new_secret,
)
from tournaments.seasons import services as season_tables
from tournaments.services import SYSTEM, Actor, Conflict, Invalid, NotAllowed, ServiceError
from tournaments.services.actors import acting_club, audit, is_director, require_club_director
from tournaments.services.backups import one_snapshot

from . import client, payload

KEEP_ATTEMPTS = 20  # per event, the newest

# -- the room: where to ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    url: str
    key: str
    from_environment: bool


def current_target() -> Target | None:
    """Where this laptop publishes: PUBLISH_URL and PUBLISH_KEY when set, else the setup page's
    address and key; None when publishing is not set up."""
    url = getattr(settings, "PUBLISH_URL", "") or ""
    key = getattr(settings, "PUBLISH_KEY", "") or ""
    if url and key:
        return Target(url=url, key=key, from_environment=True)
    row = PublishTarget.objects.order_by("pk").first()
    if row is not None and row.url and row.key:
        return Target(url=row.url, key=row.key, from_environment=False)
    return None


def _require_operator(actor: Actor) -> None:
    """The laptop's publishing is the club's: a superuser (the evening's director) sets it."""
    user = actor.user_or_none()
    if not actor.system and not (user is not None and user.is_superuser):
        raise NotAllowed("not-operator", "only the club's director (a superuser) sets this up")


@transaction.atomic
def save_target(*, url: str, key: str, actor: Actor) -> PublishTarget:
    """Remember the site's address and key; events the site refused are offered to it again
    (the refusal may have been the old key)."""
    _require_operator(actor)
    url, key = url.strip(), key.strip()
    if bool(url) != bool(key):
        raise Invalid("publish-target-incomplete", "give both the site's address and its key")
    if url and not url.startswith(("https://", "http://")):
        raise Invalid("publish-url-invalid", "the site's address starts with https://")
    row = PublishTarget.objects.select_for_update().order_by("pk").first()
    if row is None:
        row = PublishTarget.objects.create(url=url, key=key)
    else:
        row.url, row.key = url, key
        row.save()
    if url:
        now = timezone.now()
        Publication.objects.filter(state=Publication.State.REFUSED).update(
            state=Publication.State.PENDING, requested_at=now, next_attempt_at=now, failures=0
        )
    return row


# -- the room: what is owed -----------------------------------------------------------------------


def backoff(failures: int) -> float:
    """Seconds before the next try after `failures` failures in a row: PUBLISH_RETRY_BASE,
    doubling, at most PUBLISH_RETRY_MAX."""
    base = float(getattr(settings, "PUBLISH_RETRY_BASE", 5))
    most = float(getattr(settings, "PUBLISH_RETRY_MAX", 600))
    if failures <= 0:
        return 0.0
    return min(most, base * 2.0 ** min(failures - 1, 32))


def request_publish(
    *, tournament_id: int, reason: str, now: datetime | None = None
) -> Publication | None:
    """Mark the event as owed to the site (None when publishing is not set up). A new request
    is tried at once, even while an earlier one waits out its backoff."""
    if current_target() is None:
        return None
    now = now or timezone.now()
    with transaction.atomic():
        if not Tournament.objects.filter(pk=tournament_id).exists():
            return None
        publication, _created = Publication.objects.select_for_update().get_or_create(
            tournament_id=tournament_id, defaults={"requested_at": now}
        )
        publication.requested_at = max(now, publication.requested_at)
        publication.reason = reason[:40]
        if publication.state != Publication.State.RETRYING:
            publication.state = Publication.State.PENDING
        publication.next_attempt_at = now
        publication.save()
    return publication


def due(*, now: datetime | None = None) -> list[int]:
    """The events whose next try is due, soonest first."""
    now = now or timezone.now()
    return list(
        Publication.objects.filter(
            state__in=[Publication.State.PENDING, Publication.State.RETRYING],
            next_attempt_at__lte=now,
        )
        .order_by("next_attempt_at", "pk")
        .values_list("tournament_id", flat=True)
    )


def next_due() -> datetime | None:
    """When the next try falls due (None: nothing is owed)."""
    return (
        Publication.objects.filter(
            state__in=[Publication.State.PENDING, Publication.State.RETRYING],
            next_attempt_at__isnull=False,
        )
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )


def send(*, tournament_id: int, now: datetime | None = None) -> Publication | None:
    """One attempt at sending the event, if something is owed and its try is due (a trigger
    makes it due at once): build the document (one consistent read), PUT it, record the answer
    (one transaction). Never raises for the network or the site; returns the publication as it
    now stands."""
    publication = Publication.objects.filter(tournament_id=tournament_id).first()
    target = current_target()
    if publication is None or target is None:
        return publication
    if publication.state in (Publication.State.SENT, Publication.State.REFUSED):
        return publication
    requested = publication.requested_at
    now = now or timezone.now()
    # Claimed for the time one try may take: another process (a second worker, the thread of
    # another server process) finds it not due meanwhile; a process that dies mid-send leaves
    # it due again once the claim runs out.
    claim = now + timedelta(seconds=float(getattr(settings, "PUBLISH_TIMEOUT", 10)) + 30)
    claimed = Publication.objects.filter(
        pk=publication.pk,
        state__in=[Publication.State.PENDING, Publication.State.RETRYING],
        next_attempt_at__lte=now,
    ).update(next_attempt_at=claim)
    if not claimed:
        return Publication.objects.filter(pk=publication.pk).first()
    with one_snapshot():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        document = payload.build(tournament)
    body = payload.encode(document)
    reply = client.put_event(site=target.url, key=target.key, slug=tournament.slug, body=body)
    return _record(publication.pk, requested, reply, len(body), now)


@transaction.atomic
def _record(
    publication_id: int, requested: datetime, reply: client.Reply, size: int, now: datetime
) -> Publication:
    publication = Publication.objects.select_for_update().get(pk=publication_id)
    PublishAttempt.objects.create(
        publication=publication,
        at=now,
        reason=publication.reason,
        ok=reply.ok,
        outcome=reply.outcome,
        error_code=reply.code[:40],
        error_detail=reply.detail[:300],
        size=size,
    )
    old = publication.attempts.order_by("-at", "-id").values_list("pk", flat=True)[KEEP_ATTEMPTS:]
    PublishAttempt.objects.filter(pk__in=list(old)).delete()
    if reply.ok:
        publication.failures = 0
        publication.sent_requested_at = requested
        publication.last_sent_at = now
        publication.last_outcome = reply.outcome[:20]
        publication.site_url = reply.url[:400]
        publication.error_code = publication.error_detail = ""
        if publication.requested_at > requested:  # asked again while this one was on its way
            publication.state = Publication.State.PENDING
            publication.next_attempt_at = now
        else:
            publication.state = Publication.State.SENT
            publication.next_attempt_at = None
    elif reply.retry:
        publication.failures += 1
        wait = max(backoff(publication.failures), reply.retry_after or 0.0)
        publication.state = Publication.State.RETRYING
        publication.next_attempt_at = now + timedelta(seconds=wait)
        publication.error_code, publication.error_detail = reply.code[:40], reply.detail[:300]
    else:
        publication.failures += 1
        publication.state = Publication.State.REFUSED
        publication.next_attempt_at = None
        publication.error_code, publication.error_detail = reply.code[:40], reply.detail[:300]
    publication.save()
    return publication


# -- the site: keys -------------------------------------------------------------------------------


@transaction.atomic
def create_key(*, actor: Actor, label: str = "") -> tuple[PublishingKey, str]:
    """A new publishing key for a room; the secret is returned once and stored only hashed."""
    user = actor.user_or_none()
    if user is None:
        raise NotAllowed("not-signed-in", "sign in to create a publishing key")
    club = acting_club(actor)  # the key publishes into the club of the address it is made at
    require_club_director(actor, club)
    secret = new_secret()
    key = PublishingKey.objects.create(
        owner=user,
        club=club,
        label=label.strip()[:100],
        key_hash=hash_secret(secret),
        prefix=secret[:6],
    )
    return key, secret


def _may_manage(actor: Actor, key: PublishingKey) -> bool:
    user = actor.user_or_none()
    return user is not None and (user.is_superuser or key.owner_id == user.pk)


@transaction.atomic
def revoke_key(*, key: PublishingKey, actor: Actor) -> PublishingKey:
    key = PublishingKey.objects.select_for_update().get(pk=key.pk)
    if not _may_manage(actor, key):
        raise NotAllowed("not-key-owner", "only the key's owner may revoke it")
    key.revoke()
    return key


def key_for(secret: str) -> PublishingKey:
    """The active key with this secret; refused (401, publish-key-invalid) otherwise."""
    return key_for_check(PublishingKey.by_secret(secret) if secret else None)


def key_for_check(key: PublishingKey | None) -> PublishingKey:
    if key is None or key.state != "active":
        raise ServiceError(
            "publish-key-invalid",
            "this publishing key is not known to the site, or was revoked: ask the site for a "
            "new one",
            status=401,
        )
    return key


# -- the site: receiving --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Received:
    outcome: str  # created, updated, unchanged
    event: PublishedEvent
    tournament: Tournament


def receive(*, key: PublishingKey, slug: str, document: Any) -> Received:
    """A room publishes `document` (a `tricktable-archive/1`) as the event `slug`: created, or
    updated in place, or found unchanged; in one transaction. Refused, changing nothing: an
    unknown or revoked key (publish-key-invalid), an archive that is not one or is another
    slug's (bad-archive, publish-slug-mismatch), a slug the site uses for its own event
    (publish-slug-taken), an event another key publishes (publish-other-key) or one the site
    took over (publish-taken-over). `key` is the room's (`key_for` its secret)."""
    key = key_for_check(key)
    check_archive(document)
    if document["tournament"]["slug"] != slug:
        raise Invalid(
            "publish-slug-mismatch",
            f"the address names {slug!r} but the archive is {document['tournament']['slug']!r}",
        )
    document = payload.strip_secrets(document)  # a room of another version: the site checks too
    digest = payload.digest(document)
    now = timezone.now()
    try:
        with transaction.atomic():
            return _receive(key, slug, document, digest, now)
    except IntegrityError as error:  # the same slug's first publish, twice at once
        raise Conflict(
            "publish-busy", "another publish of this event is under way: try again"
        ) from error


def _receive(
    key: PublishingKey, slug: str, document: dict[str, Any], digest: str, now: datetime
) -> Received:
    PublishingKey.objects.filter(pk=key.pk).update(last_used_at=now)
    event = PublishedEvent.objects.select_for_update().filter(slug=slug).first()
    club = key.club
    kept = names.for_site(document, owner_id=key.owner_id, slug=slug, club=club)
    if event is None:
        if Tournament.objects.filter(slug=slug).exists():
            raise Conflict(
                "publish-slug-taken",
                f"the site already has its own event {slug!r}: rename the event in the room",
            )
        event = PublishedEvent(
            slug=slug,
            key=key,
            digest=digest,
            document=kept,
            first_published_at=now,
            updated_at=now,
            received_at=now,
        )
        tournament = _hold(event, kept, owner_id=key.owner_id, club=club)
        event.tournament = tournament
        event.save()
        return Received("created", event, tournament)
    if event.taken_over_at is not None:
        raise Conflict(
            "publish-taken-over",
            f"the site's directors took the event {slug!r} over: the room no longer publishes it",
        )
    if event.key_id != key.pk:
        owner = PublishingKey.objects.filter(pk=event.key_id).values_list("owner_id", flat=True)
        if owner.get() != key.owner_id:
            raise Conflict("publish-other-key", f"the event {slug!r} is published with another key")
        event.key = key  # the same owner's new key (the old one revoked, say)
    event.received_at = now
    held = event.tournament
    if event.digest == digest and held is not None:
        event.save(update_fields=["received_at", "key"])
        return Received("unchanged", event, held)
    tournament = _hold(event, kept, owner_id=key.owner_id, club=club)
    event.tournament = tournament
    event.digest = digest
    event.document = kept
    event.updated_at = now
    event.save()
    return Received("updated", event, tournament)


def reshow(club: Club | None = None) -> int:
    """Restore every event rooms still publish to the club (by default the home club) from the
    document the site keeps, as the club now shows names (after the club's choice changed, or a
    name was removed): in place, the same ids. Inside the caller's transaction; returns how
    many events were restored."""
    count = 0
    club = club if club is not None else home_club()
    events = PublishedEvent.objects.select_for_update().filter(
        taken_over_at__isnull=True, key__club=club
    )
    for event in events.select_related("key").order_by("pk"):
        if not event.document:
            continue
        event.tournament = _hold(event, event.document, owner_id=event.key.owner_id, club=club)
        event.save(update_fields=["tournament"])
        count += 1
    return count


def _hold(event: PublishedEvent, kept: dict[str, Any], *, owner_id: int, club: Club) -> Tournament:
    """Write the kept document as the event's tournament, replacing the one held, in place:
    the tournament, its rounds, entries and matches keep their database ids and every player
    (the same person: the same `uid`) and team theirs, so links to them still lead there;
    corrections and late changes are carried over; players and teams only the old copy had
    are removed. The seasons counting it keep counting it, and the seasons the room counts it
    in count it on the site too. The tournament, its players and teams are the key's club's
    (`club`), its players found among that club's members only."""
    shown = names.shown(kept, club=club)
    held = event.tournament
    keep: archive.Keep = {}
    seasons: list[int] = []
    people: tuple[set[int], set[int]] = (set(), set())
    if held is not None:
        seasons = list(
            SeriesMember.objects.filter(tournament=held).values_list("series_id", flat=True)
        )
        keep = _same_rows(held, shown)
        people = _people(held)
        held.delete()
    tournament = archive.restore(archive=shown, actor=SYSTEM, keep=keep, club=club).tournament
    tournament.directors.set([owner_id])
    _rename_players(shown)
    for series_id in seasons:
        SeriesMember.objects.get_or_create(series_id=series_id, tournament=tournament)
    _room_seasons(kept, tournament, owner_id)
    _forget(*people)
    season_tables.member_changed(tournament.pk)
    return tournament


def _people(tournament: Tournament) -> tuple[set[int], set[int]]:
    """The players and teams of a tournament (to remove those no other event has, later)."""
    entries = Entry.objects.filter(tournament=tournament)
    team_ids = set(entries.exclude(team=None).values_list("team_id", flat=True))
    player_ids = set(entries.exclude(player=None).values_list("player_id", flat=True))
    for first, second in Team.objects.filter(pk__in=team_ids).values_list("first", "second"):
        player_ids |= {first, second}
    return player_ids, team_ids


def _forget(player_ids: set[int], team_ids: set[int]) -> None:
    """Delete the teams and players no event has any more."""
    Team.objects.filter(pk__in=team_ids).exclude(
        pk__in=Entry.objects.filter(team_id__in=team_ids).values("team_id")
    ).delete()
    in_use = Q(pk__in=Entry.objects.filter(player_id__in=player_ids).values("player_id"))
    in_use |= Q(pk__in=Team.objects.filter(first_id__in=player_ids).values("first_id"))
    in_use |= Q(pk__in=Team.objects.filter(second_id__in=player_ids).values("second_id"))
    Player.objects.filter(pk__in=player_ids).exclude(in_use).delete()


def _rename_players(document: dict[str, Any]) -> None:
    """The players the restore found again (by uid) take the name the document gives them: a
    correction in the room, initials, a name removed."""
    for row in document.get("players") or []:
        Player.objects.filter(uid=row["uid"]).exclude(name=row["name"]).update(name=row["name"])


def _entry_keys(document: dict[str, Any]) -> dict[int, frozenset[str]]:
    """Archive entry id -> the uids of its players."""
    uids = {p["id"]: str(p.get("uid")) for p in document["players"]}
    teams = {
        t["id"]: frozenset({uids.get(t.get("first"), "?"), uids.get(t.get("second"), "?")})
        for t in document["teams"]
    }
    out: dict[int, frozenset[str]] = {}
    for e in document["entries"]:  # (a row pointing nowhere is the restore's to refuse)
        if e.get("team") in teams:
            out[e["id"]] = teams[e["team"]]
        elif e.get("player") in uids:
            out[e["id"]] = frozenset({uids[e["player"]]})
    return out


def _match_key(
    round_number: int, table: int | None, bracket: tuple[Any, Any], entries: frozenset
) -> tuple[Any, ...]:
    """A match is the same match again at the same round and table (a bye, or a match without
    a table, by its place in the bracket and its entries)."""
    if table is not None:
        return (round_number, table)
    return (round_number, None, *bracket, entries)


def _same_rows(held: Tournament, document: dict[str, Any]) -> archive.Keep:
    """The database ids the held copy's tournament, rounds, entries and matches give back to
    the same rows of the new document (each matched once, by what makes it the same row)."""
    keys = _entry_keys(document)
    held_entries: dict[frozenset[str], int] = {}
    for entry in Entry.objects.filter(tournament=held).select_related(
        "player", "team__first", "team__second"
    ):
        if entry.team is not None:
            held_entries[frozenset({str(entry.team.first.uid), str(entry.team.second.uid)})] = (
                entry.pk
            )
        elif entry.player is not None:
            held_entries[frozenset({str(entry.player.uid)})] = entry.pk
    entry_pks = {n: held_entries[k] for n, k in keys.items() if k in held_entries}
    rounds = dict(held.round_set.values_list("number", "pk"))
    round_numbers = {r["id"]: r.get("number") for r in document["rounds"]}
    tables = {t["id"]: t.get("number") for t in document["tables"]}
    seat_entries: dict[Any, set[frozenset[str]]] = {}
    for seat in document["seats"]:
        if seat.get("entry") in keys:
            seat_entries.setdefault(seat.get("match"), set()).add(keys[seat["entry"]])
    wanted: dict[tuple[Any, ...], list[int]] = {}
    for m in document["matches"]:
        key = _match_key(
            round_numbers.get(m.get("round"), 0),
            tables.get(m.get("table")) if m.get("table") is not None else None,
            (m.get("bracket_round"), m.get("bracket_index")),
            frozenset(seat_entries.get(m["id"], set())),
        )
        wanted.setdefault(key, []).append(m["id"])
    held_seats: dict[int, set[frozenset[str]]] = {}
    by_entry = {pk: k for k, pk in held_entries.items()}
    for match_id, entry_id in Seat.objects.filter(match__round__tournament=held).values_list(
        "match_id", "entry_id"
    ):
        if entry_id in by_entry:
            held_seats.setdefault(match_id, set()).add(by_entry[entry_id])
    had: dict[tuple[Any, ...], list[int]] = {}
    for m in Match.objects.filter(round__tournament=held).values(
        "pk", "round__number", "table__number", "bracket_round", "bracket_index"
    ):
        key = _match_key(
            m["round__number"],
            m["table__number"],
            (m["bracket_round"], m["bracket_index"]),
            frozenset(held_seats.get(m["pk"], set())),
        )
        had.setdefault(key, []).append(m["pk"])
    match_pks = {
        ids[0]: had[key][0]
        for key, ids in wanted.items()
        if len(ids) == 1 and len(had.get(key, [])) == 1
    }
    return {
        Tournament: {archive.TOURNAMENT_ID: held.pk},
        Round: {n: rounds[num] for n, num in round_numbers.items() if num in rounds},
        Entry: entry_pks,
        Match: match_pks,
    }


def _room_seasons(kept: dict[str, Any], tournament: Tournament, owner_id: int) -> None:
    """The room's seasons counting this event (the document's `seasons`): the site holds a
    season of the same slug, made by the key's owner, with the same options, counting it. A
    season of that slug that the owner does not direct is the site's own: left alone."""
    owner = Actor(
        user=get_user_model().objects.get(pk=owner_id), label="room", club=tournament.club
    )
    for row in kept.get("seasons") or []:
        if not isinstance(row, dict) or not isinstance(row.get("slug"), str):
            continue
        try:
            with transaction.atomic():
                series = Series.objects.filter(slug=row["slug"]).first()
                if series is None:
                    series = season_tables.create_series(
                        actor=owner,
                        name=row.get("name") or row["slug"],
                        game=row.get("game") or tournament.game,
                        rule=row.get("rule") or Series.Rule.PLACING,
                        points=row.get("points"),
                        best=row.get("best"),
                        slug=row["slug"],
                    )
                elif (
                    series.club_id != tournament.club_id
                    or not series.directors.filter(pk=owner_id).exists()
                ):
                    continue  # another club's season, or one the owner does not direct
                else:
                    series = season_tables.update_series(
                        actor=owner,
                        series=series,
                        name=row.get("name") or series.name,
                        rule=row.get("rule") or series.rule,
                        points=row.get("points") if row.get("points") is not None else None,
                        best=row.get("best"),
                    )
                season_tables.add_tournament(actor=owner, series=series, tournament=tournament)
        except ServiceError:  # a season the site cannot hold as sent: the event still is
            continue


@transaction.atomic
def take_over(*, event: PublishedEvent, actor: Actor) -> PublishedEvent:
    """The site's directors take a published event over: it becomes the site's own, they may
    change it, and the room's next publish of it is refused (publish-taken-over)."""
    event = PublishedEvent.objects.select_for_update().get(pk=event.pk)
    if event.taken_over_at is not None:
        return event
    tournament = event.tournament
    if tournament is None or not is_director(actor, tournament):
        raise NotAllowed("not-director", "only this event's directors may take it over")
    event.taken_over_at = timezone.now()
    event.taken_over_by = actor.user_or_none()
    event.save(update_fields=["taken_over_at", "taken_over_by"])
    audit(tournament=tournament, actor=actor, action="published-taken-over")
    return event


def published_from_room(tournament_id: int) -> PublishedEvent | None:
    """The publish record of an event a room still publishes (None otherwise). Its `document`
    (the whole event as last received) is left unread until asked for: every public page of
    the event shows this record's note, which needs none of it."""
    return (
        PublishedEvent.objects.filter(tournament_id=tournament_id, taken_over_at__isnull=True)
        .defer("document")
        .first()
    )
