"""One public page made fit for a static site: every link through `Links`, no scripts, no forms.

Python's own HTML tokenizer (html.parser) reads the page as the server rendered it and the page
is written out again tag by tag, so what is not touched stays byte for byte as it was:

- `href`, `src`, `srcset` and CSS `url(...)` (in `<style>` and `style=""`) go through
  `Links.page_link` (a page, a download) or `Links.resource` (a stylesheet, an image, a font):
  each answers the relative path in the static site, or None when the target is not part of it.
  A link (`<a>`) to something not exported keeps its words without the link; a stylesheet, icon
  or image not exported is left out.
- `<script>` (and `on...=` handlers, and `data-...` attributes holding a server path, which only
  the scripts read) are left out: the pages are rendered on the server and read without them.
  `<noscript>` goes too: what it says (reload for the latest results) is for the live pages.
  A link to a page no visitor may see (sign-in, a director's page) goes with its words.
- Forms post to the server, which a static site has not: left out, except the language switch
  (base.html's `<form class="lang">`), which becomes plain links to the same page in each
  language (`Links.language`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser
from typing import Protocol

#: Elements whose content never reaches a static page (<noscript> says how to see the latest
#: results live: a static copy has none).
LEFT_OUT = {"script", "form", "template", "noscript"}
#: Elements with no end tag.
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
#: <link rel=...> a static page keeps (when its file is exported).
KEPT_LINKS = {"stylesheet", "icon", "shortcut", "apple-touch-icon", "preload", "alternate"}
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
CSS_IMPORT = re.compile(r"""@import\s+(['"])([^'"]+)\1""")


#: What `Links.page_link` answers for a link to leave out with its words (a director's page,
#: sign-in): they mean nothing to a reader of the static copy.
DROP = ""


class Links(Protocol):
    def page_link(self, url: str) -> str | None:
        """The relative path of a page or download in the site (None: not exported, the words
        stay; DROP: not exported, the words go too)."""

    def resource(self, url: str) -> str | None:
        """The relative path of a stylesheet, image or font (None: not exported)."""

    def language(self, code: str) -> str:
        """The relative path of this page in another language."""

    def note(self) -> str:
        """Words for the foot of every page (when and from where the copy was made), as text."""


def css_urls(text: str, resource: Callable[[str], str | None]) -> str:
    """CSS with each `url(...)` and `@import "..."` through `resource` (kept as written when it
    answers None: a `data:` URL, or a file the site has not)."""

    def one(match: re.Match[str]) -> str:
        url = match.group(2).strip()
        if url.startswith(("data:", "#")):
            return match.group(0)
        found = resource(url)
        return match.group(0) if found is None else f'url("{found}")'

    def imported(match: re.Match[str]) -> str:
        found = resource(match.group(2))
        return match.group(0) if found is None else f'@import "{found}"'

    return CSS_IMPORT.sub(imported, CSS_URL.sub(one, text))


def _srcset(value: str, resource: Callable[[str], str | None]) -> str | None:
    kept = []
    for candidate in value.split(","):
        parts = candidate.strip().split(None, 1)
        if not parts:
            continue
        found = resource(parts[0])
        if found is not None:
            kept.append(" ".join([found, *parts[1:]]))
    return ", ".join(kept) or None


def _server_path(value: str) -> bool:
    return value.startswith(("/", "http://", "https://", "ws://", "wss://"))


#: `_attributes`' answer for an element to leave out with its content.
DROPPED: list[tuple[str, str | None]] = []


class _Rewriter(HTMLParser):
    def __init__(self, links: Links) -> None:
        super().__init__(convert_charrefs=False)
        self.links = links
        self.out: list[str] = []
        self.left_out: str | None = None  # the element whose content is being left out
        self.left_out_depth = 0
        self.unlinked = 0  # open <a> elements written without their link
        self.language_form = False
        self.language_button: dict[str, str] | None = None
        self.in_style = False

    # -- tags ---------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool) -> None:
        if self.left_out is not None:
            if tag == self.left_out and not closed:
                self.left_out_depth += 1
            return
        values = dict(attrs)
        if tag == "form" and "lang" in (values.get("class") or "").split():
            self.language_form = True
            label = values.get("aria-label")
            nav: list[tuple[str, str | None]] = [("class", "lang")]
            self.out.append(self._tag("nav", nav + ([("aria-label", label)] if label else [])))
            return
        if self.language_form:
            if tag == "button" and values.get("name") == "language":
                self.language_button = {k: v or "" for k, v in values.items()}
                self.language_button["text"] = ""
            return
        if tag in LEFT_OUT:
            if not closed:
                self.left_out, self.left_out_depth = tag, 1
            return
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            return
        kept = self._attributes(tag, attrs)
        if kept is DROPPED:
            if not closed:
                self.left_out, self.left_out_depth = tag, 1
            return
        self.in_style = tag == "style" and kept is not None and not closed
        if kept is None:
            if tag == "a" and not closed:
                self.unlinked += 1
            return
        self.out.append(self._tag(tag, kept, closed=closed))
        if tag == "footer" and not closed:
            self.out.append(f'<p class="static-note">{escape(self.links.note())}</p>')

    def _attributes(
        self, tag: str, attrs: list[tuple[str, str | None]]
    ) -> list[tuple[str, str | None]] | None:
        """The element's attributes for the static page; None to leave the tag out (its
        content stays)."""
        kept: list[tuple[str, str | None]] = []
        values = dict(attrs)
        rels = set((values.get("rel") or "").lower().split())
        for name, value in attrs:
            if name.startswith("on"):
                continue
            if name.startswith("data-") and value and _server_path(value):
                continue
            if value is None:
                kept.append((name, value))
                continue
            if name == "style":
                value = css_urls(value, self.links.resource)
            elif name == "href" and tag == "a":
                if value.startswith("#") or value.startswith(("mailto:", "tel:")):
                    pass
                else:
                    found = self.links.page_link(value)
                    if found is None:
                        return None
                    if found == DROP:
                        return DROPPED
                    value = found
            elif name == "href" and tag == "link":
                if not rels & KEPT_LINKS:
                    return None
                found = self.links.resource(value)
                if found is None:
                    return None
                value = found
            elif name in ("src", "poster"):
                if value.startswith("data:"):
                    pass
                else:
                    found = self.links.resource(value)
                    if found is None:
                        return None
                    value = found
            elif name == "srcset":
                srcset = _srcset(value, self.links.resource)
                if srcset is None:
                    continue
                value = srcset
            elif name in ("action", "formaction", "ping"):
                continue
            kept.append((name, value))
        if tag == "link" and "href" not in values:
            return None
        return kept

    @staticmethod
    def _tag(tag: str, attrs: list[tuple[str, str | None]], *, closed: bool = False) -> str:
        words = [tag]
        for name, value in attrs:
            words.append(name if value is None else f'{name}="{escape(value, quote=True)}"')
        return "<" + " ".join(words) + (" />" if closed and tag not in VOID else ">")

    def handle_endtag(self, tag: str) -> None:
        if self.left_out is not None:
            if tag == self.left_out:
                self.left_out_depth -= 1
                if self.left_out_depth == 0:
                    self.left_out = None
            return
        if self.language_form:
            if tag == "button" and self.language_button is not None:
                self._language_link(self.language_button)
                self.language_button = None
            elif tag == "form":
                self.language_form = False
                self.out.append("</nav>")
            return
        self.in_style = False
        if tag == "a" and self.unlinked:
            self.unlinked -= 1
            return
        self.out.append(f"</{tag}>")

    def _language_link(self, button: dict[str, str]) -> None:
        code = button.get("value", "")
        current = button.get("aria-pressed") == "true"
        attrs: list[tuple[str, str | None]] = [
            ("href", self.links.language(code)),
            ("lang", button.get("lang", code)),
            ("hreflang", code),
        ]
        if current:
            attrs.append(("aria-current", "true"))
        self.out.append(self._tag("a", attrs, closed=False))
        self.out.append(escape(button["text"].strip()))
        self.out.append("</a>")

    # -- text ---------------------------------------------------------------------------------

    def handle_data(self, data: str) -> None:
        if self.left_out is not None:
            return
        if self.language_form:
            if self.language_button is not None:
                self.language_button["text"] += data
            return
        if self.in_style:
            data = css_urls(data, self.links.resource)
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self._raw(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._raw(f"&#{name};")

    def _raw(self, text: str) -> None:
        if self.left_out is not None:
            return
        if self.language_form:
            if self.language_button is not None:
                self.language_button["text"] += text
            return
        self.out.append(text)

    def handle_comment(self, data: str) -> None:
        pass  # the server's comments are not the reader's

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:
        self._raw(f"<![{data}]>")


def rewrite(html: str, links: Links) -> str:
    """The page for the static site (the module's docstring says what changes)."""
    rewriter = _Rewriter(links)
    rewriter.feed(html)
    rewriter.close()
    return "".join(rewriter.out)
