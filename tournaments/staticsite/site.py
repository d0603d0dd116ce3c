"""A static website of an event, a season or the whole club (docs/publishing.md, "Static site").

The pages are the public pages themselves: each is asked of the site through Django's test
`Client` (the whole middleware chain, as a visitor who is not signed in, in English and then in
Japanese with Django's language cookie), never rendered by a copy of a view. The test `Client` is
a testing tool that reconnects Django's `close_old_connections` receiver on the process's shared
request signals around each request: so `build` runs only in a process of its own, the
`export_site` command (the director's zip runs that command as a child process,
tournaments/staticsite/download.py), never inside a server. Its requests are not counted by the
download throttle (`throttles.not_counted()`, a context variable around the crawl: nothing an
HTTP request can carry).

From the scope's first pages the crawl follows every link that the URL resolver places in the
public URL space (`Scope.kind_of`): the event's own pages and downloads are followed further; a
public page of no event (a player's page) is taken when an event page links to it, and its own
links only where they lead back into the scope. Directors' pages, the table phones' pages, the live
feeds and the projector, sign-in, the API and the admin are never asked for; a page the visitor is
refused (the directors' archive) is not written either. A draft round is not shown to a visitor, so
it is not in the site.

Each page is written as a file (`/t/spring-cup/standings/` -> `t/spring-cup/standings/index.html`,
downloads under their own names), English at the top and Japanese under `ja/`, with every link
made relative (tournaments/staticsite/html.py) so the folder works opened from disk and uploaded
under any path of any host. The static files the pages use (stylesheets, images, fonts, and what
the stylesheets name) are copied under `static/`. `index.html` (and `ja/index.html`) is the
scope's first page.
"""

from __future__ import annotations

import logging
import posixpath
import re
import shutil
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse, HttpResponseBase
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from tournaments.models import Club, Series, Tournament, home_club_pk
from tournaments.seasons import services as season_services
from tournaments.services import standings
from tournaments.web import throttles

from . import html

log = logging.getLogger(__name__)

Kind = Literal["follow", "leaf"]

#: The site's languages: English at the top of the folder, each other under its code.
LANGUAGES = ("en", "ja")
FIRST_LANGUAGE = "en"
#: Routes never asked for: the directors', the table phones', sign-in, the API, the admin.
PRIVATE_ROUTES = ("director/", "table/", "accounts/", "api/", "admin/", "i18n/")
#: Pages no visitor reads from a static copy: live feeds, the projector, the table's own pages,
#: and the directors' archive (403 for a visitor anyway).
PRIVATE_NAMES = {
    "export-archive",
    "duplicate-table",
    "duplicate-table-act",
    "check-hands",  # the hand-record checker: a tool that posts, not a result
}
LIVE_WORDS = ("projector", "fragment", "stream", "events", "manage")
#: Pages of the whole club: part of the club's site, not of one event's or season's.
CLUB_PAGES = {"home", "seasons", "public-leaderboard"}


