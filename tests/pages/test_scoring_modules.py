"""The scoring page's ES modules in production: the static files storage rewrites their relative
imports to the hashed names, so a deploy's modules load together and are cached for good
(config/storage.py). Checked on a copy of static/js/ post-processed by the production storage,
without a whole collectstatic."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from django.core.files.storage import FileSystemStorage

from config.storage import StaticFilesStorage

STATIC = Path(__file__).resolve().parents[2] / "static"
# `import {a} from './x.js'`, `export {a} from './x.js'`, `import './x.js'`
IMPORT = re.compile(
    r"""^(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)["']([^"']+)["']""", re.M
)


def test_production_storage_points_every_module_import_at_a_hashed_file(tmp_path):
    shutil.copytree(STATIC / "js", tmp_path / "js")
    storage = StaticFilesStorage(location=tmp_path, base_url="/static/")
    source = FileSystemStorage(location=tmp_path)
    names = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.js"))
    for name, _hashed, processed in storage.post_process({n: (source, n) for n in names}):
        assert not isinstance(processed, Exception), (name, processed)

    entry = storage.stored_name("js/scoring.js")
    assert re.fullmatch(r"js/scoring\.[0-9a-f]{12}\.js", entry)
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        code = (tmp_path / name).read_text()
        for target in IMPORT.findall(code):
            assert re.search(r"\.[0-9a-f]{12}\.js$", target), (name, target)
            resolved = (Path(name).parent / target).as_posix()
            resolved = re.sub(r"[^/]+/\.\./", "", resolved).replace("./", "")
            assert (tmp_path / resolved).is_file(), (name, target)
            todo.append(resolved)
    # the entry reaches every module under js/scoring/ (the service worker keeps the same set)
    modules = {n for n in names if n.startswith("js/scoring/")}
    assert {storage.stored_name(n) for n in modules} <= seen


def imports_of(path: Path) -> list[Path]:
    return [(path.parent / target).resolve() for target in IMPORT.findall(path.read_text())]


def test_a_module_that_imports_is_imported_only_from_a_shallower_folder():
    """The manifest storage hashes the deepest folders first: a module with imports of its own,
    imported from its own folder or a shallower one, gets its final name only in a later pass
    over every static file (each pass re-reads the admin's and the API docs' bundles too:
    collectstatic, which the evening server runs after each update, took one more pass and
    about 30 % longer). Modules without imports (dom, form, text, numbers, api, queue, stream)
    may be imported from anywhere."""
    modules = [STATIC / "js" / "scoring.js", *sorted((STATIC / "js" / "scoring").rglob("*.js"))]
    late = []
    for module in modules:
        for imported in imports_of(module):
            assert imported.is_file(), (module, imported)
            if imports_of(imported) and len(imported.parts) <= len(module.parts):
                late.append(f"{module.relative_to(STATIC)} -> {imported.relative_to(STATIC)}")
    assert late == []
