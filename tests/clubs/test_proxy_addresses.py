"""The deployed proxy (deploy/nginx/tricktable-proxy.conf) treats a club's addresses as the
home club's: a club's live standings events (`/c/<club>/api/.../events`) are passed on as they
come, not buffered nor kept in the micro-cache."""

from __future__ import annotations

import re

from deploy.stack import DEPLOY

PROXY = DEPLOY / "nginx" / "tricktable-proxy.conf"


def streamed(path: str) -> bool:
    """Whether a `location ~` of the proxy that turns buffering off matches `path`."""
    text = PROXY.read_text()
    for pattern, block in re.findall(r"location ~ (\S+) \{(.*?)\}", text, re.S):
        if "proxy_buffering off" in block and re.search(pattern, path):
            return True
    return False


def test_the_live_events_of_every_clubs_address_are_streamed_through_the_proxy():
    assert streamed("/api/v1/tournaments/friday-spades/events")
    assert streamed("/c/north-spades/api/v1/tournaments/friday-spades/events")


def test_a_clubs_other_answers_are_not_streamed():
    assert not streamed("/c/north/api/v1/tournaments/friday-spades/standings")
    assert not streamed("/c/north/t/friday-spades/events/")
