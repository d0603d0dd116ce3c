"""The README keeps its promises: the two set-up commands, and every error code documented."""

from pathlib import Path

from games.errors import CODES

README = (Path(__file__).parents[1] / "README.md").read_text()


def test_the_readme_names_make_run_and_make_test():
    assert "make run" in README and "make test" in README


def test_every_error_code_of_the_engine_is_in_the_readme():
    assert [code for code in CODES if f"`{code}`" not in README] == []
