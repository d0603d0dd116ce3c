"""A director's evening on the evening server, in real Chromium on the club's network: signing in
over plain HTTP with the password the server printed, creating a tournament, pairing round 1 and
printing its table cards, whose QR codes a phone then opens at the laptop's LAN address."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import require

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TEAMS = (
    ("Night Owls", "Ken Sato", "Yui Mori"),
    ("Big Bags", "Ann Lee", "Bob Ray"),
    ("Lucky Nils", "Emi Abe", "Dan Cho"),
    ("Moonshot", "Mai Ito", "Tom Evans"),
)


def submit(page, button: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=button, exact=True).click()


def qr_codes_in(pdf: bytes, folder) -> list[str]:
    """Every QR code on every page of the PDF, as a phone's camera reads it."""
    require(shutil.which("pdftoppm") is not None, "needs pdftoppm (apt-get install poppler-utils)")
    import zxingcpp
    from PIL import Image

    source = folder / "cards.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "200", "-png", str(source), str(folder / "page")],
        check=True,
        timeout=120,
    )
    found = []
    for image in sorted(folder.glob("page*.png")):
        found += [code.text for code in zxingcpp.read_barcodes(Image.open(image))]
    return found


def test_a_director_signs_in_over_the_lan_and_prints_cards_phones_can_open(
    evening_server, browser, tmp_path
):
    from playwright.sync_api import expect

    site = evening_server.public_url
    username, password = evening_server.credentials
    context = browser.new_context(locale="en-US", viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()

    # Sign in over plain HTTP at the LAN address: the CSRF cookie and the session cookie stick.
    page.goto(f"{site}/director/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    submit(page, "Sign in")
    expect(page.get_by_role("heading", name="Director", exact=True)).to_be_visible()

    page.get_by_label("Name", exact=True).fill("Church Hall Spades")
    page.get_by_label("Format", exact=True).select_option("swiss")
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Match length", exact=True).select_option("hands")
    page.get_by_label("Hands per match").fill("1")
    submit(page, "Create tournament")
    expect(page.get_by_text("Tournament created.")).to_be_visible()
    submit(page, "Open registration")

    page.get_by_role("link", name="Manage entries").click()
    for team, first, second in TEAMS:
        page.get_by_label("Player", exact=True).fill(first)
        page.get_by_label("Partner", exact=True).fill(second)
        page.get_by_label("Team name").fill(team)
        submit(page, "Register the team")
        expect(page.get_by_text(f"{team} is entered.")).to_be_visible()
    for team, _, _ in TEAMS:  # the registration desk checks in without a page load
        page.get_by_role("button", name=f"Check in {team}", exact=True).click()
        expect(page.get_by_text(f"{team} is checked in.")).to_be_visible()
    page.get_by_role("link", name="Dashboard").click()
    submit(page, "Pair round 1")
    submit(page, "Publish round 1")
    expect(page.get_by_text("Round 1 is published")).to_be_visible()

    # The cards page says where the codes lead before anything is printed.
    page.get_by_role("link", name="Table cards for round 1").click()
    expect(page.locator(".phone-address")).to_contain_text(f"{site}/")
    expect(page.get_by_role("alert")).to_have_count(0)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download PDF (replaces these tables' cards)").click()
    codes = qr_codes_in(download.value.path().read_bytes(), tmp_path)
    assert len(codes) == 2  # one card per table
    assert all(code.startswith(f"{site}/table/card/") and "#token=" in code for code in codes)

    # A phone on the Wi-Fi opens table 1's code: its card page, with the teams at the table.
    phone = browser.new_context(locale="en-US", viewport=PHONE).new_page()
    phone.goto(codes[0])
    expect(phone.locator("main")).to_contain_text("Table 1")
    framed = phone.frame_locator("#card-match").locator("main")
    expect(framed).to_contain_text("At the table")
    seated = [team for team, _, _ in TEAMS if team in framed.inner_text()]
    assert len(seated) == 2
    context.close()
