"""The federation's pages: at the installation's root, not a club's.

`/federation/` (the first game's leaderboard) and `/federation/<game>/`: every person of the
opted-in clubs with their clubs, rating and events counted; `/federation/<game>/<id>/`: one
person's rating after each event. A club's address of them (`/c/<club>/federation/...`) is
sent to the root's. `/director/federation/`: a club's directors put their club in the
federation ranking or take it out.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.clubs.services import current_club
from tournaments.models import Club
from tournaments.presentation import PRESENTATIONS, game_name
from tournaments.services import Actor, ServiceError
from tournaments.views.access import director_page
from tournaments.web.caching import public_page
from tournaments.words.engine import refusal_words

from . import selectors, services


def _root(request: HttpRequest) -> str:
    """The installation's root address, from a club's address too (`/c/<club>/` taken off)."""
    prefix = get_script_prefix()
    mark = f"c/{current_club(request).slug}/"
    return prefix[: -len(mark)] if prefix.endswith(mark) else prefix


def _at_a_club(request: HttpRequest) -> HttpResponseRedirect | None:
    """The federation's pages are the installation's: a club's address of one is sent to the
    root's."""
    root = _root(request)
    if root == get_script_prefix():
        return None
    return redirect(root + request.path_info.lstrip("/"))


@public_page
@require_GET
def board(request: HttpRequest, game: str | None = None) -> HttpResponse:
    moved = _at_a_club(request)
    if moved is not None:
        return moved
    if game is None:
        game = selectors.first_rated_game()
    if game not in PRESENTATIONS:
        raise Http404("no such game")
    return render(
        request,
        "tournaments/federation/board.html",
        {
            "game": game,
            "game_name": game_name(game),
            "games": selectors.games(),
            "rows": selectors.board(game),
            "run": selectors.last_run(game),
        },
    )


@public_page
@require_GET
def history(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    moved = _at_a_club(request)
    if moved is not None:
        return moved
    if game not in PRESENTATIONS:
        raise Http404("no such game")
    found = selectors.history(game, pk)
    if found is None:
        raise Http404("no such rating")
    rating, name, rows = found
    return render(
        request,
        "tournaments/federation/history.html",
        {"game": game, "game_name": game_name(game), "rating": rating, "name": name, "rows": rows},
    )


class FederationForm(forms.Form):
    joined = forms.BooleanField(
        label=gettext_lazy("Count our events in the federation ranking"), required=False
    )


@director_page(of="club")
@require_http_methods(["GET", "POST"])
def club_page(request: HttpRequest) -> HttpResponse:
    club = current_club(request)
    bound = request.POST if request.method == "POST" else None
    form = FederationForm(bound, initial={"joined": club.federation})
    if request.method == "POST":
        if not form.is_valid():  # a checkbox: always valid
            return _club_page(request, club, form)
        try:
            club = services.set_federation(
                club=club,
                joined=form.cleaned_data["joined"],
                actor=Actor(user=request.user, club=club),
            )
        except ServiceError as error:
            messages.error(request, refusal_words(error.code, error.message, error.details)[0])
        else:
            messages.success(
                request,
                _("Your club's events count in the federation ranking.")
                if club.federation
                else _("Your club's events no longer count in the federation ranking."),
            )
        return redirect("tournaments:federation-club")
    return _club_page(request, club, form)


def _club_page(request: HttpRequest, club: Club, form: FederationForm) -> HttpResponse:
    federation_url = _root(request) + reverse("tournaments:federation")[len(get_script_prefix()) :]
    return render(
        request,
        "tournaments/federation/club.html",
        {"club": club, "form": form, "federation_url": federation_url},
    )


urlpatterns = [
    path("federation/", board, name="federation"),
    path("federation/<str:game>/", board, name="federation-game"),
    path("federation/<str:game>/<int:pk>/", history, name="federation-history"),
    path("director/federation/", club_page, name="federation-club"),
]
