"""The duplicate API: /api/v1/duplicate/...

Anyone reads an event's boards (their deals once the event is finished, or for a director),
its movement, and the travellers and rankings of the rounds the director released (every
confirmed result for a director). A director creates an event (signed in). A table's token
submits a board result at its own table number (a token opens its table number for the whole
evening) and confirms or rejects the other side's (with that side's PIN); the services check
the board against the movement and the record against the board's deal.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.clubs.selectors import of_club
from tournaments.clubs.services import current_club
from tournaments.duplicate import selectors as select
from tournaments.duplicate import services as dup
from tournaments.models import (
    BoardResult,
    DuplicateEvent,
    Match,
    TableToken,
    TokenState,
    Tournament,
)
from tournaments.services import Actor, NotAllowed, require_director
from tournaments.web.clients import client_address

from .enums import PAIR_SIDE
from .errors import ApiError
from .pagination import Pagination, paginated
from .parsers import HandJSONParser
from .permissions import SignedIn, directs
from .serializers import RoundRefSerializer, TableRefSerializer

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The event's slug.")
TABLE = OpenApiParameter(
    "id", int, OpenApiParameter.PATH, description="The table's id (`match.table.id`)."
)
ROUND = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The round's id.")


class DuplicateBoardSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Each seat's 13 cards (published after the event).",
    )
    turned = serializers.CharField(required=False, help_text="Whist: the turned card.")


class DuplicateSeatingSerializer(serializers.Serializer):
    table_number = serializers.IntegerField(help_text="The table's number (the plan has no ids).")
    ns = serializers.IntegerField(allow_null=True)
    ew = serializers.IntegerField(allow_null=True)
    board_set = serializers.IntegerField()
    boards = serializers.ListField(child=serializers.IntegerField())


class DuplicateMovementSerializer(serializers.Serializer):
    kind = serializers.CharField()
    tables = serializers.IntegerField()
    pairs = serializers.ListField(child=serializers.IntegerField())
    boards_per_round = serializers.IntegerField()
    fields = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))  # type: ignore[assignment]  # a field named like a Serializer attribute
    rounds = serializers.ListField(child=DuplicateSeatingSerializer(many=True))
    notes = serializers.ListField(child=serializers.CharField())


class DuplicateLineSerializer(serializers.Serializer):
    round_number = serializers.IntegerField()
    table_number = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    ns_score = serializers.CharField(help_text="Empty for an adjusted result.")
    ew_score = serializers.CharField()
    ns_adjusted = serializers.CharField()
    ew_adjusted = serializers.CharField()
    assigned = serializers.BooleanField()
    ns_points = serializers.CharField(help_text="Matchpoints or IMPs, to two decimals.")
    ew_points = serializers.CharField()
    bids = serializers.CharField(
        help_text="Spades: the bids in the order made ('E 4 · S 3 · W Nil · N 6'), in the "
        "request's language; empty for Whist or an adjusted result."
    )
    tricks = serializers.CharField(help_text="Each side's tricks ('NS 7 · EW 6'); empty if none.")


class DuplicateTravellerSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    lines = DuplicateLineSerializer(many=True)


class DuplicateStandingSerializer(serializers.Serializer):
    place = serializers.CharField(help_text="'2=' when tied.")
    pair = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.CharField()
    top = serializers.CharField()
    percentage = serializers.CharField(help_text="Matchpoints only; empty for IMPs.")
    boards = serializers.IntegerField()


class DuplicateRankingsSerializer(serializers.Serializer):
    method = serializers.CharField()
    released_round = serializers.IntegerField(
        allow_null=True, help_text="null: every round (a director)."
    )
    fields = serializers.DictField(child=DuplicateStandingSerializer(many=True))  # type: ignore[assignment]  # a field named like a Serializer attribute


class DuplicateCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    game = serializers.ChoiceField(choices=["spades", "whist"])
    rules = serializers.JSONField(help_text="A preset id or {preset, options}.")
    movement = serializers.ChoiceField(choices=DuplicateEvent.Movement.values)
    tables = serializers.IntegerField(min_value=2, max_value=30)
    boards_per_round = serializers.IntegerField(min_value=1, max_value=dup.MAX_BOARDS_PER_ROUND)
    rounds = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    even = serializers.ChoiceField(choices=DuplicateEvent.Even.values, default="skip")
    board_scoring = serializers.ChoiceField(
        choices=DuplicateEvent.BoardScoring.values, default="standard"
    )
    board_compare = serializers.ChoiceField(
        choices=DuplicateEvent.BoardCompare.values, required=False, allow_null=True, default=None
    )
    board_honours = serializers.BooleanField(default=False)
    comparison = serializers.ChoiceField(
        choices=DuplicateEvent.Comparison.values, default="matchpoints"
    )
    imp_scale = serializers.JSONField(
        required=False, default=None, help_text="{name, factor, steps}; default the game's."
    )
    board_source = serializers.ChoiceField(
        choices=DuplicateEvent.BoardSource.values, default="seeded"
    )
    deal_seed = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")


class DuplicateCreatedSerializer(serializers.Serializer):
    slug = serializers.CharField()
    boards = serializers.IntegerField()
    rounds = serializers.IntegerField()


class DuplicateResultSubmitSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1)
    side = serializers.ChoiceField(
        choices=PAIR_SIDE,
        required=False,
        allow_blank=True,
        help_text="The side entering. In PIN mode it is the side whose entry's `pin` is given "
        "(a side given here must agree: 403 `side-pin-mismatch`); in `same-phone` mode a "
        "table's token must say it.",
    )
    pin = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        default="",
        help_text="In PIN mode, the PIN of the entering pair (its card's). Refusals as for a "
        "hand (`side-pin-required`, `side-pin-wrong`, `side-pin-wait`, `side-pin-locked`).",
    )
    record = serializers.JSONField(
        help_text="The board's hand/1 record: bids and tricks, or the "
        "full play (which must carry the board's deal)."
    )
    idempotency_key = serializers.CharField(
        min_length=8, max_length=100, required=False, allow_null=True, default=None
    )


class DuplicateResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.IntegerField(source="board.number")
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    ns = serializers.IntegerField(source="ns_pair")
    ew = serializers.IntegerField(source="ew_pair")
    version = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    notes = serializers.ListField(child=serializers.CharField())

    @extend_schema_field(RoundRefSerializer)
    def get_round(self, result: BoardResult) -> dict[str, int]:
        return {"id": result.match.round_id, "number": result.round_number}

    @extend_schema_field(TableRefSerializer)
    def get_table(self, result: BoardResult) -> dict[str, int]:
        return {"id": result.match.played_table.pk, "number": result.table_number}


class DuplicateDecideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=PAIR_SIDE, required=False, allow_blank=True)
    pin = serializers.CharField(max_length=12, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    version = serializers.IntegerField(
        min_value=1,
        help_text="The version of the result answered, as the answerer saw it: if "
        "the board's result has changed since, the answer is refused (409 `stale-version`, "
        "with the current version in `details`) and nothing changes.",
    )


def _event(request: Request, slug: str) -> Tournament:
    """The address's club's duplicate event of this slug (404 for another club's)."""
    found = of_club(Tournament.objects, current_club(request))
    return get_object_or_404(found, slug=slug, format=Tournament.Format.DUPLICATE)


def _lines(rows: list[dict]) -> list[dict]:
    """A traveller's lines with the round and table named by number, as `*_number` (a
    `round` or `table` in a body is `{id, number}`)."""
    return [
        {
            "round_number": row["round"],
            "table_number": row["table"],
            **{k: v for k, v in row.items() if k not in ("round", "table")},
        }
        for row in rows
    ]


class ReadView(APIView):
    permission_classes = [AllowAny]


class ListView(ReadView):
    """A list, paginated as every list of the API."""

    pagination_class = Pagination


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The event's boards",
    responses={200: DuplicateBoardSerializer(many=True)},
)
class Boards(ListView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _event(request, slug)
        scored = None if directs(request, tournament) else select.scored(tournament)
        return paginated(request, self, select.boards_json(tournament, scored))


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The movement: for each round, each table's pairs and boards",
    responses={200: DuplicateMovementSerializer},
)
class MovementView(ReadView):
    def get(self, request: Request, slug: str) -> Response:
        from tournaments.duplicate.engine import board_set

        tournament = _event(request, slug)
        event = dup.event_of(tournament)
        plan = dup.movement_of(event)
        data = plan.as_dict()
        data["boards_per_round"] = event.boards_per_round
        for seats in data["rounds"]:
            for s in seats:
                s["table_number"] = s.pop("table")
                s["boards"] = list(board_set(s["board_set"], event.boards_per_round))
        return Response(data)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Every board's traveller (the released rounds; all for a director)",
    responses={200: DuplicateTravellerSerializer(many=True)},
)
class Travellers(ListView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _event(request, slug)
        scored = select.scored(tournament, director=directs(request, tournament))
        boards = sorted(scored.event.travellers)
        return paginated(
            request,
            self,
            boards,
            lambda page: [
                {"board": n, "lines": _lines(select.traveller_rows(scored, n))} for n in page
            ],
        )


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The rankings per field, ties sharing the place",
    responses={200: DuplicateRankingsSerializer},
)
class Rankings(ReadView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _event(request, slug)
        scored = select.scored(tournament, director=directs(request, tournament))
        return Response(
            {
                "method": scored.event.method,
                "released_round": scored.through_round,
                "fields": {name: scored.ranking_rows(name) for name in scored.event.rankings},
            }
        )


@extend_schema(
    tags=["duplicate"],
    summary="Create a duplicate event (the signed-in user directs it)",
    request=DuplicateCreateSerializer,
    responses={201: DuplicateCreatedSerializer},
)
class Create(APIView):
    permission_classes = [SignedIn]

    def post(self, request: Request) -> Response:
        serializer = DuplicateCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = dup.create_duplicate_tournament(
            actor=Actor(user=request.user, club=current_club(request)),
            **serializer.validated_data,
        )
        return Response(
            {
                "slug": tournament.slug,
                "boards": tournament.boards.count(),
                "rounds": tournament.rounds,
            },
            status=status.HTTP_201_CREATED,
        )


def _table_actor(
    request: Request, tournament: Tournament, table_id: int, side: str, pin: str = ""
) -> tuple[Actor, Match]:
    """The actor at a table of the round in play, named by the table's id (as everywhere in the
    API: `match.table.id`, `/tables/{id}`); a table of an earlier round answers 409 `no-round`."""
    match = (
        Match.objects.filter(table__pk=table_id, round__tournament=tournament)
        .select_related("table", "round")
        .first()
    )
    if match is None:
        raise Http404("no such table in this event")
    latest = tournament.round_set.order_by("-number").values_list("pk", flat=True).first()
    if match.round_id != latest:
        raise ApiError(
            "no-round",
            f"table {match.played_table.number} of round {match.round.number} is not in play",
            status_code=409,
        )
    if directs(request, tournament):
        return Actor(user=request.user, side=side, pin=pin), match
    token = request.auth
    if (
        not isinstance(token, TableToken)
        or token.state != TokenState.ACTIVE
        or token.table_id != match.played_table.event_table_id
    ):
        raise NotAllowed("wrong-table", "this table's token (or a director) only")
    return Actor(
        card=token.table_id,
        side=side,
        pin=pin,
        client=client_address(request),
        label=token.label or f"table {match.played_table.number} scorer",
    ), match


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG, TABLE],
    summary="Submit a board's result at a table (its token; idempotent by key)",
    request=DuplicateResultSubmitSerializer,
    responses={
        201: OpenApiResponse(DuplicateResultSerializer, description="Stored"),
        200: OpenApiResponse(DuplicateResultSerializer, description="A retry"),
    },
)
class SubmitResult(APIView):
    permission_classes = [AllowAny]  # the table's token or a director: checked below
    parser_classes = [HandJSONParser]  # 64 KiB, as a hand submission (413 `too-large`)

    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament = _event(request, slug)
        serializer = DuplicateResultSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        actor, match = _table_actor(request, tournament, pk, data.get("side", ""), data["pin"])
        out = dup.submit_board_result(
            match=match,
            board=data["board"],
            record=data["record"],
            actor=actor,
            idempotency_key=data["idempotency_key"],
        )
        return Response(
            DuplicateResultSerializer(out.result).data,
            status=status.HTTP_201_CREATED if out.created else status.HTTP_200_OK,
        )


