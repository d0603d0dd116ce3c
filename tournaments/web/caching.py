"""What a public page says a cache may do with it (`public_page`), so that the deployment's
nginx micro-cache (deploy/nginx/tricktable-proxy.conf, docs/deployment.md) can keep it.

- A visitor who is not signed in, reading (GET, HEAD) a page every such visitor reads alike:
  `Cache-Control: public, max-age=PUBLIC_PAGE_MAX_AGE` (config/settings.py; 0: nothing is
  said, as before). Only answers the same for every such reader are marked: 200, a redirect, a
  404 (a round not published yet), and only when the answer sets no cookie.
- A signed-in visitor (who may see drafts: `tournaments.views.access.viewer_directs`):
  `private, no-cache`: no shared cache keeps it, and the browser asks again each time.
- An answer that already says what may be kept (a live fragment's `no-cache`, a page with the
  visitor's own CSRF token marked `private`) is left as it is.
Every answer varies on Cookie (signed in or not), which Django's session middleware says too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers

#: The answers every visitor who is not signed in reads alike (the same words for the same
#: address), which a shared cache may keep for a few seconds.
KEPT_STATUSES = frozenset({200, 301, 302, 404})


def public_page[**P, R: HttpResponseBase](
    view: Callable[Concatenate[HttpRequest, P], R],
) -> Callable[Concatenate[HttpRequest, P], R]:
    """Mark a public page's answer cacheable for anonymous readers, private when signed in."""

    @wraps(view)
    def page(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> R:
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("Cookie",))
        if request.method not in ("GET", "HEAD") or response.has_header("Cache-Control"):
            return response
        if request.user.is_authenticated:
            patch_cache_control(response, private=True, no_cache=True)
        elif (
            settings.PUBLIC_PAGE_MAX_AGE > 0
            and response.status_code in KEPT_STATUSES
            and not response.cookies
        ):
            patch_cache_control(response, public=True, max_age=settings.PUBLIC_PAGE_MAX_AGE)
        return response

    return page
