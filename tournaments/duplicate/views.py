"""Duplicate pages (see tournaments/views/__init__.py and docs/duplicate.md).

- The director's: a new duplicate event (the movement and scoring options), the event page
  (pairs, start, round control, missing boards, adjustments, release, finish), and printing
  (hand diagrams, curtain cards, make-up sheet, table guide cards; HTML or PDF).
- The table's phone: `/duplicate/<slug>/table/<n>/` is a shell; its script reads the table's
  token from the address' fragment and fetches the panel (the table's boards this round, the
  next board and its dealer, the score form, what awaits the other side's PIN) with
  `Authorization: Table <secret>`. A token opens its table number for the whole evening. The
  panel never shows another table's result of a round the director has not released.
- The results: the ranking per field (live), travellers, personal score cards, and after the
  event every board's deal with its results; exports (CSV, XLSX, PDF, JSON archive, boards).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from datetime import timedelta
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from games.cards import RANKS, SUIT_SIGNS
from games.registry import get_game
from tournaments import presentation, services
from tournaments.clubs.services import current_club
from tournaments.duplicate import engine
from tournaments.duplicate import selectors as select
from tournaments.duplicate import services as dup
from tournaments.models import (
    Board,
    BoardResult,
    DuplicateEvent,
    Entry,
    Match,
    Round,
    TableToken,
    TokenState,
    Tournament,
    hash_secret,
)
from tournaments.printing import paper as printing
from tournaments.services import Actor, ServiceError, register_entry, side_pins
from tournaments.services.hands import MAX_HAND_BYTES
from tournaments.views import access
from tournaments.views.errors import _render
from tournaments.views.scoring import suit_labels
from tournaments.web import links
from tournaments.web.caching import public_page
from tournaments.web.clients import client_address
from tournaments.web.error_shape import error_response
from tournaments.words.engine import error_sentence, notes_again, refusal_words

SEATS = "NESW"
SUITS = tuple(SUIT_SIGNS.items())  # (("S", "♠"), ("H", "♥"), ...): games.cards' one home


def seat_names() -> dict[str, str]:
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}


def adjustment_names() -> dict[str, str]:
    return {
        "average-plus": _("Average plus"),
        "average": _("Average"),
        "average-minus": _("Average minus"),
    }


# -- the new event form --------------------------------------------------------------------------


def rules_choices() -> list[tuple[str, str]]:
    """Every preset duplicate can play: partnership Spades for four, and Whist."""
    from tournaments.presentation import game_name, preset_name

    out = []
    for game in engine.DUPLICATE_GAMES:
        book = get_game(game).book
        for preset in book.presets:
            compiled = book.resolve(preset)[0]
            if engine.rules_refusal(game, compiled) is not None:
                continue
            # the names players use, in the reader's language (never the engine's ids)
            out.append((f"{game}:{preset}", f"{game_name(game)} — {preset_name(game, preset)}"))
    return out


class DuplicateForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=150, required=False)
    rules = forms.ChoiceField(label=gettext_lazy("Game and rules"), choices=rules_choices)
    movement = forms.ChoiceField(
        label=gettext_lazy("Movement"), choices=DuplicateEvent.Movement.choices
    )
    tables = forms.IntegerField(label=gettext_lazy("Tables"), min_value=2, max_value=30, initial=5)
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        min_value=1,
        max_value=59,
        required=False,
        help_text=gettext_lazy(
            "Empty: the whole movement (a complete Howell, every table of a Mitchell)."
        ),
    )
    even = forms.ChoiceField(
        label=gettext_lazy("Even number of tables (Mitchell)"), choices=DuplicateEvent.Even.choices
    )
    boards_per_round = forms.IntegerField(
        label=gettext_lazy("Boards per round"),
        min_value=1,
        max_value=dup.MAX_BOARDS_PER_ROUND,
        initial=3,
    )
    board_scoring = forms.ChoiceField(
        label=gettext_lazy("Board scoring (Spades)"), choices=DuplicateEvent.BoardScoring.choices
    )
    board_compare = forms.ChoiceField(
        label=gettext_lazy("What is compared"),
        choices=[
            ("", gettext_lazy("The game's default (Spades: own, Whist: net)")),
            *DuplicateEvent.BoardCompare.choices,
        ],
        required=False,
    )
    board_honours = forms.BooleanField(label=gettext_lazy("Honours count (Whist)"), required=False)
    comparison = forms.ChoiceField(
        label=gettext_lazy("Comparison"), choices=DuplicateEvent.Comparison.choices
    )
    board_source = forms.ChoiceField(
        label=gettext_lazy("Boards"), choices=DuplicateEvent.BoardSource.choices
    )
    deal_seed = forms.CharField(
        label=gettext_lazy("Deal seed"),
        max_length=64,
        required=False,
        help_text=gettext_lazy("The same seed deals the same boards. Empty: a random seed."),
    )
    confirmation = forms.ChoiceField(
        label=gettext_lazy("Confirming results"),
        choices=Tournament.Confirmation.choices,
        help_text=gettext_lazy(
            "With PINs (the default), each side proves who it is with the PIN on its entry's "
            "card: the side entering a hand types its own PIN, another side confirms it with "
            "its own, so nobody can score or confirm for someone else. Same phone: no PINs at "
            "all; whoever holds the table's phone enters and confirms hands for every side, "
            "even their own. Only for a club that trusts everyone at every table."
        ),
    )


# -- access ---------------------------------------------------------------------------------------


director_page = access.director_page(formats=[Tournament.Format.DUPLICATE])


def engine_refusal(error: ServiceError) -> bool:
    """Is this the duplicate engine's refusal (`services.duplicate.engine_error`)?"""
    return isinstance(error.details, dict) and error.details.get("engine") == "duplicate"


