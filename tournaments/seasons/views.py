"""Season championships' pages (docs/seasons.md).

Public: `/seasons/` (every season), `/seasons/<slug>/` (the table, one column per evening,
dropped results marked, kept current by live.js from a member tournament's event stream),
`/seasons/<slug>/projector/` (the room's screen, paged by projector.js) and the downloads
`/seasons/<slug>/export/table.csv|xlsx|pdf`.

Directors: a signed-in user creates a season on `/seasons/` (POST) and becomes its director;
`/seasons/<slug>/manage/` sets its rule and adds or removes evenings (the season's directors,
and for adding, the tournament's too). Every POST is one service call, then a redirect.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from tournaments.clubs.services import current_club
from tournaments.exports import downloads
from tournaments.live import event_log
from tournaments.models import GAMES, Series, Tournament
from tournaments.seasons import selectors as select
from tournaments.seasons import services as service
from tournaments.selectors import director as director_select
from tournaments.services import Actor, ServiceError
from tournaments.views import exports as export_views
from tournaments.views.access import director_page
from tournaments.web.caching import public_page

# -- forms --------------------------------------------------------------------------------------


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GAMES)
    rule = forms.ChoiceField(label=gettext_lazy("Rule"), choices=Series.Rule.choices)
    points = forms.CharField(
        label=gettext_lazy("Placing points"),
        required=False,
        max_length=1000,
        help_text=gettext_lazy(
            "For 1st, 2nd, 3rd ... place each evening, separated by commas (placing points rule)."
        ),
    )
    best = forms.IntegerField(
        label=gettext_lazy("Best evenings counted"),
        required=False,
        min_value=1,
        max_value=366,
        help_text=gettext_lazy(
            "Each entrant's best K evenings count; leave empty to count every evening."
        ),
    )

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["game"]

    def clean_points(self) -> list[str] | None:
        text = self.cleaned_data["points"].replace("、", ",").replace("，", ",")
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return parts or None


class AddEveningForm(forms.Form):
    tournament = forms.ModelChoiceField(
        label=gettext_lazy("Tournament"), queryset=Tournament.objects.none()
    )

    def __init__(self, *args: Any, series: Series, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = (
            director_select.directed_tournaments(user, series.club)
            .filter(game=series.game)
            .exclude(series_members__series=series)
        )


def _series(request: HttpRequest, slug: str) -> Series:
    series = select.series_by_slug(slug, club=current_club(request))
    if series is None:
        raise Http404("no such season")
    return series


def _events_url(series: Series) -> str:
    """The event stream of the season's newest evening: every recompute of the table is
    announced ("season") on each member's stream, so any one of them carries it."""
    newest = (
        Tournament.objects.filter(series_members__series=series)
        .order_by("-starts_at", "-id")
        .first()
    )
    if newest is None:
        return ""
    try:
        after = event_log.tail(newest.pk)
    except Exception:
        after = None
    try:
        stream = reverse("api:live-events", args=[newest.slug])
    except NoReverseMatch:
        return ""
    return f"{stream}?lastEventId={after or '0-0'}"


# -- public -------------------------------------------------------------------------------------


@public_page
@require_http_methods(["GET", "POST"])
def season_list(request: HttpRequest) -> HttpResponse:
    """Every season; a signed-in user may start one here (POST)."""
    form = None
    status = 200
    if request.user.is_authenticated:
        form = SeasonForm(request.POST or None)
        if request.method == "POST":
            if form.is_valid():
                data = form.cleaned_data
                try:
                    series = service.create_series(
                        actor=Actor(user=request.user, club=current_club(request)),
                        name=data["name"],
                        game=data["game"],
                        rule=data["rule"],
                        points=data["points"],
                        best=data["best"],
                    )
                except ServiceError as error:
                    form.add_error(None, error.message)
                else:
                    messages.success(request, _("Season created: add its evenings."))
                    return redirect("tournaments:season-manage", slug=series.slug)
            status = 400
    elif request.method == "POST":
        raise PermissionDenied(_("Sign in to create a season."))
    return render(
        request,
        "tournaments/public/seasons.html",
        {"seasons": select.season_list(club=current_club(request)), "form": form},
        status=status,
    )


def _context(series: Series) -> dict:
    return {"series": series, "season": select.season_view(series)}


@public_page
@require_GET
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    series = _series(request, slug)
    return render(
        request,
        "tournaments/public/season.html",
        {
            **_context(series),
            "events_url": _events_url(series),
            "manages": service.directs_series(Actor(user=request.user), series),
        },
    )


@require_GET
def season_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    response = render(request, "tournaments/public/_season.html", _context(_series(request, slug)))
    response["Cache-Control"] = "no-cache"
    return response


