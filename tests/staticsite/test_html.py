"""The page rewriter of the static site (tournaments/staticsite/html.py) on pages written here."""

from __future__ import annotations

from tournaments.staticsite import html

PAGE = """<!DOCTYPE html>
<html lang="en"><head>
<link rel="stylesheet" href="/static/css/public.css">
<link rel="manifest" href="/table/1/manifest.webmanifest">
<style>body { background: url("/static/img/felt.png"); }</style>
<script type="module" src="/static/js/live.js"></script>
<script>document.write("<p>live</p>")</script>
</head><body>
<form class="lang" action="/i18n/setlang/" method="post" aria-label="Language">
<input type="hidden" name="csrfmiddlewaretoken" value="SECRET-CSRF">
<button type="submit" name="language" value="en" lang="en" aria-pressed="true">EN</button>
<button type="submit" name="language" value="ja" lang="ja" aria-pressed="false">日本語</button>
</form>
<a href="/t/cup/standings/">Standings &amp; more</a>
<a href="/t/other-event/">Another event</a>
<a href="/director/cup/">Director</a>
<a href="#main">Skip</a>
<a href="https://example.org/rules">The rules</a>
<section data-stream="/t/cup/events/" data-live-on="standings" onclick="go()">
<noscript><p>Reload the page to see the latest standings.</p></noscript>
<form method="post" action="/t/cup/"><input name="team"><button>Register</button></form>
<img src="/static/img/logo.svg" srcset="/static/img/logo.svg 1x, /static/img/gone.png 2x" alt="">
</section>
<footer><a href="/api/docs/">API documentation</a></footer>
</body></html>"""


class Links:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def page_link(self, url: str) -> str | None:
        self.asked.append(url)
        if url == "/t/cup/standings/":
            return "standings/index.html"
        if url.startswith(("/director/", "/api/")):
            return html.DROP
        return None

    def resource(self, url: str) -> str | None:
        if url in ("/static/css/public.css", "/static/img/felt.png", "/static/img/logo.svg"):
            return "../static/" + url.removeprefix("/static/")
        return None

    def language(self, code: str) -> str:
        return {"en": "index.html", "ja": "../ja/t/cup/index.html"}[code]

    def note(self) -> str:
        return "A copy <made> today."


def test_links_become_relative_and_the_rest_goes():
    out = html.rewrite(PAGE, Links())
    assert '<link rel="stylesheet" href="../static/css/public.css">' in out
    assert "manifest" not in out
    assert 'url("../static/img/felt.png")' in out
    assert "<script" not in out and "live.js" not in out and "document.write" not in out
    assert '<a href="standings/index.html">Standings &amp; more</a>' in out
    # Another event's page is not in the site: its words stay, the link goes.
    assert "Another event" in out and "other-event" not in out
    # A director's page and the API: the link goes with its words.
    assert "Director" not in out and "API documentation" not in out
    assert '<a href="#main">Skip</a>' in out
    # Only the scripts read a server path in data-...; the handlers go too.
    assert "data-stream" not in out and 'data-live-on="standings"' in out
    assert "onclick" not in out
    assert "Reload the page" not in out
    assert "Register" not in out and "csrfmiddlewaretoken" not in out and "SECRET" not in out
    assert 'srcset="../static/img/logo.svg 1x"' in out


def test_the_language_switch_becomes_links():
    out = html.rewrite(PAGE, Links())
    assert '<nav class="lang" aria-label="Language">' in out
    assert (
        '<a href="index.html" lang="en" hreflang="en" aria-current="true">EN</a>'
        '<a href="../ja/t/cup/index.html" lang="ja" hreflang="ja">日本語</a></nav>'
    ) in out
    assert "<button" not in out and "/i18n/" not in out


def test_the_footer_says_it_is_a_copy():
    out = html.rewrite(PAGE, Links())
    assert '<footer><p class="static-note">A copy &lt;made&gt; today.</p>' in out


def test_a_stylesheet_names_its_files_relatively():
    css = (
        '@import "/static/css/base.css"; a { background: url(/static/img/x.png) } '
        "b { x: url(data:1) }"
    )
    out = html.css_urls(css, lambda url: "x/" + url.rsplit("/", 1)[-1])
    assert out == '@import "x/base.css"; a { background: url("x/x.png") } b { x: url(data:1) }'
