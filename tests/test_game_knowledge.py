"""A game's knowledge lives in its own modules: its engine (games/), its presentation
(tournaments/presentation/) and the duplicate engine's per-game scoring (tournaments/duplicate/
engine). No other module nor any template compares a game's name, so a fifth game is its engine,
its presentation and its templates (docs/architecture.md, "Adding a game"), and no page falls
through to another game's form.

The scan reads the source: every comparison (`==`, `!=`, `in`, `not in`, `match` cases) of
Python with a game's name as a string, and every `{% if %}`/`{% elif %}` of a template that
names one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("api", "tournaments", "config")
# The modules that may know a game by name: where each game's knowledge lives.
ALLOWED = (
    "tournaments/presentation/",
    "tournaments/duplicate/engine/",
    "tournaments/migrations/",
)
NAMES = set(GAMES) | {g.replace("-", "_") for g in GAMES}


def _names_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def game_comparisons(source: str) -> list[int]:
    """The lines of `source` that compare something with a game's name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_names_a_game(n) for n in (node.left, *node.comparators)):
                lines.append(node.lineno)
        elif isinstance(node, ast.match_case):
            pattern = node.pattern
            if isinstance(pattern, ast.MatchValue) and _names_a_game(pattern.value):
                lines.append(pattern.lineno)
    return lines


QUOTED = "|".join(re.escape(name) for name in sorted(NAMES))
TEMPLATE_BRANCH = re.compile(r"{%-?\s*(?:el)?if\b[^%]*[\"'](?:" + QUOTED + r")[\"'][^%]*%}")


def template_branches(text: str) -> list[int]:
    """The lines of a template whose `{% if %}`/`{% elif %}` names a game."""
    return [text.count("\n", 0, m.start()) + 1 for m in TEMPLATE_BRANCH.finditer(text)]


def _python_files() -> list[Path]:
    files = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not relative.startswith(ALLOWED):
                files.append(path)
    return files


def test_the_scan_finds_a_branch_on_a_game_where_there_is_one() -> None:
    source = (
        'if tournament.game == "spades":\n    pass\n'
        'x = game in ("whist", "solo-whist")\n'
        "match game:\n    case 'german-whist':\n        pass\n"
        'y = game == "chess"\n'
    )
    assert game_comparisons(source) == [1, 3, 5]
    template = (
        '{% if tournament.game == "spades" %}a\n{% elif tournament.game == "whist" %}b\n'
        '{% else %}c{% endif %}\n{% if x == "chess" %}{% endif %}'
    )
    assert template_branches(template) == [1, 2]


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_a_games_own_branches_on_its_name(path: Path) -> None:
    lines = game_comparisons(path.read_text(encoding="utf-8"))
    assert not lines, (
        f"{path.relative_to(ROOT)} compares a game's name on lines {lines}: ask the game's "
        "presentation (tournaments.presentation) or the duplicate engine instead"
    )


def test_no_template_branches_on_a_games_name() -> None:
    found = {}
    for path in sorted((ROOT / "templates").rglob("*.html")) + sorted(
        (ROOT / "tournaments").rglob("templates/**/*.html")
    ):
        lines = template_branches(path.read_text(encoding="utf-8"))
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    assert not found, f"templates branch on a game's name: {found}"
