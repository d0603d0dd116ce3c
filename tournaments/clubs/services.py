"""Who directs a club, and which club a request is for."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.clubs.models import Club, home_club


def current_club(request: HttpRequest | Any) -> Club:
    """The club a request is for: the one of its `/c/<club>/` address, else the home club
    (`tournaments.clubs.middleware.ClubMiddleware` sets it; a DRF request reads its Django
    request's)."""
    club = getattr(request, "club", None)
    return club if club is not None else home_club()


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
