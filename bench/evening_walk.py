"""A whole club evening as a new user meets it (issue 28): `make serve` on the laptop of a test LAN
(bench/evening_lan.py: a network namespace, the phones reaching the laptop at its LAN address
only), the director on a laptop browser (1366 x 768), the projector (1920 x 1080) and phones
(390 x 844, one browser context each, in English and in Japanese), all in Chromium.

    sudo .venv/bin/python bench/evening_walk.py                 # port 8550, 3 hands a match
    .venv/bin/python bench/evening_walk.py --port 8551 --shots test-artifacts/evening-walk

What happens, as a club does it:
1. The director signs in with the password `make serve` printed, creates a partnership Spades
   Swiss of two rounds, registers and checks in four teams, reads the PINs off the entries page
   (the slips), and prints the table cards for the whole event as a PDF *before round 1 is
   paired*; the phones read the cards' QR codes from that PDF (pdftoppm, zxing-cpp).
2. Round 1: table 1 has two phones (N/S's in English, E/W's in Japanese), table 2 one phone
   passed across the table. Hands: typical ones and one with a nil; the other side confirms with
   its PIN. At table 1, E/W types a wrong PIN five times; then the right PIN; the director sees
   the table on the dashboard and clears it. The side-swap attack with N/S's PIN only: confirming
   N/S's own hand on the page, and through the API entering a hand "for E/W" and confirming it.
3. Round 2 is paired and published: the same phones, never reloaded, move to the new match.
4. Cutthroat Spades, Solo Whist, English Whist and German Whist: an event each, cards printed
   before round 1, one phone a table (PIN mode, the default), three hands each.

Per hand it prints taps, typed characters and scrolls (counted in the page: trusted clicks,
printable keys, scroll events of the window or any element), seconds from opening the card to
the scoring page's 'scoring-ready' mark, and from the tap that sends a hand (or confirms it) to
the other phone's screen and the projector's next live update. Then the medians per game.
Screenshots go to --shots. Needs root (the namespace), pdftoppm and zxing-cpp.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}

#: Counting in a document: trusted clicks (a tap is a click), typed characters, scrolls.
COUNTER = """() => {
  const zero = {taps: 0, typed: 0, scrolls: 0, small: []};
  if (window.__walk) { Object.assign(window.__walk, zero); return; }
  const seen = window.__walk = zero;
  document.addEventListener('click', event => {
    if (!event.isTrusted) return;
    seen.taps += 1;
    const target = event.target.closest('button, summary, label, select, input, a')
      || event.target;
    const box = target.getBoundingClientRect();
    if (Math.min(box.width, box.height) < 44) {
      seen.small.push(target.textContent.trim().slice(0, 20));
    }
  }, true);
  document.addEventListener('keydown', event => {
    if (event.key.length === 1) seen.typed += 1;
  }, true);
  document.addEventListener('scroll', () => { seen.scrolls += 1; }, true);
}"""

#: The card page's navigation start to the frame's 'scoring-ready' mark, on one clock (ms).
READY = """() => {
  const frame = document.getElementById('card-match');
  const inner = frame && frame.contentWindow;
  const mark = inner && inner.performance.getEntriesByName('scoring-ready')[0];
  return mark ? inner.performance.timeOrigin + mark.startTime - performance.timeOrigin : null;
}"""

#: The projector's next live update (Date.now() when it came).
UPDATED = """() => {
  window.__updated = null;
  if (window.__listening) return;
  window.__listening = true;
  document.addEventListener('live:updated', () => {
    window.__updated = window.__updated || Date.now();
  });
}"""

#: The seats of the match in the card's frame: seat -> the entry's name (the player's at an
#: individual table).
SEATS = """() => Object.fromEntries([...document.querySelectorAll('li.seat[data-seat]')].map(li => [
  li.dataset.seat,
  ((li.querySelector('.seat-entry') || li.querySelector('.seat-name')).textContent || '').trim(),
]))"""


def log(message: str) -> None:
    print(f"[walk] {message}", file=sys.stderr, flush=True)


@dataclass
class Hand:
    game: str
    what: str
    taps: int
    typed: int
    scrolls: int
    small: list[str]
    seconds: float  # first tap to the hand on this phone's list (the phone's own wait)
    other: float | None = None  # the tap that sends to the other phone's screen
    projector: float | None = None  # the tap that sends to the projector's next update


@dataclass
class Walk:
    site: str
    shots: Path
    hands: list[Hand] = field(default_factory=list)
    ready: dict[str, list[float]] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def shot(self, page, name: str, *, full: bool = False) -> None:
        self.shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(self.shots / f"{name}.png"), full_page=full)

    def note(self, text: str) -> None:
        log(text)
        self.notes.append(text)

    def check(self, ok: bool, text: str) -> None:
        """A finding when `ok` is false (the walk goes on)."""
        if not ok:
            log(f"FINDING: {text}")
            self.findings.append(text)


# ---- the director's laptop --------------------------------------------------------------------


def submit(page, button: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=button, exact=True).click()


def sign_in(browser, site: str, username: str, password: str):
    context = browser.new_context(locale="en-US", viewport=LAPTOP, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{site}/director/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    submit(page, "Sign in")
    return context, page


@dataclass
class Event:
    name: str
    slug: str
    pins: dict[str, str]  # entry's name -> PIN (the entries page, as on the slips)
    cards: list[str]  # the QR codes of the cards printed before round 1, table by table


def create(
    page,
    walk: Walk,
    *,
    name: str,
    game: str,
    preset: str,
    fmt: str,
    rounds: int,
    hands: int,
    players: int | None = None,
) -> None:
    page.goto(f"{walk.site}/director/")
    page.get_by_label("Name", exact=True).fill(name)
    if page.get_by_label("Game", exact=True).input_value() != game:
        page.get_by_label("Game", exact=True).select_option(game)
        page.wait_for_load_state("networkidle")
        page.get_by_label("Name", exact=True).fill(name)
    if page.get_by_label("Rule preset", exact=True).input_value() != preset:
        page.get_by_label("Rule preset", exact=True).select_option(preset)
        page.wait_for_load_state("networkidle")
        page.get_by_label("Name", exact=True).fill(name)
    chooser = page.locator("#id_opt_players")
    if (
        players is not None
        and chooser.count()
        and chooser.is_visible()
        and chooser.is_enabled()
        and chooser.input_value() != str(players)
    ):
        chooser.select_option(str(players))
    page.get_by_label("Format", exact=True).select_option(fmt)
    page.get_by_label("Rounds", exact=True).fill(str(rounds))
    page.get_by_label("Match length", exact=True).select_option("hands")
    page.get_by_label("Hands per match").fill(str(hands))
    submit(page, "Create tournament")
    if "Tournament created." not in page.inner_text("main"):
        raise SystemExit(f"{name}: not created:\n{page.inner_text('main')[:2000]}")


def register(page, walk: Walk, entries: list[tuple[str, ...]]) -> dict[str, str]:
    submit(page, "Open registration")
    page.get_by_role("link", name="Manage entries").click()
    team = page.get_by_label("Partner", exact=True).count() > 0
    for entry in entries:
        page.get_by_label("Player", exact=True).fill(entry[0])
        if team:
            page.get_by_label("Partner", exact=True).fill(entry[1])
            page.get_by_label("Team name").fill(entry[2])
        submit(page, "Register the team" if team else "Register the player")
    for entry in entries:
        name = entry[2] if team else entry[0]
        page.get_by_role("button", name=f"Check in {name}", exact=True).click()
        page.get_by_text(f"{name} is checked in.").wait_for()
    walk.shot(page, f"laptop-entries-{slug_of(page)}")
    pins = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#entries-table tbody tr')].map(
            row => [row.querySelector('th').childNodes[0].textContent.trim(),
                    row.querySelector('td.pin code').textContent.trim()]))"""
    )
    page.get_by_role("link", name="Dashboard").click()
    return pins


