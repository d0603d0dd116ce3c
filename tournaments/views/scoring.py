"""The table scoring page: opened from the QR code on a table card; the table token travels in
the URL fragment and the page talks to the REST API with it.

The server renders who sits where, the hands so far (with the engine's running totals), what is
awaiting confirmation and the form for the next hand; `static/js/scoring.js` keeps the token on
the phone, checks a hand with `POST /api/v1/hands/check`, submits it (queued while offline) and
confirms or rejects hands. Three routes: the page, the hands fragment the script refreshes after
each action, and a token probe (is this code valid for this table?). Where the site runs over
HTTPS, two more: the table's web app manifest and the service worker that lets the page reload
offline (docs/scoring-offline.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET

from games.registry import get_game
from tournaments.clubs.services import current_club
from tournaments.models import PIN_DIGITS, EventTable, Table, TableToken, TokenState, Tournament
from tournaments.presentation import presentation
from tournaments.presentation.spades import NILS as SPADES_NILS
from tournaments.selectors import cards
from tournaments.selectors import scoring as selectors
from tournaments.views.access import viewer_directs
from tournaments.words.engine import ERROR_MESSAGES, hand_notes
from tournaments.words.formatting import number
from tournaments.words.options import option_label, rules_label, value_label
from tournaments.words.rules import call_label, solo_labels

RANKS = "AKQJT98765432"
# The form data only the templates need (the choices they render), not the script.
TEMPLATE_ONLY = {"seat_calls", "nil_calls", "side_calls", "side_blinds", "raises", "bids"}


# -- access ---------------------------------------------------------------------------------------


def _visible_table(request: HttpRequest, table_id: int) -> tuple[Table, bool]:
    """The table (and whether the visitor directs its tournament); a draft round's tables are
    for the directors' eyes only, as in the API."""
    table = selectors.table_for_scoring(table_id, club=current_club(request))
    director = viewer_directs(request, table.round.tournament)
    if not table.round.is_public and not director:
        raise Http404("no such table")
    return table, director


# -- labels (translated here so the script shows Django's translations) ---------------------------


def suit_labels() -> dict[str, str]:
    return {
        "S": _("♠ Spades"),
        "H": _("♥ Hearts"),
        "D": _("♦ Diamonds"),
        "C": _("♣ Clubs"),
    }


def status_labels() -> dict[str, str]:
    return {
        "pending": _("Awaiting confirmation"),
        "confirmed": _("Confirmed"),
        "rejected": _("Rejected"),
        "superseded": _("Superseded"),
        "voided": _("Voided"),
    }


