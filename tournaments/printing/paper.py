"""What goes on paper: table cards (who sits where, the first dealer, and a QR code that opens
the table's scoring page with its token) and score sheets (the backup when phones fail), as
printable HTML and as PDF.

A table card belongs to the event's numbered table (`EventTable`) and is valid in every round:
printed once for the event (no seats: the phone shows who sits where each round) or with a
round's seating. Reads only: issuing the tokens a card prints is the caller's business
(`services.print_cards`, a write the page does on POST).
"""

from __future__ import annotations

import logging
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import segno
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.registry import get_game
from tournaments import gameplay
from tournaments.models import Entry, EventTable, Match, Round, Seat, TableToken, Tournament
from tournaments.presentation import presentation

#: QR codes are printed at error correction level M (15% of the code may be lost to a crease or a
#: coffee ring) with the standard quiet zone of four modules around them.
QR_ERROR = "m"
QR_BORDER = 4

#: Most rows a sheet prints (a game's presentation says how many when the match runs to a target
#: score or until the director closes the round; a fixed number of hands prints that many).
MAX_ROWS = 60

SEAT_NAMES = {
    "N": _("North"),
    "E": _("East"),
    "S": _("South"),
    "W": _("West"),
}


def qr_svg(url: str, *, title: str = "") -> str:
    """The QR code of `url` as inline SVG (no XML declaration, sized by CSS through its
    viewBox), error correction M exactly (segno would otherwise raise the level when the code
    has room: the level is part of what a card promises), with a white quiet zone. `role=img`
    makes its <title> the picture's accessible name."""
    return qr_code(url).svg_inline(**qr_svg_options(title)).replace("<svg ", '<svg role="img" ', 1)


def qr_code(url: str) -> segno.QRCode:
    return segno.make(url, error=QR_ERROR, boost_error=False, micro=False)


def qr_svg_options(title: str = "") -> dict:
    """The options `qr_svg` renders with (tests render segno's code with the same ones)."""
    return {
        "border": QR_BORDER,
        "omitsize": True,
        "dark": "#000",
        "light": "#fff",
        "svgclass": "qr",
        "lineclass": None,
        "title": title or None,
    }


# -- who sits where ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat at a table: its letter, who sits there and the entry they play for."""

    seat: str
    player: str
    entry: str
    side: str

    @property
    def seat_name(self) -> str:
        return str(SEAT_NAMES.get(self.seat, self.seat))


@dataclass(slots=True)
class TableCard:
    """A table as printed: with a round's match, its seats, sides and the first dealer (none
    on the event's cards, printed before the rounds); `url` is the card page's absolute address
    with a fresh token on a card, the match's public page on a score sheet (no token: a sheet
    is printed by a GET)."""

    match: Match | None
    number: int
    seats: list[SeatLine]
    sides: list[tuple[str, str]]  # (side, the entries playing it)
    dealer: SeatLine | None
    url: str = ""
    qr: str = ""


def event_cards(tournament: Tournament, numbers: list[int]) -> list[TableCard]:
    """The event's cards for these table numbers: no round, no seats."""
    return [TableCard(match=None, number=n, seats=[], sides=[], dealer=None) for n in numbers]


def carded_tables(tournament: Tournament) -> list[int]:
    """The event's table numbers with a card that still works (not revoked, not expired)."""
    live = TableToken.objects.filter(table__tournament=tournament, revoked_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )
    return sorted(set(live.values_list("table__number", flat=True)))


