"""Error pages: 400, 403, 404, 413, 500 and a refused form (CSRF), in the site's design and the
visitor's language, each with a way back. Never Django's technical page with DEBUG off.

Django calls these as `handler400`... `handler500` (config/urls.py) and `CSRF_FAILURE_VIEW`.
Under /api/ each answers in the API's JSON error shape instead (tournaments/web/error_shape.py,
which does not import DRF: these load before it).

The 500 page is rendered without the request (no context processors, no session, no
database: the fault may be the database) from a template with no `{% url %}` tag.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

from tournaments.web.error_shape import error_response  # the API's error shape, without DRF

log = logging.getLogger(__name__)
API_PREFIX = "/api/"
TOURNAMENT_PATH = re.compile(r"^/(?:t|director)/([-a-zA-Z0-9_]+)/")

# The API's code and message for each status (stable codes, as api/errors.py names them).
API_ERRORS = {
    400: ("bad-request", "the request could not be read"),
    403: ("permission-denied", "You do not have permission to perform this action."),
    404: ("not-found", "no such API address"),
    500: ("server-error", "the server failed; the error is logged"),
}

# The last resort when even the 500 template fails: no template, no translation catalogue.
BARE_500 = (
    '<!DOCTYPE html><html lang="en"><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>TrickTable</title><h1>Something went wrong / エラーが発生しました</h1>"
    "<p>The server could not finish this page. Try again in a moment.</p>"
    "<p>ページを表示できませんでした。少し待ってからもう一度お試しください。</p>"
    '<p><a href="/">TrickTable</a></p></html>'
)


def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _api_response(
    status: int, *, code: str | None = None, message: str | None = None
) -> JsonResponse:
    default_code, default_message = API_ERRORS[status]
    return error_response(status, code or default_code, message or default_message)


def _language(request: HttpRequest) -> str:
    """The visitor's language from the cookie or the browser, as LocaleMiddleware would choose
    it (the error may have happened before that middleware ran)."""
    try:
        return translation.get_language_from_request(request)
    except Exception:  # a malformed request: English
        return settings.LANGUAGE_CODE


def _back_url(request: HttpRequest) -> str:
    """The page the visitor came from, when it is on this site."""
    referer = request.META.get("HTTP_REFERER", "")
    try:
        host = request.get_host()
    except Exception:  # DisallowedHost: no way back through the Referer
        return ""
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={host}, require_https=request.is_secure()
    ):
        return referer
    return ""


def _signed_in(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    try:
        return bool(user is not None and user.is_authenticated)
    except Exception:  # the session store is down: show the page without the director's link
        return False


def _tournament_link(request: HttpRequest) -> tuple[str, str] | None:
    """(url, name) of the tournament an address under /t/<slug>/ or /director/<slug>/ names,
    when it exists: the nearest way back from a mistyped page of it."""
    match = TOURNAMENT_PATH.match(request.path_info)
    if match is None:
        return None
    from tournaments.clubs.services import current_club
    from tournaments.selectors.public.tournament import tournament_by_slug

    try:
        tournament = tournament_by_slug(match.group(1), club=current_club(request))
    except Exception:  # the database is down: the other ways back remain
        return None
    if tournament is None:
        return None
    return reverse("tournaments:public-tournament", args=[tournament.slug]), tournament.name


def _reverse_or(name: str, fallback: str) -> str:
    try:
        return reverse(name)
    except Exception:  # a broken URLconf may be the very fault being reported
        return fallback


def _render(request: HttpRequest, template: str, status: int, **context: Any) -> HttpResponse:
    """An error page with the request (header, language switch, signed-in links)."""
    with translation.override(_language(request)):
        signed_in = _signed_in(request)
        context = {
            "status": status,
            "home_url": reverse("tournaments:home"),
            "back_url": _back_url(request),
            "director_url": reverse("tournaments:director-home") if signed_in else "",
            "signed_in": signed_in,
            "login_url": f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}",
            **context,
        }
        html = loader.render_to_string(template, context, request)
        response = HttpResponse(html, status=status)
        response["Content-Language"] = translation.get_language()
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400: a request the server could not read (a damaged form, a wrong host name)."""
    if _api(request):
        return _api_response(400)
    return _render(request, "400.html", 400)