def slug_of(page) -> str:
    found = re.search(r"/director/([^/]+)/", page.url)
    return found.group(1) if found else "event"


def qr_codes_in(pdf: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="tt-walk-cards-") as folder:
        source = Path(folder) / "cards.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", "200", "-png", str(source), f"{folder}/page"],
            check=True,
            timeout=120,
        )
        found: list[str] = []
        for image in sorted(Path(folder).glob("page*.png")):
            found += [code.text for code in zxingcpp.read_barcodes(Image.open(image))]
    return found


def print_event_cards(page, walk: Walk, tables: int) -> list[str]:
    """Dashboard -> Table cards for the whole event -> Download PDF, before round 1 exists."""
    page.get_by_role("link", name="Table cards for the whole event").click()
    walk.shot(page, f"laptop-event-cards-{slug_of(page)}")
    page.get_by_label("Tables", exact=True).fill(str(tables))
    started = time.monotonic()
    with page.expect_download(timeout=120_000) as download:
        page.get_by_role("button", name="Download PDF", exact=True).click()
    pdf = Path(download.value.path()).read_bytes()
    walk.note(
        f"event cards PDF ({tables} tables): {time.monotonic() - started:.1f} s, "
        f"{len(pdf) // 1024} KiB"
    )
    codes = sorted(qr_codes_in(pdf), key=lambda code: int(re.search(r"/card/(\d+)/", code)[1]))
    walk.check(len(codes) == tables, f"{len(codes)} QR codes read from {tables} cards")
    walk.check(
        all(code.startswith(f"{walk.site}/table/card/") for code in codes),
        f"cards' codes do not open the LAN address: {codes}",
    )
    page.go_back()
    page.go_back()
    return codes


def pair_and_publish(page, walk: Walk, number: int) -> float:
    """Pair round `number`, publish it; returns the time it was published (time.time())."""
    page.goto(f"{walk.site}/director/{slug_of(page)}/")
    submit(page, f"Pair round {number}")
    button = page.get_by_role("button", name=f"Publish round {number}", exact=True)
    if not button.count():
        walk.shot(page, f"laptop-no-publish-{slug_of(page)}", full=True)
        raise RuntimeError(f"no Publish round {number}:\n{page.inner_text('main')[:1500]}")
    with page.expect_navigation():
        published = time.time()
        page.get_by_role("button", name=f"Publish round {number}", exact=True).click()
    return published


# ---- the phones ----------------------------------------------------------------------------------


