"""The README keeps its promises: the two set-up commands, a length a newcomer reads, links that
lead somewhere, and every error code of the engine documented."""

import re
from pathlib import Path

from games.errors import CODES

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
RULES_ENGINE = (ROOT / "docs" / "rules-engine.md").read_text()


def test_the_readme_names_make_run_and_make_test():
    assert "make run" in README and "make test" in README


def test_the_readme_is_short_enough_to_read_at_one_sitting():
    assert len(README.splitlines()) <= 250


def test_every_document_the_readme_links_exists():
    linked = re.findall(r"\]\(([^)#]+)", README)
    assert linked, "the README links its documents"
    assert [path for path in linked if not (ROOT / path).is_file()] == []


def test_every_error_code_of_the_engine_is_documented():
    assert [code for code in CODES if f"`{code}`" not in RULES_ENGINE] == []