def script_strings() -> dict[str, Any]:
    """Every string the script shows, translated for this request (placeholders %(name)s)."""
    return {
        "tokenMissing": _(
            "To enter scores, scan the QR code on this table's card with this phone's camera."
        ),
        "tokenOk": _("This phone scores for this table."),
        "tokenChecking": _("Checking the scoring code…"),
        "tokenExpired": _("This scoring code has expired: ask the director for a new table card."),
        "tokenRevoked": _(
            "This scoring code was withdrawn: ask the director for a new table card."
        ),
        "tokenUnknown": _("This scoring code is not valid: scan the table card again."),
        "tokenOtherTable": _(
            "This scoring code belongs to another table: scan the card on this table."
        ),
        "tokenOffline": _("Offline: the scoring code will be checked when the connection is back."),
        "directorScoring": _("You are signed in as a director: hands you enter are confirmed."),
        "forgotten": _("The scoring code was removed from this phone."),
        "chooseSide": _("Say who is entering this hand."),
        "entryPin": _("Type the PIN on your entry's card: it says who enters the hand."),
        "chooseBid": _("Choose %(who)s's bid."),
        "chooseContract": _("Choose the contract."),
        "chooseDeclarer": _("Choose the declarer."),
        "choosePartner": _("Choose the accepting partner (a different player)."),
        "chooseOvercalled": _("Choose who bid the abundance that was overcalled."),
        "chooseTrump": _("Choose the trump suit."),
        "chooseTurned": _("Choose the turned card."),
        "choosePenalty": _("Choose the revoke penalty."),
        "chooseHonours": _("Say who held the trump honours."),
        "badNumber": _("Enter a whole number of tricks for %(who)s."),
        "pasteRecord": _("Paste a hand record (JSON) first."),
        "notJson": _("That is not valid JSON: %(error)s"),
        "notHand": _('Paste one hand: a JSON object with "format": "hand/1".'),
        "wrongDealer": _("Hand %(number)s is dealt by %(dealer)s, not %(given)s."),
        "checking": _("Asking the rules engine…"),
        "checkOk": _("The rules engine accepts this hand."),
        "checkBad": _("The rules engine refuses this hand:"),
        "checkOffline": _(
            "The server cannot be reached to check the hand. You can still submit: it will be "
            "queued on this phone and checked when it is sent."
        ),
        "changed": _("The hand changed: check it again before submitting."),
        "score": _("Score for this hand"),
        "totals": _("Totals after this hand"),
        "tricks": _("Tricks"),
        "games": _("Games won"),
        "gamePoints": _("Game points"),
        "notes": _("How it scored"),
        "contract": _("Contract"),
        "winner": _("Winner"),
        "thrownIn": _("Thrown in: no score."),
        "submitting": _("Submitting hand %(number)s…"),
        "stored": _("Hand %(number)s is stored and awaits confirmation by the other side."),
        "storedConfirmed": _("Hand %(number)s is stored and confirmed."),
        "retried": _("Hand %(number)s had already been stored: nothing was sent twice."),
        "queued": _(
            "No connection: hand %(number)s is queued on this phone and will be sent automatically."
        ),
        "queuedBehind": _(
            "Hand %(number)s is queued on this phone: it is sent after the hands queued before it."
        ),
        "queuedAt": _("Queued at %(time)s"),
        "queueRetry": _("Retrying in %(seconds)s s."),
        "queueSent": _("Queued hand %(number)s was sent and stored."),
        "queueRefused": _("Queued hand %(number)s was not accepted:"),
        "queueBlocks": _("The next hand can be entered once the queued hand has been sent."),
        "refused": _("Hand %(number)s was not stored:"),
        "confirmed": _("Hand %(number)s is confirmed."),
        "pinLabel": _("PIN of %(side)s"),
        "pinPrompt": _(
            "%(side)s: type the PIN on your entry's card to confirm or reject hand %(number)s."
        ),
        "rejected": _("Hand %(number)s is rejected; it goes to the director."),
        "decideFailed": _("Hand %(number)s could not be answered:"),
        "noConnection": _("No connection: try again when you are back online."),
        "offline": _(
            "No connection: hands are kept on this phone and sent when the Wi-Fi returns."
        ),
        "keptHere": _("Kept on this phone"),
        "sending": _("Sending…"),
        "queuedHand": _("Hand %(number)s, dealt by %(dealer)s"),
        "checkLater": _(
            "The rules engine checks this hand when it is sent, after the hands queued before it."
        ),
        "updated": _("The hands were updated."),
        "total": _("Total %(sum)s of %(total)s"),
        "enterHand": _("Enter hand %(number)s"),
        "enterAgain": _("Enter hand %(number)s again"),
        "dealerIs": _("Dealer: %(dealer)s"),
        "bidOrder": _("bids %(position)s."),
        "dummy": _("Dummy"),
        # The hand in a few taps (static/js/scoring/pad.js) and the PIN asked once a match.
        "padBid": _("%(who)s bids"),
        "padTricks": _("Tricks won by %(who)s"),
        "padTrump": _("Trumps (the turned card's suit)"),
        "padHonours": _("Trump honours (A, K, Q, J) as dealt"),
        "padContract": _("Contract"),
        "padDeclarer": _("Declarer (the last bidder)"),
        "padPartner": _("Accepted by (cop)"),
        "padOvercalled": _("Overcalling the abundance bid by"),
        "padNamedTrump": _("Trumps named by the declarer"),
        "padTurnedRank": _("The turned card: its rank"),
        "padTurnedSuit": _("The turned card: its suit"),
        "padDone": _("Every answer is in. Tap an answer above to change it."),
        "send": _("Send hand %(number)s"),
        "sendWhy": _("To send it: %(what)s"),
        "sendRefused": _("The rules engine refuses this hand: change it to send it."),
        "whoSends": _("Which side is sending this hand?"),
        "pinOnce": _(
            "Your entry's PIN (on its card), asked once this match: it says who sends the hand."
        ),
        "pinForgotten": _("That PIN was not accepted: type it again."),
        "retryAfter": _("You can try again in %(seconds)s s."),
        "confirmPin": _("%(side)s: type your PIN to confirm hand %(number)s."),
        "rejectPin": _("%(side)s: type your PIN to reject hand %(number)s."),
        "sides": {side: "/".join(side) for side in ("NS", "EW")},
        "calls": {
            c: call_label(c)
            for c in ("nil", "double-nil", "double-blind-nil", "moon", "blind-moon", "pass")
        },
        "solo": solo_labels(),
        "suits": suit_labels(),
        "codes": error_labels(),
    }


