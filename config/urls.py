"""Top-level URL configuration."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from django.views.i18n import set_language


@require_safe
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin, the API's pages, a
    PDF): the site's icon, not a 404 in the server's log."""
    return redirect(static("img/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    # Django's own language switch, without CSRF protection: all it does is set the visitor's
    # language cookie (and redirect to a page of this site: `next` is checked), so a forged
    # request can do no more than change the language a visitor reads. Without a token, the
    # switch in every page's header (templates/base.html) sets no CSRF cookie, and the public
    # pages can be kept by the proxy's micro-cache (tournaments/web/caching.py).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("api.urls")),
    path("", include("tournaments.urls")),
]

# Error pages in the site's design (JSON under /api/): tournaments/views/errors.py.
handler400 = "tournaments.views.errors.bad_request"
handler403 = "tournaments.views.errors.permission_denied"
handler404 = "tournaments.views.errors.page_not_found"
handler500 = "tournaments.views.errors.server_error"
