"""The clubs' pages (docs/clubs.md, "Running clubs").

- The installation's pages, at the site's root only (under a club's address they redirect to
  the root's): the front page `clubs/` (public: the clubs, each linking to its address), the
  administrators' `clubs/manage/` (the clubs with their counts, a new club) and a club's
  `clubs/manage/<club>/` (invite its first director, suspend or resume it, its audit trail),
  and an invitation's link `clubs/join/<secret>/` (make an account or accept with one's own).
- The club's directors' page `director/club/` under the club's address: its directors, a new
  invitation, the open invitations (revoke) and removing a director.
- `suspended_page`: what every page of a suspended club answers (ClubMiddleware asks it).

Every POST is one service call (tournaments/clubs/running.py), then a redirect, except a new
invitation, whose link is shown once in the answer to the POST.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.clubs import running, selectors
from tournaments.clubs.models import INVITATION_DAYS, Club, ClubInvitation, home_club
from tournaments.clubs.services import current_club, directs_club
from tournaments.services import Actor, ServiceError
from tournaments.tokens import hash_secret
from tournaments.views.access import director_page
from tournaments.web.caching import public_page

#: Each refusal of the clubs' services in the reader's language (the code stays in the page).
REFUSALS: dict[str, Any] = {
    "not-administrator": gettext_lazy("Only the site's administrators may do that."),
    "not-club-director": gettext_lazy("Only this club's directors may do that."),
    "club-suspended": gettext_lazy("This club is suspended: its directors cannot act."),
    "club-not-suspended": gettext_lazy("This club is not suspended."),
    "home-club": gettext_lazy(
        "The home club, whose pages are the site's root, cannot be suspended."
    ),
    "bad-name": gettext_lazy("A club's name is 1 to 150 characters."),
    "bad-slug": gettext_lazy(
        "An address is 2 to 50 lower-case letters, digits and hyphens, with no hyphen at "
        "either end."
    ),
    "slug-reserved": gettext_lazy("This address is reserved for the site: choose another."),
    "slug-taken": gettext_lazy("Another club has this address: choose another."),
    "reason-required": gettext_lazy("Say why: the reason is kept in the club's audit trail."),
    "bad-reason": gettext_lazy("A reason is at most 1000 characters."),
    "bad-label": gettext_lazy("Who the invitation is for: at most 100 characters."),
    "bad-lifetime": gettext_lazy("An invitation lasts 1 to 30 days."),
    "invitation-unknown": gettext_lazy("This invitation link is not known here."),
    "invitation-used": gettext_lazy("This invitation link has been used already."),
    "invitation-revoked": gettext_lazy("This invitation was revoked."),
    "invitation-expired": gettext_lazy("This invitation has expired."),
    "already-director": gettext_lazy("Your account directs this club already."),
    "bad-username": gettext_lazy(
        "A user name is up to 150 letters, digits and the signs @ . + - _ only."
    ),
    "username-taken": gettext_lazy("Another account has this user name: choose another."),
    "weak-password": gettext_lazy("Choose a stronger password."),
    "not-a-director": gettext_lazy("This account does not direct this club."),
    "last-director": gettext_lazy(
        "A club keeps at least one director: invite another before removing this one."
    ),
}


def refusal(error: ServiceError) -> str:
    """The refusal in the reader's language (the service's English when it has no words)."""
    words = REFUSALS.get(error.code)
    text = str(words) if words is not None else error.message
    if error.code == "weak-password" and isinstance(error.details, list):
        text = " ".join([text, *map(str, error.details)])
    return text


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    return response


def _club_prefix(request: HttpRequest) -> str:
    """`c/<club>/` when the page is served at a club's address (the script prefix then ends
    with it: ClubMiddleware), else ""."""
    club = getattr(request, "club", None)
    if club is None or request.path == request.path_info:
        return ""
    prefix = f"c/{current_club(request).slug}/"
    return prefix if get_script_prefix().endswith("/" + prefix) else ""


def root_address(request: HttpRequest, address: str) -> str:
    """An address `reverse` made, at the site's root even when the page is a club's."""
    club_prefix = _club_prefix(request)
    script = get_script_prefix()
    if club_prefix and address.startswith(script):
        return script[: -len(club_prefix)] + address[len(script) :]
    return address


def club_address(request: HttpRequest, club: Club, name: str = "tournaments:home") -> str:
    """The address of a club's page `name` (at `/c/<club>/`), from a page at the root."""
    root = root_address(request, get_script_prefix())
    return f"{root}c/{club.slug}/{root_address(request, reverse(name))[len(root) :]}"


def director_home_address(request: HttpRequest, club: Club) -> str:
    """The address of a club's director's home from any page: the site's root for the home
    club, `/c/<club>/` for another."""
    if club.pk == home_club().pk:
        return root_address(request, reverse("tournaments:director-home"))
    return club_address(request, club, "tournaments:director-home")