class Phone:
    """A phone: its own browser context (cookies, storage), 390 x 844, a language."""

    def __init__(
        self, browser, walk: Walk, card: str, *, language: str = "en", name: str, game: str = ""
    ):
        self.walk, self.name, self.language = walk, name, language
        self.context = browser.new_context(
            viewport=PHONE,
            locale="ja-JP" if language == "ja" else "en-US",
            has_touch=True,
            is_mobile=True,
        )
        if language == "ja":
            self.context.add_cookies([{"name": "django_language", "value": "ja", "url": walk.site}])
        self.page = self.context.new_page()
        self.page.goto(card)
        self.page.wait_for_selector("#card-match")
        self.frame.locator("#scoring[data-ready=true]").wait_for()
        walk.ready.setdefault(game or name, []).append(self.page.evaluate(READY) / 1000)

    @property
    def frame(self):
        return self.page.frame_locator("#card-match")

    def inner(self):
        return self.page.locator("#card-match").element_handle().content_frame()

    def start_counting(self) -> None:
        self.page.evaluate(COUNTER)
        self.inner().evaluate("window.scrollTo(0, 0)")
        self.inner().evaluate(COUNTER)

    def counts(self) -> dict:
        outer, inner = self.page.evaluate("window.__walk"), self.inner().evaluate("window.__walk")
        return {key: outer[key] + inner[key] for key in ("taps", "typed", "scrolls", "small")}

    def seats(self) -> dict[str, str]:
        return self.inner().evaluate(SEATS)

    def tap(self, *names: str) -> None:
        keys = self.frame.locator("#pad-keys")
        for name in names:
            if name.startswith("="):  # by the key's value, whatever the page's language
                keys.locator(f"button[data-value='{name[1:]}']").click()
            elif name.startswith("^"):
                keys.get_by_role("button", name=re.compile(name)).first.click()
            else:
                keys.get_by_role("button", name=name, exact=True).click()

    def pin(self, scope: str, pin: str) -> None:
        keypad = self.frame.locator(f"{scope} [data-keypad]")
        for digit in pin:
            keypad.locator(f"[data-key='{digit}']").click()

    def shot(self, name: str) -> None:
        self.walk.shot(self.page, name)

    def close(self) -> None:
        self.context.close()


def enter_hand(
    walk: Walk,
    game: str,
    what: str,
    phone: Phone,
    number: int,
    answers: tuple[str, ...],
    *,
    pin: str | None,
    watchers: list[Phone],
    projector,
    shot: str | None = None,
) -> Hand:
    """Enter hand `number` on the pad (the last answer sends; the entering side's PIN the first
    time in a match) and measure it."""
    phone.frame.locator(f"tr.hand[data-hand='{number - 1}']").wait_for(
        state="attached"
    ) if number > 1 else None
    phone.start_counting()
    begun = time.monotonic()
    phone.tap(*answers[:-1])
    if shot:
        phone.shot(shot)
    projector.evaluate(UPDATED)
    last_name = answers[-1]
    if pin is not None:
        phone.tap(last_name)
        phone.frame.locator("#credential [data-keypad]").wait_for()
        if shot:
            phone.shot(f"{shot}-pin")
        phone.pin("#credential", pin[:-1])
        sent = time.time()
        phone.pin("#credential", pin[-1])
    else:
        sent = time.time()
        phone.tap(last_name)
    phone.frame.locator(f"tr.hand[data-hand='{number}']").wait_for()
    seconds = time.monotonic() - begun
    seen = phone.counts()
    other = None
    for watcher in watchers:
        watcher.frame.locator(f"tr.hand[data-hand='{number}']").wait_for(timeout=15_000)
        other = time.time() - sent
    projector.wait_for_function("window.__updated !== null", timeout=15_000)
    on_projector = projector.evaluate("window.__updated") / 1000 - sent
    hand = Hand(
        game,
        what,
        seen["taps"],
        seen["typed"],
        seen["scrolls"],
        seen["small"],
        seconds,
        other,
        on_projector,
    )
    walk.hands.append(hand)
    log(f"{game}: {what}: {hand}")
    return hand


def confirm_hand(
    walk: Walk,
    game: str,
    phone: Phone,
    number: int,
    pin: str,
    *,
    watchers: list[Phone],
    projector,
    shot: str | None = None,
) -> Hand:
    phone.start_counting()
    begun = time.monotonic()
    decision = phone.frame.locator(f"form.decide[data-number='{number}']")
    decision.locator("button[data-action=confirm]").click()
    if shot:
        phone.shot(shot)
    phone.pin(f"form.decide[data-number='{number}']", pin[:-1])
    projector.evaluate(UPDATED)
    sent = time.time()
    phone.pin(f"form.decide[data-number='{number}']", pin[-1])
    phone.frame.locator(f"tr.hand[data-hand='{number}'][data-status='confirmed']").wait_for()
    seconds = time.monotonic() - begun
    seen = phone.counts()
    other = None
    for watcher in watchers:
        watcher.frame.locator(f"tr.hand[data-hand='{number}'][data-status='confirmed']").wait_for(
            timeout=15_000
        )
        other = time.time() - sent
    projector.wait_for_function("window.__updated !== null", timeout=15_000)
    on_projector = projector.evaluate("window.__updated") / 1000 - sent
    hand = Hand(
        game,
        "confirmation (PIN)",
        seen["taps"],
        seen["typed"],
        seen["scrolls"],
        seen["small"],
        seconds,
        other,
        on_projector,
    )
    walk.hands.append(hand)
    log(f"{game}: confirm {number}: {hand}")
    return hand


# ---- the evening ---------------------------------------------------------------------------------

TEAMS = (
    ("Ken Sato", "Yui Mori", "Night Owls"),
    ("Ann Lee", "Bob Ray", "Big Bags"),
    ("Emi Abe", "Dan Cho", "Lucky Nils"),
    ("Mai Ito", "Tom Evans", "Moonshot"),
)
PLAYERS = (("Aiko",), ("Ben",), ("Chloe",), ("Dev",))

TYPICAL = ("3", "3", "3", "3", "3", "4", "3")  # four bids, N's, E's and S's tricks (W's derived)
NIL = ("=nil", "4", "3", "5", "0", "4", "4")  # the first bidder's nil


