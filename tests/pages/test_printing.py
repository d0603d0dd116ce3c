"""Printing: table cards (a fresh scorer's token per table, as a QR code of the table's own
scoring URL) and paper score sheets, for the tournament's directors only, as HTML and PDF."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import segno
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.conftest import sign_in_browser
from tournaments import gameplay, services
from tournaments.models import AuditEvent, Table, TableToken, Tournament, hash_secret
from tournaments.printing import paper as printing
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

GAMES = {
    "spades": {"rules": "standard", "format": "swiss", "teams": 4},
    "whist": {"rules": "short-whist", "format": "swiss", "teams": 4},
    "solo-whist": {"rules": "phillips", "format": "individual", "players": 8, "table_size": 4},
    "german-whist": {"rules": "standard", "format": "swiss", "players": 4},
}


def make_round(game: str = "spades", *, username: str = "td", **options) -> Tournament:
    """A tournament of `game` with round 1 generated and published; returns the tournament."""
    spec = {**GAMES[game], **options}
    teams, players = spec.pop("teams", 0), spec.pop("players", 0)
    user = get_user_model().objects.create_user(username, password="x")
    director = Actor(user=user)
    tournament = services.create_tournament(
        actor=director, name=f"{game} night", game=game, rounds=3, **spec
    )
    services.open_registration(tournament=tournament, actor=director)
    for n in range(1, teams + 1):
        services.register_entry(
            tournament=tournament,
            actor=director,
            players=[f"North {n}", f"South {n}"],
            name=f"Team {n}",
        )
    for n in range(1, players + 1):
        services.register_entry(tournament=tournament, actor=director, players=[f"Player {n}"])
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    tournament.refresh_from_db()
    return tournament


def cards_url(tournament: Tournament, number: int = 1) -> str:
    return reverse("tournaments:printing-cards", args=[tournament.slug, number])


def sheets_url(tournament: Tournament, number: int = 1) -> str:
    return reverse("tournaments:printing-sheets", args=[tournament.slug, number])


def signed_in(client, tournament: Tournament):
    client.force_login(tournament.directors.get())
    return client


def qr_modules(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """(the picture's size in modules, the dark modules as (row, column)) read back from the
    SVG path segno draws: `M x y` moves, `m dx dy` moves by, `h n` draws n dark modules."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    path = re.search(r'<path stroke="#000" d="([^"]+)"', svg).group(1)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, numbers in re.findall(r"([Mmh])([-\d. ]+)", path):
        values = [float(v) for v in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            dark.update((int(y - 0.5), int(x) + i) for i in range(int(values[0])))
            x += values[0]
    return size, dark


def expected_modules(url: str) -> tuple[int, set[tuple[int, int]]]:
    """What a level-M QR code of `url` with a 4-module quiet zone must show (segno's matrix)."""
    code = segno.make(url, error="m", boost_error=False, micro=False)
    matrix = code.matrix
    dark = {(r + 4, c + 4) for r, row in enumerate(matrix) for c, value in enumerate(row) if value}
    return len(matrix) + 8, dark


# -- tournaments/printing/paper.py ---------------------------------------------------------------


def test_the_qr_svg_draws_segnos_level_m_matrix_of_the_url_with_a_quiet_zone():
    url = "https://club.example/table/12/#token=" + "x" * 43
    svg = printing.qr_svg(url, title="Table 12")

    assert qr_modules(svg) == expected_modules(url)
    assert segno.make(url, error="m", boost_error=False).error == "M"
    assert svg.startswith('<svg role="img" ') and "<title>Table 12</title>" in svg
    assert '<path fill="#fff"' in svg  # the quiet zone is white, not transparent
    assert svg.replace(' role="img"', "") == segno.make(
        url, error="m", boost_error=False, micro=False
    ).svg_inline(**printing.qr_svg_options("Table 12"))


def test_a_short_url_keeps_level_m_instead_of_segnos_boosted_level():
    boosted = segno.make("https://x.example/t/1/#token=a")  # segno alone would raise the level
    assert boosted.error != "M"
    assert printing.qr_code("https://x.example/t/1/#token=a").error == "M"


def test_the_first_dealer_moves_round_by_round_and_sheets_follow_the_rules_rotation():
    assert [gameplay.first_dealer("NESW", n) for n in (1, 2, 3, 4, 5)] == list("NESWN")
    assert [gameplay.first_dealer("NS", n) for n in (1, 2, 3)] == list("NSN")
    tournament = Tournament(game="spades", rules="standard")
    assert printing.dealers(tournament, "W", 5) == list("WNESW")


def test_only_static_files_are_read_for_a_pdf_never_another_address():
    assert printing.static_file("http://testserver/static/css/print.css").name == "print.css"
    assert printing.static_file("http://testserver/static/../config/settings.py") is None
    assert printing.static_file("http://testserver/admin/") is None
    assert printing.static_file("http://169.254.169.254/latest/meta-data") is None


# -- table cards ---------------------------------------------------------------------------------


def test_the_printing_pages_are_for_the_tournaments_directors_only(client):
    tournament = make_round()
    assert client.get(cards_url(tournament)).status_code == 302  # to the sign-in page
    assert client.post(cards_url(tournament)).status_code == 302
    assert client.get(sheets_url(tournament)).status_code == 302
    client.force_login(get_user_model().objects.create_user("other"))
    assert client.get(cards_url(tournament)).status_code == 403
    assert client.post(cards_url(tournament)).status_code == 403
    assert client.get(sheets_url(tournament)).status_code == 403
    assert TableToken.objects.count() == 0
    signed_in(client, tournament)
    assert client.get(cards_url(tournament, 7)).status_code == 404


def test_showing_the_cards_page_issues_no_token(client):
    tournament = make_round()
    signed_in(client, tournament)

    page = client.get(cards_url(tournament))
    pdf = client.get(cards_url(tournament) + "?format=pdf")

    assert page.status_code == 200 and pdf.status_code == 200
    html = page.content.decode()
    assert "Print table cards (replaces these tables' cards)" in html
    assert 'method="post"' in html and "Team 1" in html and "North 1" in html
    assert pdf["Content-Type"].startswith("text/html")  # a GET never prints secrets
    assert TableToken.objects.count() == 0


def cards_by_table(html: str) -> dict[int, tuple[str, str]]:
    """{table number: (scoring URL, QR svg)} read from the printed cards."""
    out = {}
    for article in re.findall(r'<article class="card".*?</article>', html, re.S):
        number = int(re.search(r'id="card-(\d+)"', article).group(1))
        url = re.search(r'<p class="qr-url">([^<]+)</p>', article).group(1)
        svg = re.search(r"<svg.*?</svg>", article, re.S).group(0)
        out[number] = (url.replace("&amp;", "&"), svg)
    return out


def test_printing_issues_one_token_per_table_and_each_qr_code_scores_only_its_table(client):
    tournament = make_round(teams=8)  # four tables
    tables = {t.number: t for t in Table.objects.filter(round__tournament=tournament)}
    signed_in(client, tournament)

    response = client.post(cards_url(tournament), {"paper": "a4", "format": "html"})

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"
    assert TableToken.objects.count() == len(tables) == 4
    cards = cards_by_table(response.content.decode())
    assert sorted(cards) == sorted(tables)
    for number, (url, svg) in cards.items():
        parts = urlsplit(url)
        assert (parts.scheme, parts.netloc) == ("http", "testserver")  # absolute
        card = tables[number].event_table_id  # the event's table: the card for every round
        assert parts.path == reverse("tournaments:scoring-card", args=[card])
        secret = parts.fragment.removeprefix("token=")
        assert secret and secret not in parts.path + parts.query  # only in the fragment
        token = TableToken.by_secret(secret)
        assert token.table_id == card and token.state == "active"
        assert token.expires_at is None  # valid until the event ends
        assert token.key_hash == hash_secret(secret) and secret not in token.key_hash
        assert qr_modules(svg) == expected_modules(url)
    assert AuditEvent.objects.filter(action="table-card-printed").count() == 4


def test_printing_a_rounds_cards_again_replaces_those_tables_cards(client):
    tournament = make_round()
    signed_in(client, tournament)
    first = cards_by_table(client.post(cards_url(tournament)).content.decode())
    second = cards_by_table(client.post(cards_url(tournament)).content.decode())

    assert TableToken.objects.count() == 4
    for number in first:
        assert first[number][0] != second[number][0]
        old = urlsplit(first[number][0]).fragment.removeprefix("token=")
        new = urlsplit(second[number][0]).fragment.removeprefix("token=")
        assert TableToken.by_secret(old).state == "revoked"
        assert TableToken.by_secret(new).state == "active"


def test_cards_show_who_sits_where_and_the_first_dealer(client):
    tournament = make_round()
    signed_in(client, tournament)
    html = client.post(cards_url(tournament), {"paper": "a6"}).content.decode()

    assert 'class="cards paper-a6"' in html and "size: A6" in html
    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    ns = table.match.seats.get(side="NS").entry.team
    article = re.search(r'<article class="card".*?</article>', html, re.S).group(0)
    assert re.search(rf"North <span[^>]*>\(N\)</span></th>\s*<td>{ns.first.name}</td>", article)
    assert re.search(rf"South <span[^>]*>\(S\)</span></th>\s*<td>{ns.second.name}</td>", article)
    assert "First dealer: North (" in article  # round 1: North deals first


def test_the_cards_as_pdf_are_a_pdf_and_issue_the_tokens(client):
    tournament = make_round()
    signed_in(client, tournament)

    response = client.post(cards_url(tournament), {"paper": "a4", "format": "pdf"})

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    assert TableToken.objects.count() == 2


MM = 96 / 25.4  # CSS pixels per millimetre


@pytest.mark.parametrize(("paper", "pages", "size"), [("a4", 2, (210, 297)), ("a6", 4, (105, 148))])
def test_the_cards_lay_out_two_to_an_a4_page_or_one_to_an_a6_page(client, paper, pages, size):
    tournament = make_round(teams=8)  # four tables
    signed_in(client, tournament)
    html = client.post(cards_url(tournament), {"paper": paper}).content.decode()

    document = printing.render_document(html, base_url="http://testserver/")

    assert len(document.pages) == pages
    width, height = document.pages[0].width / MM, document.pages[0].height / MM
    assert (round(width), round(height)) == size


def test_a_page_rendered_to_pdf_fetches_nothing_but_static_files(monkeypatch):
    import urllib.request

    opened = []

    def no_network(self, url, *args, **kwargs):
        opened.append(url)
        raise OSError("no network in this test")

    monkeypatch.setattr(urllib.request.OpenerDirector, "open", no_network)
    html = (
        '<html><head><link rel="stylesheet" href="/static/css/print.css"></head><body>'
        '<img src="http://169.254.169.254/x.png" alt=""><p class="qr-url">x</p></body></html>'
    )
    document = printing.render_document(html, base_url="http://testserver/")
    assert len(document.pages) == 1
    assert opened == []


# -- score sheets --------------------------------------------------------------------------------


def header_cells(html: str) -> list[str]:
    thead = re.search(r'<table class="grid">.*?<thead>(.*?)</thead>', html, re.S).group(1)
    return [
        re.sub(r"<[^>]+>", " ", cell).split()[0]
        for cell in re.findall(r"<th[^>]*>(.*?)</th>", thead, re.S)
    ]


@pytest.mark.parametrize(
    ("game", "needed"),
    [
        (
            "spades",
            ["Hand", "Dealer", "NS", "EW", "Bid", "Nil", "Tricks", "Bags", "Score", "Total"],
        ),
        ("whist", ["Hand", "Dealer", "NS", "EW", "Tricks", "Honours", "Score", "Total"]),
        (
            "solo-whist",
            [
                "Hand",
                "Dealer",
                "Contract",
                "Declarer",
                "Tricks",
                "N",
                "E",
                "S",
                "W",
                "Settlement",
                "Total",
            ],
        ),
        ("german-whist", ["Hand", "Dealer", "N", "S", "Tricks", "Score", "Total"]),
    ],
)
def test_each_games_score_sheet_has_the_columns_its_scorers_need(client, game, needed):
    tournament = make_round(game)
    signed_in(client, tournament)

    response = client.get(sheets_url(tournament))

    assert response.status_code == 200
    html = response.content.decode()
    tables = Table.objects.filter(round__tournament=tournament).count()
    assert html.count('<table class="grid">') == tables >= 1
    assert set(needed) <= set(header_cells(html))
    assert TableToken.objects.count() == 0  # a sheet carries no secret


def test_a_fixed_length_match_gets_a_row_per_hand_with_the_dealer_printed(client):
    tournament = make_round(match_length="hands", match_hands=12)
    signed_in(client, tournament)

    html = client.get(sheets_url(tournament)).content.decode()
    grid = re.search(r'<table class="grid">.*?</table>', html, re.S).group(0)
    rows = re.findall(r'<tr>\s*<th scope="row">(\d+)</th>\s*<td>([NESW])</td>', grid)

    assert [int(hand) for hand, _ in rows] == list(range(1, 13))
    assert "".join(dealer for _, dealer in rows) == "NESWNESWNESW"
    fewer = client.get(sheets_url(tournament) + "?rows=3").content.decode()
    assert (
        len(
            re.findall(
                r'<th scope="row">\d+</th>\s*<td>[NESW]</td>',
                re.search(r'<table class="grid">.*?</table>', fewer, re.S).group(0),
            )
        )
        == 3
    )


def test_each_tables_score_sheet_is_its_own_landscape_page(client):
    tournament = make_round(teams=6)  # three tables
    signed_in(client, tournament)
    html = client.get(sheets_url(tournament)).content.decode()

    document = printing.render_document(html, base_url="http://testserver/")

    assert len(document.pages) == 3
    width, height = document.pages[0].width / MM, document.pages[0].height / MM
    assert (round(width), round(height)) == (297, 210)


def test_the_score_sheets_as_pdf_are_a_pdf(client):
    tournament = make_round("solo-whist")
    signed_in(client, tournament)

    response = client.get(sheets_url(tournament) + "?format=pdf")

    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


# -- in a real browser ---------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_printing_cards_in_a_browser_meets_the_accessibility_basics_and_prints_two_a_page(
    page, live_server, accessibility, screenshot
):
    tournament = make_round(teams=8)
    sign_in_browser(page, live_server, tournament.directors.get())
    page.goto(live_server.url + cards_url(tournament))
    assert accessibility(page) == []
    screenshot(page, "printing-cards-confirm")
    assert TableToken.objects.count() == 0

    with page.expect_navigation():
        page.get_by_role("button", name="Print table cards (replaces these tables' cards)").click()

    assert TableToken.objects.count() == 4
    assert page.locator("article.card svg.qr").count() == 4
    assert accessibility(page) == []
    screenshot(page, "printing-cards")
    pdf = page.pdf(prefer_css_page_size=True)  # Chromium's own print of the page
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 2


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_score_sheets_in_a_browser_meet_the_accessibility_basics(
    page, live_server, accessibility, screenshot
):
    tournament = make_round("whist")
    sign_in_browser(page, live_server, tournament.directors.get())
    page.goto(live_server.url + sheets_url(tournament))
    assert accessibility(page) == []
    screenshot(page, "printing-sheets")


def test_each_score_sheet_carries_the_qr_code_of_its_match_s_public_page(client):
    tournament = make_round(teams=6)
    signed_in(client, tournament)
    html = client.get(sheets_url(tournament)).content.decode()
    tables = Table.objects.filter(round__tournament=tournament, match__is_bye=False)
    assert tables.count() == 3
    for table in tables.select_related("match"):
        url = "http://testserver" + reverse(
            "tournaments:public-match", args=[tournament.slug, table.match.pk]
        )
        assert printing.qr_svg(url, title=str(table.number)) in html
    assert "#token=" not in html and not TableToken.objects.exists()


LAN = "http://192.168.1.20:8000"


def test_cards_carry_the_public_url_even_when_printed_from_the_laptops_own_browser(
    client, settings
):
    settings.PUBLIC_URL = LAN
    tournament = make_round(teams=4)
    signed_in(client, tournament)

    page = client.get(cards_url(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()
    response = client.post(
        cards_url(tournament), {"paper": "a4", "format": "html"}, HTTP_HOST="localhost:8000"
    )

    assert f"{LAN}/" in page and 'role="alert"' not in page
    cards = cards_by_table(response.content.decode())
    assert cards
    for url, svg in cards.values():
        assert url.startswith(f"{LAN}/table/")
        assert qr_modules(svg) == expected_modules(url)


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_printing_at_a_loopback_address_without_a_public_url_says_phones_cannot_open_it(
    client, settings, host
):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
    tournament = make_round(teams=4)
    signed_in(client, tournament)

    cards = client.get(cards_url(tournament), HTTP_HOST=host).content.decode()
    sheets = client.get(sheets_url(tournament), HTTP_HOST=host).content.decode()

    # said before anything is printed: above the cards' print buttons
    assert cards.index("Phones cannot open these codes.") < cards.index('class="print-form"')
    assert "Phones cannot open these codes." in sheets
    assert 'role="alert"' in cards and 'role="alert"' in sheets


def test_printing_at_the_lan_address_without_a_public_url_uses_that_address(client, settings):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    tournament = make_round(teams=4)
    signed_in(client, tournament)

    page = client.get(cards_url(tournament), HTTP_HOST="192.168.1.20:8000").content.decode()
    response = client.post(cards_url(tournament), {"format": "html"}, HTTP_HOST="192.168.1.20:8000")

    assert "Phones cannot open these codes." not in page
    assert all(
        url.startswith(f"{LAN}/table/")
        for url, _ in cards_by_table(response.content.decode()).values()
    )


def test_a_score_sheets_qr_code_opens_the_match_at_the_public_url(client, settings):
    settings.PUBLIC_URL = LAN
    tournament = make_round(teams=4)
    signed_in(client, tournament)

    html = client.get(sheets_url(tournament), HTTP_HOST="127.0.0.1:8000").content.decode()

    for table in Table.objects.filter(round__tournament=tournament).select_related("match"):
        url = LAN + reverse("tournaments:public-match", args=[tournament.slug, table.match.pk])
        assert printing.qr_svg(url, title=str(table.number)) in html


# -- PIN slips (issue 14: the other side confirms with its PIN) ----------------------------------


def pins_url(tournament: Tournament) -> str:
    return reverse("tournaments:printing-pins", args=[tournament.slug])


def test_the_pin_slips_give_each_entry_its_own_pin_for_the_directors_only(client):
    tournament = make_round()
    assert client.get(pins_url(tournament)).status_code == 302  # signed out: to the login
    stranger = get_user_model().objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.get(pins_url(tournament)).status_code == 403
    response = signed_in(client, tournament).get(pins_url(tournament))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]
    html = response.content.decode()
    for entry in tournament.entries.all():
        assert re.search(
            rf"{re.escape(entry.name)}</strong>.*?class=\"pin\"[^>]*>{entry.pin}<", html, re.S
        ), entry.name


def test_the_pins_survive_reprinted_table_cards(client):
    """A PIN belongs to the entry for the whole tournament: printing the table cards again
    issues new table tokens but keeps every PIN."""
    tournament = make_round()
    before = dict(tournament.entries.values_list("pk", "pin"))
    signed_in(client, tournament).post(cards_url(tournament))
    signed_in(client, tournament).post(cards_url(tournament))
    assert dict(tournament.entries.values_list("pk", "pin")) == before


def test_the_director_sees_the_pins_on_the_entries_page(client):
    tournament = make_round()
    html = (
        signed_in(client, tournament)
        .get(reverse("tournaments:director-entries", args=[tournament.slug]))
        .content.decode()
    )
    for pin in tournament.entries.values_list("pin", flat=True):
        assert f"<code>{pin}</code>" in html
    assert pins_url(tournament) in html


def test_a_card_in_pin_mode_says_each_side_uses_its_own_pin_and_prints_no_pin(client):
    """Entering and confirming both take a PIN; worded for any table (issue 28: "the other
    side" at individual tables, where there are no sides)."""
    tournament = make_round()
    html = signed_in(client, tournament).post(cards_url(tournament)).content.decode()
    assert "enter a hand with the PIN on your entry slip" in html
    assert "someone else at the table confirms it with their own PIN" in html
    assert "other side" not in html
    for pin in tournament.entries.values_list("pin", flat=True):  # a card both sides see
        assert f">{pin}<" not in html


@pytest.mark.django_db
def test_the_card_printing_pages_lead_back_to_the_dashboard(client):
    """The table cards' pages (the whole event's, a round's) had no way back to the tournament
    but the browser's Back button (the evening walk, bench/evening_walk.py)."""
    tournament = make_round()
    signed_in(client, tournament)
    dashboard = reverse("tournaments:director-dashboard", args=[tournament.slug])
    for url in (
        reverse("tournaments:printing-event-cards", args=[tournament.slug]),
        cards_url(tournament),
    ):
        page = client.get(url).content.decode()
        assert 'class="crumbs"' in page and f'href="{dashboard}"' in page, url
