"""Public pages: anyone may read them (drafts only for the tournament's directors).

The club home, game leaderboards, a tournament with its rules in words and the registration
form, each round's pairings, live standings (with a fragment the page's script swaps in), a
match hand by hand, a player's record and ratings, and the projector view for the room.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from games.errors import RecordError
from tournaments import presentation, services
from tournaments.clubs.services import current_club
from tournaments.live import event_log
from tournaments.models import Player, Round, Tournament
from tournaments.room.services import ClockState
from tournaments.selectors.public import home as club
from tournaments.selectors.public import match as matches
from tournaments.selectors.public import player as players
from tournaments.selectors.public import round as rounds
from tournaments.selectors.public import standings
from tournaments.selectors.public import tournament as tournaments
from tournaments.services import Actor, PlayerSpec, ServiceError
from tournaments.views.access import viewer_directs
from tournaments.web import throttles
from tournaments.web.caching import public_page
from tournaments.web.clients import client_address

PUBLIC = Actor(label="public")


@public_page
def home(request: HttpRequest) -> HttpResponse:
    """The club home: tournaments running, open and past; the games and their leaderboards."""
    groups = club.club_tournaments(current_club(request))
    return render(request, "home.html", {"groups": groups})


@public_page
@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """The club's OpenSkill ratings in one game, best ordinal first."""
    if game not in presentation.PRESENTATIONS:
        raise Http404("no such game")
    return render(
        request,
        "tournaments/public/leaderboard.html",
        {
            "game": game,
            "game_name": presentation.game_name(game),
            "rows": club.leaderboard(game, current_club(request)),
            "games": club.rated_games(),
        },
    )