def tables_needed(tournament: Tournament) -> int:
    """How many tables the event needs: the most any round used or the event's tables so far,
    else the entries still playing over the entries a table seats (a guess before pairings)."""
    known = EventTable.objects.filter(tournament=tournament).count()
    if known:
        return known
    entries = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    count = entries.count()
    per_table = 2 if tournament.is_team_event else max(2, tournament.table_size)
    return max(1, -(-count // per_table))


def _seat_lines(seats: list[Seat], layout: gameplay.Layout) -> list[SeatLine]:
    """Each seat letter with its player. A team holding two seats (`NS`) puts its first player
    in the first seat and the partner in the second."""
    sides = {letter: seat.side for seat in seats for letter in seat.seats}
    found = gameplay.seat_players(
        [(seat.seats, _players(seat.entry), seat.entry.name) for seat in seats], layout.seats
    )
    return [
        SeatLine(letter, *found[letter], sides.get(letter, ""))
        if letter in found
        else SeatLine(letter, "", "", "")
        for letter in layout.seats
    ]


def _players(entry: Entry) -> list[str]:
    return [player.name for player in entry.players]


def _sides(seats: list[Seat], layout: gameplay.Layout) -> list[tuple[str, str]]:
    names: dict[str, list[str]] = {side: [] for side in layout.sides}
    for seat in seats:
        names.setdefault(seat.side, []).append(seat.entry.name)
    return [(side, " & ".join(entries)) for side, entries in names.items()]


def round_tables(round_: Round) -> list[TableCard]:
    """The round's tables (byes left out), in table order, with their seats: four queries."""
    tournament = round_.tournament
    layout = gameplay.layout(tournament.game, tournament.rules)
    matches = (
        Match.objects.filter(round=round_, is_bye=False)
        .select_related("table")
        .prefetch_related(
            "seats__entry__player", "seats__entry__team__first", "seats__entry__team__second"
        )
        .order_by("table__number")
    )
    dealer_seat = gameplay.first_dealer(layout.seats, round_.number)
    cards = []
    for match in matches:
        seats = list(match.seats.all())
        lines = _seat_lines(seats, layout)
        dealer = next((line for line in lines if line.seat == dealer_seat), None)
        assert match.table is not None  # matches at tables (byes have no card)
        cards.append(
            TableCard(
                match=match,
                number=match.table.number,
                seats=lines,
                sides=_sides(seats, layout),
                dealer=dealer,
            )
        )
    return cards


@dataclass(frozen=True, slots=True)
class PinSlip:
    """An entry's PIN as printed on its slip: handed to the entry at check-in and kept all
    tournament (the PIN belongs to the entry, not to a round's table card, which both sides
    see)."""

    entry: str
    players: str
    pin: str
    #: The entry's players (ids, with their names): whose claim codes the slip may print.
    members: tuple[tuple[int, str], ...] = ()


def pin_slips(tournament: Tournament) -> list[PinSlip]:
    """Every entry still playing, by name, with its confirmation PIN."""
    entries = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player", "team__first", "team__second")
    )
    slips = [
        PinSlip(
            entry=entry.name,
            players=" & ".join(p.name for p in entry.team.players)
            if entry.team is not None
            else "",
            pin=entry.pin,
            members=tuple((p.pk, p.name) for p in entry.team.players)
            if entry.team is not None
            else ((entry.player.pk, entry.player.name),)
            if entry.player is not None
            else (),
        )
        for entry in entries
    ]
    return sorted(slips, key=lambda slip: slip.entry.casefold())


def round_byes(round_: Round) -> list[str]:
    """The entries with a bye in the round (named on the printing page, never printed)."""
    seats = Seat.objects.filter(match__round=round_, match__is_bye=True).select_related(
        "entry__player", "entry__team"
    )
    return sorted(seat.entry.name for seat in seats)


# -- score sheets --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """The grid of a paper score sheet: columns for the hand as a whole (`leading`), then a
    group of columns per side (`per_side`), and how many hand rows."""

    leading: tuple[str, ...]
    per_side: tuple[str, ...]
    rows: int

    @property
    def columns(self) -> int:
        return len(self.leading)


def sheet_layout(
    tournament: Tournament, rows: int | None = None, *, knockout: bool = False
) -> SheetLayout:
    """The columns the game's scorer needs on paper (its presentation's), and enough rows for
    the match length (the knockout's length for a knockout round)."""
    shown = presentation(tournament.game)
    return SheetLayout(
        leading=tuple(str(label) for label in shown.sheet_leading),
        per_side=tuple(str(label) for label in shown.sheet_per_side),
        rows=sheet_rows(tournament, rows, knockout=knockout),
    )


def dealers(tournament: Tournament, first: str, count: int) -> list[str]:
    """Who deals hands 1 … count, by the rules' rotation from `first` (pre-printed on the
    sheet so the table never argues about whose deal it is)."""
    game = get_game(tournament.game)
    compiled = game.book.resolve(tournament.rules)[0]
    out = [first]
    while len(out) < count:
        out.append(game.next_dealer(compiled, out[-1]))
    return out[:count]


def sheet_rows(tournament: Tournament, wanted: int | None = None, *, knockout: bool = False) -> int:
    """Rows to print: as asked (1–60), else the fixed number of hands, else a game's default.
    A knockout match has the knockout's length: its number of hands plus room for two rounds
    of tie-break hands, or (to a target, or best of N: one sheet per match) the game's
    default."""
    if wanted is not None:
        return max(1, min(MAX_ROWS, wanted))
    if knockout:
        if (
            tournament.knockout_length == Tournament.KnockoutLength.HANDS
            and tournament.knockout_count
        ):
            extra = 2 * (tournament.tiebreak_hands or 0)
            return min(MAX_ROWS, tournament.knockout_count + extra)
        return presentation(tournament.game).sheet_rows
    if tournament.match_length == Tournament.MatchLength.HANDS and tournament.match_hands:
        return min(MAX_ROWS, tournament.match_hands)
    return presentation(tournament.game).sheet_rows


# -- PDF -----------------------------------------------------------------------------------------


def render_pdf(html: str, *, base_url: str) -> bytes:
    """The page as PDF (WeasyPrint, print media)."""
    return render_document(html, base_url=base_url).write_pdf()


def render_document(html: str, *, base_url: str) -> Any:
    """The page laid out by WeasyPrint (its pages, before writing the PDF). Stylesheets and
    images come from the static files on disk; nothing is fetched over the network. WeasyPrint
    is imported here, not at start-up: it is slow to load and only the PDF downloads need it."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)  # a line per step

    class StaticFetcher(URLFetcher):
        """Serve `/static/...` from the static files; refuse every other URL (a page rendered
        to PDF must never make the server fetch an address)."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            path = static_file(url)
            if path is None:
                raise ValueError(f"not a static file: {url}")
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})

    return HTML(string=html, base_url=base_url, url_fetcher=StaticFetcher()).render()


def static_file(url: str) -> Path | None:
    """The file on disk behind a static URL, or None."""
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    path = unquote(urlsplit(url).path)
    if not path.startswith(prefix) or ".." in path.split("/"):
        return None
    name = path[len(prefix) :]
    try:
        if staticfiles_storage.exists(name):
            return Path(staticfiles_storage.path(name))
    except (NotImplementedError, ValueError, OSError):  # a remote storage, or no STATIC_ROOT
        pass
    found = finders.find(name)
    return Path(found) if found else None