def _decide(request: Request, slug: str, pk: int, confirm: bool) -> Response:
    tournament = _event(request, slug)
    result = get_object_or_404(
        BoardResult.objects.select_related("board", "match__table"), pk=pk, tournament=tournament
    )
    serializer = DuplicateDecideSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    latest = tournament.round_set.order_by("-number").values_list("pk", flat=True).first()
    if result.match.round_id != latest:
        raise ApiError("not-pending", "this result is of an earlier round", status_code=409)
    actor, _ = _table_actor(
        request, tournament, result.match.played_table.pk, data.get("side", ""), data["pin"]
    )
    if confirm:
        result = dup.confirm_board_result(
            result=result, actor=actor, expected_version=data["version"]
        )
    else:
        result = dup.reject_board_result(
            result=result, actor=actor, reason=data["reason"], expected_version=data["version"]
        )
    return Response(DuplicateResultSerializer(result).data)


PK = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The result's id.")


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG, PK],
    request=DuplicateDecideSerializer,
    summary="The other side confirms a board result (with its PIN)",
    responses={200: DuplicateResultSerializer},
)
class ConfirmResult(APIView):
    permission_classes = [AllowAny]

    def post(self, request: Request, slug: str, pk: int) -> Response:
        return _decide(request, slug, pk, True)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG, PK],
    request=DuplicateDecideSerializer,
    summary="The other side rejects a board result",
    responses={200: DuplicateResultSerializer},
)
class RejectResult(APIView):
    permission_classes = [AllowAny]

    def post(self, request: Request, slug: str, pk: int) -> Response:
        return _decide(request, slug, pk, False)


