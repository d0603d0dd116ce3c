"""The accessibility checker itself (axe-core, WCAG 2.1 AA): it passes the home page and
catches a bad one."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_meets_the_accessibility_basics(page, live_server, accessibility, screenshot):
    page.goto(live_server.url + "/")
    assert accessibility(page) == []
    screenshot(page, "home")


def test_a_full_page_screenshot_is_a_png_of_the_whole_page(page, live_server, tmp_path):
    """What the screenshot fixture saves where screenshots are wanted (CI, make screenshots)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    path = tmp_path / "home.png"
    page.screenshot(path=str(path), full_page=True)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    height = int.from_bytes(data[20:24], "big")  # the IHDR chunk: width, then height
    assert height == page.evaluate("document.documentElement.scrollHeight")


def test_accessibility_check_catches_an_unlabelled_input_and_low_contrast(page, accessibility):
    page.set_content(
        '<html lang="en"><body><h1>x</h1><input type="text">'
        '<p style="color:#ccc;background:#fff">faint</p></body></html>'
    )
    problems = accessibility(page)
    assert any(p.startswith("label:") for p in problems), problems
    assert any(p.startswith("color-contrast:") for p in problems), problems
