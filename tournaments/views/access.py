"""Who may see a page: the one director guard of every director page, and the one answer to
"does this visitor direct the tournament?" that decides whether a draft is shown.

- `director_page` wraps every director page. A visitor who is not signed in goes to the sign-in
  page. Then, by what the page directs (`of`):
  - `"tournament"` (the default: the director's pages, duplicate's and knockout's settings, the
    room, printing, imports, publishing an event, the archive): it looks the tournament up by
    its slug (404 when there is none, or when it is not of the page's `formats`) and answers 403
    to anyone who does not direct it; the view gets (request, tournament, actor, ...).
  - `"season"`: the same for a season's pages (its directors manage it); the view gets
    (request, series, actor, ...).
  - `"club"`: the pages of no one tournament (the director's home and a new event, publishing's
    keys and site, the members): the club's directors (`tournaments.clubs.services.directs_club`),
    who see and change only what they direct (the services decide); the view gets (request, ...).
  A tournament or a season is looked up in the club of the address (`tournaments/clubs`): another
  club's is not found there.
  `GUARDED` holds every page it made: `tests/pages/test_director_guard.py` fails when a page
  under `director/` (or a season's `manage/`) is served without it.
- `viewer_directs` is the public pages' question: a director sees the draft rounds, the
  unreleased duplicate results and the cut before it is published; everyone else does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, Literal, overload

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.clubs.services import current_club, directs_club
from tournaments.models import Series, Tournament
from tournaments.seasons.services import directs_series
from tournaments.services import Actor, is_director

SEE_THIS_PAGE = gettext_lazy("Only this tournament's directors may see this page.")


def viewer_directs(request: HttpRequest, tournament: Tournament) -> bool:
    """Does the visitor direct this tournament (a superuser directs all)? The public pages show
    a director what they keep from everyone else (draft rounds, unreleased results)."""
    return request.user.is_authenticated and is_director(Actor(user=request.user), tournament)


#: A view as the guard takes it (request, tournament or series, actor, ...) and as it gives it
#: (request, slug, ...).
View = Callable[..., HttpResponseBase]

#: What a director page directs: one tournament, one season, the club's (none in particular), or
#: the installation's (its clubs: the administrators', docs/clubs.md).
Directs = Literal["tournament", "season", "club", "installation"]

#: Every page `director_page` made (the test of the URLconf reads it).
GUARDED: set[View] = set()


@overload
def director_page(
    view: View,
    *,
    of: Directs = ...,
    formats: Iterable[str] = ...,
    refusal: str | Promise = ...,
) -> View: ...


@overload
def director_page(
    view: None = None,
    *,
    of: Directs = ...,
    formats: Iterable[str] = ...,
    refusal: str | Promise = ...,
) -> Callable[[View], View]: ...


def director_page(
    view: View | None = None,
    *,
    of: Directs = "tournament",
    formats: Iterable[str] = (),
    refusal: str | Promise = SEE_THIS_PAGE,
) -> View | Callable[[View], View]:
    """A director's page: `@director_page`, or `@director_page(of=..., formats=[...],
    refusal=...)`. `of`: what the page directs (the module's docstring); `formats` limits a
    tournament's page to tournaments of those formats (404 for another), `refusal` is the 403's
    sentence."""
    allowed = tuple(formats)

    def tournament_page(
        view: View, request: HttpRequest, slug: str, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        found = Tournament.objects.filter(club=current_club(request))
        if allowed:
            found = found.filter(format__in=allowed)
        tournament = get_object_or_404(found, slug=slug)
        actor = Actor(user=request.user, club=current_club(request))
        if not is_director(actor, tournament):
            raise PermissionDenied(str(refusal))
        return view(request, tournament, actor, *args, **kwargs)

    def season_page(
        view: View, request: HttpRequest, slug: str, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        series = get_object_or_404(Series, club=current_club(request), slug=slug)
        actor = Actor(user=request.user, club=current_club(request))
        if not directs_series(actor, series):
            raise PermissionDenied(_("Only this season's directors may see this page."))
        return view(request, series, actor, *args, **kwargs)

    def club_page(view: View, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not directs_club(request.user, current_club(request)):
            raise PermissionDenied(_("Only this club's directors may see this page."))
        return view(request, *args, **kwargs)

    def installation_page(
        view: View, request: HttpRequest, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        if not request.user.is_superuser:
            raise PermissionDenied(_("Only the site's administrators may see this page."))
        return view(request, *args, **kwargs)

    checks: dict[str, Callable[..., HttpResponseBase]] = {
        "tournament": tournament_page,
        "season": season_page,
        "club": club_page,
        "installation": installation_page,
    }
    check = checks[of]

    def guard(view: View) -> View:
        @login_required
        @wraps(view)
        def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            return check(view, request, *args, **kwargs)

        GUARDED.add(page)
        return page

    return guard if view is None else guard(view)
