"""The downloads through the API (`docs/exports.md`): the same files as the public pages'
links, built by `tournaments.exports.downloads`, with the API's authentication (a director's
`Authorization: Token` reads the archive) and its one error shape.

- `GET /tournaments/{slug}/exports/{standings|results|bracket}.{csv|xlsx|pdf}`: public; the PDF
  and XLSX are throttled per client on the pages' counter (scope `export`).
- `GET /tournaments/{slug}/exports/hands.jsonl`: every confirmed hand, public.
- `GET /tournaments/{slug}/exports/matches/{id}.json`: one public match as `match/1`.
- `GET /tournaments/{slug}/archive`: the whole tournament, its directors only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from tournaments import services
from tournaments.exports import downloads
from tournaments.exports.records import JSONL_TYPE
from tournaments.exports.tabular import XLSX_TYPE

from .permissions import SignedIn
from .throttles import DownloadThrottle
from .views import SLUG, ApiView, actor_for, tournament_of


class FileRenderer(BaseRenderer):
    """Lets a client ask for the file's own type (`Accept: text/csv`): the views answer with
    the file itself; a refusal (a dict, the error shape) is written as JSON."""

    media_type = "*/*"
    format = "file"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, bytes):
            return data
        return json.dumps(data).encode()


class _Download(ApiView):
    renderer_classes = [JSONRenderer, FileRenderer]


SUBJECT = OpenApiParameter(
    "subject",
    str,
    OpenApiParameter.PATH,
    enum=list(downloads.SUBJECTS),
    description="What the file shows (`bracket`: a knockout's).",
)
FORMAT = OpenApiParameter(
    "fmt", str, OpenApiParameter.PATH, enum=list(downloads.FORMATS), description="The format."
)


class TableExport(_Download):
    def get_throttles(self) -> list:
        fmt = self.kwargs.get("fmt")  # none for the OpenAPI document: the costly ones count
        if fmt is None or downloads.is_costly(fmt):
            return [DownloadThrottle()]
        return []

    @extend_schema(
        tags=["exports"],
        parameters=[SLUG, SUBJECT, FORMAT],
        summary="Standings, results or the bracket as CSV, XLSX or PDF",
        operation_id="tournaments_exports_table",
        responses={
            (200, "text/csv"): OpenApiTypes.BINARY,
            (200, XLSX_TYPE): OpenApiTypes.BINARY,
            (200, "application/pdf"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request, slug: str, subject: str, fmt: str) -> HttpResponseBase:
        return downloads.response(downloads.table(tournament_of(request, slug), subject, fmt))


class HandsExport(_Download):
    @extend_schema(
        tags=["exports"],
        parameters=[SLUG],
        summary="Every confirmed hand as hand/1 JSON Lines (streamed)",
        operation_id="tournaments_exports_hands",
        responses={(200, JSONL_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, slug: str) -> HttpResponseBase:
        return downloads.response(downloads.hands(tournament_of(request, slug)))


class MatchExport(_Download):
    @extend_schema(
        tags=["exports"],
        parameters=[SLUG, OpenApiParameter("id", int, OpenApiParameter.PATH)],
        summary="One match as a match/1 record",
        operation_id="tournaments_exports_match",
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, slug: str, id: int) -> HttpResponseBase:  # noqa: A002 - the path's name
        download = downloads.match(tournament_of(request, slug), id)
        if download is None:
            raise Http404("no such match")
        return downloads.response(download)


class ArchiveExport(_Download):
    permission_classes = [SignedIn]

    @extend_schema(
        tags=["exports"],
        parameters=[SLUG],
        summary="The whole tournament (tricktable-archive/1), for its directors",
        operation_id="tournaments_archive",
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, slug: str) -> HttpResponseBase:
        tournament = tournament_of(request, slug)
        services.require_director(actor_for(request), tournament)
        response = downloads.response(downloads.whole(tournament))
        response["Cache-Control"] = "private, no-store"
        return response
