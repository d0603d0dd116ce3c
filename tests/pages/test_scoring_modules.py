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
IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']""", re.M)


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
