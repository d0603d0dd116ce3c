"""Where the static files are kept in production: whitenoise's compressed, hashed copies.

The scoring page is ES modules loaded with relative imports (`import ... from './scoring/api.js'`,
static/js/scoring.js and static/js/scoring/); Django rewrites those imports to the hashed names
only when asked (`support_js_module_import_aggregation`), so that a module and everything it
imports come from one deploy and can be cached for good. With DEBUG on the files are served as
they are and the relative imports resolve as written.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
