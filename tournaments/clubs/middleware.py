"""The club a request is for, from its address.

`/c/<club>/...` is the club's: the middleware looks the club up (404 when there is none), serves
the rest of the path as if it were at the root, and makes every address the page builds
(`reverse`, `{% url %}`, redirects) carry the club's prefix, through Django's documented
`set_script_prefix` (restored when the response is made). Any other address is the home
club's, as on an installation with one club.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect
from django.urls import get_script_prefix, set_script_prefix
from django.utils.functional import SimpleLazyObject

from tournaments.clubs.models import Club, home_club
from tournaments.clubs.views import suspended_page
from tournaments.web.error_shape import error_response

CLUB_ADDRESS = re.compile(r"^/c/(?P<slug>[-a-zA-Z0-9_]+)(?P<rest>/.*)?$")


class ClubMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        found = CLUB_ADDRESS.match(request.path_info)
        if found is None:
            request.club = SimpleLazyObject(home_club)  # type: ignore[attr-defined]
            return self.get_response(request)
        club = Club.objects.filter(slug=found["slug"]).first()
        if club is None:
            raise Http404("no such club")
        if found["rest"] is None:
            return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
        request.club = club  # type: ignore[attr-defined]
        request.path_info = found["rest"]
        if club.suspended_at is not None:  # answered in process_view, with the root's links
            request.suspended_club = club  # type: ignore[attr-defined]
            return self.get_response(request)
        before = get_script_prefix()
        set_script_prefix(f"{before}c/{club.slug}/")
        try:
            return self.get_response(request)
        finally:
            set_script_prefix(before)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponseBase | None:
        club = getattr(request, "suspended_club", None)
        if club is None:
            return None
        if request.path_info.startswith("/api/"):
            return error_response(403, "club-suspended", "this club is suspended")
        return suspended_page(request, club)