def individual_strings() -> dict[str, Any]:
    """The script's strings that speak of "the other side", as said at an individual table
    (each player a side): another player answers, not the declarer's partner."""
    return {
        "stored": _("Hand %(number)s is stored and awaits confirmation by another player."),
        "codes": {
            **error_labels(),
            "own-side": _("You entered this hand: another player confirms or rejects it."),
            "side-pin-mismatch": _("That PIN is another player's: nothing was changed."),
        },
    }


def two_player_strings() -> dict[str, Any]:
    """The script's strings that speak of "the other side", as said at a table of two players
    (German Whist: each player a side): the other player answers."""
    return {
        **player_strings(),
        "stored": _("Hand %(number)s is stored and awaits confirmation by the other player."),
        "codes": {
            **error_labels(),
            "own-side": _("You entered this hand: the other player confirms or rejects it."),
            "side-pin-mismatch": _("That PIN is another player's: nothing was changed."),
        },
    }


def player_strings() -> dict[str, Any]:
    """The PIN asked once a match, where each side is one player (two players or an individual
    table): it speaks of the player, not of a side."""
    return {
        "whoSends": _("Which player is sending this hand?"),
        "pinOnce": _("Your PIN (on your card), asked once this match: it says who sends the hand."),
    }


def side_words(view: selectors.ScoringView) -> dict[str, Any]:
    """The script's strings for this table: a side's, a player's at an individual table, or
    the other player's at a table of two."""
    if len(view.sides) > 2:
        return {**player_strings(), **individual_strings()}
    if two_players(view):
        return two_player_strings()
    return {}


def two_players(view: selectors.ScoringView) -> bool:
    """A table of two players, each a side (German Whist)."""
    return len(view.sides) == 2 and all(len(side.side) == 1 for side in view.sides)


def error_labels() -> dict[str, str]:
    """Translations for every rules engine error code (tournaments/words/engine.py) and the API's
    stable error codes the scorers meet; any other code shows the message as sent."""
    return {
        **{code: str(message) for code, message in ERROR_MESSAGES.items()},
        "invalid-hand": _("The rules engine refuses this hand:"),
        "hand-already-submitted": _("This hand was already entered and awaits confirmation."),
        "hand-confirmed": _("This hand is already confirmed: ask the director to correct it."),
        "earlier-hand-rejected": _("An earlier hand was rejected: enter that one again first."),
        "own-side": _("The other side confirms or rejects a hand."),
        "declarer-side": _(
            "The hand's declarer and the declarer's partner do not answer it: another player "
            "confirms it."
        ),
        "side-pin-required": _("Type the PIN on your entry's card."),
        "side-pin-wrong": _(
            "That PIN is not the PIN of an entry at this table: check the PIN on your entry's card."
        ),
        "side-pin-mismatch": _("That PIN is another side's: nothing was changed."),
        "side-pin-wait": _("Too many wrong PINs from this phone: try again in a moment."),
        "side-pin-locked": _(
            "Too many wrong PINs for this table's entries this hour: ask the director."
        ),
        "side-pin-ambiguous": _("Two entries share this PIN: ask the director."),
        "wrong-table": _("This scoring code is for another table."),
        "bad-side": _("Say which side is answering."),
        "not-pending": _("This hand is no longer awaiting confirmation."),
        "stale-version": _("This hand changed meanwhile: look at it again."),
        "round-not-in-play": _("This round is not in play."),
        "token-expired": _("This scoring code has expired: ask the director for a new card."),
        "token-revoked": _("This scoring code was withdrawn: ask the director for a new card."),
        "bad-token": _("This scoring code is not valid."),
        "idempotency-key-reused": _("This submission was already used for a different hand."),
        "throttled": _("Too many requests: wait a moment."),
    }


# -- the game's options ---------------------------------------------------------------------------


# -- the hands list -------------------------------------------------------------------------------