def api(site: str, path: str, token: str, body: dict, key: str = "") -> tuple[int, dict]:
    headers = {"Authorization": f"Table {token}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(
        f"{site}/api/v1{path}", data=json.dumps(body).encode(), method="POST", headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def match_id(phone: Phone) -> int:
    return int(
        phone.inner().evaluate(
            "JSON.parse(document.getElementById('scoring-config').textContent).match"
        )
    )


def partnership_spades(browser, director, walk: Walk, hands: int) -> None:
    game = "partnership Spades"
    create(
        director,
        walk,
        name="Church Hall Spades",
        game="spades",
        preset="standard",
        fmt="swiss",
        rounds=2,
        hands=hands,
    )
    walk.shot(director, "laptop-dashboard-new")
    pins = register(director, walk, list(TEAMS))
    cards = print_event_cards(director, walk, 2)
    slug = slug_of(director)
    pair_and_publish(director, walk, 1)
    walk.shot(director, "laptop-dashboard-round1")

    room = browser.new_context(viewport=PROJECTOR, locale="en-US")
    projector = room.new_page()
    projector.goto(f"{walk.site}/t/{slug}/projector/")
    projector.wait_for_selector("[data-live-mode]")

    ns = Phone(browser, walk, cards[0], name="table 1 N/S", language="en", game=game)
    ew = Phone(browser, walk, cards[0], name="table 1 E/W", language="ja", game=game)
    ns.shot("phone-en-round1-open")
    ew.shot("phone-ja-round1-open")
    seats = ns.seats()
    ns_pin, ew_pin = pins[seats["N"]], pins[seats["E"]]
    walk.note(f"table 1: N/S {seats['N']} (PIN {ns_pin}), E/W {seats['E']} (PIN {ew_pin})")
    token = cards[0].split("#token=")[1]

    # hand 1: typical, the PIN once a match; E/W confirms on its phone in Japanese
    enter_hand(
        walk,
        game,
        "hand 1 (typical, + the PIN once a match)",
        ns,
        1,
        TYPICAL,
        pin=ns_pin,
        watchers=[ew],
        projector=projector,
        shot="phone-en-spades-hand1",
    )
    ew.shot("phone-ja-awaiting")
    confirm_hand(
        walk, game, ew, 1, ew_pin, watchers=[ns], projector=projector, shot="phone-ja-confirm"
    )

    match = match_id(ns)
    # hand 2: the nil hand
    enter_hand(
        walk,
        game,
        "hand 2 (a nil)",
        ns,
        2,
        NIL,
        pin=None,
        watchers=[ew],
        projector=projector,
        shot="phone-en-spades-nil",
    )
    # the side-swap attack on the page: N/S confirms its own hand 2 with its own PIN
    decision = ns.frame.locator("form.decide[data-number='2']")
    decision.locator("button[data-action=confirm]").click()
    ns.pin("form.decide[data-number='2']", ns_pin)
    ns.page.wait_for_timeout(1500)
    ns.shot("phone-en-own-side-refused")
    refusal = re.sub(r"\s+", " ", decision.inner_text())
    walk.note(
        "page: N/S confirms its own hand 2 with its PIN -> "
        f"{refusal[refusal.find('Hand 2 could') :][:150]!r}"
    )
    walk.check(
        ns.frame.locator("tr.hand[data-hand='2'][data-status='confirmed']").count() == 0,
        "N/S confirmed its own hand on the page",
    )
    # ... and through the API, saying it is E/W
    status, body = api(
        walk.site,
        f"/matches/{match}/hands/2/confirm",
        token,
        {"pin": ns_pin, "side": "EW", "version": 1},
    )
    walk.note(f"API: confirm hand 2 with N/S's PIN, side EW -> {status} {body.get('code')}")
    walk.check(status == 403, f"API: N/S's own hand 2 with N/S's PIN: {status} {body}")
    confirm_hand(walk, game, ew, 2, ew_pin, watchers=[ns], projector=projector)

    # the API: hand 3 "for E/W" with N/S's PIN is N/S's, and N/S cannot confirm it
    record = {
        "dealer": "S",
        "calls": [{"seat": seat, "call": "3"} for seat in "WNES"],
        "tricks": {"N": 3, "E": 4, "S": 3, "W": 3},
    }
    status, body = api(
        walk.site,
        f"/matches/{match}/hands",
        token,
        {"number": 3, "side": "EW", "pin": ns_pin, "record": record},
        key="walk-side-swap-3",
    )
    walk.note(
        f"API: enter hand 3 with side EW and N/S's PIN -> {status} {body.get('code')} "
        f"submitted_side={body.get('submitted_side')}"
    )
    walk.check(
        status >= 400 or body.get("submitted_side") == "NS",
        f"API: a hand 'for E/W' with N/S's PIN: {status} {body}",
    )
    if status >= 400:  # refused: N/S enters it as itself (the side its PIN says)
        status, body = api(
            walk.site,
            f"/matches/{match}/hands",
            token,
            {"number": 3, "pin": ns_pin, "record": record},
            key="walk-hand-3",
        )
        walk.note(
            f"API: enter hand 3 with N/S's PIN, no side -> {status} "
            f"submitted_side={body.get('submitted_side')}"
        )
    status, body = api(
        walk.site,
        f"/matches/{match}/hands/3/confirm",
        token,
        {"pin": ns_pin, "side": "EW", "version": 1},
    )
    walk.note(f"API: confirm that hand 3 with N/S's PIN, side EW -> {status} {body.get('code')}")
    walk.check(status == 403, f"API: N/S confirmed its own hand 3: {status} {body}")

    # E/W (the phone in Japanese) types a wrong PIN five times confirming hand 3
    ew.frame.locator("form.decide[data-number='3']").wait_for(timeout=15_000)
    wrong = "0000" if ew_pin != "0000" else "1111"
    decision = ew.frame.locator("form.decide[data-number='3']")
    decision.locator("button[data-action=confirm]").click()
    for attempt in range(1, 6):
        ew.pin("form.decide[data-number='3']", wrong)
        ew.page.wait_for_timeout(1200)
        said = re.sub(r"\s+", " ", decision.inner_text())
        said = said[said.find("0 ") + 2 :]
        ew.shot(f"phone-ja-wrong-pin-{attempt}")
        walk.note(f"wrong PIN {attempt}: the phone says {said!r}")
        wait = re.search(r"(\d+)\s*(?:s\b|秒)", said)
        if wait:
            ew.page.wait_for_timeout(int(wait.group(1)) * 1000 + 500)
    director.goto(f"{walk.site}/director/{slug}/")
    walk.shot(director, "laptop-dashboard-wrong-pins")
    walk.shot(director, "laptop-dashboard-wrong-pins-full", full=True)
    flag = director.locator(".pins-flag")
    walk.check(flag.count() > 0, "the dashboard does not flag the table after five wrong PINs")
    panel = director.locator(".table-progress").first.inner_text()
    walk.check(
        "PIN" in panel,
        "the room panel's 'Needs' (tables, slowest first) says nothing of "
        "five wrong PINs at table 1",
    )
    # the right PIN of the right side, as soon as the phone says it may
    started = time.monotonic()
    for _ in range(4):
        ew.pin("form.decide[data-number='3']", ew_pin)
        try:
            ew.frame.locator("tr.hand[data-hand='3'][data-status='confirmed']").wait_for(
                timeout=3000
            )
            break
        except Exception:  # noqa: BLE001 - told to wait: wait as the phone says, then again
            said = re.sub(r"\s+", " ", decision.inner_text())
            walk.note(f"the right PIN refused: {said[said.find('0 ') + 2 :]!r}")
            wait = re.search(r"(\d+)\s*(?:s\b|秒)", said)
            ew.page.wait_for_timeout((int(wait.group(1)) if wait else 2) * 1000 + 500)
    confirmed = ew.frame.locator("tr.hand[data-hand='3'][data-status='confirmed']").count() > 0
    walk.check(confirmed, "the right PIN did not confirm hand 3 after five wrong ones")
    walk.note(
        f"the right PIN after five wrong ones: confirmed={confirmed} "
        f"{time.monotonic() - started:.1f} s after the fifth wrong PIN's wait"
    )
    ew.shot("phone-ja-after-wrong-pins")
    # the director clears the wrong PINs: the flag leads to the table's page
    if flag.count():
        flag.first.click()
        director.wait_for_load_state()
        walk.shot(director, "laptop-match-wrong-pins")
        with director.expect_navigation():
            director.get_by_role("button", name="Clear the wrong PINs").click()
        walk.shot(director, "laptop-match-cleared")
        walk.note("director: the flag -> the table's page -> Clear the wrong PINs")

    # table 2: one phone passed across the table (English)
    table2 = Phone(browser, walk, cards[1], name="table 2", language="en", game=game)
    seats2 = table2.seats()
    pins2 = (pins[seats2["N"]], pins[seats2["E"]])
    for number in range(1, hands + 1):
        answers = NIL if number == 2 else TYPICAL
        enter_hand(
            walk,
            game,
            f"hand {number} (table 2, one phone{', a nil' if number == 2 else ''}"
            f"{', + the PIN' if number == 1 else ''})",
            table2,
            number,
            answers,
            pin=pins2[0] if number == 1 else None,
            watchers=[],
            projector=projector,
        )
        confirm_hand(walk, game, table2, number, pins2[1], watchers=[], projector=projector)
    table2.shot("phone-en-table2-done")
    walk.shot(projector, "projector-round1")

    # round 2: the same phones move to the new match by themselves
    before = {phone.name: match_id(phone) for phone in (ns, ew, table2)}  # round 1's matches
    director.goto(f"{walk.site}/director/{slug}/")
    walk.shot(director, "laptop-dashboard-round1-played", full=True)
    submit(director, "Close round 1")
    walk.shot(director, "laptop-close-round1")
    submit(director, "Yes, close round 1")
    published = pair_and_publish(director, walk, 2)
    for phone in (ns, ew, table2):
        phone.page.wait_for_function(
            """old => {
              const inner = document.querySelector('#card-match')?.contentDocument;
              const config = inner?.getElementById('scoring-config');
              return config && JSON.parse(config.textContent).match !== old
                && inner.querySelector('#scoring[data-ready=true]');
            }""",
            arg=before[phone.name],
            timeout=30_000,
        )
        walk.note(
            f"{phone.name}: on round 2 by itself {time.time() - published:.1f} s after Publish"
        )
    ns.shot("phone-en-round2")
    ew.shot("phone-ja-round2")
    seats = ns.seats()
    first, second = pins[seats["E"]], pins[seats["N"]]
    for number in range(1, hands + 1):
        answers = NIL if number == 2 else TYPICAL
        kind = "a nil" if number == 2 else "typical"
        enter_hand(
            walk,
            game,
            f"round 2 hand {number} ({kind}, Japanese phone"
            + (", + the PIN once a match)" if number == 1 else ")"),
            ew,
            number,
            answers,
            pin=first if number == 1 else None,
            watchers=[ns],
            projector=projector,
            shot="phone-ja-round2-hand" if number == 1 else None,
        )
        confirm_hand(walk, game, ns, number, second, watchers=[ew], projector=projector)
    walk.shot(projector, "projector-round2")
    ew.shot("phone-ja-round2-done")
    for phone in (ns, ew, table2):
        phone.close()
    room.close()


def individual(
    browser,
    director,
    walk: Walk,
    *,
    game: str,
    name: str,
    engine: str,
    preset: str,
    fmt: str,
    players: int,
    entries: list[tuple[str, ...]],
    answers: list[tuple[str, ...]],
    enter: str,
    confirm: str,
    language: str = "en",
) -> None:
    """An event of `game`: cards printed before round 1, one phone a table (passed round), the
    hands in `answers` entered with the PIN of the entry at seat `enter`, confirmed by the one
    at seat `confirm`."""
    create(
        director,
        walk,
        name=name,
        game=engine,
        preset=preset,
        fmt=fmt,
        rounds=1,
        hands=len(answers),
        players=players,
    )
    pins = register(director, walk, entries)
    cards = print_event_cards(director, walk, 1)
    slug = slug_of(director)
    pair_and_publish(director, walk, 1)
    room = browser.new_context(viewport=PROJECTOR, locale="en-US")
    projector = room.new_page()
    projector.goto(f"{walk.site}/t/{slug}/projector/")
    projector.wait_for_selector("[data-live-mode]")
    phone = Phone(browser, walk, cards[0], name=game, language=language, game=game)
    tag = re.sub(r"\W+", "-", game.lower()).strip("-")
    phone.shot(f"phone-{language}-{tag}-open")
    seats = phone.seats()
    entering, confirming = pins[seats[enter]], pins[seats[confirm]]
    for number, hand in enumerate(answers, start=1):
        enter_hand(
            walk,
            game,
            f"hand {number}" + (" (+ the PIN once a match)" if number == 1 else ""),
            phone,
            number,
            hand,
            pin=entering if number == 1 else None,
            watchers=[],
            projector=projector,
            shot=f"phone-{language}-{tag}-hand" if number == 1 else None,
        )
        confirm_hand(walk, game, phone, number, confirming, watchers=[], projector=projector)
    phone.shot(f"phone-{language}-{tag}-done")
    walk.shot(projector, f"projector-{tag}")
    phone.close()
    room.close()


def median(values: list[float]) -> str:
    values = [value for value in values if value is not None]
    return f"{statistics.median(values):.2f}" if values else "–"


def kind_of(hand: Hand) -> str:
    if hand.what.startswith("confirmation"):
        return "the other side confirms (PIN)"
    kind = "a hand with a nil" if "nil" in hand.what else "a typical hand"
    if hand.game.startswith("duplicate"):
        kind = "a board"
    if "PIN" in hand.what:
        kind += " + the entering side's PIN (once a " + ("round)" if "board" in kind else "match)")
    return kind


def summary(walk: Walk) -> str:
    """Per game and kind of hand: medians of taps and seconds, the most typed and scrolled."""
    lines = [
        "| game | hand | n | taps (median) | typed (max) | scrolls (max) | "
        "send → other phone (s, median) | send → projector (s, median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[Hand]] = {}
    for hand in walk.hands:
        groups.setdefault((hand.game, kind_of(hand)), []).append(hand)
    for (game, kind), hands in groups.items():
        taps = statistics.median(hand.taps for hand in hands)
        small = sorted({label for hand in hands for label in hand.small})
        lines.append(
            f"| {game} | {kind} | {len(hands)} | {taps:g} | {max(h.typed for h in hands)} | "
            f"{max(h.scrolls for h in hands)} | {median([h.other for h in hands])} | "
            f"{median([h.projector for h in hands])} |"
            + (f" small targets: {small}" if small else "")
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--shots", type=Path, default=ROOT / "test-artifacts" / "evening-walk")
    parser.add_argument("--site", help="an evening server already running (with --director)")
    parser.add_argument("--director", help="username:password for --site")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated: spades (the partnership evening), others (every other game), or "
        "an engine's name (solo-whist, whist, german-whist)",
    )
    args = parser.parse_args()
    # Ctrl+C or a kill: the server, the namespace and the veth pair are removed on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    from contextlib import ExitStack

    from playwright.sync_api import sync_playwright

    from bench.evening_lan import lan, make_serve

    with ExitStack() as stack:
        if args.site:
            site, (username, password) = args.site.rstrip("/"), args.director.split(":", 1)
            server = None
        else:
            network = stack.enter_context(lan("e"))
            log(f"the laptop on the test LAN at {network.address}; make serve PORT={args.port}")
            server = stack.enter_context(make_serve(network, args.port))
            site, (username, password) = server.public_url, server.credentials
        walk = Walk(site=site, shots=args.shots)
        parts = set(filter(None, args.only.split(","))) or {"spades", "others", "duplicate"}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            try:
                context, director = sign_in(browser, site, username, password)
                if "spades" in parts:
                    partnership_spades(browser, director, walk, args.hands)
                others(browser, director, walk, parts)
                if "duplicate" in parts:
                    try:
                        duplicate(browser, director, walk)
                    except Exception as error:  # noqa: BLE001 - a finding
                        walk.shot(director, "laptop-failed-duplicate", full=True)
                        walk.check(False, f"duplicate: {type(error).__name__}: {str(error)[:600]}")
                context.close()
            finally:
                browser.close()
        if server is not None:
            terminal = [
                line
                for line in server.output[server.output.index("  Stop with Ctrl+C.") :]
                if line.strip()
            ]
            walk.check(
                terminal[1:] == [],
                "the evening server's terminal printed:\n" + "\n".join(terminal[1:40]),
            )
    print(summary(walk))
    print("\nready to take a hand, from opening the card's code (seconds, each phone a cold open):")
    every: list[float] = []
    for what, values in walk.ready.items():
        print(
            f"- {what}: median {statistics.median(values):.2f}, worst {max(values):.2f} "
            f"over {len(values)}"
        )
        if "duplicate" not in what:
            every += values
    if every:
        report.figure(
            bar="Evening walk: scoring page ready from opening the card (LAN, cold, median)",
            value=statistics.median(every),
            unit="s",
            target="<= 1 s",
            ok=statistics.median(every) <= 1.0,
        )
    live = [h.other for h in walk.hands if h.other is not None]
    live += [h.projector for h in walk.hands if h.projector is not None]
    if live:
        report.figure(
            bar="Evening walk: a sent hand on the other phone and the projector (worst)",
            value=max(live),
            unit="s",
            target="<= 2 s",
            ok=max(live) <= 2.0,
        )
    print("\nnotes:\n" + "\n".join(f"- {note}" for note in walk.notes))
    print("\nfindings:\n" + ("\n".join(f"- {f}" for f in walk.findings) or "- none"))
    print(f"\nscreenshots: {walk.shots}")


def others(browser, director, walk: Walk, parts: set[str]) -> None:
    for game in OTHERS:
        if "others" not in parts and game["engine"] not in parts:
            continue
        try:
            individual(browser, director, walk, **game)
        except Exception as error:  # noqa: BLE001 - a finding: the walk goes on with the next game
            walk.shot(
                director,
                f"laptop-failed-{re.sub(r'[^a-z]+', '-', game['game'].lower())}",
                full=True,
            )
            walk.check(False, f"{game['game']}: {type(error).__name__}: {str(error)[:600]}")


PAIRS = (
    ("Ken Sato", "Yui Mori", "Owls"),
    ("Ann Lee", "Bob Ray", "Bags"),
    ("Emi Abe", "Dan Cho", "Nils"),
    ("Mai Ito", "Tom Evans", "Moons"),
)


def duplicate(browser, director, walk: Walk) -> None:
    """A duplicate evening: the event made on its own page, four pairs, the guide cards printed
    before round 1 (one code a table for the evening), boards on the duplicate phone."""
    game = "duplicate Spades"
    director.goto(f"{walk.site}/director/")
    director.get_by_role("link", name=re.compile("New duplicate event")).click()
    walk.shot(director, "laptop-duplicate-new", full=True)
    director.get_by_label("Name", exact=True).fill("Duplicate Tuesday")
    movement = director.get_by_label("Movement", exact=True)
    howell = [o for o in movement.locator("option").all_inner_texts() if "Howell" in o]
    movement.select_option(label=howell[0])
    director.get_by_label("Tables", exact=True).fill("2")
    director.get_by_label("Boards per round", exact=True).fill("2")
    submit(director, "Create the duplicate event")
    walk.shot(director, "laptop-duplicate-created", full=True)
    base = director.url
    for first, second, name in PAIRS:
        director.get_by_label("Player", exact=True).fill(first)
        director.get_by_label("Partner", exact=True).fill(second)
        director.get_by_label("Pair name (optional)").fill(name)
        submit(director, "Add the pair")
    submit(director, "Number the pairs and fix the movement")
    walk.shot(director, "laptop-duplicate-pairs", full=True)
    guide = director.get_by_role("link", name="Guide cards", exact=True).get_attribute("href")
    slug = re.search(r"/director/([^/]+)/duplicate/", guide)[1]
    director.goto(f"{walk.site}/director/{slug}/entries/")
    walk.shot(director, "laptop-duplicate-entries")
    pins = director.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#entries-table tbody tr')].map(
            row => [row.querySelector('th').childNodes[0].textContent.trim(),
                    row.querySelector('td.pin code').textContent.trim()]))"""
    )
    walk.note(f"duplicate pairs' PINs from the entries page: {sorted(pins)}")
    # the guide cards, once, before round 1
    director.goto(base)
    director.goto(f"{walk.site}{guide}")
    walk.shot(director, "laptop-duplicate-guide")
    with director.expect_download(timeout=120_000) as download:
        director.get_by_role("button", name=re.compile("Download the PDF with each table")).click()
    codes = [
        code for code in qr_codes_in(Path(download.value.path()).read_bytes()) if "/table/" in code
    ]
    walk.note(f"duplicate guide cards' codes: {codes}")
    walk.check(
        bool(codes) and all(code.startswith(walk.site) for code in codes),
        f"guide cards' codes do not open the LAN address: {codes}",
    )
    director.goto(base)
    submit(director, "Start round 1")
    walk.shot(director, "laptop-duplicate-round1", full=True)
    room = browser.new_context(viewport=PROJECTOR, locale="en-US")
    projector = room.new_page()
    projector.goto(f"{walk.site}/t/{slug}/projector/")
    code = sorted(codes)[0]
    phones = []
    for language in ("en", "ja"):
        context = browser.new_context(
            viewport=PHONE,
            locale="ja-JP" if language == "ja" else "en-US",
            has_touch=True,
            is_mobile=True,
        )
        if language == "ja":
            context.add_cookies([{"name": "django_language", "value": "ja", "url": walk.site}])
        page = context.new_page()
        opened = time.time()
        page.goto(code)
        page.wait_for_load_state()
        if page.locator("#card-match").count():  # the card's page frames the table's page
            page.frame_locator("#card-match").locator("#table-panel[data-ready=true]").wait_for()
        else:
            page.locator("#table-panel[data-ready=true]").wait_for()
        walk.ready.setdefault(f"{game} (page load to its panel ready)", []).append(
            time.time() - opened
        )
        walk.shot(page, f"phone-{language}-duplicate-open")
        phones.append((context, page))

    def doc(page):
        if page.locator("#card-match").count():
            return page.locator("#card-match").element_handle().content_frame()
        return page

    ns_page, ew_page = doc(phones[0][1]), doc(phones[1][1])
    text = ns_page.locator("#table-panel").inner_text()
    ns_pair = re.search(r"NS\s+\d+\s+(.+)", text)[1].strip()
    ew_pair = re.search(r"EW\s+\d+\s+(.+)", text)[1].strip()
    ns_pin = next(pin for name, pin in pins.items() if ns_pair.startswith(name) or name in ns_pair)
    ew_pin = next(pin for name, pin in pins.items() if ew_pair.startswith(name) or name in ew_pair)
    walk.note(f"duplicate table 1: NS {ns_pair} ({ns_pin}), EW {ew_pair} ({ew_pin})")

    def counts(page) -> dict:
        return page.evaluate("window.__walk")

    for board in range(2):
        page = ns_page
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate(COUNTER)
        keys = page.locator("form[data-pad-game] [data-pad-keys]")
        for value in TYPICAL[:-1]:
            keys.get_by_role("button", name=value, exact=True).click()
        if board == 0:
            walk.shot(phones[0][1], "phone-en-duplicate-pad")
        sent = time.time()
        keys.get_by_role("button", name=TYPICAL[-1], exact=True).click()
        if board == 0:
            sheet = page.locator("form[data-pad-game] [data-pin-sheet]")
            sheet.wait_for()
            walk.shot(phones[0][1], "phone-en-duplicate-pin")
            pad = page.locator("form[data-pad-game] .keypad")
            for digit in ns_pin[:-1]:
                pad.locator(f".key[data-key='{digit}']").click()
            sent = time.time()
            pad.locator(f".key[data-key='{ns_pin[-1]}']").click()
        page.locator(".dup-decide").first.wait_for()
        seen = counts(page)
        ew_page.locator(".dup-decide").first.wait_for(timeout=15_000)
        other = time.time() - sent
        hand = Hand(
            game,
            f"board {board + 1}" + (" (+ the PIN once a round)" if board == 0 else ""),
            seen["taps"],
            seen["typed"],
            seen["scrolls"],
            seen["small"],
            0.0,
            other,
            None,
        )
        walk.hands.append(hand)
        log(f"{game}: {hand}")
        # the side-swap on the duplicate phone: NS confirms its own board with its own PIN
        if board == 0:
            ns_page.locator(".dup-decide button[value=confirm]").first.click()
            pad = ns_page.locator(".dup-decide .keypad").first
            for digit in ns_pin:
                pad.locator(f".key[data-key='{digit}']").click()
            ns_page.wait_for_timeout(1500)
            walk.shot(phones[0][1], "phone-en-duplicate-own-side")
            still = ns_page.locator(".dup-decide").count() > 0
            walk.note(
                "duplicate phone: NS confirms its own board with its PIN -> "
                + ("refused" if still else "ACCEPTED")
            )
            walk.check(still, "the duplicate phone let NS confirm its own board")
            phones[0][1].reload()
            phones[0][1].wait_for_load_state()
            ns_page = doc(phones[0][1])
            ns_page.locator("#table-panel[data-ready=true]").wait_for()
        # EW confirms on its phone (Japanese)
        ew_page.evaluate("window.scrollTo(0, 0)")
        ew_page.evaluate(COUNTER)
        ew_page.locator(".dup-decide button[value=confirm]").first.click()
        if board == 0:
            walk.shot(phones[1][1], "phone-ja-duplicate-confirm")
        pad = ew_page.locator(".dup-decide .keypad").first
        for digit in ew_pin[:-1]:
            pad.locator(f".key[data-key='{digit}']").click()
        sent = time.time()
        pad.locator(f".key[data-key='{ew_pin[-1]}']").click()
        ew_page.locator(".dup-decide").wait_for(state="detached", timeout=15_000)
        seen = counts(ew_page)
        ns_page.locator(".dup-decide").wait_for(state="detached", timeout=15_000)
        other = time.time() - sent
        hand = Hand(
            game,
            "confirmation (PIN)",
            seen["taps"],
            seen["typed"],
            seen["scrolls"],
            seen["small"],
            0.0,
            other,
            None,
        )
        walk.hands.append(hand)
        log(f"{game}: {hand}")
    walk.shot(phones[0][1], "phone-en-duplicate-after")
    walk.shot(phones[1][1], "phone-ja-duplicate-after")
    walk.shot(projector, "projector-duplicate")
    for context, _ in phones:
        context.close()
    room.close()


OTHERS: list[dict] = [
    dict(
        game="cutthroat Spades",
        name="Cutthroat night",
        engine="spades",
        preset="network-spades",
        fmt="individual",
        players=4,
        entries=list(PLAYERS),
        answers=[("3", "4", "2", "3", "3", "4", "2")] * 3,
        enter="N",
        confirm="E",
    ),
    dict(
        game="Solo Whist",
        name="Solo drive",
        engine="solo-whist",
        preset="phillips",
        fmt="individual",
        players=4,
        entries=list(PLAYERS),
        answers=[("Solo", "^E ", "7", "♣ Clubs", "5")] * 3,
        enter="N",
        confirm="S",
    ),
    dict(
        game="English Whist",
        name="Whist drive",
        engine="whist",
        preset="short-whist",
        fmt="swiss",
        players=4,
        entries=list(TEAMS[:2]),
        answers=[("♠ Spades", "8", "N/S held three")] * 3,
        enter="N",
        confirm="E",
    ),
    dict(
        game="German Whist",
        name="German Whist pairs",
        engine="german-whist",
        preset="standard",
        fmt="swiss",
        players=2,
        entries=list(PLAYERS[:2]),
        answers=[("8",)] * 3,
        enter="N",
        confirm="S",
        language="ja",
    ),
]


if __name__ == "__main__":
    main()
