"""Page-number pagination for every list: `?page=2&page_size=50` (at most 200 a page)."""

from typing import Any

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

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
