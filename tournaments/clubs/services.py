"""Who directs a club, and which club a request is for."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest

from tournaments.clubs.models import Club, home_club

#: The end of a club's address before the page's own path (`.../c/<club>`).
CLUB_PREFIX = re.compile(r"/c/(?P<slug>[-a-zA-Z0-9_]+)$")


def current_club(request: HttpRequest | Any) -> Club:
    """The club a request is for: the one of its `/c/<club>/` address, else the home club
    (`tournaments.clubs.middleware.ClubMiddleware` sets it; a DRF request reads its Django
    request's)."""
    club = getattr(request, "club", None)
    return club if club is not None else home_club()


def address_slug(request: HttpRequest | Any) -> str | None:
    """The club slug the request's address names (`/c/<club>/...`), None at the site's root
    (the home club's): read from the address alone, without the database (the live standings'
    cached answers use it). `ClubMiddleware` serves the rest of a club's address as the
    request's `path_info`: what stands before it is the club's address."""
    path, rest = getattr(request, "path", ""), getattr(request, "path_info", "")
    before = path[: len(path) - len(rest)] if rest and path.endswith(rest) else ""
    found = CLUB_PREFIX.search(before)
    return found["slug"] if found is not None else None


def directs_club(user: Any, club: Club) -> bool:
    """May this account direct the club's pages (its members, seasons, new events, publishing
    keys)? The installation's administrators (superusers) direct every club; a club's named
    directors (`Club.directors`) direct it. On an installation of one club whose directors were
    never named (`directs_by_default`), every account directs it, as before clubs existed: no
    step. Naming the first director, or making a second club, names the accounts that directed
    it so (`name_home_directors`), so that from then on only named directors do: an account
    made later, or one removed from another club, directs nothing."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    if club.directors.filter(pk=user.pk).exists():
        return True
    return directs_by_default(club)


def directs_by_default(club: Club) -> bool:
    """The installation has this one club only and it has no named director."""
    return not club.directors.exists() and not Club.objects.exclude(pk=club.pk).exists()


def name_home_directors() -> None:
    """Before a club gets its first named director or the installation its second club: while
    the home club directs by default, every active account (but the administrators, who direct
    every club anyway) becomes a named director of it, keeping exactly what each could do.
    Call inside the transaction that makes the change."""
    club = home_club()
    if not directs_by_default(club):
        return
    accounts = get_user_model().objects.filter(is_active=True, is_superuser=False)
    club.directors.add(*accounts)
