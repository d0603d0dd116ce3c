"""Where the static files are kept in production: whitenoise's compressed, hashed copies.

The scoring page is ES modules loaded with relative imports (`import ... from './scoring/api.js'`,
static/js/scoring.js and static/js/scoring/). In production those imports are rewritten to the
hashed names too, so that a page loads one deploy's modules together and each is cached for good;
with DEBUG on the files are served as written and the imports resolve as written.

The rewriting is Django's own, documented switch (`support_js_module_import_aggregation`, see
"ManifestStaticFilesStorage" in Django's static files reference). It runs over every JavaScript
file, the admin's and the API docs' too, which makes collectstatic slower than rewriting the
scoring modules alone through the storage's undocumented `patterns` table would — a price
paid once per update, since the evening server
collects only when the files changed, for not leaning on Django's internals (issue 19, point 4).
tests/pages/test_scoring_modules.py follows every import from the entry to a hashed file.

Compression is whitenoise's: gzip for every browser, Brotli only for an HTTPS site (below).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def create_compressor(self, **kwargs: Any) -> Compressor:
        """gzip always; Brotli only where browsers ask for it. Browsers send `Accept-Encoding:
        br` over HTTPS alone, so on the evening server (plain HTTP on the club's Wi-Fi) the
        Brotli copies would never be served, and making them is most of collectstatic's time
        (15 of 21 s on this 2-core machine, cProfile). `STATIC_BROTLI` (default: HTTPS)."""
        return Compressor(use_brotli=getattr(settings, "STATIC_BROTLI", True), **kwargs)