# -- the director's lifecycle: number the pairs, seat rounds, close, release, finish -----------


class DuplicatePairSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.name")


class DuplicateStateSerializer(serializers.Serializer):
    """Where the event stands: its state, the pairs as numbered, the rounds seated so far and
    the last round whose results the tables may see."""

    slug = serializers.CharField(source="tournament.slug")
    state = serializers.CharField(source="tournament.state")
    pairs = serializers.SerializerMethodField()
    rounds = serializers.IntegerField(source="tournament.rounds")
    rounds_seated = serializers.SerializerMethodField()
    released_round = serializers.IntegerField()

    @extend_schema_field(DuplicatePairSerializer(many=True))
    def get_pairs(self, event: DuplicateEvent) -> list[dict]:
        pairs = event.tournament.duplicate_pairs.select_related("entry__player", "entry__team")
        # many=True makes a ListSerializer, whose data is a list: the stubs give the class's.
        return DuplicatePairSerializer(pairs.order_by("number"), many=True).data  # type: ignore[return-value]

    def get_rounds_seated(self, event: DuplicateEvent) -> int:
        return event.tournament.round_set.count()


class DuplicateReleaseSerializer(serializers.Serializer):
    through_round = serializers.IntegerField(min_value=1, max_value=32767)


class DuplicateLatePairSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)


