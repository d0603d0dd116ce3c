"""The duplicate pages: a director creates and runs an event, the table's phone scores with
its token and sees nothing of other tables before the release, the results pages and the
exports."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.duplicate.builders import make_event, pair_pin, play_round, played
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult, Tournament
from tournaments.services.table_access import issue_round_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


@pytest.fixture
def director_client(td):
    client = Client()
    client.force_login(td.user)
    return client


def test_a_director_creates_a_duplicate_event_from_the_form(director_client):
    response = director_client.post(
        reverse("tournaments:duplicate-new"),
        {
            "name": "Spades duplicate",
            "rules": "spades:standard",
            "movement": "mitchell",
            "tables": 5,
            "even": "skip",
            "boards_per_round": 3,
            "board_scoring": "cga",
            "comparison": "matchpoints",
            "board_source": "seeded",
            "deal_seed": "s1",
            "confirmation": "pin",
        },
    )
    tournament = Tournament.objects.get(name="Spades duplicate")
    assert response.status_code == 302
    assert tournament.duplicate.board_scoring == "cga"
    assert tournament.boards.count() == 15
    page = director_client.get(response["Location"])
    assert page.status_code == 200
    assert "Number the pairs" in page.content.decode()
    # the rules by their name, as on every other director's page, not the preset's id in code
    # ("Spades · `standard`": the evening walk, bench/evening_walk.py)
    summary = page.content.decode().split('class="summary"', 1)[1].split("</p>", 1)[0]
    assert "Standard (the club&#x27;s own rules)" in summary and "<code>" not in summary


def test_the_phone_needs_its_tables_code(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    url = reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1])
    assert Client().get(url).status_code == 403
    assert Client().get(url, HTTP_AUTHORIZATION="Table not-a-code").status_code == 403


def _token_for(round_, td, number):
    secrets = issue_round_tokens(round=round_, actor=td)
    table = round_.tables.get(number=number)
    return secrets[table.pk]


def test_the_phone_scores_a_board_and_the_other_side_confirms_with_its_pin(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    phone = Client()
    auth = {"HTTP_AUTHORIZATION": f"Table {secret}"}
    panel = phone.get(
        reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1]), **auth
    )
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    assert f"Next: board {board}" in panel.content.decode()
    act = reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1])
    answer = phone.post(
        act,
        {
            "action": "submit",
            "board": board,
            "side": "NS",
            "pin": pair_pin(round_, 1, "NS"),
            "record": json.dumps(played(tournament, board)),
        },
        **auth,
    )
    assert answer.status_code == 200
    result = BoardResult.objects.get()
    assert result.status == "pending"
    pin = result.match.seats.get(side="EW").entry.pin
    phone.post(
        act,
        {
            "action": "confirm",
            "result": result.pk,
            "side": "EW",
            "pin": pin,
            "version": result.version,
        },
        **auth,
    )
    result.refresh_from_db()
    assert result.status == "confirmed"


def test_a_token_of_another_table_opens_nothing(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 2)
    response = Client().get(
        reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1]),
        HTTP_AUTHORIZATION=f"Table {secret}",
    )
    assert response.status_code == 403


def test_the_phones_summary_form_makes_a_legal_spades_record(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    response = Client().post(
        reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1]),
        {
            "action": "submit",
            "board": board,
            "side": "NS",
            "pin": pair_pin(round_, 1, "NS"),
            "call_N": "6",
            "call_E": "4",
            "call_S": "3",
            "call_W": "4",
            "tricks_N": "3",
            "tricks_E": "4",
            "tricks_S": "3",
            "tricks_W": "3",
        },
        HTTP_AUTHORIZATION=f"Table {secret}",
    )
    assert response.status_code == 200, response.content.decode()
    assert BoardResult.objects.get().ns_score == 60


def test_results_pages_hide_unreleased_rounds_and_show_them_after_release(td):
    tournament = make_event(td)
    play_round(tournament, td)
    public = Client()
    first = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    traveller = reverse("tournaments:duplicate-traveller", args=[tournament.slug, first])
    assert "No released result" in public.get(traveller).content.decode()
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    page = public.get(reverse("tournaments:duplicate-results", args=[tournament.slug]))
    assert "North-South" in page.content.decode()
    assert "No released result" not in public.get(traveller).content.decode()
    assert (
        public.get(reverse("tournaments:duplicate-card", args=[tournament.slug, 1])).status_code
        == 200
    )
    assert (
        public.get(reverse("tournaments:duplicate-deals", args=[tournament.slug])).status_code
        == 404
    )  # the deals come after the event


def test_the_projector_view_is_the_dark_screen_with_north_south_before_east_west(td):
    tournament = make_event(td)
    play_round(tournament, td)
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    url = reverse("tournaments:duplicate-results", args=[tournament.slug])
    screen = Client().get(url, {"view": "projector"}).content.decode()
    assert 'class="wide projector"' in screen and "css/public.css" in screen
    assert screen.index("North-South") < screen.index("East-West")
    assert "Travellers" not in screen  # the room's screen carries no links to click
    assert "view=projector" in screen  # its live updates keep the projector's layout
    page = Client().get(url).content.decode()
    assert "css/public.css" not in page and "Travellers" in page


def test_the_tournaments_standings_rounds_and_projector_lead_to_the_duplicate_pages(td):
    tournament = make_event(td)
    results = reverse("tournaments:duplicate-results", args=[tournament.slug])
    public = Client()
    for name, args, target in (
        ("public-standings", [], results),
        ("public-round", [1], results),
        ("public-projector", [], f"{results}?view=projector"),
    ):
        answer = public.get(reverse(f"tournaments:{name}", args=[tournament.slug, *args]))
        assert (answer.status_code, answer["Location"]) == (302, target)
    overview = public.get(reverse("tournaments:public-tournament", args=[tournament.slug]))
    assert "Match points" not in overview.content.decode()  # no Swiss facts for boards
    assert results in overview.content.decode()


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf", "json", "boards.json"])
def test_every_export_downloads(td, fmt):
    tournament = make_event(td)
    for n in (1, 2, 3):
        play_round(tournament, td, seed=n)
    dup.finish_duplicate(tournament=tournament, actor=td)
    response = Client().get(reverse("tournaments:duplicate-export", args=[tournament.slug, fmt]))
    assert response.status_code == 200
    body = response.content
    if fmt == "json":
        data = json.loads(body)
        assert len(data["results"]) == 18 and set(data["rankings"]) == {"NS", "EW"}
    if fmt == "boards.json":
        assert all("deal" in b for b in json.loads(body)["boards"])
    if fmt == "csv":
        assert body.decode().count("\n") == 1 + 6


def test_printing_boards_and_guide_cards(director_client, td):
    tournament = make_event(td, start=False)
    tournament.directors.add(td.user)
    boards = director_client.get(
        reverse("tournaments:duplicate-print-boards", args=[tournament.slug])
    )
    text = boards.content.decode()
    assert "Curtain cards" in text and "Make-up sheet" in text
    assert text.count('class="slip"') == 4 * 6
    guide = director_client.get(reverse("tournaments:duplicate-guide", args=[tournament.slug]))
    assert guide.content.decode().count('class="guide"') == 3
    pdf = director_client.get(
        reverse("tournaments:duplicate-guide", args=[tournament.slug]), {"format": "pdf"}
    )
    assert pdf.content.startswith(b"%PDF")


def test_the_guide_cards_download_as_a_pdf_with_the_tables_codes(director_client, td):
    """The guide cards' codes were only on the printable page after its POST: the PDF (the
    dashboard's link, the page's "Download as PDF") had none, so a director printing the PDF
    before round 1 had cards no phone could scan (the evening walk, bench/evening_walk.py)."""
    from tournaments.models import TableToken

    tournament = make_event(td, start=False)
    tournament.directors.add(td.user)
    url = reverse("tournaments:duplicate-guide", args=[tournament.slug])
    assert "Download the PDF with each table" in director_client.get(url).content.decode()
    pdf = director_client.post(url, {"format": "pdf"})
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    # the codes were issued: every table of the event holds a card
    issued = TableToken.objects.filter(table__tournament=tournament, revoked_at__isnull=True)
    assert sorted(issued.values_list("table__number", flat=True)) == [1, 2, 3]


def test_the_duplicate_pages_speak_japanese(td):
    tournament = make_event(td)
    play_round(tournament, td)
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    client = Client()
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("tournaments:duplicate-results", args=[tournament.slug]))
    text = page.content.decode()
    assert "南北" in text and "東西" in text and "トラベラー" in text


def test_the_phones_whist_form_scores_tricks_from_the_board(td):
    tournament = make_event(td, game="whist", rules="short-whist", movement="barometer", tables=2)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    response = Client().post(
        reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1]),
        {"action": "submit", "board": board, "pin": pair_pin(round_, 1, "EW"), "tricks_NS": "9"},
        HTTP_AUTHORIZATION=f"Table {secret}",
    )
    assert response.status_code == 200, response.content.decode()
    result = BoardResult.objects.get()
    assert (result.ns_score, result.ew_score, result.submitted_side) == (3, 0, "EW")


def _typed(cards):
    """A hand as a director types it from the board: by suit, 10 for tens, symbols."""
    out = []
    for suit, symbol in (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")):
        ranks = [c[0] for c in cards if c[1] == suit]
        out.append(symbol + " " + " ".join("10" if r == "T" else r for r in ranks))
    return " ".join(out)


def test_the_director_types_a_boards_deal_and_goes_on_to_the_next_board(director_client, td):
    tournament = dup.create_duplicate_tournament(
        actor=td,
        name="Typed boards",
        game="spades",
        rules="standard",
        movement="mitchell",
        tables=3,
        boards_per_round=2,
        board_source="director",
    )
    source = make_event(td, start=False).boards.get(number=1).hands
    page = director_client.get(reverse("tournaments:duplicate-director", args=[tournament.slug]))
    url = reverse("tournaments:duplicate-deal", args=[tournament.slug, 1])
    assert url in page.content.decode()
    form = {s: _typed(source[s]) for s in "NESW"}
    form["W"] = (
        "s"
        + " ".join(c[0] for c in source["W"] if c[1] == "S")
        + " h"
        + "".join(c[0] for c in source["W"] if c[1] == "H")
        + " d"
        + "".join(c[0] for c in source["W"] if c[1] == "D")
        + " c"
        + "".join(c[0] for c in source["W"] if c[1] == "C")
    )  # lower case, T, no spaces
    saved = director_client.post(url, form)
    assert saved.status_code == 302
    assert saved["Location"] == reverse("tournaments:duplicate-deal", args=[tournament.slug, 2])
    board = tournament.boards.get(number=1)
    assert board.source == "director"
    assert {s: sorted(board.hands[s]) for s in "NESW"} == {s: sorted(source[s]) for s in "NESW"}


def test_a_mistyped_deal_says_what_is_wrong_and_keeps_what_was_typed(director_client, td):
    tournament = dup.create_duplicate_tournament(
        actor=td,
        name="Typed boards",
        game="spades",
        rules="standard",
        movement="mitchell",
        tables=3,
        boards_per_round=2,
        board_source="director",
    )
    source = make_event(td, start=False).boards.get(number=1).hands
    url = reverse("tournaments:duplicate-deal", args=[tournament.slug, 1])
    form = {s: _typed(source[s]) for s in "NESW"}
    moved = source["E"][0]
    form["N"] = _typed(source["N"][1:] + [moved])  # East's first card typed for North too
    form["S"] = "A K Q"  # ranks before a suit
    answer = director_client.post(url, form)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert "Start with a suit" in text
    assert "These cards are given twice" not in text  # South is unreadable: no pack to check
    form["S"] = _typed(source["S"])
    text = director_client.post(url, form).content.decode()
    assert "These cards are given twice" in text and "(North, East)" in text
    lost = source["N"][0]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[lost[1]]
    assert f"These cards are in no hand: {symbol}{'10' if lost[0] == 'T' else lost[0]}." in text
    assert form["N"].split()[0] in text  # the typed cards are kept
    form["W"] = _typed(source["W"][:12])
    text = director_client.post(url, form).content.decode()
    assert "West holds 12 cards, not 13." in text
    assert not tournament.boards.get(number=1).dealt
    client = Client()
    client.force_login(td.user)
    client.cookies["django_language"] = "ja"
    text = client.post(url, form).content.decode()
    assert "西" in text and "枚" in text


def test_a_played_boards_deal_cannot_be_replaced(director_client, td):
    tournament = make_event(td)
    tournament.directors.add(td.user)
    play_round(tournament, td)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    url = reverse("tournaments:duplicate-deal", args=[tournament.slug, board])
    page = director_client.get(url).content.decode()
    assert (
        "its deal can no longer be changed" in page
        and '<form method="post" class="setup' not in page
    )
    before = tournament.boards.get(number=board).hands
    other = tournament.boards.exclude(number=board).first().hands
    answer = director_client.post(url, {s: _typed(other[s]) for s in "NESW"})
    assert "its deal can no longer be changed" in answer.content.decode()
    assert tournament.boards.get(number=board).hands == before


def test_the_phone_refuses_an_answer_to_a_result_entered_again_since(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    auth = {"HTTP_AUTHORIZATION": f"Table {secret}"}
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    act = reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1])
    phone = Client()
    phone.post(
        act,
        {
            "action": "submit",
            "board": board,
            "side": "NS",
            "pin": pair_pin(round_, 1, "NS"),
            "record": json.dumps(played(tournament, board)),
        },
        **auth,
    )
    result = BoardResult.objects.get()
    panel = phone.get(
        reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1]), **auth
    ).content.decode()
    assert 'name="version" value="1"' in panel
    pin = result.match.seats.get(side="EW").entry.pin
    answer = phone.post(
        act,
        {"action": "confirm", "result": result.pk, "side": "EW", "pin": pin, "version": 2},
        **auth,
    )
    assert answer.status_code == 409
    assert "This result changed since you looked at it" in answer.content.decode()
    result.refresh_from_db()
    assert result.status == "pending"
    phone.post(
        act,
        {"action": "confirm", "result": result.pk, "side": "EW", "pin": pin, "version": 1},
        **auth,
    )
    result.refresh_from_db()
    assert result.status == "confirmed"


def test_the_phone_says_the_engines_refusal_of_a_board_in_japanese(td):
    """A board result the rules engine refuses: the engine's error as a Japanese sentence."""
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    phone = Client()
    phone.cookies["django_language"] = "ja"
    response = phone.post(
        reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1]),
        {
            "action": "submit",
            "board": board,
            "side": "NS",
            "pin": pair_pin(round_, 1, "NS"),
            "call_N": "6",
            "call_E": "4",
            "call_S": "3",
            "call_W": "4",
            "tricks_N": "9",
            "tricks_E": "4",
            "tricks_S": "3",
            "tricks_W": "3",
        },
        HTTP_AUTHORIZATION=f"Table {secret}",
    )
    page = response.content.decode()
    assert "トリック数の合計が、1ハンドのトリック数と合いません。" in page
    assert "add up to" not in page and "tricks-do-not-sum" not in page
    assert not BoardResult.objects.exists()


