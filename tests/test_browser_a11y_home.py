"""The accessibility checker itself (axe-core, WCAG 2.1 AA): it passes the home page and
catches a bad one."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_meets_the_accessibility_basics(page, live_server, accessibility, screenshot):
    page.goto(live_server.url + "/")
    assert accessibility(page) == []
    assert screenshot(page, "home").stat().st_size > 0


def test_accessibility_check_catches_an_unlabelled_input_and_low_contrast(page, accessibility):
    page.set_content('<html lang="en"><body><h1>x</h1><input type="text">'
                     '<p style="color:#ccc;background:#fff">faint</p></body></html>')
    problems = accessibility(page)
    assert any(p.startswith("label:") for p in problems), problems
    assert any(p.startswith("color-contrast:") for p in problems), problems