# --- a tournament ---------------------------------------------------------------------------


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = tournaments.tournament_by_slug(slug, club=current_club(request))
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def _duplicate_elsewhere(tournament: Tournament, *, projector: bool = False) -> HttpResponse | None:
    """A duplicate event has no matches, match points or Swiss standings: its rounds, standings
    and projector are the duplicate pages (ranking per field, travellers), so the tournament's
    other public addresses lead there."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    url = reverse("tournaments:duplicate-results", args=[tournament.slug])
    return redirect(f"{url}?view=projector" if projector else url)


class RegistrationForm(forms.Form):
    """A team (two players, an optional team name) or one player, as the event takes them."""

    team_name = forms.CharField(label=_("Team name (optional)"), max_length=100, required=False)
    player_1 = forms.CharField(label=_("Player"), max_length=100)
    club_number_1 = forms.CharField(
        label=_("Club number (optional)"), max_length=30, required=False
    )
    player_2 = forms.CharField(label=_("Partner"), max_length=100)
    club_number_2 = forms.CharField(
        label=_("Partner's club number (optional)"), max_length=30, required=False
    )

    def __init__(self, *args: Any, team: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.team = team
        if not team:
            for name in ("team_name", "player_2", "club_number_2"):
                del self.fields[name]
            self.fields["player_1"].label = _("Your name")
            self.fields["club_number_1"].label = _("Club number (optional)")
        for field in self.fields.values():
            field.widget.attrs.setdefault("autocomplete", "off")
        self.fields["player_1"].widget.attrs["autocomplete"] = "name"

    def full_clean(self) -> None:
        """Point each field with an error at its messages, for screen readers (after the
        cleaning)."""
        super().full_clean()
        for name in self.errors:
            if name in self.fields:
                self.fields[name].widget.attrs.update(
                    {
                        "aria-invalid": "true",
                        "aria-describedby": f"{self[name].auto_id}-errors",
                    }
                )

    def players(self) -> list[PlayerSpec]:
        data = self.cleaned_data
        specs = [PlayerSpec(data["player_1"], club_number=data.get("club_number_1", ""))]
        if self.team:
            specs.append(PlayerSpec(data["player_2"], club_number=data.get("club_number_2", "")))
        return specs


# Messages for the registration refusals people meet, by the service's stable code (the
# service's own message, in English, is the fallback).
REGISTRATION_ERRORS = {
    "registration-closed": _("Registration is not open for this tournament."),
    "tournament-finished": _("This tournament is over."),
    "already-entered": _("One of these players is already entered in this tournament."),
    "bad-entry": _("Name two different players for a team, one player otherwise."),
    "bad-player": _("Every player needs a name of at most 100 characters."),
}


def _registration_throttled(request: HttpRequest) -> int | None:
    """Count a public registration against the client's address (the API's POST counts on the
    same counter: tournaments/web/throttles.py); the seconds to wait when over the rate."""
    return throttles.counted("register", client_address(request))


def _registration_error(error: ServiceError) -> str:
    return str(REGISTRATION_ERRORS.get(error.code, error.message))


@public_page
@require_http_methods(["GET", "POST"])
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament: its facts, the rules in words, entries, rounds, and the registration
    form while registration is open (a POST registers through the entries service)."""
    tournament = _tournament(request, slug)
    team = tournament.is_team_event
    status = 200
    form = None
    wait = None
    if request.method == "POST":
        form = RegistrationForm(request.POST, team=team)
        wait = None if request.user.is_authenticated else _registration_throttled(request)
        if wait is not None:  # nothing is read further, nothing stored
            form.add_error(
                None,
                ngettext(
                    "This device sent too many registrations. Try again in %(minutes)d minute.",
                    "This device sent too many registrations. Try again in %(minutes)d minutes.",
                    -(-wait // 60),
                )
                % {"minutes": -(-wait // 60)},
            )
            status = 429
        elif form.is_valid():
            try:
                entry = services.register_entry(
                    tournament=tournament,
                    actor=PUBLIC,
                    players=form.players(),
                    name=form.cleaned_data.get("team_name", ""),
                )
            except ServiceError as error:
                form.add_error(None, _registration_error(error))
                status = error.status
            else:
                messages.success(
                    request, _("%(name)s is entered. See you at the table!") % {"name": entry.name}
                )
                # The page's top, where the confirmation is (not down at the entries list).
                return redirect(reverse("tournaments:public-tournament", args=[slug]))
        else:
            status = 400
    elif tournament.state == Tournament.State.REGISTRATION:
        form = RegistrationForm(team=team)
    director = viewer_directs(request, tournament)
    response = render(
        request,
        "tournaments/public/tournament.html",
        {
            "tournament": tournament,
            "rules": _rules_words(tournament),
            "preset": _preset(tournament),
            "entries": tournaments.entries(tournament),
            "rounds": tournaments.visible_rounds(tournament, director=director),
            "form": form,
            "team": team,
            "director": director,
        },
        status=status,
    )
    if wait is not None:
        response["Retry-After"] = str(wait)
    if form is not None:  # it carries this visitor's CSRF token: never one a cache shares
        response["Cache-Control"] = "private, no-cache"
    return response


def _preset(tournament: Tournament) -> str:
    rules = tournament.rules
    preset = rules if isinstance(rules, str) else rules.get("preset", "")
    return presentation.preset_name(tournament.game, preset)


def _rules_words(tournament: Tournament) -> list[str]:
    try:
        return presentation.describe(
            tournament.game,
            tournament.rules,
            match_length=tournament.match_length,
            match_hands=tournament.match_hands,
        )
    except RecordError:  # a house preset no longer registered: say what is stored
        return [str(tournament.rules)]


@public_page
@require_GET
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's pairings: tables, who plays whom where, each match's state and score, byes.
    A draft is the directors' alone: anyone else reads that the pairings are not published yet,
    as for a round of the schedule not paired yet (the two look alike: a draft shows nothing)."""
    tournament = _tournament(request, slug)
    if (elsewhere := _duplicate_elsewhere(tournament)) is not None:
        return elsewhere
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    director = viewer_directs(request, tournament)
    if round_ is None or (not round_.is_public and not director):
        if round_ is None and not _still_to_come(tournament, number):
            raise Http404("no such round")
        return render(
            request,
            "tournaments/public/round_unpublished.html",
            {
                "tournament": tournament,
                "number": number,
                "rounds": tournaments.visible_rounds(tournament, director=director),
            },
            status=404,
        )
    return render(
        request,
        "tournaments/public/round.html",
        {
            "tournament": tournament,
            "view": rounds.round_view(round_),
            "room_clock": _clock(round_),
            "clock_url": reverse("api:round-clock", args=[round_.pk]),
            "events_url": _events_url(tournament),
            "rounds": tournaments.visible_rounds(tournament, director=director),
        },
    )


@require_GET
def round_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's tables alone (each match's state and score), for live.js to swap in as
    results arrive, like the standings."""
    tournament = _tournament(request, slug)
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None or (not round_.is_public and not viewer_directs(request, tournament)):
        raise Http404("no such round")
    response = render(
        request,
        "tournaments/public/_round_tables.html",
        {"tournament": tournament, "view": rounds.round_view(round_)},
    )
    response["Cache-Control"] = "no-cache"
    return response


def _still_to_come(tournament: Tournament, number: int) -> bool:
    """A round of the schedule not paired yet: the tournament is not over and the number is
    within its rounds."""
    return tournament.state != Tournament.State.FINISHED and 1 <= number <= tournament.rounds


# --- standings ------------------------------------------------------------------------------


def _events_url(tournament: Tournament) -> str:
    """The SSE stream with a resume point taken now: events published between this render and
    the browser's connection are replayed rather than missed."""
    try:
        after = event_log.tail(tournament.pk)
    except Exception:  # Redis down: the page still renders, the script falls back to polling
        after = None
    try:
        stream = reverse("api:live-events", args=[tournament.slug])
    except NoReverseMatch:  # no live routes mounted: the script polls the fragment
        return ""
    return f"{stream}?lastEventId={after or '0-0'}"


def _standings_context(tournament: Tournament) -> dict:
    return {"tournament": tournament, "standings": standings.standings_view(tournament)}


@public_page
@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings, server-rendered from the latest snapshot; live.js keeps them current."""
    tournament = _tournament(request, slug)
    if (elsewhere := _duplicate_elsewhere(tournament)) is not None:
        return elsewhere
    return render(
        request,
        "tournaments/public/standings.html",
        {
            **_standings_context(tournament),
            "events_url": _events_url(tournament),
            "rounds": tournaments.visible_rounds(
                tournament, director=viewer_directs(request, tournament)
            ),
        },
    )


@require_GET
def standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table alone, for live.js to swap in."""
    tournament = _tournament(request, slug)
    response = render(request, "tournaments/public/_standings.html", _standings_context(tournament))
    response["Cache-Control"] = "no-cache"
    return response


# --- a match, a player ----------------------------------------------------------------------


@public_page
@require_GET
def match_page(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match hand by hand: bids, tricks, scores and running totals, each hand's status, and
    the play trick by trick when the full record is stored."""
    tournament = _tournament(request, slug)
    match = matches.match_in(tournament, match_id)
    director = viewer_directs(request, tournament)
    if match is None or (not match.round.is_public and not director):
        raise Http404("no such match")
    return render(
        request,
        "tournaments/public/match.html",
        {
            "tournament": tournament,
            "view": matches.match_view(match),
            "rounds": tournaments.visible_rounds(tournament, director=director),
        },
    )


@public_page
@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A member's page: every event played with place and points, the personal score card of
    each duplicate evening, and the rating in each game with its history (tournaments/members)."""
    from tournaments.members import selectors as members
    from tournaments.people import selectors as people

    player = Player.objects.filter(club=current_club(request), pk=player_id).first()
    if player is None or not members.shown(player):  # a name removed on request: no page
        raise Http404("no such player")
    return render(
        request,
        "tournaments/public/player.html",
        {
            "player": player,
            "events": players.player_events(player),
            "ratings": players.player_ratings(player),
            "cards": members.score_cards(player),
            "person_address": people.person_link(request, player),
        },
    )


# --- the projector --------------------------------------------------------------------------


def _projector_context(tournament: Tournament) -> dict:
    """The current round's tables beside the standings or, once the knockout stage has begun,
    beside the bracket (the bracket page's partial; the standings are not read then)."""
    from tournaments.knockout.selectors import projector_bracket

    round_ = tournaments.current_round(tournament)
    view = rounds.round_view(round_) if round_ else None
    bracket = projector_bracket(tournament)
    return {
        **(
            {"tournament": tournament, "bracket": bracket}
            if bracket
            else _standings_context(tournament)
        ),
        "view": view,
        "room_clock": _clock(round_),
        "unconfirmed": view is not None and any(t.pending for t in view.tables),
    }


def _clock(round_: Round | None) -> ClockState | None:
    """The round clock while the round is played (tournaments/room/selectors.py)."""
    from tournaments.room.selectors import round_clock

    if round_ is None or round_.state not in (Round.State.PUBLISHED, Round.State.IN_PLAY):
        return None
    return round_clock(round_)


@public_page
@require_GET
def projector_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's screen: the current round's pairings and the standings in large type, paged
    by projector.js and kept current by live.js."""
    tournament = _tournament(request, slug)
    if (elsewhere := _duplicate_elsewhere(tournament, projector=True)) is not None:
        return elsewhere
    return render(
        request,
        "tournaments/public/projector.html",
        {
            **_projector_context(tournament),
            "events_url": _events_url(tournament),
            "rows": _positive(request.GET.get("rows")),
            "seconds": _positive(request.GET.get("seconds")),
        },
    )


@require_GET
def projector_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    response = render(request, "tournaments/public/_projector.html", _projector_context(tournament))
    response["Cache-Control"] = "no-cache"
    return response


def _positive(value: str | None) -> int | None:
    """A whole number from 1 to 200 from the query string, else None (the script decides)."""
    if value and value.isdigit() and 0 < int(value) <= 200:
        return int(value)
    return None


urlpatterns = [
    path("", home, name="home"),
    path("leaderboards/<str:game>/", leaderboard, name="public-leaderboard"),
    path("players/<int:player_id>/", player_page, name="public-player"),
    path("t/<slug:slug>/", tournament_page, name="public-tournament"),
    path("t/<slug:slug>/rounds/<int:number>/", round_page, name="public-round"),
    path(
        "t/<slug:slug>/rounds/<int:number>/fragment/", round_fragment, name="public-round-fragment"
    ),
    path("t/<slug:slug>/standings/", standings_page, name="public-standings"),
    path("t/<slug:slug>/standings/fragment/", standings_fragment, name="public-standings-fragment"),
    path("t/<slug:slug>/matches/<int:match_id>/", match_page, name="public-match"),
    path("t/<slug:slug>/projector/", projector_page, name="public-projector"),
    path("t/<slug:slug>/projector/fragment/", projector_fragment, name="public-projector-fragment"),
]
