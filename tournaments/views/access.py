"""Who may see a page: the one director guard of every director page, and the one answer to
"does this visitor direct the tournament?" that decides whether a draft is shown.

- `director_page` wraps every page of one tournament that only its directors see (the director's
  pages, duplicate's and knockout's settings, the room, printing, imports, the archive). It
  sends a visitor who is not signed in to the sign-in page, looks the tournament up by its slug
  (404 when there is none, or when it is not of the page's format) and answers 403 to anyone
  who does not direct it; the view gets (request, tournament, actor, ...).
- `season_director_page` is the same guard for a season's page (its directors manage it).
- `viewer_directs` is the public pages' question: a director sees the draft rounds, the
  unreleased duplicate results and the cut before it is published; everyone else does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, overload

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Series, Tournament
from tournaments.seasons.services import directs_series
from tournaments.services import Actor, is_director

SEE_THIS_PAGE = gettext_lazy("Only this tournament's directors may see this page.")


def viewer_directs(request: HttpRequest, tournament: Tournament) -> bool:
    """Does the visitor direct this tournament (a superuser directs all)? The public pages show
    a director what they keep from everyone else (draft rounds, unreleased results)."""
    return request.user.is_authenticated and is_director(Actor(user=request.user), tournament)


#: A view as the guards take it (request, tournament or series, actor, ...) and as they give it
#: (request, slug, ...).
View = Callable[..., HttpResponseBase]


@overload
def director_page(
    view: View, *, formats: Iterable[str] = ..., refusal: str | Promise = ...
) -> View: ...


@overload
def director_page(
    view: None = None, *, formats: Iterable[str] = ..., refusal: str | Promise = ...
) -> Callable[[View], View]: ...


def director_page(
    view: View | None = None,
    *,
    formats: Iterable[str] = (),
    refusal: str | Promise = SEE_THIS_PAGE,
) -> View | Callable[[View], View]:
    """A page of one tournament, for its directors: the view gets (request, tournament, actor).

    `@director_page` or `@director_page(formats=[...], refusal=...)`: `formats` limits the page
    to tournaments of those formats (404 for another), `refusal` is the 403's sentence."""
    allowed = tuple(formats)

    def guard(view: View) -> View:
        @login_required
        @wraps(view)
        def page(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            found = Tournament.objects.filter(format__in=allowed) if allowed else Tournament
            tournament = get_object_or_404(found, slug=slug)
            actor = Actor(user=request.user)
            if not is_director(actor, tournament):
                raise PermissionDenied(str(refusal))
            return view(request, tournament, actor, *args, **kwargs)

        return page

    return guard if view is None else guard(view)


def season_director_page(view: View) -> View:
    """A season's page for its directors: the view gets (request, series, actor)."""

    @login_required
    @wraps(view)
    def page(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
        series = get_object_or_404(Series, slug=slug)
        actor = Actor(user=request.user)
        if not directs_series(actor, series):
            raise PermissionDenied(_("Only this season's directors may see this page."))
        return view(request, series, actor, *args, **kwargs)

    return page
