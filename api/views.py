"""The REST API's views: thin over `tournaments.services`. A view parses and validates its input
with a serializer, builds the `Actor`, calls one service and serialises the result; a service's
refusal (`ServiceError`) becomes the one error shape in `api.errors`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.db.models import Model, Prefetch, QuerySet
from django.db.models.manager import BaseManager
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games.records import check_record
from tournaments import services
from tournaments.clubs.selectors import CLUB_PATH, of_club
from tournaments.clubs.services import current_club
from tournaments.models import (
    GAMES,
    AuditEvent,
    Entry,
    Hand,
    HandSubmission,
    KeepApart,
    Match,
    Player,
    Rating,
    Round,
    RoundQuerySet,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.selectors import cards
from tournaments.services import Actor
from tournaments.services.actors import acting_club, require_club_director
from tournaments.services.imports import MAX_BYTES as IMPORT_MAX_BYTES
from tournaments.web import links
from tournaments.web.clients import client_address
from tournaments.words.engine import result_words

from . import filters
from . import serializers as s
from .errors import ApiError, TooLarge
from .models import ApiToken, hash_secret, new_secret
from .pagination import paginated
from .parsers import HandJSONParser
from .permissions import ReadOnlyOrSignedIn, Scorer, ScorerOrSignedIn, SignedIn, directs
from .schema_refs import CHECK_RESULT_REF, HAND_RECORD_REF
from .throttles import RegistrationThrottle

# -- helpers --------------------------------------------------------------------------------------


def actor_for(request: Request, side: str = "", pin: str = "") -> Actor:
    """The acting person: a table scorer (by token; `pin` proves its side, `side` is only what
    the phone says), a signed-in user, or the public."""
    token = request.auth
    if isinstance(token, TableToken):
        return Actor(
            card=token.table_id,
            side=side,
            pin=pin,
            client=client_address(request),
            label=token.label or "table scorer",
        )
    club = current_club(request)
    if request.user and request.user.is_authenticated:
        return Actor(user=request.user, side=side, club=club)
    return Actor(label="public", side=side, club=club)


def valid(serializer_class: type[Serializer], request: Request, **kwargs: Any) -> dict[str, Any]:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def in_club[M: Model](
    request: Request | HttpRequest, found: QuerySet[M] | BaseManager[M]
) -> QuerySet[M]:
    """`found` narrowed to the rows of the address's club (`/c/<club>/api/...`; the site's
    root is the home club's): another club's row is not found here (docs/clubs.md)."""
    return of_club(found, current_club(request))


def tournament_of(request: Request | HttpRequest, slug: str) -> Tournament:
    """The address's club's tournament of this slug (404 for another club's)."""
    return get_object_or_404(in_club(request, Tournament.objects), slug=slug)


def directing(request: Request, tournament: Tournament) -> Actor:
    """The caller, refused (403 `not-director`) unless they direct `tournament`: asked before a
    director's call reads its body, so someone else learns nothing from how it is checked (the
    service asks again, inside its transaction)."""
    actor = actor_for(request)
    services.require_director(actor, tournament)
    return actor


SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The tournament's slug.")


def ID(name: str = "id", what: str = "") -> OpenApiParameter:  # noqa: N802
    return OpenApiParameter(name, int, OpenApiParameter.PATH, description=what)


class ApiView(generics.GenericAPIView):
    permission_classes = [ReadOnlyOrSignedIn]

    def get_queryset(self) -> QuerySet:
        """The view's rows of the address's club only (a model that has a club)."""
        found = super().get_queryset()
        if found.model.__name__ in CLUB_PATH:
            return in_club(self.request, found)
        return found


class ActionView(ApiView):
    """A POST that calls one service on one object and returns it."""

    filter_backends: list = []
    pagination_class = None


# -- tournaments ----------------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentList(generics.ListAPIView, ApiView):
    queryset = Tournament.objects.all()
    serializer_class = s.TournamentSerializer
    filterset_class = filters.TournamentFilter

    @extend_schema(
        summary="Create a tournament (you become its director)",
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentSerializer},
    )
    def post(self, request: Request) -> Response:
        actor = actor_for(request)
        # Who may, before what: another club's director is refused whatever the body says.
        require_club_director(actor, acting_club(actor))
        data = valid(s.TournamentCreateSerializer, request)
        options = {k: v for k, v in data.items() if v is not None or k in ("starts_at",)}
        tournament = services.create_tournament(actor=actor, **options)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["tournaments"], parameters=[SLUG])
class TournamentDetail(generics.RetrieveAPIView, ApiView):
    queryset = Tournament.objects.all()
    serializer_class = s.TournamentSerializer
    lookup_field = "slug"
    permission_classes = [ReadOnlyOrSignedIn]

    @extend_schema(
        summary="Change the tournament's setup (its directors)",
        request=s.TournamentUpdateSerializer,
        responses={200: s.TournamentSerializer},
    )
    def patch(self, request: Request, slug: str) -> Response:
        found = tournament_of(request, slug)  # another club's: 404 before the body is read
        actor = directing(request, found)
        changes = valid(s.TournamentUpdateSerializer, request)
        if not changes:
            raise ApiError("no-changes", "send at least one field to change")
        tournament = services.update_tournament(
            tournament=found, actor=actor, changes=dict(changes)
        )
        return Response(s.TournamentSerializer(tournament).data)