def comparing(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The results pages compare the stored results with the engine: a refusal of them (results
    no evening can produce: a damaged archive restored) is a page saying so with the refusal's
    code and words, status 422, instead of a server error."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            if not engine_refusal(error):
                raise
            words, _details = refusal_words(error.code, error.message, error.details)
            return _render(
                request, "tournaments/duplicate/unscorable.html", 422, code=error.code, words=words
            )

    return page


def _duplicate(request: HttpRequest, slug: str) -> Tournament:
    """The address's club's duplicate event of this slug (404 for another club's)."""
    found = Tournament.objects.filter(club=current_club(request))
    return get_object_or_404(found, slug=slug, format=Tournament.Format.DUPLICATE)


# -- the director's pages -------------------------------------------------------------------------


@access.director_page(of="club")
def new_event(request: HttpRequest) -> HttpResponse:
    form = DuplicateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game, preset = data["rules"].split(":", 1)
        try:
            tournament = dup.create_duplicate_tournament(
                actor=Actor(user=request.user, club=current_club(request)),
                name=data["name"],
                game=game,
                rules=preset,
                movement=data["movement"],
                tables=data["tables"],
                rounds=data["rounds"],
                even=data["even"],
                boards_per_round=data["boards_per_round"],
                board_scoring=(
                    data["board_scoring"]
                    if data["board_scoring"] in engine.duplicate_game(game).board_scorings
                    else "standard"
                ),
                board_compare=data["board_compare"] or None,
                board_honours=data["board_honours"],
                comparison=data["comparison"],
                board_source=data["board_source"],
                deal_seed=data["deal_seed"],
                confirmation=data["confirmation"],
                venue=data["venue"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The duplicate event is created: register its pairs."))
            return redirect("tournaments:duplicate-director", slug=tournament.slug)
    return render(request, "tournaments/duplicate/new.html", {"form": form})


def _round_rows(tournament: Tournament, event: DuplicateEvent, round_: Round | None) -> list:
    if round_ is None:
        return []
    results = {}
    for r in BoardResult.objects.filter(match__round=round_, is_current=True):
        results[(r.table_number, r.board_id)] = r
    boards = {b.number: b for b in Board.objects.filter(tournament=tournament)}
    matches = list(round_.matches.select_related("table").prefetch_related("seats__entry"))
    # wrong PINs typed at a table this hour: struggling or locked, for the director to clear
    troubles = side_pins.pin_troubles([m.pk for m in matches])
    rows = []
    for match in matches:
        numbers = dup.boards_of(event, round_.number, match.played_table.number)
        cells = []
        for n in numbers:
            found = results.get((match.played_table.number, boards[n].pk))
            cells.append({"board": n, "status": found.status if found else "", "result": found})
        ns, ew = dup.pair_numbers(match)
        rows.append(
            {
                "table": match.played_table.number,
                "match": match,
                "ns": ns,
                "ew": ew,
                "boards": cells,
                "done": sum(1 for c in cells if c["status"] == "confirmed"),
                "pins": troubles.get(match.pk),
            }
        )
    return sorted(rows, key=lambda r: r["table"])


def _board_list(tournament: Tournament) -> list[dict]:
    """Each board for the director: dealt or waiting for its deal, played (its deal fixed)."""
    from django.db.models import Count

    return [
        {
            "number": b.number,
            "dealer": b.dealer,
            "dealt": b.dealt,
            "source": b.source,
            "played": b.played > 0,
        }
        for b in tournament.boards.annotate(played=Count("results")).order_by("number")
    ]


@director_page
def event_page(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    event = dup.event_of(tournament)
    round_ = tournament.round_set.order_by("-number").first()
    plan = dup.movement_of(event)
    entries = list(
        tournament.entries.select_related("team", "player", "duplicate_pair").order_by("id")
    )
    try:
        scored = select.scored(tournament, director=True)
        rankings = {name: scored.ranking_rows(name) for name in scored.event.rankings}
        refusal: tuple[str, str] | None = None
    except ServiceError as error:  # stored results the engine refuses: say so, page still up
        if not engine_refusal(error):
            raise
        rankings, refusal = (
            {},
            (error.code, refusal_words(error.code, error.message, error.details)[0]),
        )
    context = {
        "tournament": tournament,
        "event": event,
        "round": round_,
        "plan": plan,
        "entries": entries,
        "rows": _round_rows(tournament, event, round_),
        "missing": dup.missing_results(round_) if round_ else [],
        "rounds_left": len(plan.rounds) - (round_.number if round_ else 0),
        "rankings": rankings,
        "refusal": refusal,
        "adjustments": adjustment_names(),
        "boards": tournament.boards.count(),
        "board_list": _board_list(tournament),
        "released": event.released_round,
        "section": "duplicate",
        "preset_name": presentation.preset_name(
            tournament.game,
            tournament.rules
            if isinstance(tournament.rules, str)
            else tournament.rules.get("preset", ""),
        ),
    }
    return render(request, "tournaments/duplicate/director.html", context)


@require_POST
@director_page
def event_action(
    request: HttpRequest, tournament: Tournament, actor: Actor, action: str
) -> HttpResponse:
    """One button of the event page: each calls one service, its refusal shown as a message."""
    post = request.POST
    back = redirect("tournaments:duplicate-director", slug=tournament.slug)

    def match_at(round_number: int, table: int) -> Match:
        return get_object_or_404(
            Match, round__tournament=tournament, round__number=round_number, table__number=table
        )

    def whole(name: str) -> int:
        try:
            return int(post.get(name, ""))
        except ValueError:
            raise ServiceError(
                "bad-number", _("%(name)s is a whole number") % {"name": name}
            ) from None

    try:
        if action == "pair":
            names = [post.get("first", "").strip(), post.get("second", "").strip()]
            register_entry(
                tournament=tournament,
                actor=actor,
                players=names,
                name=post.get("name", "").strip() or " & ".join(names),
            )
            note = _("Pair registered.")
        elif action == "start":
            dup.start_duplicate(tournament=tournament, actor=actor)
            note = _("The pairs are numbered and the movement is fixed.")
        elif action == "round":
            round_ = dup.start_round(tournament=tournament, actor=actor)
            note = _("Round %(n)s started.") % {"n": round_.number}
        elif action == "close":
            round_ = get_object_or_404(Round, tournament=tournament, number=whole("round"))
            dup.close_duplicate_round(round=round_, actor=actor)
            note = _("Round %(n)s closed.") % {"n": round_.number}
        elif action == "release":
            dup.release_results(tournament=tournament, actor=actor, through_round=whole("round"))
            note = _("Results released to the tables up to round %(n)s.") % {"n": whole("round")}
        elif action == "adjust":
            match = match_at(whole("round"), whole("table"))
            if post.get("kind") == "assigned":
                dup.assign_board_result(
                    match=match,
                    board=whole("board"),
                    actor=actor,
                    ns_score=whole("ns_score"),
                    ew_score=whole("ew_score"),
                    reason=post.get("reason", ""),
                )
            else:
                dup.adjust_board_result(
                    match=match,
                    board=whole("board"),
                    actor=actor,
                    ns=post.get("ns", ""),
                    ew=post.get("ew", ""),
                    reason=post.get("reason", ""),
                )
            note = _("The adjusted result is recorded.")
        elif action == "late":
            entry = get_object_or_404(Entry, pk=whole("entry"), tournament=tournament)
            pair = dup.late_pair(tournament=tournament, actor=actor, entry=entry)
            note = _("The late pair plays as pair %(n)s.") % {"n": pair.number}
        elif action == "finish":
            dup.finish_duplicate(tournament=tournament, actor=actor)
            note = _("The event is finished: every result and board is published.")
        else:
            raise Http404("no such action")
    except ServiceError as error:
        messages.error(request, error.message)
        return back
    messages.success(request, note)
    return back


# -- entering a board's deal -------------------------------------------------------------------

RANK_ORDER = RANKS[::-1]  # "AKQJT98765432", as a hand is written down
TYPED_SIGNS = str.maketrans(
    {
        "♠": "S",
        "♤": "S",
        "♥": "H",
        "♡": "H",
        "♦": "D",
        "♢": "D",
        "♣": "C",
        "♧": "C",
        ":": " ",
        ",": " ",
        ".": " ",
        "-": " ",
        "—": " ",
        "/": " ",
    }
)


def parse_hand(text: str) -> list[str]:
    """One seat's cards as a director types them from the board: by suit ("S AK72 H QJ3 D T98
    C 5432", suit symbols, 10 or T, spaces optional, a void left out or written "-"), or a
    list of cards ("AS KS 7S ..."). Raises ValueError with a translated message."""
    words = text.upper().translate(TYPED_SIGNS).replace("10", "T").split()
    if words and all(len(w) == 2 and w[0] in RANK_ORDER and w[1] in "SHDC" for w in words):
        return words
    cards, suit = [], ""
    for char in "".join(words):
        if char in "SHDC":
            suit = char
        elif char in RANK_ORDER:
            if not suit:
                raise ValueError(_("Start with a suit (S, H, D or C) before its cards."))
            cards.append(char + suit)
        else:
            raise ValueError(_("“%(char)s” is not a suit or a rank.") % {"char": char})
    return cards


def hand_text(cards: list[str]) -> str:
    """A stored hand in the notation `parse_hand` reads: "S A K 10 H Q J 3 D - C 5 4 3 2"."""
    parts = []
    for suit, _symbol in SUITS:
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANK_ORDER.index)
        parts.append(f"{suit} {' '.join('10' if r == 'T' else r for r in ranks) or '-'}")
    return "  ".join(parts)


class DealForm(forms.Form):
    """A board's deal: each seat's 13 cards (and Whist's turned card, one of the dealer's)."""

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        for seat, name in seat_names().items():
            self.fields[seat] = forms.CharField(
                label=name,
                max_length=120,
                widget=forms.TextInput(
                    attrs={
                        "autocomplete": "off",
                        "spellcheck": "false",
                        "autocapitalize": "characters",
                        "class": "hand-input",
                    }
                ),
            )
        if engine.duplicate_game(game).turned_card:
            self.fields["turned"] = forms.CharField(
                label=_("Turned card (the dealer's)"),
                max_length=3,
                help_text=_("For example 7D or 10H."),
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "size": 4, "autocapitalize": "characters"}
                ),
            )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean returns the cleaned data
        names = seat_names()
        hands: dict[str, list[str]] = {}
        for seat in SEATS:
            if seat not in data:
                continue
            try:
                hands[seat] = parse_hand(data[seat])
            except ValueError as error:
                self.add_error(seat, str(error))
                continue
            if len(hands[seat]) != 13:
                self.add_error(
                    seat,
                    _("%(seat)s holds %(n)s cards, not 13.")
                    % {"seat": names[seat], "n": len(hands[seat])},
                )
        if len(hands) == 4:
            held: dict[str, list[str]] = {}
            for seat, cards in hands.items():
                for card in cards:
                    held.setdefault(card, []).append(names[seat])
            twice = [
                f"{_card_label(c)} ({', '.join(seats)})"
                for c, seats in held.items()
                if len(seats) > 1
            ]
            if twice:
                self.add_error(
                    None, _("These cards are given twice: %(cards)s.") % {"cards": "; ".join(twice)}
                )
            missing = [
                _card_label(r + suit)
                for suit, _symbol in SUITS
                for r in RANK_ORDER
                if r + suit not in held
            ]
            if missing:
                self.add_error(
                    None, _("These cards are in no hand: %(cards)s.") % {"cards": " ".join(missing)}
                )
        data["hands"] = hands
        return data


def _card_label(card: str) -> str:
    symbol = SUIT_SIGNS[card[1]]
    return symbol + ("10" if card[0] == "T" else card[0])


def _deal_error(error: ServiceError) -> str:
    return {
        "bad-deal": _(
            "Each seat holds 13 different cards of one pack; the Whist turned card "
            "is one of the dealer's cards."
        ),
        "board-played": _("This board has results: its deal can no longer be changed."),
        "no-board": _("There is no such board."),
    }.get(error.code, error.message)


@director_page
def board_deal(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    """Enter (or, before it is played, replace) one board's deal, typed from the cards in the
    board; saving goes on to the next board, for typing a whole set in one go."""
    board = get_object_or_404(Board, tournament=tournament, number=number)
    played = board.results.exists()
    initial = {s: hand_text(board.hands.get(s, [])) for s in SEATS} if board.dealt else {}
    if board.turned:
        initial["turned"] = "10" + board.turned[1] if board.turned[0] == "T" else board.turned
    form = DealForm(request.POST or None, game=tournament.game, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            dup.set_board_deal(
                tournament=tournament,
                actor=actor,
                number=number,
                hands=form.cleaned_data["hands"],
                turned=form.cleaned_data.get("turned", ""),
            )
        except ServiceError as error:
            form.add_error(None, _deal_error(error))
        else:
            messages.success(request, _("Board %(n)s's deal is saved.") % {"n": number})
            following = tournament.boards.filter(number=number + 1).first()
            if following is not None and not following.dealt:
                return redirect(
                    "tournaments:duplicate-deal", slug=tournament.slug, number=number + 1
                )
            return redirect(
                reverse("tournaments:duplicate-director", args=[tournament.slug]) + "#boards-h"
            )
    last = tournament.boards.order_by("-number").values_list("number", flat=True).first()
    context = {
        "tournament": tournament,
        "board": board,
        "form": form,
        "played": played,
        "dealer": seat_names()[board.dealer],
        "last": last,
        "hand": board_views(tournament)[number - 1] if board.dealt else None,
    }
    return render(request, "tournaments/duplicate/deal.html", context)


# -- printing ---------------------------------------------------------------------------------


def _hand_lines(cards: list[str]) -> list[dict]:
    """A hand by suit, for a diagram: [{"suit", "symbol", "cards": "A K 7 2"}]."""
    out = []
    for suit, symbol in SUITS:
        ranks = [c[0] for c in cards if c[1] == suit]
        out.append(
            {
                "suit": suit,
                "symbol": symbol,
                "cards": " ".join("10" if r == "T" else r for r in ranks) or "—",
            }
        )
    return out


def board_views(tournament: Tournament) -> list[dict]:
    names = seat_names()
    out = []
    for board in tournament.boards.all():
        out.append(
            {
                "number": board.number,
                "dealer": board.dealer,
                "dealt": board.dealt,
                "turned": board.turned,
                "hands": [
                    {
                        "seat": s,
                        "name": names[s],
                        "cards": board.hands.get(s, []),
                        "lines": _hand_lines(board.hands.get(s, [])),
                    }
                    for s in SEATS
                ]
                if board.dealt
                else [],
            }
        )
    return out


def guide_cards(tournament: Tournament, event: DuplicateEvent) -> list[dict]:
    """For each table and round: the pairs, their direction, the boards, and where each pair
    and the boards go next."""
    plan = dup.movement_of(event)
    names = select.pair_names(tournament)
    out = []
    for table in range(1, plan.tables + 1):
        rows = []
        for r, seats in enumerate(plan.rounds, 1):
            s = next(x for x in seats if x.table == table)
            nxt = plan.rounds[r] if r < len(plan.rounds) else None

            def goes(pair: int | None, nxt: Sequence[engine.Seating] | None = nxt) -> str:
                if nxt is None or pair is None:
                    return ""
                for x in nxt:
                    if pair == x.ns:
                        return _("table %(t)s NS") % {"t": x.table}
                    if pair == x.ew:
                        return _("table %(t)s EW") % {"t": x.table}
                return _("sits out")

            board_to = ""
            if nxt is not None and plan.copies == 1:
                later = [x.table for x in nxt if x.board_set == s.board_set]
                board_to = ", ".join(str(t) for t in later)
            rows.append(
                {
                    "round": r,
                    "ns": s.ns,
                    "ew": s.ew,
                    "ns_name": names.get(s.ns, "") if s.ns else "",
                    "ew_name": names.get(s.ew, "") if s.ew else "",
                    "boards": engine.board_set(s.board_set, event.boards_per_round),
                    "ns_next": goes(s.ns),
                    "ew_next": goes(s.ew),
                    "boards_next": board_to,
                }
            )
        out.append({"table": table, "rounds": rows})
    return out


def _print(request: HttpRequest, template: str, context: dict, filename: str) -> HttpResponse:
    html = render_to_string(template, context, request=request)
    # a GET link (?format=pdf), or the guide cards' form that issues the codes (format=pdf)
    if (request.POST.get("format") or request.GET.get("format")) == "pdf":
        data = printing.render_pdf(html, base_url=request.build_absolute_uri("/"))
        response = HttpResponse(data, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return HttpResponse(html)


@require_GET
@director_page
def print_boards(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Hand diagrams, curtain cards (one slip per seat per board) and the make-up sheet."""
    event = dup.event_of(tournament)
    context = {
        "tournament": tournament,
        "event": event,
        "boards": board_views(tournament),
        "seats": seat_names(),
        "copies": dup.movement_of(event).copies,
    }
    return _print(
        request, "tournaments/duplicate/print_boards.html", context, f"{tournament.slug}-boards.pdf"
    )


@director_page
def print_guide(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Table guide cards; a POST adds each table's QR code: a card for the table of the event,
    valid for the whole evening (before round 1 too). Printing again replaces every table's
    card; the codes carry the site's PUBLIC_URL."""
    event = dup.event_of(tournament)
    cards = guide_cards(tournament, event)
    qr = {}
    if request.method == "POST":
        printed = services.print_cards(
            tournament=tournament, numbers=[card["table"] for card in cards], actor=actor
        )
        for number, (event_table, secret) in printed.items():
            url = links.phone_url(request, services.card_path(event_table, tournament, secret))
            qr[number] = {
                "url": url,
                "svg": printing.qr_svg(url, title=_("Table %(n)s") % {"n": number}),
            }
    for card in cards:
        card["qr"] = qr.get(card["table"])
    response = _print(
        request,
        "tournaments/duplicate/print_guide.html",
        {
            "tournament": tournament,
            "event": event,
            "cards": cards,
            "with_codes": bool(qr),
            "phone_base": links.phone_url(request, "/"),
            "unreachable": links.unreachable_from_phones(request),
        },
        f"{tournament.slug}-guide-cards.pdf",
    )
    add_never_cache_headers(response)
    return response


# -- the table's phone ------------------------------------------------------------------------


def _table_token(request: HttpRequest, tournament: Tournament, number: int) -> TableToken | None:
    header = request.headers.get("Authorization", "").split()
    if len(header) != 2 or header[0] != "Table":
        return None
    token = (
        TableToken.objects.select_related("table").filter(key_hash=hash_secret(header[1])).first()
    )
    if token is None or token.state != TokenState.ACTIVE:
        return None
    if token.table.tournament_id != tournament.pk or token.table.number != number:
        return None
    return token


def _table_actor(
    request: HttpRequest, tournament: Tournament, number: int, match: Match | None
) -> Actor:
    """Who is at the phone: a director (session) or the table's token; else 403."""
    side = request.POST.get("side", "") if request.method == "POST" else ""
    pin = request.POST.get("pin", "") if request.method == "POST" else ""
    if access.viewer_directs(request, tournament):
        return Actor(user=request.user, side=side, pin=pin)
    token = _table_token(request, tournament, number)
    if token is None:
        raise PermissionDenied(
            _(
                "This table's code is missing or no longer valid: scan the "
                "code on the table's guide card again."
            )
        )
    return Actor(
        card=token.table_id,
        side=side,
        pin=pin,
        client=client_address(request),
        label=f"table {number} scorer",  # stored as facts are; read by audit_words.actor_words
    )


def _current_match(tournament: Tournament, number: int) -> Match | None:
    round_ = tournament.round_set.order_by("-number").first()
    if round_ is None:
        return None
    return (
        Match.objects.filter(round=round_, table__number=number)
        .select_related("round", "table")
        .prefetch_related("seats__entry")
        .first()
    )


@require_GET
def table_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _duplicate(request, slug)
    match = _current_match(tournament, number)
    context = {"tournament": tournament, "number": number}
    if match is not None:  # the round's clock is public (the projector shows it)
        context.update(_room(tournament, match))
    return render(request, "tournaments/duplicate/table.html", context)


def _calls_choices(tournament: Tournament) -> list[tuple[str, str]]:
    numbers = [(str(n), str(n)) for n in range(1, 14)]
    return [("nil", _("Nil")), ("0", "0"), *numbers]


def panel_context(
    tournament: Tournament, number: int, match: Match | None, error: str = "", code: str = ""
) -> dict:
    event = dup.event_of(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "event": event,
        "number": number,
        "match": match,
        "error": error,
        "error_code": code,
        "seats": seat_names(),
        "adjustments": adjustment_names(),
    }
    if match is None:
        return context
    names = select.pair_names(tournament)
    ns, ew = dup.pair_numbers(match)
    numbers = dup.boards_of(event, match.round.number, number)
    boards = {b.number: b for b in tournament.boards.filter(number__in=numbers)}
    results = {
        r.board.number: r
        for r in BoardResult.objects.filter(match=match, is_current=True).select_related("board")
    }
    rows: list[dict[str, Any]] = []
    for n in numbers:
        r = results.get(n)
        rows.append(
            {"board": n, "dealer": boards[n].dealer, "result": r, "status": r.status if r else ""}
        )
    upcoming = next((row for row in rows if row["status"] in ("", "rejected")), None)
    pending = [row for row in rows if row["status"] == "pending"]
    for row in pending:
        row["notes"] = board_notes(tournament, event, row["result"])
    released = (
        event.released_round >= match.round.number or tournament.state == Tournament.State.FINISHED
    )
    context.update(
        {
            "ns": ns,
            "ew": ew,
            "ns_name": names.get(ns, ""),
            "ew_name": names.get(ew, ""),
            "rows": rows,
            "next": upcoming,
            "pending": pending,
            "released": released,
            "calls": _calls_choices(tournament),
            "tricks": range(0, 14),
            "order": _bidding_order(boards[upcoming["board"]].dealer) if upcoming else "",
            "needs_trump": upcoming is not None and not boards[upcoming["board"]].turned,
            "suits": list(suit_labels().items()),
            "pin_mode": tournament.confirmation == Tournament.Confirmation.PIN,
            **_room(tournament, match),
        }
    )
    return context


def _room(tournament: Tournament, match: Match) -> dict[str, Any]:
    """The round clock and "Call the director", as on the scoring page (the room's pieces:
    tournaments/room/_clock.html and the call service; issue 15). The call goes through
    `table_act` with the table's code, which opens this table number all evening."""
    from tournaments.models import DirectorCall
    from tournaments.room.selectors import round_clock
    from tournaments.room.services import table_call

    round_ = match.round
    playing = round_.state in (Round.State.PUBLISHED, Round.State.IN_PLAY)
    return {
        "room_clock": round_clock(round_) if playing else None,
        "room_round": round_,
        "room_clock_url": reverse("api:round-clock", args=[round_.pk]),
        "room_events": reverse("api:live-events", args=[tournament.slug]),
        "call_reasons": DirectorCall.Reason.choices if playing else None,
        "call_state": _call_state(table_call(match.played_table)),
    }


#: "A director is on the way" stays this long after the call is acknowledged (as call.js).
ACKNOWLEDGED_SHOWN = timedelta(minutes=15)


def _call_state(call: Any) -> str:
    """The table's call as the phone says it: "open", "acknowledged" (lately) or "none"."""
    if call is None:
        return "none"
    if call.acknowledged_at is None:
        return "open"
    return "acknowledged" if timezone.now() - call.acknowledged_at < ACKNOWLEDGED_SHOWN else "none"


def board_notes(tournament: Tournament, event: Any, result: BoardResult) -> list[str]:
    """A board result's notes in the reader's language: the engines score the stored record
    again (the board's own checks left out) to give the notes with their codes; the stored text
    if they no longer give the same."""
    stored = result.notes or []
    if not stored or not isinstance(result.record, dict):
        return [str(n) for n in stored]
    try:
        again = engine.board_score(
            game=tournament.game,
            rules=tournament.rules,
            record=result.record,
            board_scoring=event.board_scoring,
            board_honours=event.board_honours,
        ).notes
    except Exception:  # noqa: BLE001 - the stored text is always a good answer
        again = ()
    return notes_again(stored, again)


def _bidding_order(dealer: str) -> list[str]:
    first = (SEATS.index(dealer) + 1) % 4
    return [SEATS[(first + i) % 4] for i in range(4)]


@never_cache
@require_GET
def table_panel(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _duplicate(request, slug)
    match = _current_match(tournament, number)
    _table_actor(request, tournament, number, match)
    return render(
        request, "tournaments/duplicate/_panel.html", panel_context(tournament, number, match)
    )


def summary_record(tournament: Tournament, board: Board, post: Any) -> dict:
    """The hand record the phone's form describes: Spades bids and tricks per seat, Whist
    tricks per side (and honours when they count) with the board's turned card (or, for a
    board not dealt by TrickTable, the trump suit the table names)."""
    dealer = board.dealer
    record: dict[str, Any] = {"dealer": dealer}

    def count(name: str) -> int:
        try:
            return int(post.get(name, ""))
        except ValueError:
            raise ServiceError("bad-record", _("Give every count of tricks.")) from None

    if engine.duplicate_game(tournament.game).bids:
        if any(not post.get(f"call_{s}", "") for s in SEATS):
            raise ServiceError("bid-missing", _("Give every seat's bid."))
        record["calls"] = [
            {"seat": s, "call": post.get(f"call_{s}", "")} for s in _bidding_order(dealer)
        ]
        record["tricks"] = {s: count(f"tricks_{s}") for s in SEATS}
    else:
        ns = count("tricks_NS")
        record["tricks"] = {"NS": ns, "EW": 13 - ns}
        if board.turned:
            record["turned"] = board.turned
        else:
            record["trump"] = post.get("trump", "")
        if post.get("honours_NS", "") != "":
            honours = count("honours_NS")
            record["honours"] = {"NS": honours, "EW": 4 - honours}
    return record


#: The most digits a board or result number the phone sends may have (no event has a billion
#: of either): a longer one is refused before Python converts it.
NUMBER_DIGITS = 9


def posted_number(value: str | None, code: str, message: str, *, status: int = 400) -> int:
    """A whole number from 1 the phone's form sent (ASCII digits only), or the refusal."""
    text = (value or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= NUMBER_DIGITS) or int(text) < 1:
        raise ServiceError(code, message, status=status)
    return int(text)


def posted_record(text: str) -> Any:
    """The hand record the phone sent as JSON text: refused over the hand limit of every way in
    (`MAX_HAND_BYTES`, as the API and the hand import) before it is parsed, and refused when it
    is not JSON or nests deeper than the parser goes."""
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_HAND_BYTES:
        raise ServiceError(
            "too-large",
            _("The record is larger than %(limit)s bytes, the most one hand may take.")
            % {"limit": MAX_HAND_BYTES},
            details={"bytes": size, "limit": MAX_HAND_BYTES},
            status=413,
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ServiceError("bad-record", _("The record is not JSON.")) from None


@csrf_exempt  # the table's token in a header is the credential (no cookie: no CSRF)
@never_cache
@require_POST
def table_act(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The phone's forms: submit a board's result, confirm or reject the other side's. The
    answer is the new panel; a refusal is the panel with the refusal's words (its stable code
    in the notice's `data-code`) and the refusal's status, or the one error shape
    (`{code, message, details}`) to a client that asks for JSON. A refusal changes nothing."""
    tournament = _duplicate(request, slug)
    match = _current_match(tournament, number)
    director = access.viewer_directs(request, tournament)
    if not director and _table_token(request, tournament, number) is None:
        raise PermissionDenied(
            _(
                "This table's code is missing or no longer valid: scan the "
                "code on the table's guide card again."
            )
        )
    if director and request.headers.get("Authorization") is None:
        # A director's session is a cookie: the form is checked for CSRF as every other form
        # is (Django's csrf_protect around the rest of the view). A token in a header needs none.
        return csrf_protect(_table_act)(request, tournament, number, match)
    return _table_act(request, tournament, number, match)


def _table_act(
    request: HttpRequest, tournament: Tournament, number: int, match: Match | None
) -> HttpResponse:
    """`table_act` once the caller may act at the table."""
    actor = _table_actor(request, tournament, number, match)
    error, code, status, retry_after = "", "", 200, None
    try:
        if match is None:
            raise ServiceError("no-round", _("No round is in play at this table."))
        action = request.POST.get("action")
        if action == "submit":
            board = posted_number(
                request.POST.get("board"),
                "bad-board",
                _("A board number is a whole number from 1."),
            )
            target = tournament.boards.filter(number=board).first()
            if target is None:
                raise ServiceError("no-board", _("There is no such board."))
            if request.POST.get("record"):
                record = posted_record(request.POST["record"])
            else:
                record = summary_record(tournament, target, request.POST)
            dup.submit_board_result(
                match=match,
                board=board,
                record=record,
                actor=actor,
                idempotency_key=request.POST.get("key") or None,
            )
        elif action == "call":
            from tournaments.room.services import call_director

            call_director(
                table=match.played_table,
                actor=actor,
                reason=request.POST.get("reason", ""),
                note=request.POST.get("note", ""),
            )
        elif action in ("confirm", "reject"):
            pk = posted_number(
                request.POST.get("result"),
                "no-result",
                _("There is no such result at this table."),
                status=404,
            )
            result = BoardResult.objects.filter(pk=pk, match=match).first()
            if result is None:
                raise ServiceError(
                    "no-result", _("There is no such result at this table."), status=404
                )
            try:
                seen = int(request.POST.get("version", ""))
            except ValueError:
                seen = 0  # no version is 0: refused as stale, the phone shows the result again
            if action == "confirm":
                dup.confirm_board_result(result=result, actor=actor, expected_version=seen)
            else:
                dup.reject_board_result(
                    result=result,
                    actor=actor,
                    expected_version=seen,
                    reason=request.POST.get("reason", ""),
                )
        else:
            raise ServiceError("bad-action", _("Unknown action."))
    except ServiceError as failure:
        error, code, status = _error_text(failure), failure.code, failure.status
        retry_after = failure.retry_after
        if request.get_preferred_type(["text/html", "application/json"]) == "application/json":
            details = refusal_words(failure.code, failure.message, failure.details)[1]
            refused = error_response(status, code, error, details)
            if retry_after:
                refused["Retry-After"] = str(retry_after)
            return refused
    response = render(
        request,
        "tournaments/duplicate/_panel.html",
        panel_context(tournament, number, match, error, code),
    )
    response.status_code = status
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def _error_text(error: ServiceError) -> str:
    words = {
        "side-pin-wrong": _("That PIN is not one of this table's pairs'. Check the card."),
        "side-pin-required": _("Type the PIN on your pair's card."),
        "side-pin-mismatch": _("That PIN is the other pair's: nothing was changed."),
        "side-pin-wait": _("Too many wrong PINs from this phone: try again in a moment."),
        "side-pin-locked": _(
            "Too many wrong PINs for this table's pairs this hour: ask the director."
        ),
        "side-pin-ambiguous": _("Two pairs share this PIN: ask the director."),
        "own-side": _("The other side confirms or rejects a result."),
        "board-mismatch": _("This record is not the board's deal or dealer."),
        "bad-record": _("The rules do not allow this result: %(why)s"),
        "result-exists": _("This board already has a result: ask the director to correct it."),
        "round-not-in-play": _("This round is not in play."),
        "bad-side": _("Say which side is entering the result."),
        "wrong-table": _("Only this table's own code calls the director for it."),
        "stale-version": _(
            "This result changed since you looked at it: check it again before you answer."
        ),
    }
    text = words.get(error.code) or refusal_words(error.code, error.message, error.details)[0]
    if "%(why)s" not in text:
        return text
    engine = error.details  # bad-record: the rules engine's own error, said as a sentence
    why = (
        error_sentence(engine)
        if isinstance(engine, dict) and engine.get("code")
        else (error.message)
    )
    return text % {"why": why}


# -- results --------------------------------------------------------------------------------


def _results_context(request: HttpRequest, tournament: Tournament) -> dict:
    director = access.viewer_directs(request, tournament)
    scored = select.scored(tournament, director=director)
    return {
        "tournament": tournament,
        "event": scored.settings,
        "scored": scored,
        "director": director,
        "rankings": [(name, scored.ranking_rows(name)) for name in scored.event.rankings],
        "boards": sorted(scored.event.travellers),
        "method": scored.event.method,
        "finished": tournament.state == Tournament.State.FINISHED,
        "adjustments": adjustment_names(),
    }


def field_label(name: str) -> str:
    return {"NS": _("North-South"), "EW": _("East-West"), "all": _("All pairs")}.get(name, name)


@public_page
@comparing
@require_GET
def results_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _duplicate(request, slug)
    context = _results_context(request, tournament)
    context["rankings"] = [(name, field_label(name), rows) for name, rows in context["rankings"]]
    context["projector"] = request.GET.get("view") == "projector"
    if request.GET.get("part") == "live":
        return render(request, "tournaments/duplicate/_rankings.html", context)
    return render(request, "tournaments/duplicate/results.html", context)


@public_page
@comparing
@require_GET
def traveller_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _duplicate(request, slug)
    context = _results_context(request, tournament)
    board = get_object_or_404(Board, tournament=tournament, number=number)
    context.update(
        {
            "board": board,
            "rows": select.traveller_rows(context["scored"], number),
            "hand": board_views(tournament)[number - 1]
            if (context["finished"] or context["director"]) and board.dealt
            else None,
            "seats": seat_names(),
        }
    )
    return render(request, "tournaments/duplicate/traveller.html", context)


@public_page
@comparing
@require_GET
def card_page(request: HttpRequest, slug: str, pair: int) -> HttpResponse:
    tournament = _duplicate(request, slug)
    context = _results_context(request, tournament)
    if pair not in context["scored"].names:
        raise Http404("no such pair")
    context.update(
        {
            "pair": pair,
            "name": context["scored"].names[pair],
            "rows": select.card_rows(context["scored"], pair),
        }
    )
    return render(request, "tournaments/duplicate/card.html", context)


@public_page
@comparing
@require_GET
def deals_page(request: HttpRequest, slug: str) -> HttpResponse:
    """After the event: every board's deal with all its results."""
    tournament = _duplicate(request, slug)
    context = _results_context(request, tournament)
    if not (context["finished"] or context["director"]):
        raise Http404("the deals are published after the event")
    context.update(
        {
            "hands": board_views(tournament),
            "seats": seat_names(),
            "travellers": {
                n: select.traveller_rows(context["scored"], n) for n in context["boards"]
            },
        }
    )
    return render(request, "tournaments/duplicate/deals.html", context)


# -- exports --------------------------------------------------------------------------------


def export_rows(scored: select.Scored) -> list[list]:
    rows = [
        [
            _("Field"),
            _("Place"),
            _("Pair"),
            _("Name"),
            _("Score"),
            _("Top"),
            _("Percentage"),
            _("Boards"),
        ]
    ]
    for name in scored.event.rankings:
        for r in scored.ranking_rows(name):
            rows.append(
                [
                    name,
                    r["place"],
                    r["pair"],
                    r["name"],
                    r["total"],
                    r["top"],
                    r["percentage"],
                    r["boards"],
                ]
            )
    return rows


def archive(tournament: Tournament, scored: select.Scored) -> dict:
    """Everything about the event as JSON: settings, movement, boards, results, rankings."""
    event = scored.settings
    results = []
    for r in select.results_qs(tournament, scored.through_round).order_by(
        "round_number", "table_number", "board__number"
    ):
        results.append(
            {
                "board": r.board.number,
                "round": r.round_number,
                "table": r.table_number,
                "ns": r.ns_pair,
                "ew": r.ew_pair,
                "kind": r.kind,
                "ns_score": r.ns_score,
                "ew_score": r.ew_score,
                "ns_adjusted": r.ns_adjusted or None,
                "ew_adjusted": r.ew_adjusted or None,
                "reason": r.reason,
                "record": r.record,
            }
        )
    return {
        "format": "duplicate/1",
        "name": tournament.name,
        "slug": tournament.slug,
        "game": tournament.game,
        "rules": tournament.rules,
        "state": tournament.state,
        "options": {
            "movement": event.movement,
            "even": event.even,
            "tables": event.tables,
            "boards_per_round": event.boards_per_round,
            "board_scoring": event.board_scoring,
            "board_compare": event.board_compare,
            "board_honours": event.board_honours,
            "comparison": event.comparison,
            "imp_scale": event.imp_scale,
            "board_source": event.board_source,
        },
        "pairs": {str(n): name for n, name in scored.names.items()},
        "movement": event.movement_data,
        "boards": select.boards_json(tournament, scored),
        "results": results,
        "rankings": {name: scored.ranking_rows(name) for name in scored.event.rankings},
    }


@comparing
@require_GET
def export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    tournament = _duplicate(request, slug)
    context = _results_context(request, tournament)
    scored = context["scored"]
    name = f"{tournament.slug}-duplicate"
    if fmt == "csv":
        buffer = io.StringIO()
        csv.writer(buffer).writerows(export_rows(scored))
        response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    elif fmt == "xlsx":
        from openpyxl import Workbook
        from openpyxl.worksheet.worksheet import Worksheet

        book = Workbook()
        sheet = book.active
        assert isinstance(sheet, Worksheet)  # a new workbook's one sheet
        sheet.title = _("Ranking")[:31]
        for row in export_rows(scored):
            sheet.append(row)
        travellers = book.create_sheet(_("Travellers")[:31])
        travellers.append(
            [
                _("Board"),
                _("Round"),
                _("Table"),
                "NS",
                "EW",
                _("NS score"),
                _("EW score"),
                _("NS points"),
                _("EW points"),
            ]
        )
        for n in sorted(scored.event.travellers):
            for r in select.traveller_rows(scored, n):
                travellers.append(
                    [
                        n,
                        r["round"],
                        r["table"],
                        r["ns"],
                        r["ew"],
                        r["ns_score"] or r["ns_adjusted"],
                        r["ew_score"] or r["ew_adjusted"],
                        r["ns_points"],
                        r["ew_points"],
                    ]
                )
        out = io.BytesIO()
        book.save(out)
        response = HttpResponse(
            out.getvalue(),
            content_type=("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        )
    elif fmt == "pdf":
        context["rankings"] = [(n, field_label(n), rows) for n, rows in context["rankings"]]
        context["travellers"] = {n: select.traveller_rows(scored, n) for n in context["boards"]}
        html = render_to_string("tournaments/duplicate/results_pdf.html", context, request=request)
        response = HttpResponse(
            printing.render_pdf(html, base_url=request.build_absolute_uri("/")),
            content_type="application/pdf",
        )
    elif fmt == "json":
        response = JsonResponse(
            archive(tournament, scored), json_dumps_params={"ensure_ascii": False, "indent": 1}
        )
    elif fmt == "boards.json":
        response = JsonResponse(
            {"boards": select.boards_json(tournament, scored)},
            json_dumps_params={"ensure_ascii": False},
        )
        name = f"{tournament.slug}-boards"
        fmt = "json"
    else:
        raise Http404("no such format")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


urlpatterns = [
    path("director/duplicate/new/", new_event, name="duplicate-new"),
    path("director/<slug:slug>/duplicate/", event_page, name="duplicate-director"),
    path("director/<slug:slug>/duplicate/do/<str:action>/", event_action, name="duplicate-action"),
    path(
        "director/<slug:slug>/duplicate/boards/<int:number>/deal/",
        board_deal,
        name="duplicate-deal",
    ),
    path(
        "director/<slug:slug>/duplicate/print/boards/", print_boards, name="duplicate-print-boards"
    ),
    path("director/<slug:slug>/duplicate/print/guide/", print_guide, name="duplicate-guide"),
    path("duplicate/<slug:slug>/", results_page, name="duplicate-results"),
    path("duplicate/<slug:slug>/boards/<int:number>/", traveller_page, name="duplicate-traveller"),
    path("duplicate/<slug:slug>/pairs/<int:pair>/", card_page, name="duplicate-card"),
    path("duplicate/<slug:slug>/deals/", deals_page, name="duplicate-deals"),
    path("duplicate/<slug:slug>/export/<str:fmt>", export, name="duplicate-export"),
    path("duplicate/<slug:slug>/table/<int:number>/", table_page, name="duplicate-table"),
    path(
        "duplicate/<slug:slug>/table/<int:number>/panel/", table_panel, name="duplicate-table-panel"
    ),
    path("duplicate/<slug:slug>/table/<int:number>/act/", table_act, name="duplicate-table-act"),
]