def _directed(request: Request, slug: str) -> tuple[Tournament, Actor]:
    """The event and its director (a signed-in user: `DirectorView`'s permission class),
    anyone else refused (403 `not-director`) before the call's body is read; the services ask
    again inside their transactions."""
    tournament = _event(request, slug)
    actor = Actor(user=request.user, club=current_club(request))
    require_director(actor, tournament)
    return tournament, actor


class DirectorView(APIView):
    """The director's lifecycle: the API's shared permission class (a signed-in user)."""

    permission_classes = [SignedIn]


def _state(tournament: Tournament) -> Response:
    event = DuplicateEvent.objects.select_related("tournament").get(tournament=tournament)
    return Response(DuplicateStateSerializer(event).data)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Where the event stands: pairs, rounds seated, results released",
    responses={200: DuplicateStateSerializer},
)
class State(ReadView):
    def get(self, request: Request, slug: str) -> Response:
        return _state(_event(request, slug))


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Number the pairs (in the order they registered) and fix the movement",
    request=None,
    responses={200: DuplicateStateSerializer},
)
class Start(DirectorView):
    def post(self, request: Request, slug: str) -> Response:
        tournament, actor = _directed(request, slug)
        dup.start_duplicate(tournament=tournament, actor=actor)
        return _state(tournament)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Seat the next round from the movement (in play at once)",
    request=None,
    responses={201: DuplicateStateSerializer},
)
class SeatRound(DirectorView):
    def post(self, request: Request, slug: str) -> Response:
        tournament, actor = _directed(request, slug)
        dup.start_round(tournament=tournament, actor=actor)
        response = _state(tournament)
        response.status_code = status.HTTP_201_CREATED
        return response


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG, ROUND],
    summary="Close a round (every table's results in)",
    request=None,
    responses={200: DuplicateStateSerializer},
)
class CloseRound(DirectorView):
    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament, actor = _directed(request, slug)
        round_ = get_object_or_404(tournament.round_set, pk=pk)
        dup.close_duplicate_round(round=round_, actor=actor)
        return _state(tournament)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Let the tables and the public see the results up to a round",
    request=DuplicateReleaseSerializer,
    responses={200: DuplicateStateSerializer},
)
class Release(DirectorView):
    def post(self, request: Request, slug: str) -> Response:
        tournament, actor = _directed(request, slug)
        serializer = DuplicateReleaseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        dup.release_results(
            tournament=tournament,
            actor=actor,
            through_round=serializer.validated_data["through_round"],
        )
        return _state(tournament)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="A late pair joins at the bye stand",
    request=DuplicateLatePairSerializer,
    responses={200: DuplicateStateSerializer},
)
class LatePair(DirectorView):
    def post(self, request: Request, slug: str) -> Response:
        tournament, actor = _directed(request, slug)
        serializer = DuplicateLatePairSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = get_object_or_404(tournament.entries, pk=serializer.validated_data["entry"])
        dup.late_pair(tournament=tournament, actor=actor, entry=entry)
        return _state(tournament)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Finish the event: every result and board published",
    request=None,
    responses={200: DuplicateStateSerializer},
)
class Finish(DirectorView):
    def post(self, request: Request, slug: str) -> Response:
        tournament, actor = _directed(request, slug)
        dup.finish_duplicate(tournament=tournament, actor=actor)
        return _state(tournament)