def _tricks(result: dict, record: dict, sides: tuple[selectors.SideView, ...]) -> str:
    """The tricks each seat (or side) took, as the engine read them. Partners' tricks are shown
    per side, as the paper sheet keeps them, unless a seat's own count matters (a nil). A Solo
    Whist record states the declaring side's tricks alone ("W 7", "E+S 9"), or each seat's."""
    tricks = result.get("tricks") or {}
    partners = len(sides) == 2 and all(len(side.seats) == 2 for side in sides)
    nil = any(
        isinstance(call, dict) and str(call.get("call", "")) in SPADES_NILS
        for call in record.get("calls") or []
    )
    if partners and not nil and all(seat in tricks for side in sides for seat in side.seats):
        return " · ".join(
            f"{side.label} {sum(tricks[seat] for seat in side.seats)}" for side in sides
        )
    # clockwise from North whatever order the record was stored in (PostgreSQL's jsonb keeps
    # an object's keys in its own order)
    in_order = sorted(tricks.items(), key=lambda item: (SEAT_ORDER.get(item[0], 9), item[0]))
    # each player a side (Solo Whist): a key of two seats is prop and cop's declaring side, its
    # count the pair's together ("E+S 9", as the pad and the contract write the pair)
    alone = all(len(side.seats) == 1 for side in sides)
    return " · ".join(
        f"{'+'.join(who) if alone and len(who) > 1 else who} {n}" for who, n in in_order
    )


SEAT_ORDER = {"N": 0, "E": 1, "S": 2, "W": 3, "NS": 4, "EW": 5}


def hand_rows(view: selectors.ScoringView) -> list[dict[str, Any]]:
    """Each hand as the list shows it: the engine's score and running total per side (numbers
    written, never computed, here), what was bid, and who may still answer it."""
    shown = presentation(view.tournament.game)
    labels = status_labels()
    rows = []
    for row in view.hands:
        rows.append(
            {
                "row": row,
                "facts": shown.summary(row.record, row.result),
                "tricks": _tricks(row.result, row.record, view.sides),
                "cells": [
                    {
                        "side": side.label,
                        "score": number(score, signed=True),
                        "total": number(total),
                    }
                    for side, score, total in zip(view.sides, row.scores, row.totals, strict=True)
                ],
                "status_label": labels.get(row.status, row.status),
                "notes": hand_notes(
                    row.record, row.result, game=view.tournament.game, rules=view.tournament.rules
                ),
                "submitted_label": "/".join(row.submitted_side),
                "answerers": [(side, "/".join(side)) for side in row.answerers],
                "answerers_label": ", ".join("/".join(side) for side in row.answerers),
                "games": (row.result.get("after") or {}).get("games"),
            }
        )
    return rows


def pin_needed(view: selectors.ScoringView, director: bool) -> bool:
    """Does a scorer here confirm or reject with the side's PIN? (Not a director, and not in a
    tournament that trusts the table's phone.)"""
    return not director and view.tournament.confirmation == Tournament.Confirmation.PIN


def _fragment_context(view: selectors.ScoringView, *, director: bool) -> dict[str, Any]:
    """The hands fragment's context: the page includes it and the script fetches it again."""
    nxt = view.next
    match = view.match
    result = match.result if match is not None else None
    rows = hand_rows(view)
    return {
        "signature": _signature(view),
        "view": view,
        "rows": rows,
        "pending_rows": [r for r in rows if r["row"].pending],
        "colspan": 3 + len(view.sides),
        "pin_needed": pin_needed(view, director),
        # each player a side (Solo Whist, cutthroat Spades): no "other side" to speak of
        "individual": len(view.sides) > 2,
        # two players, each a side (German Whist): "the other player", not "the other side"
        "two_players": two_players(view),
        "next": nxt,
        "next_json": nxt.as_json() if nxt is not None else {"number": None, "blocked": "no-match"},
        "dealer_name": view.seat_names.get(nxt.dealer, "") if nxt and nxt.dealer else "",
        "final": [
            {
                "label": side.label,
                "entries": side.entries,
                "points": number((result or {}).get("points", {}).get(side.side)),
                "place": (result or {}).get("places", {}).get(side.side),
            }
            for side in view.sides
        ]
        if result
        else [],
    }


def _signature(view: selectors.ScoringView) -> str:
    """What the fragment shows, in short: the script swaps the list in only when it changed."""
    match = view.match
    if match is None:
        return "no-match"
    hands = ",".join(f"{row.number}.{row.version}.{row.status}" for row in view.hands)
    return f"{match.state}:{match.round.state}:{hands}"


# -- views ----------------------------------------------------------------------------------------


