"""API authentication: directors' API tokens (`Authorization: Token <secret>`) and table
scorers' tokens (`Authorization: Table <secret>`), beside Django's session.

A table token authenticates no user: `request.user` stays anonymous and `request.auth` is the
`TableToken`, which `api.views.actor_for` turns into `Actor(table=<table id>, side=...)`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from tournaments.clubs.services import current_club
from tournaments.models import TableToken

from .models import ApiToken, TokenState, hash_secret

if TYPE_CHECKING:
    from rest_framework.request import Request


def _credentials(request: Request, keyword: str) -> str | None:
    header = authentication.get_authorization_header(request).split()
    if not header or header[0].lower() != keyword.lower().encode():
        return None
    if len(header) != 2:
        raise exceptions.AuthenticationFailed(
            f"the {keyword} header is '{keyword} <secret>'", code="bad-token"
        )
    try:
        return header[1].decode("ascii")
    except UnicodeError as error:
        raise exceptions.AuthenticationFailed("the token is not ASCII", code="bad-token") from error


LAST_USED_EVERY = timedelta(minutes=1)


def _check(token: Any) -> None:
    if token is None:
        raise exceptions.AuthenticationFailed("unknown token", code="bad-token")
    state = token.state
    if state == TokenState.REVOKED:
        raise exceptions.AuthenticationFailed("this token was revoked", code="token-revoked")
    if state == TokenState.EXPIRED:
        raise exceptions.AuthenticationFailed("this token has expired", code="token-expired")
    now = timezone.now()
    # "Last used" is for people (which cards are in use), to the minute: writing it on every
    # request cost a write and a commit per hand submitted.
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        type(token).objects.filter(pk=token.pk).update(last_used_at=now)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        secret = _credentials(request, self.keyword)
        if secret is None:
            return None
        token = ApiToken.objects.select_related("user").filter(key_hash=hash_secret(secret)).first()
        _check(token)
        assert token is not None  # _check refused a missing one
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("this user is inactive", code="user-inactive")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class TableTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Table"

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableToken | None] | None:
        secret = _credentials(request, self.keyword)
        if secret is None:
            return None
        token = TableToken.of_club(secret, current_club(request))
        _check(token)
        return AnonymousUser(), token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class SessionAuthentication(authentication.SessionAuthentication):
    """Django's session (with CSRF checks for writes)."""


class SignInGuard(AxesStandaloneBackend):
    """django-axes' guard, first in AUTHENTICATION_BACKENDS: a username locked out from this
    client's address is refused before any password is checked, on every sign-in over HTTP
    (/accounts/login/ and /admin/login/ pass their request, `POST /auth/tokens` too).

    A sign-in with no request at all comes from no client (a shell, a management command, the
    test client's `login()`): there is no address to count, so the guard lets it through to the
    password check instead of failing (axes would raise).
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
