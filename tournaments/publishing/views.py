"""The publishing pages, under the director's pages.

`/director/publishing/`: on the room, where to publish (the site's address and key; the
environment's PUBLISH_URL and PUBLISH_KEY win) and what was sent, when, and any failure in plain
words; on the site, its publishing keys (made, shown once, revoked) and the events rooms publish
to it, each of which its directors may take over. "Publish now" is a button on each event's
dashboard. Every POST is one service call, then a redirect (a new key's page is the exception:
the key is shown on the answer to the POST, once, and never stored).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.clubs.selectors import of_club
from tournaments.clubs.services import current_club
from tournaments.models import Club, Publication, PublishedEvent, PublishingKey, Tournament
from tournaments.services import Actor, ServiceError
from tournaments.views.access import director_page
from tournaments.words.engine import refusal_words

from . import sender, services, words
from .forms import KeyForm, TargetForm

RECENT = 5  # attempts shown per event


def _refused(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, refusal_words(error.code, error.message, error.details)[0])


def _rows(user: Any, club: Club) -> list[dict[str, Any]]:
    """The room's events of the club and their publishing, the newest request first."""
    publications = (
        Publication.objects.select_related("tournament")
        .filter(tournament__club=club)
        .order_by("-requested_at")
    )
    if not user.is_superuser:
        publications = publications.filter(tournament__directors=user)
    rows = []
    for p in publications[:50]:
        rows.append(
            {
                "publication": p,
                "reason": words.reason(p.reason),
                "outcome": words.outcome(p.last_outcome) if p.last_outcome else "",
                "failure": words.failure(p.error_code) if p.error_code else "",
                "attempts": [
                    {
                        "attempt": a,
                        "reason": words.reason(a.reason),
                        "outcome": words.outcome(a.outcome) if a.outcome else "",
                        "failure": words.failure(a.error_code) if a.error_code else "",
                    }
                    for a in p.attempts.all()[:RECENT]
                ],
            }
        )
    return rows


def _page(
    request: HttpRequest,
    *,
    target_form: TargetForm | None = None,
    key_form: KeyForm | None = None,
    new_secret: str = "",
    status: int = 200,
) -> HttpResponse:
    user = request.user
    club = current_club(request)
    target = services.current_target()
    keys = of_club(PublishingKey.objects.select_related("owner"), club)
    events = of_club(
        PublishedEvent.objects.select_related("tournament", "key", "taken_over_by"), club
    )
    if not user.is_superuser:
        keys = keys.filter(owner_id=user.pk)
        events = events.filter(key__owner_id=user.pk)
    if services.due():  # a laptop restarted with events owed: send them
        sender.resume()
    response = render(
        request,
        "publishing/page.html",
        {
            "target": target,
            "may_set_target": user.is_superuser,
            "target_form": target_form or TargetForm(initial={"url": target.url if target else ""}),
            "key_form": key_form or KeyForm(),
            "new_secret": new_secret,
            "rows": _rows(user, club),
            "keys": keys[:50],
            "events": events.order_by("-updated_at")[:100],
        },
        status=status,
    )
    response["Cache-Control"] = "private, no-store"  # a new key is on it, once
    return response


@director_page(of="club")
@never_cache
def publishing_page(request: HttpRequest) -> HttpResponse:
    return _page(request)


@director_page(of="club")
@require_POST
def save_target(request: HttpRequest) -> HttpResponse:
    form = TargetForm(request.POST)
    if not form.is_valid():
        return _page(request, target_form=form, status=400)
    url, key = form.cleaned_data["url"], form.cleaned_data["key"]
    current = services.current_target()
    if url and not key and current is not None and not current.from_environment:
        key = current.key  # the saved key, kept
    try:
        services.save_target(url=url, key=key, actor=Actor(user=request.user))
    except ServiceError as error:
        form.add_error(None, refusal_words(error.code, error.message, error.details)[0])
        return _page(request, target_form=form, status=400)
    if url:
        sender.resume()
        messages.success(request, _("Saved: events are published to %(url)s.") % {"url": url})
    else:
        messages.success(request, _("Publishing is off."))
    return redirect("tournaments:publishing")


@director_page(refusal=gettext_lazy("Only this tournament's directors may publish it."))
@require_POST
def publish_now(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    if sender.trigger(tournament_id=tournament.pk, reason="now"):
        messages.success(
            request, _("Publishing: it goes out now, or as soon as the laptop is online.")
        )
    else:
        messages.error(request, _("Publishing is not set up: enter the club's site first."))
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, {request.get_host()}):
        return redirect(back)
    return redirect(reverse("tournaments:director-dashboard", args=[tournament.slug]))


@director_page(of="club")
@require_http_methods(["POST"])
def create_key(request: HttpRequest) -> HttpResponse:
    form = KeyForm(request.POST)
    if not form.is_valid():
        return _page(request, key_form=form, status=400)
    try:
        _key, secret = services.create_key(
            actor=Actor(user=request.user, club=current_club(request)),
            label=form.cleaned_data["label"],
        )
    except ServiceError as error:
        _refused(request, error)
        return redirect("tournaments:publishing")
    return _page(request, new_secret=secret)


@director_page(of="club")
@require_POST
def revoke_key(request: HttpRequest, pk: int) -> HttpResponse:
    key = get_object_or_404(of_club(PublishingKey.objects, current_club(request)), pk=pk)
    try:
        services.revoke_key(key=key, actor=Actor(user=request.user))
    except ServiceError as error:
        _refused(request, error)
    else:
        messages.success(request, _("The key is revoked: rooms using it can no longer publish."))
    return redirect("tournaments:publishing")


@director_page(of="club")
@require_POST
def take_over(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(of_club(PublishedEvent.objects, current_club(request)), pk=pk)
    if request.POST.get("confirm") != "yes":
        return render(request, "publishing/take_over.html", {"event": event})
    try:
        services.take_over(event=event, actor=Actor(user=request.user))
    except ServiceError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Taken over: the event is this site's own now; the room can no longer publish it."),
        )
    return redirect("tournaments:publishing")


urlpatterns = [
    path("director/publishing/", publishing_page, name="publishing"),
    path("director/publishing/site/", save_target, name="publishing-target"),
    path("director/publishing/keys/", create_key, name="publishing-key-create"),
    path("director/publishing/keys/<int:pk>/revoke/", revoke_key, name="publishing-key-revoke"),
    path("director/publishing/events/<int:pk>/take-over/", take_over, name="publishing-take-over"),
    path("director/<slug:slug>/publish/", publish_now, name="publishing-publish-now"),
]