def _config(view: selectors.ScoringView, director: bool, *, offline: bool) -> dict[str, Any]:
    """What the script needs: the match, its rules, the seats by dealer, the API's addresses."""
    tournament = view.tournament
    match = view.match
    g = get_game(tournament.game)
    shown = presentation(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    sides = tuple(side.side for side in view.sides)
    layouts = shown.layouts(compiled, view.seats, sides)
    hands_url = reverse("api:hands", args=[match.pk]) if match is not None else ""
    events_url = reverse("api:live-events", args=[tournament.slug])
    return {
        "table": view.table.pk,
        "match": match.pk if match is not None else None,
        "game": tournament.game,
        "rules": tournament.rules,
        "seats": view.seats,
        "sides": list(sides),
        "names": view.seat_names,
        "layouts": layouts,
        "form": {k: v for k, v in shown.form(compiled).items() if k not in TEMPLATE_ONLY},
        "director": director,
        # How the other side answers: "pin" (its PIN, sent as `pin` with confirm and reject)
        # or "same-phone"; `pinNeeded` is false for a director (who needs none).
        "confirmation": tournament.confirmation,
        "pinNeeded": pin_needed(view, director),
        "pinDigits": PIN_DIGITS,
        # The dealer after each dealer: a phone that queues a hand offline goes on to the next.
        "nextDealer": {seat: g.next_dealer(compiled, seat) for seat in view.seats},
        "renderedAt": int(time.time() * 1000),
        "api": {
            "check": reverse("api:hands-check"),
            "hands": hands_url,
            "hand": hands_url + "/",
            "token": reverse("tournaments:scoring-token", args=[view.table.pk]),
            "fragment": reverse("tournaments:scoring-hands", args=[view.table.pk]),
            "events": events_url,
        },
        "offlineApp": _offline_app(view.table.pk) if offline else None,
    }


def entry_form_context(
    view: selectors.ScoringView, *, director: bool, offline: bool = False
) -> dict[str, Any]:
    """What the game's entry form (templates/tournaments/scoring/_<game>.html, _cards.html)
    and the scoring modules need: the scoring page's and the director's correction form's."""
    tournament = view.tournament
    shown = presentation(tournament.game)
    compiled = get_game(tournament.game).book.resolve(tournament.rules)[0]
    return {
        "view": view,
        "config": _config(view, director, offline=offline),
        "strings": {
            **script_strings(),
            **side_words(view),
            "showCodes": director,
        },
        "form": shown.form(compiled),
        "suits": list(suit_labels().items()),
        "ranks": [(r, "10" if r == "T" else r) for r in RANKS],
        "seat_rows": [(s, view.seat_names.get(s, "")) for s in view.seats],
        "dummy_seats": shown.dummy_seats(compiled),
        "form_template": shown.form_template,
        # four seats, or the two players of a game with a stock (German Whist)
        "cards_entry": shown.card_entry
        and shown.cards_allowed(compiled)
        and (len(view.seats) == 4 or shown.stock_draws),
        "turned_card": shown.turned_card,
        "stock_draws": shown.stock_draws,
    }


@xframe_options_sameorigin  # its table card's page frames it (same site only)
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The scoring page of one round's table (public data; scoring needs the card's token).
    Shown alone, or inside its table card's page (`?card=<id>`: no site header, the card page
    around it says which round is on)."""
    found, director = _visible_table(request, table_id)
    embedded = request.GET.get("card") == str(found.event_table_id)
    if not embedded and not director and _moved_on(found):
        # An old round's link (a card printed before cards followed the rounds): the table's
        # card page, which shows the match there now; the browser keeps the #token fragment.
        return redirect("tournaments:scoring-card", card_id=found.event_table_id)
    view = selectors.scoring_view(found)
    tournament = view.tournament
    offline = offline_app_served(request)
    context: dict[str, Any] = {
        "embedded": embedded,
        "card_url": reverse("tournaments:scoring-card", args=[found.event_table_id]),
        "offline_app": _offline_app(found.pk) if offline and view.match is not None else None,
        "table": found,
        "tournament": tournament,
        "round": found.round,
        "view": view,
        "director": director,
        "game_name": tournament.get_game_display(),
        "rules_words": rules_label(tournament.game, tournament.rules),
        **_fragment_context(view, director=director),
    }
    if view.match is not None:
        compiled = get_game(tournament.game).book.resolve(tournament.rules)[0]
        options = getattr(compiled, "options", {})
        context.update(
            {
                **entry_form_context(view, director=director, offline=offline),
                "options": [
                    (str(option_label(name)), value_label(tournament.game, name, value))
                    for name, value in options.items()
                ],
                "compass": _compass(view),
                **_room(found),
            }
        )
    response = render(request, "tournaments/scoring/table.html", context)
    response["Referrer-Policy"] = "same-origin"  # (no-referrer would send `Origin: null`)
    return response


def _moved_on(table: Table) -> bool:
    """Is a later round published than this closed round's table? Then its card has moved on."""
    if table.round.state != table.round.State.CLOSED:
        return False
    now = cards.card_now(table.event_table)
    return now.round is not None and now.round.number > table.round.number


