"""Every director page goes through the one director guard (`tournaments.views.access
.director_page`): a page added under `director/` (or a season's `manage/`, or the archive)
without it fails here, and no page module writes a guard of its own."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, path

from tournaments.views.access import GUARDED, director_page

ROOT = Path(__file__).resolve().parents[2]

#: The director's pages that are not under `director/` (the installation's administrators' are
#: under `clubs/`).
ELSEWHERE = {
    "season-manage",
    "season-add",
    "season-remove",
    "export-archive",
    "clubs-import",
    "club-remove",
    "club-archive-kept",
    "clubs-manage",
    "clubs-manage-club",
    "clubs-manage-action",
}


def routes(patterns: Iterable[Any], prefix: str = "") -> Iterator[tuple[str, str, Callable]]:
    """(route, name, view) of every page of a URLconf, included ones too."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name or "", pattern.callback


def guarded(view: Callable) -> bool:
    """Is the guard anywhere in the view's chain of decorators (each `functools.wraps` its
    view)? A decorator put outside the guard (`require_POST`) keeps it in the chain."""
    found: Any = view
    while found is not None:
        if found in GUARDED:
            return True
        found = getattr(found, "__wrapped__", None)
    return False


def director_routes(patterns: Iterable[Any]) -> Iterator[tuple[str, str, Callable]]:
    """The director's pages (the API's views have the API's permission classes)."""
    for route, name, view in routes(patterns):
        if route.startswith("api/"):
            continue
        if route.startswith("director/") or name in ELSEWHERE:
            yield route, name, view


def unguarded(patterns: Iterable[Any]) -> list[str]:
    return [route for route, _name, view in director_routes(patterns) if not guarded(view)]


def test_every_director_page_goes_through_the_guard() -> None:
    pages = list(director_routes(get_resolver().url_patterns))
    assert len(pages) > 40  # the walk reaches the included URLconfs
    assert unguarded(get_resolver().url_patterns) == []


def test_the_guard_is_on_no_page_outside_the_directors_pages() -> None:
    """The list of pages outside `director/` stays true: a guarded page elsewhere is named."""
    elsewhere = [
        (route, name)
        for route, name, view in routes(get_resolver().url_patterns)
        if guarded(view) and not route.startswith("director/")
    ]
    assert {name for _route, name in elsewhere} == ELSEWHERE, elsewhere


def test_a_director_page_without_the_guard_is_found() -> None:
    def bare(request: Any, slug: str) -> Any:
        raise AssertionError("never called")

    @director_page
    def kept(request: Any, tournament: Any, actor: Any) -> Any:
        raise AssertionError("never called")

    patterns = [
        path("director/<slug:slug>/bare/", bare, name="bare"),
        path("director/<slug:slug>/kept/", kept, name="kept"),
        path("t/<slug:slug>/", bare, name="public"),
    ]
    assert unguarded(patterns) == ["director/<slug:slug>/bare/"]


def test_no_page_module_writes_a_guard_of_its_own() -> None:
    """`login_required`, `is_director(` or `directs_series(` deciding who sees a page belong in
    access.py; a page module asks `director_page` (the director's) or `viewer_directs` (the
    public's view of drafts)."""
    modules = [
        *ROOT.joinpath("tournaments", "views").glob("*.py"),
        *ROOT.joinpath("tournaments").glob("*/views.py"),
    ]
    own = re.compile(r"\blogin_required\b|\bis_director\(|\bPermissionDenied\(_\(\"Only")
    found = [
        f"{module.relative_to(ROOT)}:{number}"
        for module in modules
        if module.name != "access.py"
        for number, line in enumerate(module.read_text().splitlines(), 1)
        if own.search(line)
    ]
    assert len(modules) > 10
    assert found == []
