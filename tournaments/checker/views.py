"""The hand-record checker page: validates and scores records, stores nothing."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from tournaments.checker.forms import CheckHandsForm
from tournaments.checker.records import DEMO_GAMES, check_text, demo_records
from tournaments.presentation import presentation


def check_hands(request: HttpRequest) -> HttpResponse:
    """Check hand records with the rules engine and show each result (nothing is stored)."""
    report = None
    if request.method == "POST":
        form = CheckHandsForm(request.POST, request.FILES)
        if form.is_valid():
            report = check_text(form.cleaned_data["data"])
    else:
        demo = request.GET.get("demo")
        initial = {"records": demo_records(demo)} if demo in DEMO_GAMES else {}
        form = CheckHandsForm(initial=initial)
    status = 400 if request.method == "POST" and not form.is_valid() else 200
    return render(
        request,
        "check_hands.html",
        # The engine's error codes (and its English detail) are for a signed-in director; every
        # reader gets the sentences (the code stays in each error's data-code and title).
        {
            "form": form,
            "report": report,
            "demos": [(game, presentation(game).demo_label) for game in DEMO_GAMES],
            "show_codes": request.user.is_authenticated,
        },
        status=status,
    )


urlpatterns = [
    path("check/", check_hands, name="check-hands"),
]