class StaticSiteError(Exception):
    """What the site cannot be made of, in words for the director (code: stable)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Scope:
    """What one static site holds: its first page and the events and seasons it covers (all of
    them for the club's site)."""

    first: str
    tournaments: frozenset[str] = frozenset()
    seasons: frozenset[str] = frozenset()
    everything: bool = False
    #: The club's address the pages are asked at ("/c/<club>"; "" for the home club, whose
    #: pages are at the site's root): the crawl asks `prefix + url` and reads the links back
    #: without it, so the files are laid out as for the home club (docs/clubs.md).
    prefix: str = ""

    def kind_of(self, url: str) -> Kind | None:
        """ "follow" for a page of the scope (its links are followed), "leaf" for a public page of
        no event (taken when an event page links to it), None for anything else."""
        path, _, query = url.partition("?")
        if any(word in query for word in LIVE_WORDS):
            return None  # ?view=projector
        try:
            match = resolve(path)
        except Resolver404:
            return None
        if match.namespace != "tournaments" or not match.url_name:
            return None
        route = match.route.lstrip("^")
        if route.startswith(PRIVATE_ROUTES) or match.url_name in PRIVATE_NAMES:
            return None
        if any(word in match.url_name for word in LIVE_WORDS):
            return None
        slug = match.kwargs.get("slug")
        if self.everything:
            return "follow"
        if slug is not None:
            covered = self.seasons if route.startswith("seasons/") else self.tournaments
            return "follow" if slug in covered else None
        if match.url_name in CLUB_PAGES:
            return None
        return "leaf"


def club_prefix(club: Club) -> str:
    """The address a club's pages are asked at: the site's root for the home club."""
    return "" if club.pk == home_club_pk() else f"/c/{club.slug}"


def event_scope(slug: str) -> Scope:
    found = Tournament.objects.select_related("club").filter(slug=slug).first()
    if found is None:
        raise StaticSiteError("no-such-event", f"No tournament has the slug {slug!r}.")
    return Scope(
        first=reverse("tournaments:public-tournament", args=[slug]),
        tournaments=frozenset([slug]),
        prefix=club_prefix(found.club),
    )


def season_scope(key: str) -> Scope:
    """A season by its slug (or its number): its table and every event added to it."""
    found = Series.objects.filter(slug=key).first()
    if found is None and key.isdigit():
        found = Series.objects.filter(pk=int(key)).first()
    if found is None:
        raise StaticSiteError("no-such-season", f"No season has the slug or number {key!r}.")
    events = Tournament.objects.filter(series_members__series=found)
    return Scope(
        first=reverse("tournaments:season", args=[found.slug]),
        tournaments=frozenset(events.values_list("slug", flat=True)),
        seasons=frozenset([found.slug]),
        prefix=club_prefix(found.club),
    )


def club_scope() -> Scope:
    return Scope(first=reverse("tournaments:home"), everything=True)


#: Every public page (what the club's whole site would hold): a link to one outside a site keeps
#: its words; a link to anything else goes.
CLUB = Scope(first="/", everything=True)


# -- where each page goes -----------------------------------------------------------------------

SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_for(url: str, *, is_html: bool) -> str:
    """The file of a page or download in the site, relative to its language's folder."""
    parts = urlsplit(url)
    segments = [s for s in unquote(parts.path).split("/") if s not in ("", ".", "..")]
    directory = not segments or parts.path.endswith("/")
    if directory:
        stem, ext = "index", ".html"
    else:
        stem, ext = posixpath.splitext(segments.pop())
        if is_html and ext not in (".html", ".htm"):
            segments.append(stem + ext)
            stem, ext = "index", ".html"
    if parts.query:
        stem += "--" + SAFE.sub("-", parts.query).strip("-")
    return posixpath.join(*segments, stem + ext) if segments else stem + ext


def _relative(target: str, page_file: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page_file) or ".")


# -- the crawl ----------------------------------------------------------------------------------


@dataclass
class Fetched:
    url: str
    file: str
    kind: Kind
    html: str | None = None
    body: bytes = b""


@dataclass
class Crawl:
    """One language's pages: what each URL became (a file, or another URL it redirects to)."""

    language: str
    pages: dict[str, Fetched] = field(default_factory=dict)
    moved: dict[str, str] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)

    def final(self, url: str) -> str:
        seen = set()
        while url in self.moved and url not in seen:
            seen.add(url)
            url = self.moved[url]
        return url

    def folder(self) -> str:
        return "" if self.language == FIRST_LANGUAGE else self.language + "/"


