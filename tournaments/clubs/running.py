"""Running clubs: the installation's administrators (superusers) make clubs, invite their first
director and suspend or resume a club; a club's directors invite further directors, revoke an
invitation and remove a director (never the last). Keyword-only, typed, one transaction each;
every refusal a `ServiceError` with a stable code (api/codes.py), every change a
`ClubAuditEvent` (docs/clubs.md, "Running clubs").

A director's invitation is a `ClubInvitation`: a one-time secret link (only its hash is
kept), for one club, expiring after `INVITATION_DAYS`, revocable until it is used.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.clubs.models import (
    INVITATION_DAYS,
    Club,
    ClubAction,
    ClubAuditEvent,
    ClubInvitation,
    home_club,
)
from tournaments.clubs.services import directs_club, name_home_directors
from tournaments.services import Actor, Conflict, Invalid, NotAllowed, NotFound
from tournaments.tokens import TokenState, hash_secret, new_secret

#: A club's address: lower-case letters, digits and hyphens, 2 to 50, no hyphen at either end.
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,48}[a-z0-9]$")

#: Words no club may take as its address: the site's own addresses and words that would read
#: as the site's rather than a club's.
RESERVED_SLUGS = frozenset({
    "about", "accounts", "admin", "administrator", "api", "c", "check", "club", "clubs",
    "director", "directors", "federation", "help", "i18n", "join", "login", "logout", "manage",
    "media", "new", "people", "players", "root", "site", "static", "support", "system", "t",
    "tricktable", "www",
})  # fmt: skip

MAX_NAME = 150  # Club.name's max_length
MAX_REASON = 1000
MAX_LABEL = 100
MAX_USERNAME = 150  # User.username's max_length


def is_administrator(user: Any) -> bool:
    """The installation's administrators are its superusers."""
    return bool(user is not None and user.is_authenticated and user.is_superuser)


def require_administrator(actor: Actor) -> None:
    if not is_administrator(actor.user_or_none()):
        raise NotAllowed("not-administrator", "only the installation's administrators may do that")


def require_running(club: Club) -> None:
    """A suspended club's directors cannot act (its data stays as it is)."""
    if club.suspended_at is not None:
        raise NotAllowed("club-suspended", "this club is suspended")


def require_directs(actor: Actor, club: Club) -> None:
    """The club's directors (or an administrator), of a club that is not suspended."""
    if not directs_club(actor.user_or_none(), club):
        raise NotAllowed("not-club-director", "only this club's directors may do that")
    require_running(club)


def _audit(
    club: Club,
    action: ClubAction,
    *,
    actor: Any,
    subject: Any = None,
    subject_label: str = "",
    invitation: ClubInvitation | None = None,
    reason: str = "",
) -> ClubAuditEvent:
    user = actor if actor is not None and actor.is_authenticated else None
    return ClubAuditEvent.objects.create(
        club=club,
        club_slug=club.slug,
        action=action,
        actor=user,
        actor_label=user.get_username() if user is not None else "",
        subject=subject,
        subject_label=subject_label or (subject.get_username() if subject is not None else ""),
        invitation=invitation,
        reason=reason,
    )


def check_slug(slug: str) -> str:
    """The address as it will be stored, or the refusal (`bad-slug`, `slug-reserved`)."""
    slug = slug.strip().lower()
    if not SLUG.match(slug):
        raise Invalid(
            "bad-slug",
            "an address is 2 to 50 lower-case letters, digits and hyphens, "
            "with no hyphen at either end",
        )
    if slug in RESERVED_SLUGS:
        raise Invalid("slug-reserved", f"the address {slug!r} is reserved for the site")
    return slug


def create_club(*, actor: Actor, name: str, slug: str) -> Club:
    """A new club at `/c/<slug>/`, with no director yet (invite one: `invite_director`)."""
    require_administrator(actor)
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise Invalid("bad-name", "a club's name is 1 to 150 characters")
    slug = check_slug(slug)
    try:
        with transaction.atomic():
            name_home_directors()  # the home club's directors by default, named before
            club = Club.objects.create(name=name, slug=slug)
            _audit(club, ClubAction.CREATED, actor=actor.user)
    except IntegrityError:
        raise Conflict("slug-taken", f"another club has the address {slug!r}") from None
    return club


def _reason(reason: str, *, required: bool) -> str:
    reason = reason.strip()
    if required and not reason:
        raise Invalid("reason-required", "say why")
    if len(reason) > MAX_REASON:
        raise Invalid("bad-reason", f"a reason is at most {MAX_REASON} characters")
    return reason


def suspend_club(*, actor: Actor, club: Club, reason: str) -> Club:
    """Suspend a club: its pages and API answer that it is suspended and its directors cannot
    act; nothing of its data changes. The home club (served at the site's root) cannot be."""
    require_administrator(actor)
    reason = _reason(reason, required=True)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.pk == home_club().pk:
            raise NotAllowed("home-club", "the home club, served at the site's root, stays open")
        if locked.suspended_at is not None:
            raise Conflict("club-suspended", "this club is suspended already")
        locked.suspended_at = timezone.now()
        locked.save(update_fields=["suspended_at"])
        _audit(locked, ClubAction.SUSPENDED, actor=actor.user, reason=reason)
    return locked


def resume_club(*, actor: Actor, club: Club, reason: str = "") -> Club:
    """Open a suspended club again, as it was."""
    require_administrator(actor)
    reason = _reason(reason, required=False)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.suspended_at is None:
            raise Conflict("club-not-suspended", "this club is not suspended")
        locked.suspended_at = None
        locked.save(update_fields=["suspended_at"])
        _audit(locked, ClubAction.RESUMED, actor=actor.user, reason=reason)
    return locked


