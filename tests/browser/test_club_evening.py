"""A club evening from start to finish in real Chromium, as the people in the room see it: the
director signs in and sets up a Spades Swiss, a player enters their team from their own phone,
the director pairs, publishes and prints round 1's table cards, a scorer opens table 1's card on
a phone, scores a hand and the other side confirms it, and a spectator's standings page follows
without a reload, then switches to Japanese. Every page visited passes the accessibility basics
and leaves a screenshot. Then the table page and the site's header by keyboard alone."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import Page, expect

from tournaments import services
from tournaments.models import HandSubmission, Match, Tournament
from tournaments.services import Actor, PlayerSpec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-club-password"
DESKTOP = {"width": 1280, "height": 900}
PROJECTOR = {"width": 1600, "height": 900}

# the hand scored at table 1 (standard rules: the second partner's bid is the side's): N/S bid 8
# and take 9 (80 and a bag), E/W bid 5 and take 4 (set: -50)
BIDS = {"E": "3", "S": "4", "W": "5", "N": "8"}
TRICKS = {"N": 5, "E": 3, "S": 4, "W": 1}


@pytest.fixture
def director_user(db):
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


def sign_in(page: Page, live_server, next_path: str = "/director/") -> None:
    """Through the real login page, as a director does at the start of the evening."""
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill("aiko")
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()


def submit(page: Page, button: str) -> None:
    """Press a form's button and wait for the page it leads to (every director POST redirects)."""
    with page.expect_navigation():
        page.get_by_role("button", name=button, exact=True).click()


def visited(page: Page, screenshot, accessibility, name: str | None = None) -> None:
    """Each page of the evening passes the accessibility basics (and is kept as a picture)."""
    if name:
        screenshot(page, f"evening-{name}")
    assert accessibility(page) == [], page.url


def match_points(page: Page) -> dict[str, str]:
    """Entry name -> match points, read from the standings table as shown."""
    headers = page.locator(".standings-table thead th").all_inner_texts()
    column = headers.index("Match points") + 1
    points = {}
    for row in page.locator(".standings-table tbody tr").all():
        cells = row.locator("th, td")
        name = row.locator("th").evaluate("th => th.firstChild.textContent.trim()")
        points[name] = cells.nth(column - 1).inner_text().strip()
    return points


def seating(tournament: Tournament, table: int) -> dict[str, str]:
    """Side -> entry name at a table of round 1 (what the table card prints)."""
    match = Match.objects.get(round__tournament=tournament, round__number=1, table__number=table)
    return {seat.side: seat.entry.name for seat in match.seats.select_related("entry")}


def enter_the_hand(page: Page, teams: dict[str, str]) -> None:
    """The scorer taps the bids in bidding order, then N's, E's and S's tricks (W's are filled
    in); the last answer sends the hand (once a match the phone then asks who sends)."""
    keys = page.locator("#pad-keys")
    for seat in "ESWN":
        keys.get_by_role("button", name=BIDS[seat], exact=True).click()
    for seat in "NES":
        keys.get_by_role("button", name=str(TRICKS[seat]), exact=True).click()


#: The tricks as the pad records them: each seat's own, as the table counted them.
PAD_TRICKS = TRICKS


def ja(text: str) -> str | None:
    """The Japanese of an English UI string, if the catalogue already translates it."""
    with translation.override("ja"):
        translated = translation.gettext(text)
    return translated if translated != text else None