def _room(table: Table) -> dict[str, Any]:
    """The round clock and "Call the director" (tournaments/room/views.py, issue 15)."""
    from tournaments.models import DirectorCall
    from tournaments.room.selectors import round_clock

    round_ = table.round
    playing = round_.state in (round_.State.PUBLISHED, round_.State.IN_PLAY)
    return {
        "room_clock": round_clock(round_) if playing else None,
        "room_clock_url": reverse("api:round-clock", args=[round_.pk]),
        "room_call": {"reasons": DirectorCall.Reason.choices} if playing else None,
    }


def _compass(view: selectors.ScoringView) -> list[dict[str, str]]:
    sides = {letter: side for side in view.sides for letter in side.seats}
    return [
        {
            "seat": s,
            "name": view.seat_names.get(s, ""),
            "player": view.seat_players.get(s, ("", ""))[0],
            "entry": view.seat_players.get(s, ("", ""))[1],
            "side": sides[s].label if s in sides else "",
        }
        for s in view.seats
    ]


@never_cache
@require_GET
def hands(request: HttpRequest, table_id: int) -> HttpResponse:
    """The hands list, what awaits confirmation and the next hand (the script swaps it in)."""
    found, director = _visible_table(request, table_id)
    view = selectors.scoring_view(found)
    return render(
        request, "tournaments/scoring/_hands.html", _fragment_context(view, director=director)
    )


@never_cache
@require_GET
def token_status(request: HttpRequest, table_id: int) -> JsonResponse:
    """Whether the `Authorization: Table <secret>` header holds a live token for this table.

    The API tells a valid token from an invalid one but not which table it serves; the page
    asks here so that a card from the next table is caught before a hand is entered."""
    found, _director = _visible_table(request, table_id)
    header = request.headers.get("Authorization", "")
    keyword, _space, secret = header.partition(" ")
    if keyword.lower() != "table" or not secret.strip():
        return JsonResponse({"state": "missing"})
    token = TableToken.of_club(secret.strip(), current_club(request))
    if token is None:
        return JsonResponse({"state": "unknown"})
    if token.table_id != found.event_table_id:  # a card serves its table in every round
        return JsonResponse({"state": "other-table"})
    state = token.state
    body: dict[str, Any] = {"state": str(state)}
    if state == TokenState.ACTIVE and token.expires_at is not None:
        body["expires_at"] = token.expires_at.isoformat()
    return JsonResponse(body)


# -- the table card: the event's table in every round ---------------------------------------------


def _card_context(request: HttpRequest, found: EventTable) -> dict[str, Any]:
    now = cards.card_now(found)
    tournament = now.tournament
    frame = ""
    # A published round's table (drafts are never shown); none once the event is over: the card
    # no longer scores, and the results page has every match.
    if now.table is not None and now.state != cards.CardState.OVER:
        # The state in the address too: the frame is drawn afresh when the round closes.
        frame = reverse("tournaments:scoring-table", args=[now.table.pk])
        frame += f"?card={found.pk}&now={now.state}"
    return {
        "card": found,
        "now": now,
        "tournament": tournament,
        "frame": frame,
        "results_url": reverse("tournaments:public-standings", args=[tournament.slug]),
        "now_url": reverse("tournaments:scoring-card-now", args=[found.pk]),
        "events_url": reverse("api:live-events", args=[tournament.slug]),
    }


