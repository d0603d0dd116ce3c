"""What every static site must be, read from its files alone (tests/staticsite)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Attributes that name another file.
LINKING = {"href", "src", "poster"}


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if value is None:
                continue
            if name in LINKING:
                self.links.append((tag, name, value))
            elif name == "srcset":
                for candidate in value.split(","):
                    if candidate.strip():
                        self.links.append((tag, name, candidate.split()[0]))
            elif name.startswith("on"):
                self.links.append((tag, name, "javascript:"))


CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")


def problems(folder: Path) -> list[str]:
    """Every link of every page (and stylesheet) that leaves the folder, names the server or
    points to a missing file; every script. Empty for a good site."""
    found: list[str] = []
    for page in sorted(folder.rglob("*.html")):
        where = page.relative_to(folder)
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        if "script" in parser.tags:
            found.append(f"{where}: a <script>")
        if "form" in parser.tags:
            found.append(f"{where}: a <form>")
        for tag, name, value in parser.links:
            found.extend(_check(folder, page, f"{where} <{tag} {name}>", value))
    for sheet in sorted(folder.rglob("*.css")):
        where = sheet.relative_to(folder)
        for value in CSS_URL.findall(sheet.read_text(encoding="utf-8")):
            found.extend(_check(folder, sheet, f"{where} url()", value))
    return found


def _check(folder: Path, page: Path, where: str, value: str) -> list[str]:
    if value.startswith(("#", "data:", "mailto:", "tel:")):
        return []
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or value.startswith("/"):
        return [f"{where}: {value} is not relative"]
    if not parts.path:
        return []
    target = (page.parent / unquote(parts.path)).resolve()
    if not target.is_relative_to(folder.resolve()):
        return [f"{where}: {value} leaves the site"]
    if not target.is_file():
        return [f"{where}: {value} is missing"]
    return []
