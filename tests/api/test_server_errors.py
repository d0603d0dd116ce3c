"""What no view handled still answers in the API's error shape under /api/ (never Django's HTML
page), and a lost database is a 503 the client may retry."""

import pytest
from django.db import OperationalError

from tournaments import services

pytestmark = pytest.mark.django_db


def _failing(exc):
    def fail(**kwargs):
        raise exc

    return fail


def test_a_lost_database_is_a_503_with_retry_after(td, monkeypatch):
    td.raise_request_exception = False
    monkeypatch.setattr(services, "create_tournament", _failing(OperationalError("gone")))
    response = td.post(
        "/api/v1/tournaments",
        {"name": "X", "game": "spades", "rules": "standard", "format": "swiss", "rounds": 3},
        format="json",
    )
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert response.json() == {
        "code": "database-unavailable",
        "message": "the database is unavailable; retry shortly",
        "details": None,
    }


def test_any_other_failure_is_a_500_in_the_error_shape(td, monkeypatch):
    td.raise_request_exception = False
    monkeypatch.setattr(services, "create_tournament", _failing(RuntimeError("boom")))
    response = td.post(
        "/api/v1/tournaments",
        {"name": "X", "game": "spades", "rules": "standard", "format": "swiss", "rounds": 3},
        format="json",
    )
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server-error"


def test_pages_outside_the_api_keep_django_s_own_error_handling(client, monkeypatch):
    from tournaments.views import public

    monkeypatch.setattr(public, "render", _failing(RuntimeError("boom")))
    client.raise_request_exception = False
    response = client.get("/")
    assert response.status_code == 500
    assert not response["Content-Type"].startswith("application/json")


def test_the_error_shape_has_one_home_that_imports_no_drf():
    """Every JSON error body is built by tournaments.web.error_shape (issue 19 point 5), which the
    middleware and the error views can load before DRF: importing it loads no DRF module."""
    import subprocess
    import sys

    code = (
        "import sys, tournaments.web.error_shape as e; "
        "assert not [m for m in sys.modules if m.startswith('rest_framework')]; "
        "assert e.body('x', 'y') == {'code': 'x', 'message': 'y', 'details': None}"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    import api.errors
    import api.live
    import api.middleware
    import api.urls
    import tournaments.views.errors
    from tournaments.web import error_shape

    for module in (api.errors, api.live, api.middleware, api.urls, tournaments.views.errors):
        assert not hasattr(module, "body") or module.body is error_shape.body, module