def card(request: HttpRequest, card_id: int) -> HttpResponse:
    """A table card's page: what its QR code opens, for the whole event. It shows the match at
    this table in the round being played (the round's scoring page, framed) and follows the
    event's stream: when the director publishes the next round the frame moves to that round's
    match by itself; between rounds it says what comes next, after the last the results."""
    context = _card_context(request, cards.event_table(card_id, club=current_club(request)))
    context["game_name"] = context["tournament"].get_game_display()
    # The framed scoring page's modules, fetched while this page starts (they are cached for
    # the frame): a phone scanning the card waits for one round of requests, not two.
    context["preload"] = [static(name) for name in worker_assets() if name.endswith(".js")]
    response = render(request, "tournaments/scoring/card.html", context)
    response["Referrer-Policy"] = "same-origin"
    return response


@never_cache
@require_GET
def card_now(request: HttpRequest, card_id: int) -> HttpResponse:
    """The card page's live part: the round and what is at the table now (static/js/live.js
    swaps it in on the stream's events; static/js/card.js moves the frame)."""
    context = _card_context(request, cards.event_table(card_id, club=current_club(request)))
    return render(request, "tournaments/scoring/_card_now.html", context)


# -- the offline app (HTTPS only): a manifest and a service worker --------------------------------

# What the service worker keeps for an offline reload besides the page itself (never the API):
# the page's CSS, its entry module and every module under js/scoring/ that the entry imports.
WORKER_ASSETS = ("css/scoring.css", "js/scoring.js")
WORKER_MODULES = "js/scoring/"


@functools.cache
def worker_assets() -> tuple[str, ...]:
    """WORKER_ASSETS and the scoring page's modules (static/js/scoring/**.js), found where
    collectstatic finds them, so a new module is kept offline with nothing to list."""
    modules = set()
    for finder in finders.get_finders():
        for name, _storage in finder.list(["CVS", ".*", "*~"]):
            name = name.replace(os.sep, "/")
            if name.startswith(WORKER_MODULES) and name.endswith(".js"):
                modules.add(name)
    return WORKER_ASSETS + tuple(sorted(modules))


WORKER_SCOPE = "/table/"


def offline_app_served(request: HttpRequest) -> bool:
    """Whether the page offers a manifest and a service worker: browsers allow a service worker
    only in a secure context, so only where the site runs over HTTPS (this request, or the
    public address the evening's cards carry)."""
    public_url = str(getattr(settings, "PUBLIC_URL", "") or "")
    return request.is_secure() or public_url.startswith("https://")


def _offline_app(table_id: int) -> dict[str, str]:
    return {
        "manifest": reverse("tournaments:scoring-manifest", args=[table_id]),
        "worker": reverse("tournaments:scoring-worker"),
        "scope": WORKER_SCOPE,
    }


@require_GET
def manifest(request: HttpRequest, table_id: int) -> JsonResponse:
    """The table's web app manifest: the scoring page, opened like an app from the home screen."""
    if not offline_app_served(request):
        raise Http404("the offline app needs HTTPS")
    found, _director = _visible_table(request, table_id)
    start = reverse("tournaments:scoring-table", args=[found.pk])
    label = _("Table %(number)s") % {"number": found.number}
    body = {
        "name": f"{label} — {found.round.tournament.name}",
        "short_name": label,
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": "#f6f7f9",
        "theme_color": "#0b6e4f",
        "lang": get_language(),
        "icons": [],
    }
    response = JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The scoring pages' service worker (plain JS, rendered with the static files' addresses):
    it keeps the page and its assets so a scoring page reloads offline; never an API answer."""
    if not offline_app_served(request):
        raise Http404("the offline app needs HTTPS")
    assets = [static(name) for name in worker_assets()]
    body = render_to_string(
        "tournaments/scoring/service-worker.js",
        {
            "assets": json.dumps(assets),
            "static_prefix": json.dumps(static("")),
            "scope": json.dumps(WORKER_SCOPE),
        },
    )
    # A new worker (and cache) whenever its code or the assets' addresses change.
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    response = HttpResponse(
        body.replace("__VERSION__", version), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = WORKER_SCOPE
    return response


urlpatterns = [
    path("table/service-worker.js", service_worker, name="scoring-worker"),
    path("table/card/<int:card_id>/", card, name="scoring-card"),
    path("table/card/<int:card_id>/now/", card_now, name="scoring-card-now"),
    path("table/<int:table_id>/", table, name="scoring-table"),
    path("table/<int:table_id>/manifest.webmanifest", manifest, name="scoring-manifest"),
    path("table/<int:table_id>/hands/", hands, name="scoring-hands"),
    path("table/<int:table_id>/token/", token_status, name="scoring-token"),
]
