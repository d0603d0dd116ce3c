"""The members' pages: finding oneself by name (`players/`, public, server-rendered, no script),
and the club's page for its members' names (`director/members/`: full names or initials, and a
person's name removed on request, with a confirmation step). Each player's own page is
`public-player` (tournaments/views/public.py), with the score cards from `selectors`. Every POST
is one service call, then a redirect."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments.clubs.selectors import of_club
from tournaments.clubs.services import current_club
from tournaments.members import names, selectors, services
from tournaments.members.models import MembersSettings, RemovedName
from tournaments.models import Player
from tournaments.people import selectors as people
from tournaments.services import Actor, ServiceError
from tournaments.views.access import director_page as guarded
from tournaments.web.caching import public_page
from tournaments.words.engine import refusal_words


@public_page
@require_GET
def search_page(request: HttpRequest) -> HttpResponse:
    """Find yourself: players by name, each linking to their page; without a name, everyone
    the site shows (by name)."""
    query = " ".join(request.GET.get("q", "").split())[:100]
    club = current_club(request)
    return render(
        request,
        "members/search.html",
        {
            "query": query,
            "found": selectors.find(query, club) if query else selectors.everyone(club),
            "too_short": 0 < len(query) < selectors.MIN_QUERY,
            "min_query": selectors.MIN_QUERY,
        },
    )


@guarded(of="club")
def director_page(request: HttpRequest) -> HttpResponse:
    club = current_club(request)
    actor = Actor(user=request.user, club=club)
    if request.method == "POST":
        try:
            services.set_public_names(actor=actor, mode=request.POST.get("public_names", ""))
        except ServiceError as error:
            messages.error(request, refusal_words(error.code, error.message, error.details)[0])
        else:
            messages.success(request, _("Saved: the published events show members so now."))
        return redirect("tournaments:members-director")
    query = " ".join(request.GET.get("q", "").split())[:100]
    response = render(
        request,
        "members/director.html",
        {
            "may_manage": services.may_manage(actor),
            "mode": names.public_mode(club),
            "modes": MembersSettings.Names.choices,
            "query": query,
            "found": selectors.find(query, club),
            "removed": of_club(RemovedName.objects, club).count(),
            "several_clubs": people.several_clubs(),  # linking records across clubs
        },
    )
    response["Cache-Control"] = "private, no-store"
    return response


#: The refusal of a name's removal to someone who is neither staff nor one of its directors.
NOT_THEIRS = gettext_lazy("Only the club's staff or this person's directors may do this.")


@guarded(of="club")
@require_POST
def remove_name(request: HttpRequest, player_id: int) -> HttpResponse:
    club = current_club(request)
    player = get_object_or_404(of_club(Player.objects, club), pk=player_id)
    actor = Actor(user=request.user, club=club)
    if not services.may_remove(actor, player):
        # the service's own rule (`may_remove`: not a director guard, a person's directors),
        # asked before the confirmation step is shown
        raise PermissionDenied(str(NOT_THEIRS))
    if request.POST.get("confirm") != "yes":
        return render(request, "members/remove.html", {"player": player})
    try:
        services.remove_name(actor=actor, player=player)
    except ServiceError as error:
        messages.error(request, refusal_words(error.code, error.message, error.details)[0])
    else:
        messages.success(
            request, _("The name is removed from the published records; the results stay.")
        )
    return redirect("tournaments:members-director")


urlpatterns = [
    path("players/", search_page, name="members-search"),
    path("director/members/", director_page, name="members-director"),
    path("director/members/<int:player_id>/remove/", remove_name, name="members-remove"),
]