def _tournament_action(service: Callable[..., Any], summary: str) -> type[APIView]:
    @extend_schema(
        tags=["tournaments"],
        parameters=[SLUG],
        summary=summary,
        request=None,
        responses={200: s.TournamentSerializer},
    )
    class View(ActionView):
        serializer_class = s.TournamentSerializer

        def post(self, request: Request, slug: str) -> Response:
            tournament = service(tournament=tournament_of(request, slug), actor=actor_for(request))
            return Response(s.TournamentSerializer(tournament).data)

    View.__name__ = View.__qualname__ = f"Tournament{service.__name__.title().replace('_', '')}"
    return View


OpenRegistration = _tournament_action(services.open_registration, "Open registration")
CloseRegistration = _tournament_action(
    services.close_registration, "Close registration (back to setup: only directors enter)"
)
FinishTournament = _tournament_action(services.finish_tournament, "Finish the tournament")


@extend_schema(tags=["tournaments"], parameters=[SLUG], summary="The director's audit trail")
class AuditList(generics.ListAPIView, ApiView):
    permission_classes = [SignedIn]
    serializer_class = s.AuditEventSerializer
    filterset_class = filters.AuditFilter
    queryset = AuditEvent.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return AuditEvent.objects.none()
        tournament = tournament_of(self.request, self.kwargs["slug"])
        services.require_director(actor_for(self.request), tournament)
        return tournament.audit.all()


@extend_schema(
    tags=["entries"],
    parameters=[SLUG],
    summary="Every entry's confirmation PIN (directors only; never cached)",
)
class EntryPins(generics.ListAPIView, ApiView):
    """The PIN slips as data: each entry still playing with its PIN, for a client that confirms
    hands in PIN mode or prints its own slips. The tournament's directors only."""

    permission_classes = [SignedIn]
    serializer_class = s.EntryPinSerializer
    queryset = Entry.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        tournament = tournament_of(self.request, self.kwargs["slug"])
        services.require_director(actor_for(self.request), tournament)
        return (
            tournament.entries.exclude(status=Entry.Status.WITHDRAWN)
            .select_related("player", "team")
            .order_by("id")
        )

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        add_never_cache_headers(response)
        return response


@extend_schema(
    tags=["tournaments"],
    parameters=[SLUG],
    summary="The director's result queue: hands awaiting confirmation or disputed",
)
class ResultQueue(generics.ListAPIView, ApiView):
    """The current version of every hand in a round in play that is pending or rejected, the
    oldest first: what the director chases or settles (with a correction)."""

    permission_classes = [SignedIn]
    serializer_class = s.QueueItemSerializer
    filterset_class = filters.QueueFilter
    queryset = HandSubmission.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return HandSubmission.objects.none()
        tournament = tournament_of(self.request, self.kwargs["slug"])
        services.require_director(actor_for(self.request), tournament)
        return (
            HandSubmission.objects.filter(
                hand__match__round__tournament=tournament,
                is_current=True,
                status__in=[HandSubmission.Status.PENDING, HandSubmission.Status.REJECTED],
            )
            .select_related("hand__match__round", "hand__match__table")
            .defer("raw", "record")
            .order_by("submitted_at", "id")
        )


# -- entries --------------------------------------------------------------------------------------

ENTRIES = Entry.objects.select_related("tournament", "team__first", "team__second", "player")