def _clubs_directed(request: HttpRequest) -> tuple[bool, list[tuple[str, str]]]:
    """Whether the signed-in account directs the club of this address, and (name, address of
    the director's home) of each other club it directs: the way on from another club's page,
    where the director's link of this club would refuse again."""
    if not _signed_in(request) or request.path_info.startswith("/clubs/"):
        return False, []  # (the installation's pages are its administrators', no club's)
    from tournaments.clubs.models import Club
    from tournaments.clubs.services import current_club, directs_club
    from tournaments.clubs.views import director_home_address

    try:
        here = current_club(request)
        user = request.user
        if directs_club(user, here) or user.pk is None:
            return True, []
        clubs = list(Club.objects.filter(directors__pk=user.pk).order_by("name", "pk"))
    except (OperationalError, InterfaceError):  # the database is down: the other ways remain
        return False, []
    return False, [
        (club.name, director_home_address(request, club)) for club in clubs if club.pk != here.pk
    ]


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403: a page for someone else (another director's tournament, another club's page)."""
    if _api(request):
        return _api_response(403)
    directs_here, elsewhere = _clubs_directed(request)
    extra: dict[str, Any] = {"other_club": not directs_here and bool(elsewhere)}
    if extra["other_club"]:
        extra["director_url"] = ""  # this club's director pages would refuse again
        extra["your_clubs"] = elsewhere
    return _render(request, "403.html", 403, **extra)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: no page at this address; the tournament it names, if any, is offered."""
    if _api(request):
        return _api_response(404)
    link = _tournament_link(request)
    return _render(
        request,
        "404.html",
        404,
        request_path=request.path,
        tournament_url=link[0] if link else "",
        tournament_name=link[1] if link else "",
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 for a form Django refused (CSRF): the form expired, or cookies are off."""
    if _api(request):
        return _api_response(
            403,
            code="csrf-failed",
            message="the form's security check failed; reload and try again",
        )
    return _render(request, "403_csrf.html", 403, reason=reason if settings.DEBUG else "")


def request_too_large(request: HttpRequest, limit: int) -> HttpResponse:
    """413: a request body over REQUEST_BODY_LIMIT, refused before it was read
    (config/body_limit.py). Rendered without the request's context processors: no session,
    no database, nothing that could read the body."""
    if _api(request):
        return error_response(
            413, "too-large", f"the request body is larger than {limit} bytes", {"limit": limit}
        )
    with translation.override(_language(request)):
        html = loader.get_template("413.html").render(
            {
                "status": 413,
                "limit_mb": limit // (1024 * 1024),
                "home_url": _reverse_or("tournaments:home", "/"),
                "back_url": _back_url(request),
            }
        )
        response = HttpResponse(html, status=413)
        response["Content-Language"] = translation.get_language()
    return response


#: Seconds a client is asked to wait when the database is out of reach: the API's clients retry
#: (a submission with its idempotency key), a reader is asked to try the page again.
API_RETRY_AFTER = 1
PAGE_RETRY_AFTER = 5


def database_down(exc: BaseException | None) -> bool:
    """Whether `exc` is the database out of reach: a lost or refused connection, or none free
    in the pool within its timeout (psycopg_pool's PoolTimeout, which Django's connect wraps
    in OperationalError)."""
    return isinstance(exc, (OperationalError, InterfaceError))


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After, the one answer to a database out of reach, for pages and the API
    alike (api/middleware.py hands the API's to this too): the API's error shape
    (`database-unavailable`) under /api/, else the friendly page in the visitor's language,
    rendered like the 500 page without the request (no session, no database)."""
    if _api(request):
        response: HttpResponse = error_response(
            503, "database-unavailable", "the database is unavailable; retry shortly"
        )
        response["Retry-After"] = str(API_RETRY_AFTER)
        return response
    # A page that was read is offered again; a form sent is not (that would send it again).
    again = request.get_full_path() if request.method in ("GET", "HEAD") else ""
    try:
        with translation.override(_language(request)):
            html = loader.get_template("503.html").render(
                {
                    "status": 503,
                    "retry_after": PAGE_RETRY_AFTER,
                    "again_url": again,
                    "home_url": _reverse_or("tournaments:home", "/"),
                    "back_url": _back_url(request),
                }
            )
            language = translation.get_language()
    except Exception:  # the page itself failed: the bare page, still not a technical one
        log.exception("the 503 page failed to render")
        html, language = BARE_500, "en"
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(PAGE_RETRY_AFTER)
    response["Content-Language"] = language
    response["Cache-Control"] = "no-store"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """500: rendered without the request's context processors (no session, no database).
    Django calls it from inside its handling of the uncaught exception, so `sys.exc_info()`
    names it: the database out of reach is the 503 instead (a view's failure, and a
    middleware's, such as the session's, which no `process_exception` sees)."""
    if database_down(sys.exc_info()[1]):
        return database_unavailable(request)
    if _api(request):
        return _api_response(500)
    try:
        with translation.override(_language(request)):
            html = loader.get_template("500.html").render(
                {
                    "status": 500,
                    "home_url": _reverse_or("tournaments:home", "/"),
                    "director_url": _reverse_or("tournaments:director-home", "/director/"),
                }
            )
            language = translation.get_language()
    except Exception:  # the page itself failed: a bare page, still not a technical one
        log.exception("the 500 page failed to render")
        html, language = BARE_500, "en"
    response = HttpResponse(html, status=500)
    response["Content-Language"] = language
    return response
