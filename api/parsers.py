"""JSON parsing with a size limit: a body over the limit is refused with 413 `too-large`
without being read in full (DRF reads JSON from the stream, so Django's
DATA_UPLOAD_MAX_MEMORY_SIZE does not apply)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from tournaments.services.hands import MAX_HAND_BYTES

from .errors import TooLarge

JSON_LIMIT = 1024 * 1024  # any JSON request body
HAND_LIMIT = MAX_HAND_BYTES  # a hand submission, correction or check (as the hand import)


class LimitedJSONParser(JSONParser):
    limit = JSON_LIMIT

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        if request is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > self.limit:
                raise TooLarge(self.limit)
        if stream is not None:
            data = stream.read(self.limit + 1)
            if len(data) > self.limit:
                raise TooLarge(self.limit)
            import io

            stream = io.BytesIO(data)
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:  # nesting deeper than Python's parser goes (about 1,000 levels)
            raise ParseError("JSON parse error - nested too deeply") from None


class HandJSONParser(LimitedJSONParser):
    limit = HAND_LIMIT


class ArchiveJSONParser(BaseParser):
    """A published event's archive (PUT /api/v1/publish/{slug}): a whole evening with every
    hand and its play is megabytes (16 teams: 1 MB a round), so up to the request body limit
    (REQUEST_BODY_LIMIT, 10 MiB), not the 1 MiB of other JSON bodies. Not a JSONParser: DRF
    reads a JSONParser's body through Django's `request.body`, capped at
    DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB); this one reads the stream itself, to the limit."""

    media_type = "application/json"
    limit = settings.REQUEST_BODY_LIMIT

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        if request is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > self.limit:
                raise TooLarge(self.limit)
        data = stream.read(self.limit + 1) if stream is not None else b""
        if len(data) > self.limit:
            raise TooLarge(self.limit)
        try:
            return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except ValueError as error:  # UnicodeDecodeError and JSONDecodeError included
            raise ParseError(f"JSON parse error - {error}") from None


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON (as DRF's strict JSONParser says)."""
    raise ValueError(f"{name} is not valid JSON")
