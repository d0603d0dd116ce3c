"""Printing pages (see tournaments/views/__init__.py): table cards with the scorers' QR codes and
paper score sheets, and the entries' PIN slips (the PIN that confirms the other side's hands),
as printable HTML and as PDF. For the tournament's directors only.

A table card belongs to the event's numbered table and is valid in every round until the event
ends: printed once (the event's cards page, before pairings if the director likes) or with a
round's seating; printing a table's card again revokes that table's earlier card only. Printing
issues tokens, so it is a POST; the page that shows the secrets is never cached. Score sheets
carry no secret and are plain GETs.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.clubs.services import directs_club
from tournaments.knockout import services as knockout
from tournaments.models import EventTable, Round, Tournament
from tournaments.people import selectors as people_pages
from tournaments.people import services as people
from tournaments.printing import paper as printing
from tournaments.services import Actor
from tournaments.views.access import director_page
from tournaments.web import links

PAPER_SIZES = ("a4", "a6")

REFUSAL = gettext_lazy("Only this tournament's directors may print its cards.")


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def _paper(value: str | None) -> str:
    return value if value in PAPER_SIZES else "a4"


def _wants_pdf(request: HttpRequest) -> bool:
    return request.GET.get("format") == "pdf" or request.POST.get("format") == "pdf"


def _pdf(request: HttpRequest, html: str, filename: str) -> HttpResponse:
    data = printing.render_pdf(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _card_urls(
    request: HttpRequest,
    tournament: Tournament,
    cards: Iterable[printing.TableCard],
    printed: dict[int, tuple[EventTable, str]],
) -> None:
    """Each printed card's address (PUBLIC_URL when set) and QR code."""
    for card in cards:
        found = printed.get(card.number)
        if found is None:  # a table added since the list was read: it prints next time
            continue
        event_table, secret = found
        card.url = links.phone_url(request, services.card_path(event_table, tournament, secret))
        card.qr = printing.qr_svg(
            card.url, title=_("QR code: score table %(table)s") % {"table": card.number}
        )


def _printed_cards(request: HttpRequest, context: dict, filename: str) -> HttpResponse:
    context["pdf"] = _wants_pdf(request)
    if context["pdf"]:
        html = render_to_string("tournaments/printing/cards.html", context, request=request)
        response = _pdf(request, html, filename)
    else:
        response = render(request, "tournaments/printing/cards.html", context)
    add_never_cache_headers(response)  # the page holds every table's secret
    response["Referrer-Policy"] = "no-referrer"
    return response


@director_page(refusal=REFUSAL)
@require_http_methods(["GET", "POST"])
def cards(request: HttpRequest, tournament: Tournament, actor: Actor, number: int) -> HttpResponse:
    """GET: what the round's cards will show, and the button that prints them. POST: a card
    for each table of the round (each table's earlier cards are revoked) with who sits where,
    rendered as HTML, or PDF with format=pdf. A card is valid in every round."""
    round_ = _round(tournament, number)
    tables = printing.round_tables(round_)
    paper = _paper(request.POST.get("paper") or request.GET.get("paper"))
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "byes": printing.round_byes(round_),
        "paper": paper,
        "paper_sizes": _paper_sizes(),
        "phone_base": links.phone_url(request, "/"),
        "unreachable": links.unreachable_from_phones(request),
        "carded": printing.carded_tables(tournament),
    }
    if request.method == "GET":
        return render(request, "tournaments/printing/cards_confirm.html", context)
    try:
        printed = services.print_cards(
            tournament=tournament, numbers=[card.number for card in tables], actor=actor
        )
    except services.ServiceError as error:
        context["error"] = error.message
        return render(
            request, "tournaments/printing/cards_confirm.html", context, status=error.status
        )
    _card_urls(request, tournament, tables, printed)
    return _printed_cards(request, context, f"{tournament.slug}-round-{round_.number}-cards.pdf")


def _paper_sizes() -> list[tuple[str, str]]:
    return [("a4", _("A4, two cards a page")), ("a6", _("A6, one card a page"))]


def _wanted_tables(request: HttpRequest) -> list[int] | None:
    """The tables asked for: one (`table`) or the first N (`tables`); None when unreadable."""
    try:
        if request.POST.get("table"):
            return [int(request.POST["table"])]
        return list(range(1, int(request.POST.get("tables", "")) + 1))
    except ValueError:
        return None


