"""Who directs a club, and which club a request is for."""

from __future__ import annotations

import re
from typing import Any

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
    keys)? The installation's administrators (superusers) direct every club; a club's
    directors direct it; an account that directs no club directs the home club, so an
    installation with one club needs no step to give its directors their club."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if club.directors.filter(pk=user.pk).exists():
        return True
    return club.pk == home_club().pk and not Club.objects.filter(directors=user).exists()
