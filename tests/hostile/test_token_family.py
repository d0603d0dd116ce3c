"""Tokens that would escape revocation and expiry (issue 14, point 3). A stolen API token alone
cannot make tokens (the password is asked for, or a session); a token made with a token records
it as its parent and never outlives it (a 60-second token cannot make one that never expires);
revoking a token revokes every token made from it, grandchildren too, in one transaction."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from api.models import ApiToken

from .conftest import api_token, client, refused, unchanged

pytestmark = pytest.mark.django_db

PASSWORD = "the-right-pass-42"
TOKENS = "/api/v1/auth/tokens"


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("td", password=PASSWORD)


def mint(header_secret: str, **body):
    return client(f"Token {header_secret}").post(
        TOKENS, data=json.dumps(body), content_type="application/json"
    )


def made(response) -> tuple[ApiToken, str]:
    assert response.status_code == 201, response.content
    body = response.json()
    return ApiToken.objects.get(pk=body["id"]), body["secret"]


@pytest.mark.parametrize("password", [None, "wrong"])
def test_a_token_alone_cannot_make_a_token(owner, password):
    _, secret = api_token(owner)
    body = {} if password is None else {"password": password}
    with unchanged():
        refused(mint(secret, **body), (400, 401), {"bad-credentials", "invalid"})


def test_a_token_with_its_user_s_password_makes_a_child(owner):
    parent, secret = api_token(owner)
    child, _ = made(mint(secret, password=PASSWORD, label="phone"))
    assert child.parent == parent and child.user == owner and child.label == "phone"


def test_another_user_s_password_does_not_make_a_token_with_mine(owner):
    get_user_model().objects.create_user("aiko", password="aiko-pass-42")
    _, secret = api_token(owner)
    with unchanged():
        refused(mint(secret, username="aiko", password="aiko-pass-42"), 401, "bad-credentials")


def test_a_signed_in_session_still_makes_tokens_without_the_password(owner):
    browser = Client()
    browser.force_login(owner)
    token, _ = made(
        browser.post(TOKENS, data=json.dumps({"label": "x"}), content_type="application/json")
    )
    assert token.parent is None


def test_a_60_second_token_cannot_make_one_that_never_expires(owner):
    parent, secret = api_token(owner, expires_at=timezone.now() + timedelta(seconds=60))
    child, _ = made(mint(secret, password=PASSWORD))  # no expiry asked for
    assert child.expires_at == parent.expires_at
    longer, _ = made(mint(secret, password=PASSWORD, expires_in=3600))
    assert longer.expires_at == parent.expires_at
    grandchild, _ = made(mint(_secret_of(longer), password=PASSWORD))
    assert grandchild.expires_at == parent.expires_at


def _secret_of(token: ApiToken) -> str:
    """A secret for `token` (the real one is shown once): give it a known one."""
    from api.models import hash_secret

    ApiToken.objects.filter(pk=token.pk).update(key_hash=hash_secret(f"known-{token.pk}"))
    return f"known-{token.pk}"


def test_a_child_asked_to_expire_sooner_than_its_parent_does(owner):
    parent, secret = api_token(owner, expires_at=timezone.now() + timedelta(hours=2))
    child, _ = made(mint(secret, password=PASSWORD, expires_in=600))
    assert child.parent == parent and child.expires_at < parent.expires_at


def test_revoking_a_token_revokes_its_children_and_grandchildren(owner):
    parent, secret = api_token(owner)
    child, child_secret = made(mint(secret, password=PASSWORD))
    grandchild, grandchild_secret = made(mint(child_secret, password=PASSWORD))
    sibling, sibling_secret = api_token(owner)  # made with the password: not in the family
    # Revoking the youngest touches nobody above it...
    assert client(f"Token {secret}").delete(f"{TOKENS}/{grandchild.pk}").status_code == 200
    assert client(f"Token {child_secret}").get(TOKENS).status_code == 200
    # ...revoking the eldest revokes the whole family, and only it.
    response = client(f"Token {secret}").delete(f"{TOKENS}/{parent.pk}")
    assert response.status_code == 200 and response.json()["state"] == "revoked"
    for revoked in (secret, child_secret, grandchild_secret):
        refused(client(f"Token {revoked}").get(TOKENS), 401, "token-revoked")
    assert client(f"Token {sibling_secret}").get(TOKENS).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_family_is_revoked_in_one_transaction(owner):
    """All or nothing: the descendants are found and revoked inside one atomic block (outside
    any test transaction here), with one UPDATE for the whole family."""
    from django.db import connection

    parent, secret = api_token(owner)
    for _ in range(3):
        made(mint(secret, password=PASSWORD))
    _UPDATES.clear()
    with connection.execute_wrapper(_record_updates):
        parent.revoke()
    assert len(_UPDATES) == 1 and _UPDATES[0][1], _UPDATES
    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 0


_UPDATES: list[tuple[str, bool]] = []


def _record_updates(execute, sql, params, many, context):
    from django.db import connection

    if sql.lstrip().upper().startswith("UPDATE"):
        _UPDATES.append((sql, connection.in_atomic_block))
    return execute(sql, params, many, context)


def test_the_parent_is_shown_and_the_admin_cannot_move_the_dates(owner):
    parent, secret = api_token(owner)
    made(mint(secret, password=PASSWORD))
    listed = client(f"Token {secret}").get(TOKENS).json()["results"]
    assert {t["parent"] for t in listed} == {None, parent.pk}
    from api.admin import ApiTokenAdmin

    assert {"expires_at", "revoked_at", "parent"} <= set(ApiTokenAdmin.readonly_fields)


def test_the_admin_s_revoke_action_revokes_the_family(owner):
    root = get_user_model().objects.create_superuser("root", password="root-pass-42")
    admin = Client()
    admin.force_login(root)
    parent, secret = api_token(owner)
    child, _ = made(mint(secret, password=PASSWORD))
    response = admin.post(
        "/admin/api/apitoken/", {"action": "revoke", "_selected_action": [parent.pk]}
    )
    assert response.status_code == 302
    child.refresh_from_db()
    assert child.revoked_at is not None