@pytest.mark.parametrize("board_scoring", ["standard", "cga"])
def test_the_result_to_confirm_gives_its_notes_in_japanese(td, board_scoring):
    """The other side reads what the result scored in its language, whichever engine made the
    notes (the rules engine's for standard scoring, the board scoring's for CGA)."""
    tournament = make_event(td, board_scoring=board_scoring)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = _token_for(round_, td, 1)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    phone = Client()
    phone.cookies["django_language"] = "ja"
    auth = {"HTTP_AUTHORIZATION": f"Table {secret}"}
    phone.post(
        reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1]),
        {
            "action": "submit",
            "board": board,
            "side": "NS",
            "pin": pair_pin(round_, 1, "NS"),
            "call_N": "6",
            "call_E": "4",
            "call_S": "3",
            "call_W": "4",
            "tricks_N": "3",
            "tricks_E": "4",
            "tricks_S": "3",
            "tricks_W": "3",
        },
        **auth,
    )
    result = BoardResult.objects.get()
    assert result.status == "pending" and result.notes
    page = phone.get(
        reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1]), **auth
    ).content.decode()
    expected = {
        "standard": ["NS：ビッド6、6トリック獲得（+60）"],
        "cga": ["NS：ビッド6成功（+60）", "EWがバッグ3：EWに-3", "…そしてNSに+3"],
    }
    for japanese in expected[board_scoring]:
        assert f"<li>{japanese}</li>" in page
    for english in result.notes:
        assert english not in page


