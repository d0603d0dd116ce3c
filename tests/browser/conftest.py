"""Fixtures for browser stories with more than one person: more browser contexts in the `page`
fixture's Chromium (another phone, a spectator's laptop), each with its own cookies and storage,
and live updates kept in this process (no Redis) so the live server's thread hears them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.conftest import patient

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def another_page(page) -> Iterator[Callable[..., object]]:
    """another_page(viewport=..., locale=...) opens a page in a new, anonymous browser context
    of the same Chromium: a second person, who shares nothing with `page` (no session, no
    localStorage). Contexts are closed before the browser is."""
    opened = []

    def open_page(*, viewport: dict[str, int] | None = None, locale: str = "en-US"):
        context = patient(
            page.context.browser.new_context(locale=locale, viewport=viewport or PHONE)
        )
        opened.append(context)
        return context.new_page()

    yield open_page
    for context in opened:
        context.close()


@pytest.fixture
def live_in_process(settings) -> Iterator[None]:
    """No Redis: standings are recomputed in-process and the announced events stay in this
    process's log, which the live server's thread streams to the browsers."""
    from tournaments.live import event_log

    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()
