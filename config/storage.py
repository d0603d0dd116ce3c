"""Where the static files are kept in production: whitenoise's compressed, hashed copies.

The scoring page is ES modules loaded with relative imports (`import ... from './scoring/api.js'`,
static/js/scoring.js and static/js/scoring/). Here those imports are rewritten to the hashed
names too, so that a page loads one deploy's modules together and each is cached for good. With
DEBUG on the files are served as written and the imports resolve as written.

Django can do this for every JavaScript file (`support_js_module_import_aggregation = True`), but
its patterns then run over every bundle of the admin and the API docs as well: collectstatic
(which the evening server runs after each update) took 152 s instead of 112 s on the shared
2-core machine. So the same rewrites are asked for the scoring modules only (120 s), through
`patterns` (the table of rewrites the manifest storage applies, which that setting extends the
same way). tests/pages/test_scoring_modules.py follows every import from the entry to a hashed
file, so it fails if a Django release changes how `patterns` is read, and keeps the modules
arranged so that one pass resolves them (docs/scoring-offline.md).
"""

from __future__ import annotations

import re

from whitenoise.storage import CompressedManifestStaticFilesStorage

# Comments, escapes and strings: an `import` inside one is not a statement.
_JS_IGNORED = re.compile(
    r"/\*.*?\*/|//[^\n]*|\\.|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`",
    re.DOTALL,
)

# The statement forms of Django's own JS module rewrites: `import {a} from './x.js'`,
# `import x from './x.js'`, `import * as x from './x.js'`, `export {a} from './x.js'` and
# `import './x.js'`.
SCORING_MODULE_IMPORTS = (
    "js/scoring*.js",  # js/scoring.js and everything under js/scoring/ (fnmatch's * spans /)
    (
        (
            r"""(?P<matched>import(?P<import>[\s\{][^;]*?|\*\s*as\s*\w+)"""
            r"""\s*from\s*['"](?P<url>[./].*?)["'])""",
            """import%(import)s from "%(url)s\"""",
            _JS_IGNORED,
        ),
        (
            r"""(?P<matched>export(?P<exports>[\s\{][^;]*?)\s*from\s*["'](?P<url>[./].*?)["'])""",
            """export%(exports)s from "%(url)s\"""",
            _JS_IGNORED,
        ),
        (
            r"""(?P<matched>import\s*['"](?P<url>[./].*?)["'])""",
            """import"%(url)s\"""",
            _JS_IGNORED,
        ),
    ),
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, SCORING_MODULE_IMPORTS)
