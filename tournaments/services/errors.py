"""One error shape for every workflow: a stable code, a message, and details."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A workflow refused its input; nothing was changed.

    `code` is stable (clients and translations key on it); `status` is the HTTP status the API
    maps it to; `details` carries structured context (e.g. the rules engine's error list);
    `retry_after` (seconds), when set, is sent as the answer's Retry-After header.
    """

    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        details: Any = None,
        status: int | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after
        self.message = message
        self.details = details
        if status is not None:
            self.status = status

    def as_dict(self) -> dict:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details is not None:
            body["details"] = self.details
        return body


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The state changed under the request (a race, a replayed key with a different body)."""

    status = 409


class Invalid(ServiceError):
    """Well-formed input the domain cannot accept (an illegal hand, an impossible pairing)."""

    status = 422
