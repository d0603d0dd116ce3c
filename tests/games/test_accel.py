"""The optional compiled engine (games/accel.py): when a process may use a build, and that the
compiled engine answers every record as the pure-Python reference does."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import accel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def checkout(tmp_path):
    """A package folder with two modules and a build manifest made for them, as `build` writes
    it (the shared library is an empty file: `status` never loads it)."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "spades.py").write_text("RULES = 1\n")
    (tmp_path / "games" / "notes.py").write_text("NOTES = 1\n")
    (tmp_path / ".accel" / "games").mkdir(parents=True)
    (tmp_path / ".accel" / f"{accel.LIBRARY}.so").write_bytes(b"")
    write_manifest(tmp_path)
    return tmp_path


def write_manifest(root: Path, **changes) -> None:
    manifest = {
        "python": sys.implementation.cache_tag,
        "platform": accel._platform(),
        "mypy": "2.4.1",
        "built": "then",
        "compiled": list(accel.COMPILED),
        "sources": accel.digests(root),
        **changes,
    }
    (root / ".accel" / accel.MANIFEST).write_text(json.dumps(manifest))


def test_a_build_of_the_checkouts_sources_for_this_interpreter_is_used(checkout):
    found = accel.status(root=checkout, environ={})
    assert found.active, found.reason
    assert found.engine == "compiled (mypyc)"


def test_without_a_build_the_pure_engine_runs(tmp_path):
    (tmp_path / "games").mkdir()
    found = accel.status(root=tmp_path, environ={})
    assert not found.active
    assert found.engine == "pure Python"
    assert "not built" in found.reason


def test_an_edited_module_turns_the_build_off_and_names_the_module(checkout):
    (checkout / "games" / "spades.py").write_text("RULES = 2\n")
    found = accel.status(root=checkout, environ={})
    assert not found.active
    assert "games/spades.py" in found.reason
    assert "games/notes.py" not in found.reason


def test_a_module_added_since_the_build_turns_it_off(checkout):
    (checkout / "games" / "whist.py").write_text("WHIST = 1\n")
    found = accel.status(root=checkout, environ={})
    assert not found.active
    assert "games/whist.py" in found.reason


def test_a_build_for_another_interpreter_is_not_used(checkout):
    write_manifest(checkout, python="cpython-311")
    found = accel.status(root=checkout, environ={})
    assert not found.active
    assert "cpython-311" in found.reason


def test_a_build_for_another_machine_is_not_used(checkout):
    write_manifest(checkout, platform="aarch64 .cpython-312-aarch64-linux-gnu.so")
    found = accel.status(root=checkout, environ={})
    assert not found.active
    assert "aarch64" in found.reason


def test_a_build_whose_library_does_not_load_falls_back_to_the_pure_engine(
    checkout, caplog, monkeypatch
):
    monkeypatch.delitem(sys.modules, accel.LIBRARY, raising=False)  # a real build's
    path = [str(checkout / "games")]  # the fixture's library is an empty file, not a library
    with caplog.at_level(logging.WARNING, logger="games.accel"):
        found = accel.activate(path, root=checkout, environ={})
    assert not found.active
    assert "does not load" in found.reason and "does not load" in caplog.text
    assert path == [str(checkout / "games")]
    assert accel.LIBRARY not in sys.modules


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "null"])
def test_an_unreadable_manifest_is_not_used(checkout, text):
    (checkout / ".accel" / accel.MANIFEST).write_text(text)
    assert not accel.status(root=checkout, environ={}).active


@pytest.mark.parametrize("value", ["off", "0", "OFF", "false"])
def test_the_environment_turns_a_good_build_off(checkout, value):
    found = accel.status(root=checkout, environ={"TRICKTABLE_ACCEL": value})
    assert not found.active
    assert "TRICKTABLE_ACCEL" in found.reason


def test_a_stale_build_leaves_the_package_path_alone_and_says_why(checkout, caplog):
    (checkout / "games" / "notes.py").write_text("NOTES = 2\n")
    path = [str(checkout / "games")]
    with caplog.at_level(logging.WARNING, logger="games.accel"):
        found = accel.activate(path, root=checkout, environ={})
    assert not found.active
    assert path == [str(checkout / "games")]
    assert "games/notes.py" in caplog.text


def test_no_build_leaves_the_package_path_alone_without_a_warning(tmp_path, caplog):
    (tmp_path / "games").mkdir()
    path = [str(tmp_path / "games")]
    with caplog.at_level(logging.WARNING, logger="games.accel"):
        assert not accel.activate(path, root=tmp_path, environ={}).active
    assert path == [str(tmp_path / "games")]
    assert caplog.text == ""


def _answers(accel_setting: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "games" / "accel_corpus.py"), "150"],
        env={**os.environ, "TRICKTABLE_ACCEL": accel_setting},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout.splitlines()


@pytest.mark.skipif(
    not accel.status(environ={}).active,
    reason="the compiled engine is not built for these sources (make accel)",
)
def test_the_compiled_engine_answers_every_record_as_the_pure_engine_does():
    pure, compiled = _answers("off"), _answers("on")
    assert pure[0].startswith("engine: pure Python (spades.py)")
    assert compiled[0].startswith("engine: compiled (mypyc) (spades.cpython")
    assert len(pure) == len(compiled) > 20_000
    differ = [(p, c) for p, c in zip(pure[1:], compiled[1:], strict=True) if p != c]
    assert not differ, f"{len(differ)} answers differ; the first:\n{differ[0][0]}\n{differ[0][1]}"
    # the corpus holds both verdicts and many kinds of refusal
    assert sum("'ok': True" in line for line in pure) > 2_000
    assert len({line.split("'code': ")[1][:20] for line in pure if "'code': " in line}) > 10
