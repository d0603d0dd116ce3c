from django.shortcuts import render

from tournaments.checker import DEMO_GAMES, check_text, demo_records
from tournaments.forms import CheckHandsForm


def home(request):
    """Public home page: what TrickTable is and which games it runs."""
    return render(request, "home.html")


def check_hands(request):
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
        {"form": form, "report": report, "demo_games": DEMO_GAMES},
        status=status,
    )