def test_the_side_swap_attack_is_refused_on_the_phone(td):
    """Issue 28: with the table's code and its own PIN only, NS enters a board as EW, then
    confirms its own result: refused, nothing stored or confirmed; EW's PIN confirms."""
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    auth = {"HTTP_AUTHORIZATION": f"Table {_token_for(round_, td, 1)}"}
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    act = reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1])
    phone = Client()
    ns, ew = pair_pin(round_, 1, "NS"), pair_pin(round_, 1, "EW")
    record = json.dumps(played(tournament, board))
    swap = {"action": "submit", "board": board, "side": "EW", "pin": ns, "record": record}
    refused = phone.post(act, swap, **auth)
    assert refused.status_code == 403
    assert "That PIN is the other pair&#x27;s" in refused.content.decode()
    assert not BoardResult.objects.exists()
    for missing in ({"side": "EW"}, {"pin": "no-pin"}):  # no PIN, or no pair's
        body = {"action": "submit", "board": board, "record": record, **missing}
        assert phone.post(act, body, **auth).status_code == 403
    assert not BoardResult.objects.exists()
    stored = phone.post(
        act, {"action": "submit", "board": board, "pin": ns, "record": record}, **auth
    )
    assert stored.status_code == 200, stored.content.decode()
    result = BoardResult.objects.get()
    assert (result.status, result.submitted_side) == ("pending", "NS")
    own = {"action": "confirm", "result": result.pk, "side": "EW", "pin": ns, "version": 1}
    assert phone.post(act, own, **auth).status_code == 403
    result.refresh_from_db()
    assert result.status == "pending"
    other = {"action": "confirm", "result": result.pk, "pin": ew, "version": 1}
    assert phone.post(act, other, **auth).status_code == 200
    result.refresh_from_db()
    assert (result.status, result.decided_side) == ("confirmed", "EW")


def test_the_phone_asks_for_the_pairs_pin_not_which_pair(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    auth = {"HTTP_AUTHORIZATION": f"Table {_token_for(round_, td, 1)}"}
    panel = Client().get(
        reverse("tournaments:duplicate-table-panel", args=[tournament.slug, 1]), **auth
    )
    text = panel.content.decode()
    assert 'name="pin" type="password"' in text and 'name="side"' not in text
