"""REST API, version 1: /api/v1/..."""

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from tournaments.web.error_shape import error_response

from . import duplicate as d
from . import exports as x
from . import federation as federation_api
from . import publishing, room
from . import seasons as seasons_api
from . import views as v

app_name = "api"
PAGE = ["get", "head"]

urlpatterns = [
    # live standings and events: first, as the most requested (Django tries the patterns in order)
    path("v1/", include("api.live_urls")),
    path("v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The docs pages are HTML templates: GET and HEAD only (their OPTIONS was a 500).
    path(
        "v1/docs/",
        SpectacularSwaggerView.as_view(url_name="api:schema", http_method_names=PAGE),
        name="docs",
    ),
    path(
        "v1/redoc/",
        SpectacularRedocView.as_view(url_name="api:schema", http_method_names=PAGE),
        name="redoc",
    ),
    # a room publishes an event to this site (tournaments/publishing)
    path("v1/publish/<slug:slug>", publishing.PublishEvent.as_view(), name="publish"),
    # duplicate events
    path("v1/duplicate", d.Create.as_view(), name="duplicate-create"),
    path("v1/duplicate/<slug:slug>/boards", d.Boards.as_view(), name="duplicate-boards"),
    path("v1/duplicate/<slug:slug>/movement", d.MovementView.as_view(), name="duplicate-movement"),
    path(
        "v1/duplicate/<slug:slug>/travellers", d.Travellers.as_view(), name="duplicate-travellers"
    ),
    path("v1/duplicate/<slug:slug>/rankings", d.Rankings.as_view(), name="duplicate-rankings"),
    path("v1/duplicate/<slug:slug>", d.State.as_view(), name="duplicate-state"),
    path("v1/duplicate/<slug:slug>/start", d.Start.as_view(), name="duplicate-start"),
    path("v1/duplicate/<slug:slug>/rounds", d.SeatRound.as_view(), name="duplicate-rounds"),
    path(
        "v1/duplicate/<slug:slug>/rounds/<int:pk>/close",
        d.CloseRound.as_view(),
        name="duplicate-round-close",
    ),
    path("v1/duplicate/<slug:slug>/release", d.Release.as_view(), name="duplicate-release"),
    path("v1/duplicate/<slug:slug>/late-pairs", d.LatePair.as_view(), name="duplicate-late-pair"),
    path("v1/duplicate/<slug:slug>/finish", d.Finish.as_view(), name="duplicate-finish"),
    path(
        "v1/duplicate/<slug:slug>/tables/<int:pk>/results",
        d.SubmitResult.as_view(),
        name="duplicate-submit",
    ),
    path(
        "v1/duplicate/<slug:slug>/results/<int:pk>/confirm",
        d.ConfirmResult.as_view(),
        name="duplicate-confirm",
    ),
    path(
        "v1/duplicate/<slug:slug>/results/<int:pk>/reject",
        d.RejectResult.as_view(),
        name="duplicate-reject",
    ),
    # tournaments
    path("v1/tournaments", v.TournamentList.as_view(), name="tournaments"),
    path("v1/tournaments/<slug:slug>", v.TournamentDetail.as_view(), name="tournament"),
    path(
        "v1/tournaments/<slug:slug>/open-registration",
        v.OpenRegistration.as_view(),
        name="tournament-open-registration",
    ),
    path(
        "v1/tournaments/<slug:slug>/close-registration",
        v.CloseRegistration.as_view(),
        name="tournament-close-registration",
    ),
    path(
        "v1/tournaments/<slug:slug>/finish", v.FinishTournament.as_view(), name="tournament-finish"
    ),
    path("v1/tournaments/<slug:slug>/audit", v.AuditList.as_view(), name="tournament-audit"),
    # downloads
    re_path(
        r"^v1/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/exports/"
        r"(?P<subject>standings|results|bracket)\.(?P<fmt>csv|xlsx|pdf)$",
        x.TableExport.as_view(),
        name="export-table",
    ),
    path(
        "v1/tournaments/<slug:slug>/exports/hands.jsonl",
        x.HandsExport.as_view(),
        name="export-hands",
    ),
    path(
        "v1/tournaments/<slug:slug>/exports/matches/<int:id>.json",
        x.MatchExport.as_view(),
        name="export-match",
    ),
    path("v1/tournaments/<slug:slug>/archive", x.ArchiveExport.as_view(), name="export-archive"),
    path("v1/tournaments/<slug:slug>/queue", v.ResultQueue.as_view(), name="tournament-queue"),
    # entries
    path("v1/tournaments/<slug:slug>/entries", v.EntryList.as_view(), name="entries"),
    path("v1/tournaments/<slug:slug>/pins", v.EntryPins.as_view(), name="entry-pins"),
    path(
        "v1/tournaments/<slug:slug>/entries/import", v.EntryImport.as_view(), name="entries-import"
    ),
    path("v1/entries/<int:pk>", v.EntryDetail.as_view(), name="entry"),
    path("v1/entries/<int:pk>/check-in", v.EntryCheckIn.as_view(), name="entry-check-in"),
    path("v1/entries/<int:pk>/withdraw", v.EntryWithdraw.as_view(), name="entry-withdraw"),
    path("v1/entries/<int:pk>/seed", v.EntrySeed.as_view(), name="entry-seed"),
    path("v1/entries/<int:pk>/fix-table", v.EntryFixTable.as_view(), name="entry-fix-table"),
    path(
        "v1/entries/<int:pk>/undo-check-in",
        v.EntryUndoCheckIn.as_view(),
        name="entry-undo-check-in",
    ),
    path("v1/entries/<int:pk>/affiliation", v.EntryAffiliation.as_view(), name="entry-affiliation"),
    path(
        "v1/tournaments/<slug:slug>/entries/check-in",
        v.EntryCheckInMany.as_view(),
        name="entries-check-in",
    ),
    path("v1/tournaments/<slug:slug>/kept-apart", v.KeepApartList.as_view(), name="kept-apart"),
    path("v1/kept-apart/<int:pk>", v.KeepApartDelete.as_view(), name="kept-apart-pair"),
    # rounds
    path("v1/tournaments/<slug:slug>/rounds", v.RoundList.as_view(), name="rounds"),
    path(
        "v1/tournaments/<slug:slug>/rounds/generate",
        v.RoundGenerate.as_view(),
        name="rounds-generate",
    ),
    path("v1/rounds/<int:pk>", v.RoundDetail.as_view(), name="round"),
    path("v1/rounds/<int:pk>/swap", v.RoundSwap.as_view(), name="round-swap"),
    path("v1/rounds/<int:pk>/publish", v.RoundPublish.as_view(), name="round-publish"),
    path("v1/rounds/<int:pk>/close", v.RoundClose.as_view(), name="round-close"),
    # the room: round clock, calls for the director, table progress
    path("v1/rounds/<int:pk>/clock", room.RoundClockView.as_view(), name="round-clock"),
    path("v1/rounds/<int:pk>/clock/start", room.ClockStart.as_view(), name="round-clock-start"),
    path("v1/rounds/<int:pk>/clock/pause", room.ClockPause.as_view(), name="round-clock-pause"),
    path("v1/rounds/<int:pk>/clock/resume", room.ClockResume.as_view(), name="round-clock-resume"),
    path("v1/rounds/<int:pk>/clock/extend", room.ClockExtend.as_view(), name="round-clock-extend"),
    path("v1/rounds/<int:pk>/calls", room.RoundCalls.as_view(), name="round-calls"),
    path("v1/rounds/<int:pk>/progress", room.RoundProgress.as_view(), name="round-progress"),
    path("v1/tables/<int:pk>/call", room.TableCall.as_view(), name="table-call"),
    path("v1/calls/<int:pk>/acknowledge", room.CallAcknowledge.as_view(), name="call-acknowledge"),
    # tables and matches
    path("v1/tables/<int:pk>", v.TableDetail.as_view(), name="table"),
    path("v1/tables/<int:pk>/tokens", v.TableTokens.as_view(), name="table-tokens"),
    path("v1/tables/<int:pk>/tokens/<int:token>", v.TableTokenRevoke.as_view(), name="table-token"),
    path("v1/matches", v.MatchList.as_view(), name="matches"),
    path("v1/matches/<int:pk>", v.MatchDetail.as_view(), name="match"),
    path("v1/matches/<int:pk>/finish", v.MatchFinish.as_view(), name="match-finish"),
    # hands
    path("v1/matches/<int:pk>/hands", v.MatchHands.as_view(), name="hands"),
    path(
        "v1/matches/<int:pk>/hands/<int:number>/versions",
        v.HandVersions.as_view(),
        name="hand-versions",
    ),
    path(
        "v1/matches/<int:pk>/hands/<int:number>/confirm",
        v.HandConfirm.as_view(),
        name="hand-confirm",
    ),
    path(
        "v1/matches/<int:pk>/hands/<int:number>/reject", v.HandReject.as_view(), name="hand-reject"
    ),
    path(
        "v1/matches/<int:pk>/hands/<int:number>/correct",
        v.HandCorrect.as_view(),
        name="hand-correct",
    ),
    path("v1/matches/<int:pk>/hands/<int:number>/void", v.HandVoid.as_view(), name="hand-void"),
    path("v1/hands/check", v.HandCheck.as_view(), name="hands-check"),
    # the knockout
    path("v1/tournaments/<slug:slug>/knockout", v.KnockoutSettings.as_view(), name="knockout"),
    path("v1/tournaments/<slug:slug>/bracket", v.KnockoutBracket.as_view(), name="bracket"),
    path("v1/tournaments/<slug:slug>/cut", v.KnockoutCut.as_view(), name="cut"),
    # players and leaderboards
    path("v1/players", v.PlayerList.as_view(), name="players"),
    path("v1/players/<int:pk>", v.PlayerDetail.as_view(), name="player"),
    path("v1/leaderboards/<str:game>", v.Leaderboard.as_view(), name="leaderboard"),
    path(
        "v1/federation/<str:game>",
        federation_api.FederationLeaderboard.as_view(),
        name="federation",
    ),
    path(
        "v1/federation/<str:game>/<int:id>",
        federation_api.FederationRatingDetail.as_view(),
        name="federation-rating",
    ),
    # season championships
    path("v1/seasons", seasons_api.SeasonList.as_view(), name="seasons"),
    path("v1/seasons/<slug:slug>", seasons_api.SeasonDetail.as_view(), name="season"),
    path("v1/seasons/<slug:slug>/table", seasons_api.SeasonTable.as_view(), name="season-table"),
    path(
        "v1/seasons/<slug:slug>/tournaments",
        seasons_api.SeasonTournaments.as_view(),
        name="season-tournaments",
    ),
    path(
        "v1/seasons/<slug:slug>/tournaments/<slug:tournament>",
        seasons_api.SeasonTournament.as_view(),
        name="season-tournament",
    ),
    # directors' API tokens
    path("v1/auth/tokens", v.ApiTokens.as_view(), name="api-tokens"),
    path("v1/auth/table-token", v.TableTokenSelf.as_view(), name="table-token-self"),
    path("v1/auth/tokens/<int:pk>", v.ApiTokenRevoke.as_view(), name="api-token"),
]


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any other /api/ address: 404 in the API's error shape (not Django's HTML page)."""
    return error_response(404, "not-found", "no such API address")


urlpatterns.append(re_path(r"", not_found))  # any other /api/ address, v1 or not
