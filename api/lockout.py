"""django-axes for the API's sign-in (`POST /api/v1/auth/tokens`), the way axes documents its
integration with Django REST Framework: the API authenticates with the DRF request, and a
receiver of axes' `user_locked_out` signal turns a lockout during it into the API's answer
(429 `locked-out`, with Retry-After), raised out of `authenticate`. The site's sign-in pages are
Django's: there axes' middleware answers (AXES_LOCKOUT_CALLABLE, `api.errors.locked_out`)."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.request import Request

from api.errors import ApiError


class LockedOut(ApiError):
    def __init__(self, *, wait: int | None, failure_limit: int) -> None:
        super().__init__(
            code="locked-out",
            message="too many wrong passwords for this username from this address; try again later",
            status_code=status.HTTP_429_TOO_MANY_REQUESTS,
            details={"wait": wait, "failure_limit": failure_limit},
        )
        self.wait = wait


def refuse_api_sign_in(sender: Any, *, request: Any = None, **kwargs: Any) -> None:
    """`user_locked_out`'s receiver (connected in `api.apps.ApiConfig.ready`)."""
    if not isinstance(request, Request):
        return  # a sign-in page: axes' middleware answers
    from axes.helpers import get_cool_off, get_failure_limit

    cool_off = get_cool_off(request)
    raise LockedOut(
        wait=int(cool_off.total_seconds()) if cool_off else None,
        failure_limit=get_failure_limit(request, getattr(request, "axes_credentials", None)),
    )
