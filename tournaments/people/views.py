"""The pages of one person across clubs.

- `director/members/<id>/clubs/` (a club's director, under the club's address): a member record
  of the club, its claim code (issued here and shown once; or printed on the PIN slips), the
  form that links it with another club's record by the claim code the person brings, and the
  records it is linked to, each with its undo. Every POST is one service call; never cached.
- `people/<uid>/` (public, the installation's root): every club's events of the person with
  their results. At a club's address it is sent to the root's.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tournaments.clubs.services import current_club
from tournaments.models import Player
from tournaments.people import engine, selectors, services
from tournaments.services import Actor, ServiceError
from tournaments.views.access import director_page as guarded
from tournaments.web.caching import public_page
from tournaments.web.clients import client_address

#: The refusals as the member's page says them (the services' English stays in the API).
REFUSALS = {
    "bad-claim-code": gettext_lazy(
        "A claim code is 8 letters and digits, as printed on the PIN slip (for example 7KQM-2XHD)."
    ),
    "claim-code-wrong": gettext_lazy(
        "That is not a claim code that works: check it, or ask the other club for a new one."
    ),
    "claim-code-expired": gettext_lazy(
        "That claim code has expired: the other club issues a new one."
    ),
    "claim-code-wait": gettext_lazy(
        "Too many wrong claim codes: try again in %(seconds)s seconds."
    ),
    "claim-code-locked": gettext_lazy(
        "Too many wrong claim codes at this club this hour: try again in %(seconds)s seconds."
    ),
    "claim-same-club": gettext_lazy(
        "That claim code is of a record of this club: link records of two clubs."
    ),
    "already-linked": gettext_lazy("These records are already the same person."),
    "person-club-twice": gettext_lazy(
        "This person already has another record at one of these clubs."
    ),
    "not-linked": gettext_lazy("This record is linked to no other club's record."),
    "not-club-director": gettext_lazy("Only this person's clubs' directors may do this."),
    "claim-code-clash": gettext_lazy("No free claim code was found: try again."),
}


def refusal(error: ServiceError) -> str:
    words = REFUSALS.get(error.code)
    if words is None:
        return error.message
    return str(words) % {"seconds": error.retry_after or 0}


def _member(request: HttpRequest, player_id: int) -> Player:
    """The record, of the club of the address only (another club's is not found here)."""
    return get_object_or_404(
        Player.objects.select_related("club"), pk=player_id, club=current_club(request)
    )


def _page(
    request: HttpRequest,
    player: Player,
    *,
    issued: services.Issued | None = None,
    error: ServiceError | None = None,
    typed: str = "",
) -> HttpResponse:
    status = error.status if error is not None else 200
    response = render(
        request,
        "people/member.html",
        {
            "player": player,
            "club": player.club,
            "issued": issued,
            "live": services.live_code(player),
            "linked": selectors.linked_records(player),
            "person_address": selectors.person_link(request, player),
            "error": refusal(error) if error is not None else "",
            "typed": typed,
            "code_length": engine.LENGTH,
            "lifetime_days": services.LIFETIME.days,
        },
        status=status,
    )
    if error is not None and error.retry_after:
        response["Retry-After"] = str(error.retry_after)
    add_never_cache_headers(response)  # may hold a claim code, shown once
    response["Referrer-Policy"] = "same-origin"  # its forms POST: the Origin must be sent (CSRF)
    return response


@guarded(of="club")
def member_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """GET: the record, its claim code's state, the link form, the records linked. POST
    `action`: `issue` (a new claim code, shown on the answer once), `link` (with `code` and the
    person's `confirm`), `unlink` (`record`: this record or one linked to it)."""
    player = _member(request, player_id)
    if request.method != "POST":
        return _page(request, player)
    actor = Actor(user=request.user, club=current_club(request))
    action = request.POST.get("action", "")
    try:
        if action == "issue":
            issued = services.issue_claim_code(actor=actor, player=player)
            return _page(request, player, issued=issued)
        if action == "link":
            typed = request.POST.get("code", "")[:40]
            if request.POST.get("confirm") != "yes":
                return _page(
                    request,
                    player,
                    typed=typed,
                    error=ServiceError("confirm", str(NOT_CONFIRMED), status=400),
                )
            try:
                services.link_by_code(
                    actor=actor, player=player, code=typed, client=client_address(request)
                )
            except ServiceError as error:
                return _page(request, player, typed=typed, error=error)
            messages.success(request, _("Linked: the records are now one person."))
        elif action == "unlink":
            wanted = request.POST.get("record", "")
            record = get_object_or_404(Player, pk=int(wanted) if wanted.isdigit() else 0)
            if record.pk != player.pk and record.person_id != player.person_id:
                raise Http404("not a record of this person")
            services.unlink(actor=actor, player=record)
            messages.success(request, _("The link is undone."))
        else:
            return _page(
                request, player, error=ServiceError("bad-request", "unknown action", status=400)
            )
    except ServiceError as error:
        return _page(request, player, error=error)
    return redirect("tournaments:people-member", player.pk)


#: The link form's refusal when the director did not tick the person's confirmation.
NOT_CONFIRMED = gettext_lazy(
    "Tick the box once the person has confirmed that both records are theirs."
)


@guarded(of="club")
@require_GET
def members_page(request: HttpRequest) -> HttpResponse:
    """The club's members found by name, each linking to their page of other clubs."""
    query = " ".join(request.GET.get("q", "").split())[:100]
    response = render(
        request,
        "people/members.html",
        {
            "club": current_club(request),
            "query": query,
            "found": selectors.club_members(current_club(request), query),
        },
    )
    response["Cache-Control"] = "private, no-store"
    return response


@public_page
@require_GET
def person_page(request: HttpRequest, uid: str) -> HttpResponse:
    """Every club's events of the person with their results (public). At a club's address it
    is sent to the root's, where it lives."""
    root = selectors.root_prefix(request)
    here = f"{root}people/{uid}/"
    if request.path != here:
        return HttpResponsePermanentRedirect(here)
    view = selectors.person_view(request, uid)
    if view is None:
        raise Http404("no such person")
    return render(request, "people/person.html", {"view": view})


urlpatterns = [
    path("director/members/clubs/", members_page, name="people-members"),
    path("director/members/<int:player_id>/clubs/", member_page, name="people-member"),
    path("people/<uuid:uid>/", person_page, name="people-person"),
]
