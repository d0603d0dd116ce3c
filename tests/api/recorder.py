"""What the server answers in the API tests, held against the OpenAPI document: a middleware
(outermost, so it sees the answer as sent) notes each answer of a documented operation whose
status the operation does not list, and each error `code` not in the documented list
(`ErrorCode`). tests/api/conftest.py puts it in for every API test and fails the test that
saw one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from drf_spectacular.generators import SchemaGenerator

from api.codes import ERROR_CODES

MIDDLEWARE = "tests.api.recorder.Recorder"


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    statuses: frozenset[str]


@cache
def operations() -> tuple[tuple[re.Pattern[str], str, dict[str, Any]], ...]:
    """Each documented path as a pattern, with its operations (the document made once)."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    out = []
    for path, operations in document["paths"].items():
        pattern = re.escape(path)
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+?", pattern)
        out.append((re.compile(pattern), path, operations))
    return tuple(out)


def operation(method: str, path: str) -> Operation | None:
    """The documented operation that answers `method` at `path`; HEAD is GET's."""
    method = "get" if method == "HEAD" else method.lower()
    for pattern, template, found in operations():
        if pattern.fullmatch(path) and method in found:
            return Operation(method, template, frozenset(found[method]["responses"]))
    return None


#: What the tests saw that the document does not say, in the order seen.
seen: list[str] = []


class Recorder:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/api/"):
            check(request.method, request.path, response)
        return response


def check(method: str, path: str, response) -> None:
    status = response.status_code
    found = operation(method, path)
    redirect = status in (301, 308)  # SecurityMiddleware's to HTTPS, before any operation
    if found is not None and status < 500 and not redirect and str(status) not in found.statuses:
        seen.append(f"{found.method.upper()} {found.path} answered {status}")
    if status >= 400 and response.get("Content-Type", "").startswith("application/json"):
        try:
            code = json.loads(response.content).get("code")
        except (ValueError, AttributeError):
            return
        if code is not None and code not in ERROR_CODES:
            seen.append(f"{method} {path} sent the undocumented code {code!r}")