@extend_schema(tags=["entries"], parameters=[SLUG])
class EntryList(generics.ListAPIView, ApiView):
    permission_classes = [AllowAny]
    throttle_classes = [RegistrationThrottle]  # public registration, shared with the page
    serializer_class = s.EntrySerializer
    filterset_class = filters.EntryFilter
    queryset = Entry.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return ENTRIES.filter(tournament=tournament_of(self.request, self.kwargs["slug"])).order_by(
            "id"
        )

    @extend_schema(
        summary="Register an entry (anyone while registration is open; directors any time)",
        request=s.RegisterSerializer,
        responses={201: s.EntrySerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_of(request, slug)
        data = valid(s.RegisterSerializer, request)
        players = [services.PlayerSpec(**p) for p in data["players"]]
        entry = services.register_entry(
            tournament=tournament,
            actor=actor_for(request),
            players=players,
            name=data["name"],
            seed=data["seed"],
            late_entry=data["late_entry"],
            affiliation=data["affiliation"],
            checked_in=data["checked_in"],
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["entries"],
    parameters=[SLUG],
    summary="Check in several entries at once (all or none; those already checked in stay so)",
    request=s.CheckInManySerializer,
    responses={200: s.EntrySerializer(many=True)},
)
class EntryCheckInMany(ActionView):
    serializer_class = s.EntrySerializer

    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_of(request, slug)
        actor = directing(request, tournament)
        data = valid(s.CheckInManySerializer, request)
        services.check_in_entries(tournament=tournament, actor=actor, entries=data["entries"])
        found = ENTRIES.filter(tournament=tournament, pk__in=data["entries"]).order_by("id")
        return Response(s.EntrySerializer(found, many=True).data)


@extend_schema(tags=["entries"], parameters=[SLUG])
class KeepApartList(generics.ListAPIView, ApiView):
    """Pairs the director asked the pairings to keep apart while the draw can (directors only)."""

    serializer_class = s.KeepApartSerializer
    filter_backends: list = []

    def get_queryset(self) -> QuerySet[KeepApart]:
        if getattr(self, "swagger_fake_view", False):
            return KeepApart.objects.none()
        tournament = tournament_of(self.request, self.kwargs["slug"])
        services.require_director(actor_for(self.request), tournament)
        return KeepApart.objects.filter(tournament=tournament).order_by("id")

    @extend_schema(
        summary="Keep two entries apart in the pairings while the draw can",
        request=s.KeepApartCreateSerializer,
        responses={201: s.KeepApartSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_of(request, slug)
        actor = directing(request, tournament)
        data = valid(s.KeepApartCreateSerializer, request)
        first = get_object_or_404(Entry, pk=data["first"], tournament=tournament)
        second = get_object_or_404(Entry, pk=data["second"], tournament=tournament)
        pair = services.keep_apart(
            tournament=tournament,
            actor=actor,
            first=first,
            second=second,
            reason=data["reason"],
        )
        return Response(s.KeepApartSerializer(pair).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["entries"],
    parameters=[ID(what="The pair's id.")],
    summary="Let two entries kept apart meet again",
    request=None,
    responses={204: None},
)
class KeepApartDelete(ActionView):
    serializer_class = s.KeepApartSerializer

    def delete(self, request: Request, pk: int) -> Response:
        pair = get_object_or_404(
            in_club(request, KeepApart.objects.select_related("tournament", "first", "second")),
            pk=pk,
        )
        services.allow_together(pair=pair, actor=actor_for(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["entries"],
    parameters=[SLUG],
    summary="Import entries from a CSV or XLSX file (all rows or none; `dry_run` previews)",
    request={"multipart/form-data": s.ImportSerializer},
    responses={200: s.ImportPreviewSerializer},
)
class EntryImport(ActionView):
    parser_classes = [MultiPartParser, FormParser]
    serializer_class = s.ImportSerializer
    throttle_scope = "import"

    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_of(request, slug)
        actor = directing(request, tournament)
        data = valid(s.ImportSerializer, request)
        upload = data["file"]
        if upload.size is not None and upload.size > IMPORT_MAX_BYTES:
            raise TooLarge(IMPORT_MAX_BYTES)
        content = upload.read(IMPORT_MAX_BYTES + 1)
        if len(content) > IMPORT_MAX_BYTES:
            raise TooLarge(IMPORT_MAX_BYTES)
        preview = services.import_entries(
            tournament=tournament,
            actor=actor,
            data=content,
            filename=upload.name or "entries.csv",
            dry_run=data["dry_run"],
        )
        return Response(preview.as_dict())


@extend_schema(tags=["entries"], parameters=[ID(what="The entry's id.")])
class EntryDetail(generics.RetrieveAPIView, ApiView):
    queryset = ENTRIES
    serializer_class = s.EntrySerializer


def _entry_action(
    name: str, summary: str, request_serializer: type[Serializer] | None, call: Callable[..., Any]
) -> type[APIView]:
    @extend_schema(
        tags=["entries"],
        parameters=[ID(what="The entry's id.")],
        summary=summary,
        request=request_serializer,
        responses={200: s.EntrySerializer},
    )
    class View(ActionView):
        serializer_class = s.EntrySerializer

        def post(self, request: Request, pk: int) -> Response:
            entry = get_object_or_404(
                in_club(request, Entry.objects.select_related("tournament")), pk=pk
            )
            actor = directing(request, entry.tournament)  # every entry action is the director's
            data = valid(request_serializer, request) if request_serializer else {}
            entry = call(entry=entry, actor=actor, **data)
            return Response(s.EntrySerializer(ENTRIES.get(pk=entry.pk)).data)

    View.__name__ = View.__qualname__ = name
    return View


EntryCheckIn = _entry_action("EntryCheckIn", "Check an entry in", None, services.check_in)
EntryWithdraw = _entry_action(
    "EntryWithdraw", "Withdraw an entry from later rounds", s.ReasonSerializer, services.withdraw
)
EntrySeed = _entry_action(
    "EntrySeed", "Set (or clear) an entry's seed", s.SeedSerializer, services.set_seed
)
EntryUndoCheckIn = _entry_action(
    "EntryUndoCheckIn",
    "Take back a check-in (until a round seats the entry)",
    None,
    services.undo_check_in,
)
EntryAffiliation = _entry_action(
    "EntryAffiliation",
    "Set (or clear) an entry's affiliation: a club or family kept apart",
    s.AffiliationSerializer,
    services.set_affiliation,
)
EntryFixTable = _entry_action(
    "EntryFixTable",
    "Always seat an entry at one table (e.g. for access), or free it",
    s.FixTableSerializer,
    services.fix_table,
)


# -- rounds ---------------------------------------------------------------------------------------


def rounds_visible(
    request: Request, queryset: RoundQuerySet, tournament: Tournament | None = None
) -> RoundQuerySet:
    """Draft pairings are for the directors' eyes only."""
    if tournament is not None and directs(request, tournament):
        return queryset
    if request.user and request.user.is_superuser:
        return queryset
    return queryset.public()


ROUNDS = Round.objects.select_related("tournament").prefetch_related(
    Prefetch(
        "matches",
        Match.objects.select_related("table").prefetch_related(
            Prefetch(
                "seats",
                Seat.objects.select_related("entry__team", "entry__player").order_by("seats"),
            )
        ),
    )
)


@extend_schema(tags=["rounds"], parameters=[SLUG])
class RoundList(generics.ListAPIView, ApiView):
    serializer_class = s.RoundSerializer
    filterset_class = filters.RoundFilter
    queryset = Round.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        tournament = tournament_of(self.request, self.kwargs["slug"])
        return rounds_visible(self.request, ROUNDS.filter(tournament=tournament), tournament)


@extend_schema(
    tags=["rounds"],
    parameters=[SLUG],
    summary="Generate the next round's pairings as a draft (or `regenerate` the draft)",
    request=s.GenerateSerializer,
    responses={201: s.RoundSerializer},
)
class RoundGenerate(ActionView):
    serializer_class = s.GenerateSerializer

    def post(self, request: Request, slug: str) -> Response:
        data = valid(s.GenerateSerializer, request)
        round_ = services.generate_round(
            tournament=tournament_of(request, slug),
            actor=actor_for(request),
            regenerate=data["regenerate"],
        )
        return Response(s.RoundSerializer(ROUNDS.get(pk=round_.pk)).data, status=201)


@extend_schema(tags=["rounds"], parameters=[ID(what="The round's id.")])
class RoundDetail(generics.RetrieveAPIView, ApiView):
    serializer_class = s.RoundSerializer
    queryset = ROUNDS

    def get_object(self) -> Round:
        round_ = super().get_object()
        if not round_.is_public and not directs(self.request, round_.tournament):
            raise ApiError("not-found", "No Round matches the given query.", status_code=404)
        return round_


def _round_action(
    name: str, summary: str, request_serializer: type[Serializer] | None, call: Callable[..., Any]
) -> type[APIView]:
    @extend_schema(
        tags=["rounds"],
        parameters=[ID(what="The round's id.")],
        summary=summary,
        request=request_serializer,
        responses={200: s.RoundSerializer},
    )
    class View(ActionView):
        serializer_class = s.RoundSerializer

        def post(self, request: Request, pk: int) -> Response:
            round_ = get_object_or_404(
                in_club(request, Round.objects.select_related("tournament")), pk=pk
            )
            directing(request, round_.tournament)  # every round action is the director's
            data = valid(request_serializer, request) if request_serializer else {}
            call(round_, request, data)
            return Response(s.RoundSerializer(ROUNDS.get(pk=round_.pk)).data)

    View.__name__ = View.__qualname__ = name
    return View


def _swap(round_: Round, request: Request, data: dict) -> None:
    entries = {
        e.pk: e
        for e in Entry.objects.filter(
            tournament_id=round_.tournament_id, pk__in=[data["first"], data["second"]]
        )
    }
    missing = [n for n in (data["first"], data["second"]) if n not in entries]
    if missing:
        raise ApiError(
            "unknown-entry",
            f"no entry {missing[0]} in this tournament",
            details={"entries": missing},
        )
    services.swap_entries(
        round=round_,
        actor=actor_for(request),
        first=entries[data["first"]],
        second=entries[data["second"]],
        reason=data["reason"],
    )


RoundSwap = _round_action("RoundSwap", "Swap two entries in a draft round", s.SwapSerializer, _swap)
RoundPublish = _round_action(
    "RoundPublish",
    "Publish a draft round",
    None,
    lambda r, request, data: services.publish_round(round=r, actor=actor_for(request)),
)
RoundClose = _round_action(
    "RoundClose",
    "Close a round (every match finished)",
    None,
    lambda r, request, data: services.close_round(round=r, actor=actor_for(request)),
)


# -- matches and tables ---------------------------------------------------------------------------

MATCHES = Match.objects.select_related("round__tournament", "table").prefetch_related(
    Prefetch("seats", Seat.objects.select_related("entry__team", "entry__player").order_by("seats"))
)


def match_visible(request: Request, match: Match) -> Match:
    if not match.round.is_public and not directs(request, match.round.tournament):
        raise ApiError("not-found", "No Match matches the given query.", status_code=404)
    return match


@extend_schema(tags=["matches"])
class MatchList(generics.ListAPIView, ApiView):
    serializer_class = s.MatchSerializer
    filterset_class = filters.MatchFilter
    queryset = MATCHES.filter(Round.public_q("round__"))


@extend_schema(tags=["matches"], parameters=[ID(what="The match's id.")])
class MatchDetail(generics.RetrieveAPIView, ApiView):
    serializer_class = s.MatchDetailSerializer
    queryset = MATCHES

    def get_object(self) -> Match:
        return match_visible(self.request, super().get_object())


@extend_schema(
    tags=["matches"],
    parameters=[ID(what="The match's id.")],
    summary="Finish a match (by its rules or length; a director may close it early)",
    request=None,
    responses={200: s.MatchDetailSerializer},
)
class MatchFinish(ActionView):
    permission_classes = [ScorerOrSignedIn]
    serializer_class = s.MatchDetailSerializer

    def post(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(in_club(request, Match.objects), pk=pk)
        services.finish_match(match=match, actor=actor_for(request))
        return Response(s.MatchDetailSerializer(MATCHES.get(pk=pk)).data)


@extend_schema(tags=["tables"], parameters=[ID(what="The table's id.")])
class TableDetail(generics.RetrieveAPIView, ApiView):
    serializer_class = s.TableSerializer
    queryset = Table.objects.select_related("round__tournament", "match").prefetch_related(
        Prefetch("match__seats", Seat.objects.select_related("entry__team", "entry__player"))
    )

    def get_object(self) -> Table:
        table = super().get_object()
        if not table.round.is_public and not directs(self.request, table.round.tournament):
            raise ApiError("not-found", "No Table matches the given query.", status_code=404)
        return table


# -- hands ----------------------------------------------------------------------------------------


def _current(match: Match, number: int) -> HandSubmission:
    hand = get_object_or_404(Hand, match=match, number=number)
    version = hand.versions.filter(is_current=True).select_related("hand").first()
    if version is None:  # pragma: no cover - the database keeps one current version
        raise ApiError("not-found", "the hand has no current version", status_code=404)
    return version


def idempotency_key(request: Request, data: dict) -> str:
    header = request.headers.get("Idempotency-Key")
    given = data.get("idempotency_key")
    if header is not None and given is not None and header != given:
        raise ApiError(
            "idempotency-key-mismatch",
            "the Idempotency-Key header and the body's idempotency_key differ",
        )
    key = header if header is not None else given
    if not key:
        raise ApiError(
            "idempotency-key-required",
            "send an Idempotency-Key header (or idempotency_key): 8 to 100 characters",
        )
    return key


IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 8, "maxLength": 100},
    OpenApiParameter.HEADER,
    required=False,
    description="A client-made key (8 to 100 characters), unique per submission: a retry with "
    "it returns the stored version (200). Or the body's `idempotency_key`.",
)
MATCH = ID("id", "The match's id.")
NUMBER = ID("number", "The hand's number in the match (from 1).")


class MatchHands(ApiView):
    permission_classes = [ScorerOrSignedIn]
    parser_classes = [HandJSONParser]
    serializer_class = s.HandVersionSerializer
    filter_backends: list = []
    throttle_scope = "hand-submit"

    def get_throttles(self) -> list[BaseThrottle]:
        return [] if self.request.method == "GET" else super().get_throttles()

    @extend_schema(
        tags=["hands"],
        parameters=[MATCH],
        summary="The current version of every hand of the match",
        responses={200: s.HandVersionSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        match = match_visible(request, get_object_or_404(in_club(request, MATCHES), pk=pk))
        versions = (
            HandSubmission.objects.filter(hand__match=match, is_current=True)
            .select_related("hand")
            .order_by("hand__number")
        )
        return paginated(
            request, self, versions, lambda rows: s.HandVersionSerializer(rows, many=True).data
        )

    @extend_schema(
        tags=["hands"],
        parameters=[MATCH, IDEMPOTENCY],
        summary="Submit a hand (idempotent by key; a director's hand is confirmed at once)",
        request=s.SubmitSerializer,
        responses={
            201: OpenApiResponse(s.HandVersionSerializer, description="Stored"),
            200: OpenApiResponse(
                s.HandVersionSerializer, description="A retry: the version stored the first time"
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        try:
            data = valid(s.SubmitSerializer, request)
        except APIException:  # an unknown match is a 404 whatever the body
            get_object_or_404(in_club(request, Match.objects.only("pk")), pk=pk)
            raise
        key = idempotency_key(request, data)
        try:  # the workflow loads (and locks) the match itself
            submitted = services.submit_hand(
                match=Match(pk=pk),
                actor=actor_for(request, data.get("side", ""), data["pin"]),
                record=data["record"],
                number=data["number"],
                idempotency_key=key,
            )
        except Match.DoesNotExist as error:
            raise Http404 from error
        code = status.HTTP_201_CREATED if submitted.created else status.HTTP_200_OK
        return Response(s.HandVersionSerializer(submitted.submission).data, status=code)


@extend_schema(
    tags=["hands"],
    parameters=[MATCH, NUMBER],
    summary="Every version of a hand, oldest first",
    responses={200: s.HandVersionSerializer(many=True)},
)
class HandVersions(ApiView):
    serializer_class = s.HandVersionSerializer
    filter_backends: list = []

    def get(self, request: Request, pk: int, number: int) -> Response:
        match = match_visible(request, get_object_or_404(in_club(request, MATCHES), pk=pk))
        hand = get_object_or_404(Hand, match=match, number=number)
        versions = hand.versions.select_related("hand").order_by("version")
        return paginated(
            request, self, versions, lambda rows: s.HandVersionSerializer(rows, many=True).data
        )


class _Decide(ActionView):
    permission_classes = [ScorerOrSignedIn]
    serializer_class = s.HandVersionSerializer
    request_serializer: Any = s.DecideSerializer

    def decide(self, submission: HandSubmission, actor: Actor, data: dict) -> HandSubmission:
        raise NotImplementedError

    def post(self, request: Request, pk: int, number: int) -> Response:
        match = get_object_or_404(in_club(request, Match.objects), pk=pk)
        data = valid(self.request_serializer, request)
        current = _current(match, number)
        decided = self.decide(current, actor_for(request, data.get("side", ""), data["pin"]), data)
        return Response(s.HandVersionSerializer(decided).data)


@extend_schema(
    tags=["hands"],
    parameters=[MATCH, NUMBER],
    summary="Confirm a pending hand (the other side, or a director)",
    request=s.DecideSerializer,
    responses={200: s.HandVersionSerializer},
)
class HandConfirm(_Decide):
    def decide(
        self, submission: HandSubmission, actor: Actor, data: dict[str, Any]
    ) -> HandSubmission:
        return services.confirm_hand(
            submission=submission, actor=actor, expected_version=data["version"]
        )


@extend_schema(
    tags=["hands"],
    parameters=[MATCH, NUMBER],
    summary="Reject a pending hand with a reason (it goes to the director's queue)",
    request=s.RejectSerializer,
    responses={200: s.HandVersionSerializer},
)
class HandReject(_Decide):
    request_serializer = s.RejectSerializer

    def decide(
        self, submission: HandSubmission, actor: Actor, data: dict[str, Any]
    ) -> HandSubmission:
        return services.reject_hand(
            submission=submission,
            actor=actor,
            reason=data["reason"],
            expected_version=data["version"],
        )


@extend_schema(
    tags=["hands"],
    parameters=[MATCH, NUMBER],
    summary="Void a pending or disputed hand (director, with a reason): the table enters it again",
    request=s.VoidSerializer,
    responses={200: s.HandVersionSerializer},
)
class HandVoid(ActionView):
    serializer_class = s.HandVersionSerializer

    def post(self, request: Request, pk: int, number: int) -> Response:
        match = get_object_or_404(in_club(request, Match.objects), pk=pk)
        actor = directing(request, match.round.tournament)
        data = valid(s.VoidSerializer, request)
        voided = services.void_hand(
            submission=_current(match, number),
            actor=actor,
            reason=data["reason"],
            expected_version=data["version"],
        )
        return Response(s.HandVersionSerializer(voided).data)


@extend_schema(
    tags=["hands"],
    parameters=[MATCH, NUMBER],
    summary="Correct a hand (director, with a reason): a new confirmed version",
    request=s.CorrectSerializer,
    responses={201: s.HandVersionSerializer},
)
class HandCorrect(ActionView):
    parser_classes = [HandJSONParser]
    serializer_class = s.HandVersionSerializer

    def post(self, request: Request, pk: int, number: int) -> Response:
        match = get_object_or_404(in_club(request, Match.objects), pk=pk)
        actor = directing(request, match.round.tournament)
        data = valid(s.CorrectSerializer, request)
        hand = get_object_or_404(Hand, match=match, number=number)
        new = services.correct_hand(
            hand=hand,
            actor=actor,
            record=data["record"],
            reason=data["reason"],
            expected_version=data["version"],
        )
        return Response(s.HandVersionSerializer(new).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["hands"],
    summary="Check a hand/1 or match/1 record: validate and score it, store nothing",
    description="200 with the rules engine's result: `ok: true` and the score, or "
    "`ok: false` and `errors` for an illegal record. 400 when the body is not a JSON object. "
    "The notes and each error's `message` are in the request's language (the language cookie, "
    "then `Accept-Language`); an error's English from the engine stays in `detail`, its `code` "
    "never changes.",
    request={"application/json": {"$ref": HAND_RECORD_REF}},
    responses={200: OpenApiResponse({"$ref": CHECK_RESULT_REF}, description="The result")},
)
class HandCheck(ActionView):
    permission_classes = [AllowAny]
    parser_classes = [HandJSONParser]
    throttle_scope = "check"
    serializer_class = s.CheckRequestSerializer

    def post(self, request: Request) -> Response:
        record = request.data
        if not isinstance(record, dict):
            raise ApiError(
                "not-an-object", "the body must be a JSON object (a hand/1 or match/1 record)"
            )
        try:
            result = check_record(dict(record))
        except (TypeError, ValueError, LookupError, AttributeError) as error:
            # The engine refuses what it can read; a value of an unexpected JSON type (e.g. a
            # list for `game`) can slip past it: still an illegal record, not a server error.
            result = {
                "ok": False,
                "errors": [{"code": "bad-format", "message": f"unreadable record ({error})"}],
            }
        return Response(result_words(result))


# -- table tokens ---------------------------------------------------------------------------------


def _director_table(request: Request, pk: int) -> Table:
    table = get_object_or_404(
        in_club(request, Table.objects.select_related("round__tournament")), pk=pk
    )
    services.require_director(actor_for(request), table.round.tournament)
    return table


TABLE = ID("id", "The table's id.")


@extend_schema(tags=["tables"], parameters=[TABLE])
class TableTokens(ApiView):
    permission_classes = [SignedIn]
    serializer_class = s.TableTokenSerializer
    filter_backends: list = []
    throttle_scope = "tokens"

    def get_throttles(self) -> list[BaseThrottle]:
        return [] if self.request.method == "GET" else super().get_throttles()

    @extend_schema(
        summary="The table's tokens (directors)", responses={200: s.TableTokenSerializer(many=True)}
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _director_table(request, pk)
        tokens = table.event_table.tokens.select_related("created_by").order_by("id")
        return paginated(
            request, self, tokens, lambda rows: s.TableTokenSerializer(rows, many=True).data
        )

    @extend_schema(
        summary="Create a scorer's token for the table (the secret is shown once)",
        request=s.TableTokenCreateSerializer,
        responses={201: s.TableTokenSecretSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _director_table(request, pk)
        data = valid(s.TableTokenCreateSerializer, request)
        seconds = data["expires_in"]
        token, secret = services.issue_table_token(
            table=table,
            actor=actor_for(request),
            label=data["label"],
            lifetime=timedelta(seconds=seconds) if seconds is not None else None,
        )
        out = s.TableTokenSerializer(token).data
        out["secret"] = secret
        out["url"] = links.phone_url(
            request, services.card_path(table.event_table, table.round.tournament, secret)
        )
        return Response(out, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["tables"],
    parameters=[TABLE, ID("token", "The token's id.")],
    summary="Revoke a table token (directors)",
    responses={200: s.TableTokenSerializer},
)
class TableTokenRevoke(ApiView):
    permission_classes = [SignedIn]
    serializer_class = s.TableTokenSerializer

    def delete(self, request: Request, pk: int, token: int) -> Response:
        table = _director_table(request, pk)
        found = get_object_or_404(TableToken, pk=token, table=table.event_table_id)
        services.revoke_table_token(token=found, actor=actor_for(request))
        return Response(s.TableTokenSerializer(found).data)


@extend_schema(
    tags=["auth"],
    summary="The table token this request carries: its table of the event and the match at "
    "that table now (scorers; a card scanned at the wrong table is caught before scoring)",
    responses={200: s.TableTokenSelfSerializer},
)
class TableTokenSelf(ApiView):
    permission_classes = [Scorer]
    serializer_class = s.TableTokenSelfSerializer

    def get(self, request: Request) -> Response:
        token = get_object_or_404(
            in_club(request, TableToken.objects.select_related("table__tournament")),
            pk=request.auth.pk,
        )
        return Response(s.TableTokenSelfSerializer(cards.card_now(token.table), token=token).data)


# -- API tokens (directors) -----------------------------------------------------------------------


@extend_schema(tags=["auth"])
class ApiTokens(ApiView):
    permission_classes = [AllowAny]
    serializer_class = s.ApiTokenSerializer
    filter_backends: list = []
    throttle_scope = "login"

    def get_throttles(self) -> list[BaseThrottle]:  # reading (GET, HEAD): not a sign-in attempt
        return [] if self.request.method in ("GET", "HEAD") else super().get_throttles()

    def get_permissions(self) -> list[BasePermission]:
        return [SignedIn()] if self.request.method in ("GET", "HEAD") else [AllowAny()]

    @extend_schema(summary="Your API tokens", responses={200: s.ApiTokenSerializer(many=True)})
    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.filter(user=request.user).order_by("id")  # type: ignore[misc]  # SignedIn: a User
        return paginated(
            request, self, tokens, lambda rows: s.ApiTokenSerializer(rows, many=True).data
        )

    @extend_schema(
        summary="Create an API token (with username and password, a session, or an API token "
        "and its user's password)",
        request=s.LoginSerializer,
        responses={201: s.ApiTokenSecretSerializer},
    )
    def post(self, request: Request) -> Response:
        data = valid(s.LoginSerializer, request)
        if isinstance(request.auth, TableToken):
            self.permission_denied(
                request, "a table token cannot make API tokens", code="scorer-not-allowed"
            )
        parent = request.auth if isinstance(request.auth, ApiToken) else None
        user = request.user if request.user and request.user.is_authenticated else None
        if user is None or parent is not None:
            # Signed in by nobody, or by a token: the password is asked for (a stolen token
            # alone cannot make tokens), through django-axes' guard like every sign-in.
            username = parent.user.get_username() if parent is not None else data.get("username")
            if not username or not data.get("password"):
                raise ApiError(
                    "bad-credentials",
                    "give a username and a password"
                    if parent is None
                    else "give your password to make a token with a token",
                    status_code=401,
                )
            checked = authenticate(request, username=username, password=data["password"])
            if checked is None or (user is not None and checked.pk != user.pk):
                raise ApiError("bad-credentials", "wrong username or password", status_code=401)
            user = checked
        token, secret = _mint(
            user=user, parent=parent, label=data["label"], expires_in=data["expires_in"]
        )
        out = s.ApiTokenSerializer(token).data
        out["secret"] = secret
        return Response(out, status=status.HTTP_201_CREATED)


def _mint(
    *, user: User, parent: ApiToken | None, label: str, expires_in: int | None
) -> tuple[ApiToken, str]:
    """A new API token for `user`; made with `parent`, it expires no later than the parent."""
    secret = new_secret()
    expires = timezone.now() + timedelta(seconds=expires_in) if expires_in else None
    if parent is not None and parent.expires_at is not None:
        expires = min(expires, parent.expires_at) if expires else parent.expires_at
    token = ApiToken.objects.create(
        user=user, key_hash=hash_secret(secret), label=label, expires_at=expires, parent=parent
    )
    return token, secret


@extend_schema(
    tags=["auth"],
    parameters=[ID(what="The token's id.")],
    summary="Revoke one of your API tokens",
    responses={200: s.ApiTokenSerializer},
)
class ApiTokenRevoke(ApiView):
    permission_classes = [SignedIn]
    serializer_class = s.ApiTokenSerializer

    def delete(self, request: Request, pk: int) -> Response:
        token = get_object_or_404(ApiToken, pk=pk, user=request.user)
        token.revoke()
        return Response(s.ApiTokenSerializer(token).data)


# -- players and leaderboards ---------------------------------------------------------------------


@extend_schema(tags=["players"])
class PlayerList(generics.ListAPIView, ApiView):
    queryset = Player.objects.all()
    serializer_class = s.PlayerSerializer
    filterset_class = filters.PlayerFilter


@extend_schema(tags=["players"], parameters=[ID(what="The player's id.")])
class PlayerDetail(generics.RetrieveAPIView, ApiView):
    queryset = Player.objects.prefetch_related("ratings")
    serializer_class = s.PlayerDetailSerializer


@extend_schema(
    tags=["players"],
    parameters=[
        OpenApiParameter(
            "game", str, OpenApiParameter.PATH, enum=[g for g, _ in GAMES], description="The game."
        )
    ],
    summary="The club leaderboard of a game (by rating ordinal)",
)
class Leaderboard(generics.ListAPIView, ApiView):
    serializer_class = s.RatingSerializer
    filterset_class = filters.RatingFilter
    queryset = Rating.objects.none()

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return Rating.objects.none()
        game = self.kwargs["game"]
        if game not in {g for g, _ in GAMES}:
            raise ApiError("unknown-game", f"no game {game!r}", status_code=404)
        return (
            in_club(self.request, Rating.objects.filter(game=game))
            .select_related("player")
            .order_by("-ordinal", "-games", "player_id")
        )


# -- the knockout ---------------------------------------------------------------------------------


@extend_schema(tags=["knockout"], parameters=[SLUG])
class KnockoutSettings(ActionView):
    serializer_class = s.KnockoutSettingsSerializer

    @extend_schema(
        summary="Set the knockout: top cut, match length, tie-break hands, third "
        "place, consolation Swiss (directors; fixed once the bracket is made)",
        request=s.KnockoutSettingsSerializer,
        responses={200: s.TournamentSerializer},
    )
    def patch(self, request: Request, slug: str) -> Response:
        found = tournament_of(request, slug)
        actor = directing(request, found)
        data = valid(s.KnockoutSettingsSerializer, request)
        if not data:
            raise ApiError("no-changes", "send at least one field to change")
        tournament = services.set_knockout(tournament=found, actor=actor, **data)
        return Response(s.TournamentSerializer(tournament).data)


@extend_schema(tags=["knockout"], parameters=[SLUG])
class KnockoutBracket(ApiView):
    serializer_class = s.BracketSerializer
    pagination_class = None
    filter_backends: list = []

    @extend_schema(
        summary="The bracket as played so far (404 before the cut is confirmed)",
        responses={200: s.BracketSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        from tournaments.knockout.selectors import bracket_data

        data = bracket_data(tournament_of(request, slug))
        if data is None:
            raise Http404("the bracket is not made yet")
        return Response(s.BracketSerializer(data).data)


@extend_schema(tags=["knockout"], parameters=[SLUG])
class KnockoutCut(ApiView):
    serializer_class = s.CutListSerializer
    pagination_class = None
    filter_backends: list = []

    @extend_schema(
        summary="The cut list: who goes into the bracket, in seed order, and how a "
        "tie at the line was decided",
        responses={200: s.CutListSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        from tournaments.knockout.selectors import cut_data

        return Response(s.CutListSerializer(cut_data(tournament_of(request, slug))).data)

    @extend_schema(
        summary="Confirm the cut list as shown and make the bracket (directors; "
        "the same list again changes nothing)",
        request=s.ConfirmCutSerializer,
        responses={200: s.CutListSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        from tournaments.knockout.selectors import cut_data

        found = tournament_of(request, slug)
        actor = directing(request, found)
        data = valid(s.ConfirmCutSerializer, request)
        tournament = services.confirm_cut(
            tournament=found,
            actor=actor,
            entries=data["entries"],
        )
        return Response(s.CutListSerializer(cut_data(tournament)).data)
