"""The tournament workflow fixtures (a director, tournaments through the real services)."""

from tests.tournaments.conftest import (  # noqa: F401
    director,
    director_user,
    make_tournament,
    swiss,
)
