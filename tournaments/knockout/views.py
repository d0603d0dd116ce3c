"""The knockout's pages: the bracket (public, live, and on the projector) and the director's
knockout page (the settings, the cut list with its line, confirming it)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import services
from tournaments.knockout import services as knockout
from tournaments.knockout.forms import KnockoutForm
from tournaments.knockout.selectors import bracket_data, cut_data
from tournaments.models import Tournament
from tournaments.services import Actor
from tournaments.views.access import director_page, viewer_directs
from tournaments.views.director import _context
from tournaments.views.outcomes import run
from tournaments.views.public import _events_url, _tournament
from tournaments.views.public import tournaments as public_tournaments
from tournaments.web.caching import public_page


def _with_knockout(request: HttpRequest, slug: str) -> Tournament:
    tournament = _tournament(request, slug)
    if not knockout.has_knockout(tournament):
        raise Http404("no knockout")
    return tournament


@public_page
@require_GET
def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket as played so far; live.js redraws it when a result arrives."""
    tournament = _with_knockout(request, slug)
    return render(
        request,
        "tournaments/knockout/bracket.html",
        {
            "tournament": tournament,
            "bracket": bracket_data(tournament),
            "events_url": _events_url(tournament),
            "rounds": public_tournaments.visible_rounds(
                tournament, director=viewer_directs(request, tournament)
            ),
        },
    )


@require_GET
def bracket_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _with_knockout(request, slug)
    projector = request.GET.get("screen") == "projector"
    response = render(
        request,
        "tournaments/knockout/_bracket.html",
        {
            "tournament": tournament,
            "bracket": bracket_data(tournament),
            "show_places": not projector,
        },
    )
    response["Cache-Control"] = "no-cache"
    return response


@public_page
@require_GET
def bracket_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket for the room's screen (1920×1080), large and dark, kept current."""
    tournament = _with_knockout(request, slug)
    return render(
        request,
        "tournaments/knockout/projector.html",
        {
            "tournament": tournament,
            "bracket": bracket_data(tournament),
            "events_url": _events_url(tournament),
        },
    )


# -- the director's knockout page ----------------------------------------------------------------


@director_page
@require_http_methods(["GET", "POST"])
def director_knockout(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    initial = {
        "top_cut": tournament.top_cut,
        "length": tournament.knockout_length,
        "count": tournament.knockout_count,
        "tiebreak_hands": tournament.tiebreak_hands,
        "third_place": tournament.third_place,
        "consolation": tournament.consolation,
    }
    form = KnockoutForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.settings()
        if (
            run(
                request,
                lambda: services.set_knockout(tournament=tournament, actor=actor, **data),
                _("The knockout settings are saved."),
            )
            is not None
        ):
            return redirect("tournaments:director-knockout", slug=tournament.slug)
    elif request.method == "POST":
        messages.error(request, _("Check the knockout settings."))
    return render(
        request,
        "tournaments/knockout/director.html",
        _context(
            tournament,
            "knockout",
            form=form,
            cut=cut_data(tournament),
            bracket=bracket_data(tournament, public=False),
            locked=bool(knockout.seeds(tournament)),
        ),
    )


@director_page
@require_POST
def director_confirm_cut(
    request: HttpRequest, tournament: Tournament, actor: Actor
) -> HttpResponse:
    """The director confirms the list they saw (its ids ride in the form): a list changed since
    is refused and shown again."""
    if request.POST.get("checked") != "yes":
        messages.error(request, _("Tick the box to say you checked the list."))
        return redirect("tournaments:director-knockout", slug=tournament.slug)
    try:
        ids = [int(i) for i in request.POST.getlist("entries")]
    except ValueError:
        ids = []
    run(
        request,
        lambda: services.confirm_cut(tournament=tournament, actor=actor, entries=ids),
        _("The cut is confirmed and the bracket is made: pair the next round."),
    )
    return redirect("tournaments:director-knockout", slug=tournament.slug)


urlpatterns = [
    path("t/<slug:slug>/bracket/", bracket_page, name="public-bracket"),
    path("t/<slug:slug>/bracket/fragment/", bracket_fragment, name="public-bracket-fragment"),
    path("t/<slug:slug>/bracket/projector/", bracket_projector, name="public-bracket-projector"),
    path("director/<slug:slug>/knockout/", director_knockout, name="director-knockout"),
    path(
        "director/<slug:slug>/knockout/confirm/", director_confirm_cut, name="director-confirm-cut"
    ),
]