def invite_director(
    *, actor: Actor, club: Club, label: str = "", days: int = INVITATION_DAYS
) -> tuple[ClubInvitation, str]:
    """A one-time link that makes whoever opens it a director of the club: the invitation and
    its secret, which is shown this once (only its hash is kept). `label` says whom it is for,
    for the club's page and the audit trail."""
    require_directs(actor, club)
    label = " ".join(label.split())
    if len(label) > MAX_LABEL:
        raise Invalid("bad-label", f"a label is at most {MAX_LABEL} characters")
    if not 1 <= days <= 30:
        raise Invalid("bad-lifetime", "an invitation lasts 1 to 30 days")
    secret = new_secret()
    with transaction.atomic():
        invitation = ClubInvitation.objects.create(
            club=club,
            key_hash=hash_secret(secret),
            label=label,
            expires_at=timezone.now() + timedelta(days=days),
            invited_by=actor.user_or_none(),
        )
        _audit(
            club,
            ClubAction.INVITED,
            actor=actor.user,
            subject_label=label,
            invitation=invitation,
        )
    return invitation, secret


def revoke_invitation(*, actor: Actor, club: Club, invitation_id: int) -> ClubInvitation:
    """Close an invitation that has not been used (its link then answers that it was
    revoked)."""
    require_directs(actor, club)
    with transaction.atomic():
        invitation = (
            ClubInvitation.objects.select_for_update().filter(club=club, pk=invitation_id).first()
        )
        if invitation is None:
            raise NotFound("invitation-unknown", "no such invitation of this club")
        if invitation.used:
            raise Conflict("invitation-used", "this invitation was used already")
        if invitation.revoked_at is not None:
            raise Conflict("invitation-revoked", "this invitation was revoked already")
        invitation.revoke()
        _audit(
            club,
            ClubAction.INVITATION_REVOKED,
            actor=actor.user,
            subject_label=invitation.label,
            invitation=invitation,
        )
    return invitation


def invitation_refusal(
    invitation: ClubInvitation | None,
) -> NotAllowed | NotFound | Conflict | None:
    """Why this invitation's link cannot be used now, or None when it can."""
    if invitation is None:
        return NotFound("invitation-unknown", "this invitation link is not known here")
    if invitation.used:
        return Conflict("invitation-used", "this invitation was used already")
    if invitation.state == TokenState.REVOKED:
        return Conflict("invitation-revoked", "this invitation was revoked")
    if invitation.state == TokenState.EXPIRED:
        return Conflict("invitation-expired", "this invitation has expired")
    if invitation.club.suspended_at is not None:
        return NotAllowed("club-suspended", "this club is suspended")
    return None


def _new_account(username: str, password: str) -> User:
    username = username.strip()
    if not username or len(username) > MAX_USERNAME:
        raise Invalid("bad-username", f"a user name is 1 to {MAX_USERNAME} characters")
    try:
        User.username_validator(username)
    except ValidationError as error:
        raise Invalid("bad-username", " ".join(error.messages)) from None
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("username-taken", "another account has this name")
    try:  # the account is made, then its password checked against it (a savepoint)
        with transaction.atomic():
            account = User.objects.create_user(username, password=password)
            validate_password(password, account)
    except ValidationError as error:
        raise Invalid("weak-password", " ".join(error.messages), details=error.messages) from None
    except IntegrityError:
        raise Conflict("username-taken", "another account has this name") from None
    return account


def accept_invitation(
    *, secret: str, user: Any = None, username: str = "", password: str = ""
) -> tuple[ClubInvitation, Any]:
    """Use an invitation's link once: the signed-in `user` accepts it, or a new account
    (`username`, `password`, checked by the site's password validators) is made; either way
    the account becomes a director of the invitation's club. Returns the invitation and the
    account."""
    with transaction.atomic():
        invitation = (
            ClubInvitation.objects.select_for_update()
            .select_related("club")
            .filter(key_hash=hash_secret(secret))
            .first()
        )
        refusal = invitation_refusal(invitation)
        if refusal is not None:
            raise refusal
        assert invitation is not None  # refused above
        club = invitation.club
        if user is not None and user.is_authenticated:
            if club.directors.filter(pk=user.pk).exists():
                raise Conflict("already-director", "this account directs this club already")
            account = user
        else:
            account = _new_account(username, password)
        if club.pk == home_club().pk:
            name_home_directors()  # the first named director: those by default are named too
        club.directors.add(account)
        now = timezone.now()
        invitation.accepted_at = now
        invitation.accepted_by = account
        invitation.last_used_at = now
        invitation.save(update_fields=["accepted_at", "accepted_by", "last_used_at"])
        _audit(club, ClubAction.JOINED, actor=account, subject=account, invitation=invitation)
    return invitation, account


def remove_director(*, actor: Actor, club: Club, user_id: int) -> Any:
    """Remove one of the club's directors (the account stays; it no longer directs the club).
    The last director stays: a club always has someone to run it."""
    require_directs(actor, club)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        require_directs(actor, locked)  # again under the lock: another may have removed them
        director = locked.directors.filter(pk=user_id).first()
        if director is None:
            raise NotFound("not-a-director", "this account does not direct this club")
        if locked.directors.count() <= 1:
            raise Conflict("last-director", "a club keeps at least one director")
        locked.directors.remove(director)
        _audit(locked, ClubAction.DIRECTOR_REMOVED, actor=actor.user, subject=director)
    return director