def at_the_root(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """An installation's page, served at the site's root: under a club's address
    (`/c/<club>/clubs/...`) it redirects to the same page at the root."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if _club_prefix(request):
            return HttpResponseRedirect(root_address(request, request.get_full_path()))
        return view(request, *args, **kwargs)

    return page


# The installation's front page ---------------------------------------------------------------


@public_page
@require_GET
@at_the_root
def front_page(request: HttpRequest) -> HttpResponse:
    """The clubs of this installation, each linking to its pages."""
    clubs = [(club, club_address(request, club)) for club in selectors.public_clubs()]
    return render(request, "clubs/front.html", {"clubs": clubs})


# The administrators' pages -----------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@at_the_root
@director_page(of="installation")
def manage_page(request: HttpRequest) -> HttpResponse:
    """The clubs with their counts; a new club (POST: name and address)."""
    values = {"name": "", "slug": ""}
    error: ServiceError | None = None
    if request.method == "POST":
        values = {key: request.POST.get(key, "") for key in values}
        try:
            club = running.create_club(
                actor=Actor(user=request.user), name=values["name"], slug=values["slug"]
            )
        except ServiceError as refused:
            error = refused
        else:
            messages.success(
                request, _("Club made: %(name)s. Invite its first director.") % {"name": club.name}
            )
            return redirect("tournaments:clubs-manage-club", club.slug)
    response = render(
        request,
        "clubs/manage.html",
        {
            "rows": selectors.clubs_overview(),
            "values": values,
            "error": error,
            "error_words": refusal(error) if error else "",
        },
        status=400 if error else 200,
    )
    return _private(response)


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    new_link: str = "",
    error: ServiceError | None = None,
) -> HttpResponse:
    return _private(
        render(
            request,
            "clubs/manage_club.html",
            {
                "club": club,
                "home": club.pk == home_club().pk,
                "reason": selectors.suspension_reason(club),
                "directors": selectors.directors(club),
                "invitations": selectors.open_invitations(club),
                "audit": selectors.audit(club),
                "new_link": new_link,
                "invitation_days": INVITATION_DAYS,
                "error": error,
                "error_words": refusal(error) if error else "",
            },
            status=400 if error else 200,
        )
    )


def _join_link(request: HttpRequest, secret: str) -> str:
    """The invitation's address at the site's root (an installation's page)."""
    return request.build_absolute_uri(
        root_address(request, reverse("tournaments:clubs-join", args=[secret]))
    )


@require_GET
@at_the_root
@director_page(of="installation")
def manage_club_page(request: HttpRequest, club: str) -> HttpResponse:
    return _club_page(request, get_object_or_404(Club, slug=club))


@require_POST
@at_the_root
@director_page(of="installation")
def manage_club_action(request: HttpRequest, club: str, action: str) -> HttpResponse:
    """suspend, resume, invite, revoke (one service call each)."""
    found = get_object_or_404(Club, slug=club)
    actor = Actor(user=request.user)
    reason = request.POST.get("reason", "")
    try:
        if action == "suspend":
            running.suspend_club(actor=actor, club=found, reason=reason)
            messages.success(request, _("The club is suspended; its data stays as it is."))
        elif action == "resume":
            running.resume_club(actor=actor, club=found, reason=reason)
            messages.success(request, _("The club is open again."))
        elif action == "invite":
            _invitation, secret = running.invite_director(
                actor=actor, club=found, label=request.POST.get("label", "")
            )
            return _club_page(request, found, new_link=_join_link(request, secret))
        elif action == "revoke":
            running.revoke_invitation(
                actor=actor, club=found, invitation_id=_number(request.POST.get("invitation"))
            )
            messages.success(request, _("The invitation is revoked: its link no longer works."))
        else:
            return _club_page(request, found)
    except ServiceError as error:
        found.refresh_from_db()
        return _club_page(request, found, error=error)
    return redirect("tournaments:clubs-manage-club", found.slug)


def _number(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


# The club's directors' page --------------------------------------------------------------------


def _directors_page(
    request: HttpRequest, *, new_link: str = "", error: ServiceError | None = None
) -> HttpResponse:
    club = current_club(request)
    return _private(
        render(
            request,
            "clubs/directors.html",
            {
                "club": club,
                "directors": selectors.directors(club),
                "invitations": selectors.open_invitations(club),
                "audit": selectors.audit(club, limit=20),
                "new_link": new_link,
                "invitation_days": INVITATION_DAYS,
                "error": error,
                "error_words": refusal(error) if error else "",
            },
            status=400 if error else 200,
        )
    )


@require_GET
@director_page(of="club")
def directors_page(request: HttpRequest) -> HttpResponse:
    """The club's directors, its open invitations, a new invitation."""
    return _directors_page(request)


@require_POST
@director_page(of="club")
def directors_action(request: HttpRequest, action: str) -> HttpResponse:
    """invite, revoke, remove (one service call each)."""
    club = current_club(request)
    actor = Actor(user=request.user, club=club)
    try:
        if action == "invite":
            _invitation, secret = running.invite_director(
                actor=actor, club=club, label=request.POST.get("label", "")
            )
            return _directors_page(request, new_link=_join_link(request, secret))
        if action == "revoke":
            running.revoke_invitation(
                actor=actor, club=club, invitation_id=_number(request.POST.get("invitation"))
            )
            messages.success(request, _("The invitation is revoked: its link no longer works."))
        elif action == "remove":
            removed = running.remove_director(
                actor=actor, club=club, user_id=_number(request.POST.get("director"))
            )
            messages.success(
                request,
                _("%(name)s no longer directs this club.") % {"name": removed.get_username()},
            )
        else:
            return _directors_page(request)
    except ServiceError as error:
        return _directors_page(request, error=error)
    return redirect("tournaments:club-directors")


# An invitation's link ----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@at_the_root
def join_page(request: HttpRequest, secret: str) -> HttpResponse:
    """Open an invitation: make an account (user name and password) or, signed in, accept with
    one's own; either way become a director of its club."""
    invitation = (
        ClubInvitation.objects.select_related("club", "invited_by")
        .filter(key_hash=hash_secret(secret))
        .first()
    )
    refused = running.invitation_refusal(invitation)
    signed_in = request.user.is_authenticated
    form: UserCreationForm[User] = UserCreationForm(
        request.POST if request.method == "POST" and not signed_in else None
    )
    error: ServiceError | None = refused
    if refused is None and request.method == "POST" and (signed_in or form.is_valid()):
        try:
            if signed_in:
                _invitation, account = running.accept_invitation(secret=secret, user=request.user)
            else:
                _invitation, account = running.accept_invitation(
                    secret=secret,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                login(request, account, backend="django.contrib.auth.backends.ModelBackend")
        except ServiceError as failed:
            error = failed
        else:
            assert invitation is not None  # refused otherwise
            messages.success(
                request, _("Welcome: you direct %(club)s now.") % {"club": invitation.club.name}
            )
            return HttpResponseRedirect(
                club_address(request, invitation.club, "tournaments:club-directors")
            )
    status = 200
    if refused is not None:
        status = refused.status if refused.status != 409 else 410
    elif error is not None or (request.method == "POST" and not signed_in):
        status = 400
    response = render(
        request,
        "clubs/join.html",
        {
            "invitation": invitation if refused is None else None,
            "form": form,
            "signed_in": signed_in,
            "error": error,
            "error_words": refusal(error) if error else "",
            "login_url": f"{reverse('login')}?next={request.path}",
        },
        status=status,
    )
    # The secret in this address goes to no other site ("no-referrer" would make the form's
    # POST come from Origin: null, which the CSRF check refuses).
    response["Referrer-Policy"] = "same-origin"
    return _private(response)


# A suspended club's pages ----------------------------------------------------------------------


def suspended_page(request: HttpRequest, club: Club) -> HttpResponse:
    """What every page of a suspended club answers: 403 in the site's design (its data stays;
    nothing of it is shown). ClubMiddleware serves it at the club's address with the root's
    links."""
    return _private(
        render(
            request,
            "clubs/suspended.html",
            {
                "status": 403,
                "club": club,
                "home_url": reverse("tournaments:home"),
                "clubs_url": reverse("tournaments:clubs"),
            },
            status=403,
        )
    )


@require_GET
def director_start(request: HttpRequest) -> HttpResponseBase:
    """Where signing in leads (`LOGIN_REDIRECT_URL`): the director's pages of this address's
    club when the account directs it, else of the first club it directs (a club's director who
    signed in at the site's root is not met by the home club's refusal). It shows nothing: the
    page it leads to decides who may see it."""
    if not request.user.is_authenticated or directs_club(request.user, current_club(request)):
        return redirect("tournaments:director-home")
    theirs = Club.objects.filter(directors=request.user.pk).order_by("name", "pk").first()
    if theirs is None:
        return redirect("tournaments:director-home")  # which says who may see it
    return HttpResponseRedirect(director_home_address(request, theirs))


urlpatterns = [
    path("accounts/start/", director_start, name="director-start"),
    path("clubs/", front_page, name="clubs"),
    path("clubs/manage/", manage_page, name="clubs-manage"),
    path("clubs/manage/<slug:club>/", manage_club_page, name="clubs-manage-club"),
    path(
        "clubs/manage/<slug:club>/<str:action>/",
        manage_club_action,
        name="clubs-manage-action",
    ),
    path("clubs/join/<str:secret>/", join_page, name="clubs-join"),
    path("director/club/", directors_page, name="club-directors"),
    path("director/club/<str:action>/", directors_action, name="club-directors-action"),
]
