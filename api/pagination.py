"""Page-number pagination for every list: `?page=2&page_size=50` (at most 200 a page)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int | None:
        """The asked size, refused when it is not a whole number from 1 to the documented cap
        (DRF would quietly serve a different size than the one asked)."""
        asked = request.query_params.get(self.page_size_query_param)
        if asked is not None and not (asked.isdecimal() and 1 <= int(asked) <= self.max_page_size):
            raise ValidationError(
                {self.page_size_query_param: [f"a whole number from 1 to {self.max_page_size}"]}
            )
        return super().get_page_size(request)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page shape, with `next` and `previous` said nullable the OpenAPI 3.1 way (a
        `"null"` type: 3.1 has no `nullable`, and a 3.1 validator or client generator would
        refuse every last page's `"next": null`)."""
        page = super().get_paginated_response_schema(schema)
        for name in ("next", "previous"):
            link = page["properties"][name]
            link.pop("nullable", None)
            link["type"] = [link["type"], "null"]
        return page


def paginated(
    request: Request,
    view: APIView,
    rows: QuerySet[Any] | Sequence[Any],
    serialize: Callable[[Sequence[Any]], Any] | None = None,
) -> Response:
    """One page of `rows` (an ordered queryset or a list) in the one list shape (`count`,
    `next`, `previous`, `results`), each row through `serialize` when given: for the views
    that build their list themselves rather than by a generic list view."""
    paginator = Pagination()
    chunk = paginator.paginate_queryset(rows, request, view=view) or []
    return paginator.get_paginated_response(serialize(chunk) if serialize else list(chunk))
