"""The duplicate API: /api/v1/duplicate/...

Anyone reads an event's boards (their deals once the event is finished, or for a director),
its movement, and the travellers and rankings of the rounds the director released (every
confirmed result for a director). A director creates an event (signed in). A table's token
submits a board result at its own table number (a token opens its table number for the whole
evening) and confirms or rejects the other side's (with that side's PIN); the services check
the board against the movement and the record against the board's deal.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import (
    BoardResult,
    DuplicateEvent,
    Match,
    TableToken,
    TokenState,
    Tournament,
)
from tournaments.selectors import duplicate as select
from tournaments.services import Actor, NotAllowed, is_director
from tournaments.services import duplicate as dup

from .errors import ApiError

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The event's slug.")
TABLE = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The table number.")


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
    table = serializers.IntegerField()
    ns = serializers.IntegerField(allow_null=True)
    ew = serializers.IntegerField(allow_null=True)
    board_set = serializers.IntegerField()
    boards = serializers.ListField(child=serializers.IntegerField())


class DuplicateMovementSerializer(serializers.Serializer):
    kind = serializers.CharField()
    tables = serializers.IntegerField()
    pairs = serializers.ListField(child=serializers.IntegerField())
    boards_per_round = serializers.IntegerField()
    fields = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))
    rounds = serializers.ListField(child=DuplicateSeatingSerializer(many=True))
    notes = serializers.ListField(child=serializers.CharField())


class DuplicateLineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    ns_score = serializers.CharField(help_text="Empty for an adjusted result.")
    ew_score = serializers.CharField()
    ns_adjusted = serializers.CharField()
    ew_adjusted = serializers.CharField()
    assigned = serializers.BooleanField()
    ns_points = serializers.CharField(help_text="Matchpoints or IMPs, to two decimals.")
    ew_points = serializers.CharField()


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
    fields = serializers.DictField(child=DuplicateStandingSerializer(many=True))


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
        choices=["NS", "EW"],
        required=False,
        default="",
        help_text="The side entering (a table's token must say).",
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
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField(source="table_number")
    ns = serializers.IntegerField(source="ns_pair")
    ew = serializers.IntegerField(source="ew_pair")
    version = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    notes = serializers.ListField(child=serializers.CharField())


class DuplicateDecideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=["NS", "EW"], required=False, default="")
    pin = serializers.CharField(max_length=8, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    version = serializers.IntegerField(
        min_value=1,
        help_text="The version of the result answered, as the answerer saw it: if "
        "the board's result has changed since, the answer is refused (409 `stale-version`, "
        "with the current version in `details`) and nothing changes.",
    )


def _event(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug, format=Tournament.Format.DUPLICATE)


def _is_director(request, tournament: Tournament) -> bool:
    user = request.user if request.user and request.user.is_authenticated else None
    return user is not None and is_director(Actor(user=user), tournament)


class ReadView(APIView):
    permission_classes = [AllowAny]


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The event's boards",
    responses={200: DuplicateBoardSerializer(many=True)},
)
class Boards(ReadView):
    def get(self, request, slug: str):
        tournament = _event(slug)
        scored = None if _is_director(request, tournament) else select.scored(tournament)
        return Response(select.boards_json(tournament, scored))


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The movement: for each round, each table's pairs and boards",
    responses={200: DuplicateMovementSerializer},
)
class MovementView(ReadView):
    def get(self, request, slug: str):
        from tournaments.duplicate import board_set

        tournament = _event(slug)
        event = dup.event_of(tournament)
        plan = dup.movement_of(event)
        data = plan.as_dict()
        data["boards_per_round"] = event.boards_per_round
        for seats in data["rounds"]:
            for s in seats:
                s["boards"] = list(board_set(s["board_set"], event.boards_per_round))
        return Response(data)


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="Every board's traveller (the released rounds; all for a director)",
    responses={200: DuplicateTravellerSerializer(many=True)},
)
class Travellers(ReadView):
    def get(self, request, slug: str):
        tournament = _event(slug)
        scored = select.scored(tournament, director=_is_director(request, tournament))
        return Response(
            [
                {"board": n, "lines": select.traveller_rows(scored, n)}
                for n in sorted(scored.event.travellers)
            ]
        )


@extend_schema(
    tags=["duplicate"],
    parameters=[SLUG],
    summary="The rankings per field, ties sharing the place",
    responses={200: DuplicateRankingsSerializer},
)
class Rankings(ReadView):
    def get(self, request, slug: str):
        tournament = _event(slug)
        scored = select.scored(tournament, director=_is_director(request, tournament))
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
    def post(self, request):
        if not (request.user and request.user.is_authenticated):
            raise NotAllowed("sign-in-required", "sign in to create an event")
        serializer = DuplicateCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = dup.create_duplicate_tournament(
            actor=Actor(user=request.user), **serializer.validated_data
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
    request, tournament: Tournament, number: int, side: str, pin: str = ""
) -> tuple[Actor, Match]:
    round_ = tournament.round_set.order_by("-number").first()
    match = (
        None
        if round_ is None
        else Match.objects.filter(round=round_, table__number=number)
        .select_related("table", "round")
        .first()
    )
    if match is None:
        raise ApiError("no-round", f"no round is in play at table {number}", status_code=409)
    if _is_director(request, tournament):
        return Actor(user=request.user, side=side, pin=pin), match
    token = request.auth
    if (
        not isinstance(token, TableToken)
        or token.state != TokenState.ACTIVE
        or token.table.tournament_id != tournament.pk
        or token.table.number != number
    ):
        raise NotAllowed("wrong-table", "this table's token (or a director) only")
    return Actor(
        card=token.table_id, side=side, pin=pin, label=token.label or f"table {number} scorer"
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

    def post(self, request, slug: str, number: int):
        tournament = _event(slug)
        serializer = DuplicateResultSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        actor, match = _table_actor(request, tournament, number, data["side"])
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


def _decide(request, slug: str, pk: int, confirm: bool):
    tournament = _event(slug)
    result = get_object_or_404(
        BoardResult.objects.select_related("board", "match__table"), pk=pk, tournament=tournament
    )
    serializer = DuplicateDecideSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    actor, match = _table_actor(request, tournament, result.table_number, data["side"], data["pin"])
    if match.pk != result.match_id:
        raise ApiError("not-pending", "this result is of an earlier round", status_code=409)
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

    def post(self, request, slug: str, pk: int):
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

    def post(self, request, slug: str, pk: int):
        return _decide(request, slug, pk, False)