@director_page(refusal=REFUSAL)
@require_http_methods(["GET", "POST"])
def event_cards(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """The event's table cards, printed once (before the first round if the director likes):
    GET, how many tables and which already have a card; POST, a card for every table 1..N (or
    for one table: reprinting a lost card revokes that card only). A card follows its table
    through every round until the event ends."""
    paper = _paper(request.POST.get("paper") or request.GET.get("paper"))
    context = {
        "tournament": tournament,
        "paper": paper,
        "paper_sizes": _paper_sizes(),
        "phone_base": links.phone_url(request, "/"),
        "unreachable": links.unreachable_from_phones(request),
        "carded": printing.carded_tables(tournament),
        "needed": printing.tables_needed(tournament),
        "event": True,
    }
    if request.method == "GET":
        return render(request, "tournaments/printing/event_cards_confirm.html", context)
    numbers = _wanted_tables(request)
    try:
        if numbers is None:
            raise services.Invalid("bad-table", _("Say how many tables, or which table."))
        printed = services.print_cards(tournament=tournament, numbers=numbers, actor=actor)
    except services.ServiceError as error:
        context["error"] = error.message
        return render(
            request, "tournaments/printing/event_cards_confirm.html", context, status=error.status
        )
    context["tables"] = tables = printing.event_cards(tournament, sorted(printed))
    _card_urls(request, tournament, tables, printed)
    return _printed_cards(request, context, f"{tournament.slug}-table-cards.pdf")


@director_page(refusal=REFUSAL)
@require_http_methods(["GET"])
def sheets(request: HttpRequest, tournament: Tournament, actor: Actor, number: int) -> HttpResponse:
    """Paper score sheets, one per table of the round, with a row per hand (HTML or PDF)."""
    round_ = _round(tournament, number)
    try:
        rows = int(request.GET["rows"]) if request.GET.get("rows") else None
    except ValueError:
        rows = None
    layout = printing.sheet_layout(
        tournament, rows, knockout=knockout.in_knockout(tournament, round_.number)
    )
    tables = printing.round_tables(round_)
    for card in tables:  # the match's public page: anyone checks the scores entered so far
        assert card.match is not None  # a round's table has its match
        card.url = links.phone_url(
            request, reverse("tournaments:public-match", args=[tournament.slug, card.match.pk])
        )
        card.qr = printing.qr_svg(card.url, title=str(card.number))
    first = tables[0].dealer.seat if tables and tables[0].dealer else None
    rotation = printing.dealers(tournament, first, layout.rows) if first else []
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "layout": layout,
        "hand_rows": [
            (hand, rotation[hand - 1] if rotation else "") for hand in range(1, layout.rows + 1)
        ],
        "pdf": _wants_pdf(request),
        "phone_base": links.phone_url(request, "/"),
        "unreachable": links.unreachable_from_phones(request),
    }
    if context["pdf"]:
        html = render_to_string("tournaments/printing/sheets.html", context, request=request)
        return _pdf(request, html, f"{tournament.slug}-round-{round_.number}-sheets.pdf")
    return render(request, "tournaments/printing/sheets.html", context)


@director_page(refusal=REFUSAL)
@require_http_methods(["GET", "POST"])
def pins(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """One slip per entry with its confirmation PIN, to hand out at check-in (HTML or PDF):
    the other side confirms a hand with it. POST (`claim_codes`): the slips also print each
    player's claim code, issued now (tournaments/people: a club's director only; each
    player's earlier code stops working). For the directors' eyes only, never cached."""
    slips = printing.pin_slips(tournament)
    context: dict = {
        "tournament": tournament,
        "slips": slips,
        "pdf": _wants_pdf(request),
        # claim codes link records across clubs: offered where there are several clubs
        "may_claim": people_pages.several_clubs()
        and directs_club(actor.user_or_none(), tournament.club),
    }
    if request.method == "POST":
        try:
            issued = people.issue_for_slips(actor=actor, tournament=tournament)
        except services.ServiceError as error:
            context["error"] = error.message
        else:
            context["claims"] = [
                [(name, issued[pk].code) for pk, name in slip.members if pk in issued]
                for slip in slips
            ]
            context["claim_expires"] = min((i.expires_at for i in issued.values()), default=None)
    context["printed"] = list(
        zip(slips, context.get("claims") or [[] for _slip in slips], strict=True)
    )
    if context["pdf"]:
        html = render_to_string("tournaments/printing/pins.html", context, request=request)
        response = _pdf(request, html, f"{tournament.slug}-pins.pdf")
    else:
        response = render(request, "tournaments/printing/pins.html", context)
    add_never_cache_headers(response)
    response["Referrer-Policy"] = "same-origin"  # a POST from it must carry its Origin (CSRF)
    return response


urlpatterns = [
    path("director/<slug:slug>/print/pins/", pins, name="printing-pins"),
    path("director/<slug:slug>/print/cards/", event_cards, name="printing-event-cards"),
    path("director/<slug:slug>/print/round/<int:number>/cards/", cards, name="printing-cards"),
    path("director/<slug:slug>/print/round/<int:number>/sheets/", sheets, name="printing-sheets"),
]
