"""A real browser (Debian's Chromium, driven by Playwright) switches the home page to Japanese."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def page(chromium_path, live_server, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; let Django's ORM run beside it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


def test_switch_home_page_to_japanese(page, live_server):
    page.goto(live_server.url + "/")
    assert page.title().startswith("TrickTable")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_text("German Whist", exact=True).is_visible()

    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()

    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.get_by_text("ジャーマン ホイスト", exact=True).is_visible()
    assert page.get_by_text("スペード", exact=True).is_visible()