def test_a_club_evening_from_sign_in_to_japanese_standings(
    page, another_page, live_server, live_in_process, director_user, screenshot, accessibility
):
    # -- the director signs in and sets the evening up ---------------------------------------
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/director/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()  # the login page
    visited(page, screenshot, accessibility)
    sign_in(page, live_server)
    expect(page.get_by_role("heading", name="Director", exact=True)).to_be_visible()

    page.get_by_label("Name", exact=True).fill("Friday Spades")
    page.get_by_label("Venue").fill("Club room")
    expect(page.get_by_label("Game", exact=True)).to_have_value("spades")
    page.get_by_label("Format", exact=True).select_option("swiss")
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Match length", exact=True).select_option("hands")
    page.get_by_label("Hands per match").fill("1")
    # a trusting club: the opponents confirm on the scorer's phone without a PIN
    page.get_by_label("Confirming hands").select_option("same-phone")
    visited(page, screenshot, accessibility, "director-new-tournament")
    submit(page, "Create tournament")
    expect(page.get_by_text("Tournament created.")).to_be_visible()
    tournament = Tournament.objects.get(name="Friday Spades")
    assert (tournament.game, tournament.match_length, tournament.match_hands) == (
        "spades",
        "hands",
        1,
    )

    submit(page, "Open registration")
    expect(page.get_by_text("Registration is open.")).to_be_visible()

    # -- a player enters their team from their own phone ------------------------------------
    player = another_page()
    player.goto(f"{live_server.url}/t/{tournament.slug}/")
    player.get_by_label("Team name (optional)").fill("Moonshot")
    player.get_by_label("Player", exact=True).fill("Mai Ito")
    player.get_by_label("Partner", exact=True).fill("Tom Evans")
    visited(player, screenshot, accessibility, "register")
    submit(player, "Enter our team")
    expect(player.get_by_text("Moonshot is entered. See you at the table!")).to_be_visible()
    player.context.close()

    # -- the director enters three more teams and checks everyone in -------------------------
    page.get_by_role("link", name="Manage entries").click()
    for team, first, second in (
        ("Night Owls", "Ken Sato", "Yui Mori"),
        ("Big Bags", "Ann Lee", "Bob Ray"),
        ("Lucky Nils", "Emi Abe", "Dan Cho"),
    ):
        page.get_by_label("Player", exact=True).fill(first)
        page.get_by_label("Partner", exact=True).fill(second)
        page.get_by_label("Team name").fill(team)
        submit(page, "Register the team")
        expect(page.get_by_text(f"{team} is entered.")).to_be_visible()
    teams = ("Moonshot", "Night Owls", "Big Bags", "Lucky Nils")
    for team in teams:  # the registration desk checks in without a page load
        page.get_by_role("button", name=f"Check in {team}", exact=True).click()
        expect(page.get_by_text(f"{team} is checked in.")).to_be_visible()
    expect(page.get_by_text("0 registered, 4 checked in, 0 withdrawn.")).to_be_visible()
    visited(page, screenshot, accessibility, "director-entries")

    # -- round 1: draft, review, publish ----------------------------------------------------
    page.get_by_role("link", name="Dashboard").click()
    visited(page, screenshot, accessibility, "director-dashboard")
    submit(page, "Pair round 1")
    expect(page.get_by_role("heading", name="Review the draft")).to_be_visible()
    draft = page.locator("#progress table.data tbody tr")
    expect(draft).to_have_count(2)
    for team in teams:
        expect(page.locator("#progress")).to_contain_text(team)
    visited(page, screenshot, accessibility, "round-draft")
    submit(page, "Publish round 1")
    expect(page.get_by_text("Round 1 is published")).to_be_visible()
    visited(page, screenshot, accessibility, "director-round-published")

    # -- a spectator's laptop: the published pairings and the standings ---------------------
    spectator = another_page(viewport=DESKTOP)
    spectator.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/")
    for team in teams:
        expect(spectator.locator("main")).to_contain_text(team)
    visited(spectator, screenshot, accessibility, "pairings")

    # -- the table cards, and table 1's scoring link from its card --------------------------
    page.goto(f"{live_server.url}/director/{tournament.slug}/")
    page.get_by_role("link", name="Table cards for round 1").click()
    visited(page, screenshot, accessibility, "print-cards")
    submit(page, "Print table cards (replaces these tables' cards)")
    card = page.get_by_role("article", name="Table 1")
    at_table_1 = seating(tournament, 1)
    for name in at_table_1.values():
        expect(card).to_contain_text(name)
    expect(card.locator("svg")).to_be_visible()  # the QR code
    scoring_url = card.locator(".qr-url").inner_text().strip()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/table/card/\d+/#token=\S+", scoring_url)
    visited(page, screenshot, accessibility, "table-cards")

    spectator.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    expect(spectator.locator("[data-live-events]")).to_have_attribute("data-live-mode", "sse")
    expect(spectator.locator("#standings-live")).to_have_attribute("aria-live", "polite")
    version = int(spectator.locator("[data-version]").first.get_attribute("data-version"))
    before = spectator.locator("#standings-live").inner_text()
    visited(spectator, screenshot, accessibility, "standings-before")
    spectator.evaluate("window.__marker = 1")

    # -- the scorer scans table 1's card and scores the hand --------------------------------
    scorer = another_page()
    scorer.goto(scoring_url)  # the card's page: the match at table 1 now, framed
    framed = scorer.frame_locator("#card-match")
    expect(framed.locator("#access-status")).to_have_text("This phone scores for this table.")
    # The round's page alone: the card's code stays on the phone for it (no second scan).
    scorer.goto(live_server.url + scorer.locator("#card-match").get_attribute("src").split("#")[0])
    expect(scorer.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(scorer.locator("#access-status")).to_have_text("This phone scores for this table.")
    assert "#" not in scorer.url  # the secret left the address bar
    expect(scorer.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(scorer.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    visited(scorer, screenshot, accessibility, "scoring-before")

    enter_the_hand(scorer, at_table_1)
    preview = scorer.locator("#preview")  # the engine's score as the numbers go in
    expect(preview).to_contain_text("The rules engine accepts this hand.")
    expect(preview).to_contain_text("N/S +81 · E/W −50")  # the engine's numbers
    expect(preview).to_contain_text("NS bid 8, took 9 (+81)")
    visited(scorer, screenshot, accessibility, "scoring-preview")
    scorer.locator("#side-keys [data-send-side='NS']").click()  # once a match: who sends
    expect(scorer.locator("#submit-status")).to_contain_text(
        "Hand 1 is stored and awaits confirmation by the other side."
    )

    # the opponents confirm on the same phone
    decision = scorer.locator("form.decide[data-number='1']")
    expect(decision).to_contain_text("E/W: check the hand, then confirm or reject it.")
    decision.get_by_role("button", name="Confirm hand 1").click()
    expect(scorer.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    expect(scorer.get_by_text("The match is finished.")).to_be_visible()
    visited(scorer, screenshot, accessibility, "scoring-after")
    version_1 = HandSubmission.objects.get(
        hand__match__table__number=1, hand__match__round__tournament=tournament
    )
    assert (
        version_1.status,
        version_1.source,
        version_1.submitted_side,
        version_1.decided_side,
    ) == ("confirmed", "table", "NS", "EW")

    # -- the spectator's standings follow, without a reload ---------------------------------
    spectator.wait_for_function(
        "v => Number(document.querySelector('#standings-live [data-version]').dataset.version) > v",
        arg=version,
    )
    expect(spectator.locator(".standings-table")).to_be_visible()
    points = match_points(spectator)
    assert points[at_table_1["NS"]] == "2" and points[at_table_1["EW"]] == "0", points
    assert spectator.locator("#standings-live").inner_text() != before
    assert spectator.evaluate("window.__marker") == 1  # the same page: no reload
    # it came over the event stream, not the 15-second polling fallback
    expect(spectator.locator("[data-live-events]")).to_have_attribute("data-live-mode", "sse")
    visited(spectator, screenshot, accessibility, "standings-after")

    # -- the spectator switches to Japanese ---------------------------------------------------
    switch = spectator.get_by_role("button", name="日本語")
    expect(switch).to_have_attribute("aria-pressed", "false")
    with spectator.expect_navigation():
        switch.click()
    expect(spectator.locator("html")).to_have_attribute("lang", "ja")
    expect(spectator.get_by_role("button", name="日本語")).to_have_attribute("aria-pressed", "true")
    expect(spectator.get_by_role("button", name="EN")).to_have_attribute("aria-pressed", "false")
    assert spectator.url.endswith(f"/t/{tournament.slug}/standings/")
    for english in ("Standings", "Match points"):
        japanese = ja(english)
        if japanese:  # translations land separately: check those already in the catalogue
            expect(spectator.locator("main")).to_contain_text(japanese)
    expect(spectator.locator(".standings-table tbody tr")).to_have_count(4)
    visited(spectator, screenshot, accessibility, "standings-ja")

    # -- the projector on the wall --------------------------------------------------------------
    spectator.set_viewport_size(PROJECTOR)
    spectator.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    expect(spectator.locator("table[data-paginate=standings] tbody tr")).to_have_count(4)
    visited(spectator, screenshot, accessibility, "projector")


# -- by keyboard alone --------------------------------------------------------------------------


def published_table(director: Actor) -> tuple[Tournament, Match]:
    """Round 1 of a two-team Spades Swiss, published: one table, a match of one hand."""
    tournament = services.create_tournament(
        actor=director,
        name="Keyboard Spades",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=1,
        match_length="hands",
        match_hands=1,
        confirmation="same-phone",  # about the keyboard, not the PIN
    )
    services.open_registration(tournament=tournament, actor=director)
    for name, players in (("Moonshot", ("Mai", "Tom")), ("Night Owls", ("Ken", "Yui"))):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=name,
            players=[PlayerSpec(p) for p in players],
        )
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return tournament, Match.objects.get(round=round_)


FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    return {id: el.id, tag: el.tagName, type: el.type || '', name: el.name || '',
            label: el.getAttribute('aria-label') || (el.labels && el.labels[0]
                   ? el.labels[0].textContent.trim() : el.textContent.trim()),
            value: el.value || ''};
}"""


def tab_to(page: Page, matches, *, backwards: bool = False, limit: int = 80) -> dict:
    """Press Tab (or Shift+Tab) until the focused element satisfies `matches`; fail if it is
    never reached: what a keyboard user can reach, in the page's own tab order."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        if focused and matches(focused):
            return focused
    raise AssertionError("never reached by Tab")


def test_a_hand_is_entered_submitted_and_confirmed_by_keyboard_alone(
    page, live_server, director_user
):
    director = Actor(user=director_user)
    tournament, match = published_table(director)
    _, secret = services.issue_table_token(table=match.table, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(page.locator("#access-status")).to_have_text("This phone scores for this table.")
    keys = page.keyboard

    # the pad: Tab to the key, Enter or Space answers, and the focus goes on to the next
    # question's keys (the bids in bidding order, then N's, E's and S's tricks); the last
    # answer sends the hand
    answers = [BIDS[seat] for seat in "ESWN"] + [str(TRICKS[seat]) for seat in "NES"]
    for n, value in enumerate(answers):
        tab_to(page, lambda f, value=value: f["tag"] == "BUTTON" and f["label"] == value)
        keys.press("Enter" if n % 2 else "Space")
        if n < len(answers) - 1:
            expect(page.locator("#pad-answers")).to_contain_text(value)
    expect(page.locator("#pad-keys")).to_be_hidden()
    expect(page.locator("#preview")).to_contain_text("The rules engine accepts this hand.")
    expect(page.locator("#preview")).to_contain_text("N/S +81")
    expect(page.locator("#side-keys button").first).to_be_focused()  # once a match: who sends
    keys.press("Enter")
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")

    # the other side confirms: back up the page to the pending hand, Enter on Confirm
    confirm = page.get_by_role("button", name="Confirm hand 1")
    expect(confirm).to_be_visible()
    tab_to(page, lambda f: f["label"] == "Confirm hand 1", backwards=True)
    keys.press("Enter")
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    version = HandSubmission.objects.get(hand__match=match)
    assert (version.status, version.submitted_side, version.decided_side) == (
        "confirmed",
        "NS",
        "EW",
    )
    assert version.raw["tricks"] == PAD_TRICKS


OUTLINE = """() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
        const c = [r, g, b].map(v => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    let behind = null;
    for (let e = el.parentElement; e && !behind; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) behind = c;
    }
    behind = behind || [255, 255, 255];
    const [a, b] = [lum(rgb(style.outlineColor)) + 0.05, lum(behind) + 0.05];
    const box = el.getBoundingClientRect();
    return {focusVisible: el.matches(':focus-visible'), style: style.outlineStyle,
            width: parseFloat(style.outlineWidth), contrast: Math.max(a, b) / Math.min(a, b),
            onScreen: box.width > 0 && box.height > 0 && box.top >= 0
                      && box.bottom <= innerHeight};
}"""


@pytest.mark.parametrize("path", ["/", "standings"])
def test_the_site_nav_and_language_switch_are_reached_by_tab_with_a_visible_focus(
    page, live_server, director_user, path
):
    if path == "standings":
        tournament, _match = published_table(Actor(user=director_user))
        path = f"/t/{tournament.slug}/standings/"
    page.goto(live_server.url + path)
    header = ["TrickTable", "Tournaments", "Sign in", "EN", "日本語"]
    reached = []
    for expected in header:
        focused = tab_to(
            page, lambda f: f["label"] in header and f["label"] not in reached, limit=10
        )
        reached.append(focused["label"])
        ring = page.evaluate(OUTLINE)
        assert ring["focusVisible"], (expected, ring)
        assert ring["style"] != "none" and ring["width"] >= 2, (expected, ring)
        assert ring["contrast"] >= 3, (expected, ring)  # WCAG 1.4.11: against the header
        assert ring["onScreen"], (expected, ring)
    assert reached == header  # in reading order, before anything of the page's own

    # the language switch works from the keyboard: Enter on the focused 日本語 button
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("button", name="日本語")).to_have_attribute("aria-pressed", "true")
    assert page.url == live_server.url + path