class _Collect:
    """html.Links that only notes what a page links to (the crawl's first pass)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.pages: list[str] = []
        self.resources: list[str] = []

    def page_link(self, url: str) -> str | None:
        self.pages.append(urljoin(self.base, url))
        return None

    def resource(self, url: str) -> str | None:
        self.resources.append(urljoin(self.base, url))
        return None

    def language(self, code: str) -> str:
        return "#"

    def note(self) -> str:
        return ""


class Site:
    """Builds the static site of one scope into a folder."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.host = _host()
        self.origin = f"https://{self.host}"
        self.static_prefix = urlsplit(urljoin(self.origin + "/", settings.STATIC_URL or "/static/"))
        self.static: dict[str, str] = {}  # source URL path -> file under static/
        self.crawls: dict[str, Crawl] = {}
        self.made_at = timezone.now()
        #: The club's home page: in an event's or a season's site, its first page stands for it.
        self.home = reverse("tournaments:home")

    # -- what a URL is ----------------------------------------------------------------------

    def internal(self, absolute: str) -> str | None:
        """The path and query of a URL of this server, None for another site's."""
        parts = urlsplit(absolute)
        if parts.scheme not in ("http", "https") or parts.netloc != self.host:
            return None
        path = parts.path
        prefix = self.scope.prefix
        if prefix:  # a club's page: read without the club's address; any other is not the club's
            if not path.startswith(prefix + "/"):
                return None
            path = path[len(prefix) :]
        return path + (f"?{parts.query}" if parts.query else "")

    def static_name(self, absolute: str) -> str | None:
        """The static file's name (as {% static %} was given it) when the URL is one."""
        parts = urlsplit(absolute)
        prefix = self.static_prefix
        if (parts.netloc, parts.scheme) != (prefix.netloc, prefix.scheme) and parts.netloc != (
            self.host
        ):
            return None
        if not parts.path.startswith(prefix.path):
            return None
        name = unquote(parts.path[len(prefix.path) :])
        if not name or ".." in name.split("/"):
            return None
        return name

    # -- fetching ---------------------------------------------------------------------------

    def _client(self, language: str) -> Client:
        headers = {"host": self.host}
        # Every request as if over HTTPS (SECURE_SSL_REDIRECT), through the proxy if one is named.
        proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
        if proxy_header and proxy_header[0].startswith("HTTP_"):
            headers[proxy_header[0][5:].replace("_", "-").lower()] = proxy_header[1]
        client = Client(headers=headers)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return client

    def crawl(self, language: str) -> Crawl:
        client = self._client(language)
        crawl = Crawl(language)
        queue: deque[tuple[str, Kind]] = deque([(self.scope.first, "follow")])
        asked: set[str] = set()
        while queue:
            url, kind = queue.popleft()
            if url in asked:
                continue
            asked.add(url)
            response = client.get(self.scope.prefix + url, secure=True)
            if response.status_code in (301, 302, 303, 307, 308):
                base = self.origin + self.scope.prefix + url
                target = self.internal(urljoin(base, response["Location"]))
                target_kind = None if target is None else self.scope.kind_of(target)
                if target is None or target_kind is None:
                    crawl.refused.add(url)
                    continue
                crawl.moved[url] = target
                queue.appendleft((target, kind if target_kind == "follow" else "leaf"))
                continue
            if response.status_code != 200:
                log.info("static site: %s answered %s, left out", url, response.status_code)
                crawl.refused.add(url)
                continue
            content_type = response.get("Content-Type", "")
            is_html = content_type.startswith("text/html")
            fetched = Fetched(url, crawl.folder() + file_for(url, is_html=is_html), kind)
            if is_html:
                fetched.html = _content(response).decode(response.charset or "utf-8")
                collect = _Collect(self.origin + self.scope.prefix + url)
                html.rewrite(fetched.html, collect)
                for link in collect.pages:
                    found = self.internal(link)
                    if found is None:
                        continue
                    link_kind = self.scope.kind_of(found)
                    if link_kind == "follow" or (link_kind == "leaf" and kind == "follow"):
                        queue.append((found, link_kind))
                for resource in collect.resources:
                    self._note_static(resource, client)
            else:
                fetched.body = _content(response)
            crawl.pages[url] = fetched
        return crawl

    def _note_static(self, absolute: str, client: Client) -> None:
        name = self.static_name(absolute)
        if name is None:
            # /favicon.ico and the like: a page of the server that answers with a static file.
            found = self.internal(absolute)
            if found is None or found in self.static:
                return
            response = client.get(self.scope.prefix + found, secure=True)
            if response.status_code in (301, 302) and (
                name := self.static_name(
                    urljoin(self.origin + self.scope.prefix + found, response["Location"])
                )
            ):
                self.static[found] = name
            return
        self.static[urlsplit(absolute).path] = name

    # -- writing ----------------------------------------------------------------------------

    def build(self, folder: Path) -> list[str]:
        """Crawl in each language and write the site into `folder` (made if need be); the files
        written, relative to it."""
        self.bring_up_to_date()
        # The crawl asks for every PDF and XLSX download at once: not counted by the per-address
        # download throttle (a context variable around this block, tournaments/web/throttles.py).
        with translation.override(translation.get_language()), throttles.not_counted():
            for language in LANGUAGES:
                self.crawls[language] = self.crawl(language)
        if not self.crawls[FIRST_LANGUAGE].pages:
            raise StaticSiteError("nothing-public", "This has no public pages to export.")
        folder.mkdir(parents=True, exist_ok=True)
        written: list[str] = []
        for crawl in self.crawls.values():
            for fetched in crawl.pages.values():
                if fetched.html is None:
                    self._write(folder, fetched.file, fetched.body)
                else:
                    self._write(folder, fetched.file, self._page(crawl, fetched, fetched.file))
                written.append(fetched.file)
            first = crawl.pages.get(crawl.final(self.scope.first))
            index = crawl.folder() + "index.html"
            if first is not None and first.file != index and first.html is not None:
                self._write(folder, index, self._page(crawl, first, index))
                written.append(index)
        written.extend(self._copy_static(folder))
        return sorted(written)

    def bring_up_to_date(self) -> None:
        """The standings and season tables the pages show, written now where the results moved
        on since the last (a worker may be behind, or none running): a static copy cannot say
        "being computed, refresh the page". Each recompute does nothing when already current."""
        events = Tournament.objects.all()
        seasons = Series.objects.all()
        if not self.scope.everything:
            events = events.filter(slug__in=self.scope.tournaments)
            seasons = seasons.filter(slug__in=self.scope.seasons)
        for tournament_id in events.values_list("pk", flat=True):
            standings.recompute(tournament_id=tournament_id)
        for series_id in seasons.values_list("pk", flat=True):
            season_services.recompute(series_id=series_id)

    def _page(self, crawl: Crawl, fetched: Fetched, file: str) -> bytes:
        assert fetched.html is not None
        links = _Relative(self, crawl, fetched, file)
        return html.rewrite(fetched.html, links).encode("utf-8")

    @staticmethod
    def _write(folder: Path, file: str, body: bytes) -> None:
        path = folder / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)

    def _copy_static(self, folder: Path) -> list[str]:
        written: list[str] = []
        queue = deque(sorted(set(self.static.values())))
        done: set[str] = set()
        while queue:
            name = queue.popleft()
            if name in done:
                continue
            done.add(name)
            target = folder / "static" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if not _copy_static_file(name, target):
                log.warning("static site: the static file %s was not found", name)
                continue
            written.append(f"static/{name}")
            if name.endswith(".css"):
                text = target.read_text(encoding="utf-8")

                def resource(url: str, css: str = name) -> str | None:
                    absolute = urljoin(f"{self.static_prefix.geturl()}{css}", url)
                    found = self.static_name(absolute)
                    if found is None:
                        return None
                    queue.append(found)
                    return _relative(found, css)

                target.write_text(html.css_urls(text, resource), encoding="utf-8")
        return written


