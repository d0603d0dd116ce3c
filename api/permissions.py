"""Who may call what. Reading public data needs nothing. Writing needs a signed-in user
(session or API token); which tournament they may change is the services' decision
(`services.is_director`: the tournament's directors or a superuser), so a director of one
tournament gets 403 `not-director` on another. A table token may only score: submit, confirm or
reject hands (and finish the match) at its own table — the services refuse other tables with
403 `wrong-table`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments.models import TableToken, Tournament
from tournaments.services import Actor, is_director

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


def is_scorer(request: Request) -> bool:
    return isinstance(request.auth, TableToken)


def is_user(request: Request) -> bool:
    return bool(request.user and request.user.is_authenticated)


def directs(request: Request, tournament: Tournament) -> bool:
    """Does the caller direct this tournament (signed in as one of its directors, or a
    superuser)? The API's one question for what only directors see: draft rounds, unreleased
    duplicate results, a round's room."""
    return is_user(request) and is_director(Actor(user=request.user), tournament)


class _Scoped(BasePermission):
    code = "scorer-not-allowed"
    message = "a table token may only score hands at its own table"


class ReadOnlyOrSignedIn(_Scoped):
    """Anyone reads; a signed-in user writes (the services check the tournament)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return is_user(request)


class SignedIn(_Scoped):
    """A signed-in user, for reading and writing (e.g. the audit trail, token lists)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_user(request)


class ScorerOrSignedIn(BasePermission):
    """A table scorer or a signed-in user (scoring endpoints)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or is_scorer(request) or is_user(request)


class Scorer(BasePermission):
    """A table scorer's token (and nothing else)."""

    message = "this needs a table token: Authorization: Table <secret>"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_scorer(request)