@public_page
@require_GET
def season_projector(request: HttpRequest, slug: str) -> HttpResponse:
    series = _series(request, slug)
    return render(
        request,
        "tournaments/public/season_projector.html",
        {
            **_context(series),
            "events_url": _events_url(series),
            "rows": _positive(request.GET.get("rows")),
            "seconds": _positive(request.GET.get("seconds")),
        },
    )


@require_GET
def season_projector_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    response = render(
        request, "tournaments/public/_season_projector.html", _context(_series(request, slug))
    )
    response["Cache-Control"] = "no-cache"
    return response


def _positive(value: str | None) -> int | None:
    if value and value.isdigit() and 0 < int(value) <= 200:
        return int(value)
    return None


@require_safe
def season_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponseBase:
    """The season table as CSV, XLSX or PDF; the XLSX and PDF throttled per client address and
    built once per season snapshot (as the standings downloads)."""
    if fmt not in ("csv", "xlsx", "pdf"):
        raise Http404("no such download")
    series = _series(request, slug)
    if fmt != "csv":
        wait = export_views.throttled(request)
        if wait is not None:
            return export_views.too_many(request, wait)
    return downloads.response(downloads.season(series, fmt))


# -- directors ----------------------------------------------------------------------------------


def _refusal(error: ServiceError) -> str:
    """A season service's refusal in the reader's language, where it has words of its own."""
    if error.code == "season-rule-duplicate":
        return str(
            _(
                "A duplicate night ranks its pairs by percentage and has no match points: a "
                "season counting match points cannot add it up. Count the season by placing "
                "points to include it (each field's places count)."
            )
        )
    return error.message


@director_page(of="season")
@require_http_methods(["GET", "POST"])
def season_manage(request: HttpRequest, series: Series, actor: Actor) -> HttpResponse:
    """Set the season's rule; add and remove its evenings."""
    initial = {
        "name": series.name,
        "rule": series.rule,
        "best": series.best,
        "points": ", ".join(str(p) for p in series.points),
    }
    form = SeasonForm(request.POST or None, initial=initial, editing=True)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                service.update_series(
                    actor=actor,
                    series=series,
                    name=data["name"],
                    rule=data["rule"],
                    points=data["points"],
                    best=data["best"],
                )
            except ServiceError as error:
                form.add_error(None, _refusal(error))
            else:
                messages.success(request, _("Season saved: its table is being recomputed."))
                return redirect("tournaments:season-manage", slug=series.slug)
        status = 400
    members = list(
        Tournament.objects.filter(series_members__series=series).order_by("starts_at", "id")
    )
    return render(
        request,
        "tournaments/director/season.html",
        {
            "series": series,
            "form": form,
            "members": members,
            "add_form": AddEveningForm(series=series, user=request.user),
        },
        status=status,
    )


@director_page(of="season")
@require_POST
def season_add(request: HttpRequest, series: Series, actor: Actor) -> HttpResponse:
    form = AddEveningForm(request.POST, series=series, user=request.user)
    if not form.is_valid():
        messages.error(request, _("Choose one of your tournaments of this season's game."))
    else:
        try:
            service.add_tournament(
                actor=actor,
                series=series,
                tournament=form.cleaned_data["tournament"],
            )
        except ServiceError as error:
            messages.error(request, _refusal(error))
        else:
            messages.success(request, _("Evening added to the season."))
    return redirect("tournaments:season-manage", slug=series.slug)


@director_page(of="season")
@require_POST
def season_remove(
    request: HttpRequest, series: Series, actor: Actor, tournament: str
) -> HttpResponse:
    member = Tournament.objects.filter(club=series.club, slug=tournament).first()
    if member is None:
        raise Http404("no such tournament")
    try:
        service.remove_tournament(actor=actor, series=series, tournament=member)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Evening removed from the season."))
    return redirect("tournaments:season-manage", slug=series.slug)


urlpatterns = [
    path("seasons/", season_list, name="seasons"),
    path("seasons/<slug:slug>/", season_page, name="season"),
    path("seasons/<slug:slug>/fragment/", season_fragment, name="season-fragment"),
    path("seasons/<slug:slug>/projector/", season_projector, name="season-projector"),
    path(
        "seasons/<slug:slug>/projector/fragment/",
        season_projector_fragment,
        name="season-projector-fragment",
    ),
    path("seasons/<slug:slug>/export/table.<str:fmt>", season_export, name="season-export"),
    path("seasons/<slug:slug>/manage/", season_manage, name="season-manage"),
    path("seasons/<slug:slug>/manage/add/", season_add, name="season-add"),
    path(
        "seasons/<slug:slug>/manage/remove/<slug:tournament>/", season_remove, name="season-remove"
    ),
]
