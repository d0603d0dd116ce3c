"""The room on the director's pages (issue 15 points 4–6): the round clock and its controls,
open calls for the director, and each table's progress, slowest first.

`room_context` is what the dashboard and the round page include; `director_room` serves the same
panel as a fragment that live.js swaps in when the event stream announces a clock change, a
call, or a hand. Every POST is one service call (PRG, as on the other director pages)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import DirectorCall, Round, Tournament
from tournaments.room import selectors as select
from tournaments.room import services as room
from tournaments.services import Actor
from tournaments.views.access import director_page
from tournaments.views.outcomes import run

LIVE_ON = "clock call hand-submitted hand-confirmed hand-rejected match-finished round"


def room_context(round_: Round | None, *, dashboard: bool = False) -> dict[str, Any] | None:
    """The room panel's context, or None when no round is being played; its forms come back to
    the dashboard or to the round page."""
    if round_ is None or round_.state in (Round.State.DRAFT, Round.State.CLOSED):
        return None
    now = timezone.now()
    clock = select.round_clock(round_, now=now)
    return {
        "round": round_,
        "clock": clock,
        "calls": select.open_calls(round_),
        "tables": select.table_progress(round_, now=now),
        "now": now,
        "reasons": DirectorCall.Reason.choices,
        "fragment": reverse(
            "tournaments:director-room", args=[round_.tournament.slug, round_.number]
        )
        + ("?from=dashboard" if dashboard else ""),
        "back": reverse("tournaments:director-dashboard", args=[round_.tournament.slug])
        if dashboard
        else reverse("tournaments:director-round", args=[round_.tournament.slug, round_.number]),
        "events": reverse("api:live-events", args=[round_.tournament.slug]),
        "live_on": LIVE_ON,
        "clock_url": reverse("api:round-clock", args=[round_.pk]),
    }


def _back(request: HttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("tournaments:director-round", slug=tournament.slug, number=round_.number)


def _number(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "").strip()
    return int(value) if value.isdigit() else (-1 if value else None)


@director_page
@require_GET
def director_room(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    dashboard = request.GET.get("from") == "dashboard"
    response = render(
        request,
        "tournaments/room/_room.html",
        {"room": room_context(round_, dashboard=dashboard), "tournament": tournament},
    )
    response["Cache-Control"] = "no-cache"
    return response


@director_page
@require_POST
def director_clock(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int, action: str
) -> HttpResponse:
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )
    if action == "set":
        minutes = _number(request, "minutes")
        warn = _number(request, "last_hand_minutes")
        run(
            request,
            lambda: room.set_clock(
                round=round_,
                actor=actor,
                minutes=minutes if minutes is not None else -1,
                last_hand_minutes=warn,
                as_default=request.POST.get("as_default") == "on",
            ),
            _("The round's clock is set."),
        )
    elif action == "start":
        run(
            request,
            lambda: room.start_clock(round=round_, actor=actor),
            _("The round's clock is running."),
        )
    elif action == "pause":
        run(
            request,
            lambda: room.pause_clock(round=round_, actor=actor),
            _("The round's clock is paused."),
        )
    elif action == "resume":
        run(
            request,
            lambda: room.resume_clock(round=round_, actor=actor),
            _("The round's clock is running again."),
        )
    elif action == "extend":
        minutes = _number(request, "minutes")
        run(
            request,
            lambda: room.extend_clock(
                round=round_, actor=actor, minutes=minutes if minutes is not None else -1
            ),
            _("The round has more time."),
        )
    else:
        return HttpResponse(status=404)
    return _back(request, tournament, round_)


@director_page
@require_POST
def director_acknowledge(
    request: HttpRequest, tournament: Tournament, actor: Actor, call_id: int
) -> HttpResponse:
    call = get_object_or_404(
        DirectorCall.objects.select_related("table__round"),
        pk=call_id,
        table__round__tournament=tournament,
    )
    run(
        request,
        lambda: room.acknowledge_call(call=call, actor=actor),
        _("Table %(n)s knows you are on the way.") % {"n": call.table.number},
    )
    return _back(request, tournament, call.table.round)


urlpatterns = [
    path("director/<slug:slug>/rounds/<int:number>/room/", director_room, name="director-room"),
    path(
        "director/<slug:slug>/rounds/<int:number>/clock/<str:action>/",
        director_clock,
        name="director-clock",
    ),
    path(
        "director/<slug:slug>/calls/<int:call_id>/acknowledge/",
        director_acknowledge,
        name="director-call-acknowledge",
    ),
]