class _Relative:
    """html.Links of one page being written: each link relative to the page's own file."""

    def __init__(self, site: Site, crawl: Crawl, fetched: Fetched, file: str) -> None:
        self.site, self.crawl, self.fetched, self.file = site, crawl, fetched, file
        self.base = site.origin + site.scope.prefix + fetched.url

    def page_link(self, url: str) -> str | None:
        absolute = urljoin(self.base, url)
        fragment = urlsplit(absolute).fragment
        found = self.site.internal(absolute)
        if found is None:
            parts = urlsplit(absolute)
            return url if parts.scheme in ("http", "https") and parts.netloc else None
        if found == self.site.home and found not in self.crawl.pages:
            return _relative(self.crawl.folder() + "index.html", self.file)
        page = self.crawl.pages.get(self.crawl.final(found))
        if page is None:
            if self.resource(url) is not None:
                return self.resource(url)
            public = CLUB.kind_of(found) is not None
            return None if public else html.DROP
        target = _relative(page.file, self.file)
        return f"{target}#{fragment}" if fragment else target

    def resource(self, url: str) -> str | None:
        absolute = urljoin(self.base, url)
        name = self.site.static_name(absolute)
        if name is None:
            found = self.site.internal(absolute)
            name = self.site.static.get(found) if found else None
        if name is None:
            return None
        self.site.static.setdefault(urlsplit(absolute).path, name)
        return _relative(f"static/{name}", self.file)

    def note(self) -> str:
        with translation.override(self.crawl.language):
            made = formats.date_format(timezone.localtime(self.site.made_at), "DATETIME_FORMAT")
            return gettext("A copy of the public pages, made on %(made)s") % {"made": made}

    def language(self, code: str) -> str:
        other = self.site.crawls.get(code)
        if other is None:
            return _relative(self.crawl.folder() + "index.html", self.file)
        folder = other.folder()
        if self.file == self.crawl.folder() + "index.html":
            return _relative(folder + "index.html", self.file)
        page = other.pages.get(other.final(self.fetched.url))
        return _relative(page.file if page else folder + "index.html", self.file)


def _content(response: HttpResponseBase) -> bytes:
    if isinstance(response, HttpResponse):
        return response.content
    return b"".join(response)


def _copy_static_file(name: str, target: Path) -> bool:
    """Copy a static file by the name the pages use: from the collected files when they hold it
    (hashed names included), else from the apps' and STATICFILES_DIRS' sources."""
    if staticfiles_storage.exists(name):
        with staticfiles_storage.open(name) as source, target.open("wb") as out:
            shutil.copyfileobj(source, out)
        return True
    found = finders.find(name)
    if not found:
        return False
    shutil.copyfile(found, target)
    return True


def _host() -> str:
    """A host name the site answers to (the pages ask for it as a visitor would)."""
    for host in settings.ALLOWED_HOSTS:
        if host and "*" not in host:
            return host.lstrip(".")
    return "localhost"


def build(scope: Scope, folder: Path) -> list[str]:
    """Write the static site of `scope` into `folder`; the files written. For the `export_site`
    command's own process only (see the module's docstring): a server runs that command."""
    return Site(scope).build(folder)
