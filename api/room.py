"""The room's API (issue 15 points 4–6): a round's clock, calls for the director, table progress.

- `GET  /rounds/{id}/clock`: anyone (a published round); `POST /rounds/{id}/clock` sets the
  length, `…/clock/start|pause|resume|extend` run it: the round's directors. Each answers the
  clock as of the server's time (`server_time`, `remaining_seconds`), so a page counts down
  from the server's clock, not the phone's. A change the clock's state does not allow is a 409
  with a stable code (`clock-not-running`, `clock-not-paused`, `clock-already-started`, ...).
- `POST /tables/{id}/call`: the table's own scoring token only (403 `wrong-table` for another
  table's); calling again while a call is open answers the open call. Throttled (`call`).
  `GET /tables/{id}/call`: the table's token or a director.
- `GET /rounds/{id}/calls` (open calls) and `POST /calls/{id}/acknowledge`: directors.
- `GET /rounds/{id}/progress`: each table's progress, slowest first: directors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from tournaments.models import DirectorCall, Round, RoundClock, Table, TableToken
from tournaments.room import selectors as select
from tournaments.room import services
from tournaments.services import require_director

from .errors import ApiError
from .pagination import paginated
from .permissions import Scorer, ScorerOrSignedIn, SignedIn, directs, is_scorer
from .serializers import RoundRefSerializer, TableRefSerializer
from .views import ID, ActionView, ApiView, actor_for, in_club, valid

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission

# -- serializers ----------------------------------------------------------------------------------


class ClockSerializer(serializers.Serializer):
    round = RoundRefSerializer()
    state = serializers.ChoiceField(
        ["unset", "ready", "running", "paused", "over"],
        help_text="unset: no clock yet (the tournament's length shown); ready: set, not started; "
        "over: time is up (remaining_seconds goes negative).",
    )
    duration_seconds = serializers.IntegerField()
    remaining_seconds = serializers.IntegerField(help_text="As of server_time.")
    last_hand_seconds = serializers.IntegerField(
        help_text="The 'last hand' warning shows with this little time left."
    )
    last_hand = serializers.BooleanField(help_text="The 'last hand' warning is up.")
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="While running, else null.")
    server_time = serializers.DateTimeField(
        help_text="The server's clock when this was computed: a page takes its offset from it."
    )


class ClockSetSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(help_text="The round's length, 1 to 600 minutes.")
    last_hand_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="'Last hand' at this many minutes left (default: the tournament's).",
    )
    as_default = serializers.BooleanField(
        required=False, default=False, help_text="Also the length of later rounds."
    )


class ClockExtendSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(help_text="Minutes to add, 1 to 120.")


class CallRequestSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(
        ["", *DirectorCall.Reason.values], required=False, default="", allow_blank=True
    )
    note = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=services.NOTE_LENGTH
    )


class CallSerializer(serializers.ModelSerializer):
    table = TableRefSerializer(read_only=True)
    open = serializers.BooleanField(source="is_open", read_only=True)

    class Meta:
        model = DirectorCall
        fields = [
            "id",
            "table",
            "reason",
            "note",
            "open",
            "called_at",
            "acknowledged_at",
        ]


class TableProgressSerializer(serializers.Serializer):
    table = serializers.SerializerMethodField()
    match = serializers.IntegerField(source="match_id")
    names = serializers.ListField(child=serializers.CharField())
    current_hand = serializers.IntegerField(
        allow_null=True,
        help_text="null once the match is finished or its last hand awaits confirmation.",
    )
    hands = serializers.IntegerField(help_text="Hands entered.")
    confirmed = serializers.IntegerField()
    pending = serializers.IntegerField(help_text="Awaiting the other side's confirmation.")
    disputed = serializers.IntegerField()
    finished = serializers.BooleanField()
    last_hand_at = serializers.DateTimeField(source="last_at", allow_null=True)
    seconds_since_last_hand = serializers.SerializerMethodField()
    open_call = serializers.SerializerMethodField()

    @extend_schema_field(TableRefSerializer)
    def get_table(self, row: Any) -> dict[str, int]:
        return {"id": row.table_id, "number": row.number}

    def get_seconds_since_last_hand(self, row: Any) -> int | None:
        since = row.since(self.context["now"])
        return int(since.total_seconds()) if since is not None else None

    def get_open_call(self, row: Any) -> int | None:
        return row.call.pk if row.call else None


# -- helpers --------------------------------------------------------------------------------------


def _round(pk: int, request: Request, *, director: bool = False) -> Round:
    round_ = get_object_or_404(in_club(request, Round.objects.select_related("tournament")), pk=pk)
    directing = directs(request, round_.tournament)
    if director and not directing:
        raise ApiError(
            "not-director", "only this tournament's directors may do that", status_code=403
        )
    if not round_.is_public and not directing:
        raise ApiError("not-found", "No Round matches the given query.", status_code=404)
    return round_


def clock_body(round_: Round) -> dict:
    clock = RoundClock.objects.filter(round=round_).first()
    state = services.clock_state(clock, tournament=round_.tournament)
    return {"round": {"id": round_.pk, "number": round_.number}, **state.as_dict()}


ROUND = ID(what="The round's id.")
TABLE = ID(what="The table's id.")

# -- the clock ------------------------------------------------------------------------------------


@extend_schema(tags=["rounds"], parameters=[ROUND])
class RoundClockView(ApiView):
    serializer_class = ClockSerializer
    pagination_class = None
    filter_backends: list = []

    @extend_schema(
        summary="The round's clock, as of the server's time", responses={200: ClockSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(clock_body(_round(pk, request)))

    @extend_schema(
        summary="Set the round's length and its 'last hand' warning (directors)",
        request=ClockSetSerializer,
        responses={200: ClockSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk, request, director=True)
        data = valid(ClockSetSerializer, request)
        services.set_clock(
            round=round_,
            actor=actor_for(request),
            minutes=data["minutes"],
            last_hand_minutes=data["last_hand_minutes"],
            as_default=data["as_default"],
        )
        return Response(clock_body(round_))


def _clock_action(
    name: str,
    summary: str,
    call: Callable[..., Any],
    request_serializer: type[Serializer] | None = None,
) -> type[APIView]:
    @extend_schema(
        tags=["rounds"],
        parameters=[ROUND],
        summary=summary,
        request=request_serializer,
        responses={200: ClockSerializer},
    )
    class View(ActionView):
        serializer_class = ClockSerializer

        def post(self, request: Request, pk: int) -> Response:
            round_ = _round(pk, request, director=True)
            data = valid(request_serializer, request) if request_serializer else {}
            call(round=round_, actor=actor_for(request), **data)
            return Response(clock_body(round_))

    View.__name__ = View.__qualname__ = name
    return View


ClockStart = _clock_action(
    "ClockStart", "Start the round's clock (409 clock-already-started)", services.start_clock
)
ClockPause = _clock_action(
    "ClockPause", "Pause the round's clock (409 clock-not-running)", services.pause_clock
)
ClockResume = _clock_action(
    "ClockResume", "Restart a paused clock (409 clock-not-paused)", services.resume_clock
)
ClockExtend = _clock_action(
    "ClockExtend",
    "Give the round more minutes (409 clock-not-started)",
    services.extend_clock,
    ClockExtendSerializer,
)

# -- calls for the director -----------------------------------------------------------------------


@extend_schema(tags=["tables"], parameters=[TABLE])
class TableCall(ActionView):
    serializer_class = CallSerializer
    permission_classes = [ScorerOrSignedIn]
    throttle_scope = "call"

    def get_throttles(self) -> list[BaseThrottle]:
        return [] if self.request.method == "GET" else super().get_throttles()

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        if self.request.method == "POST":
            return [Scorer()]
        return super().get_permissions()

    @extend_schema(
        summary="The table's latest call for the director (its token or a director)",
        responses={200: CallSerializer, 204: None},
    )
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(
            in_club(request, Table.objects.select_related("round__tournament")), pk=pk
        )
        if is_scorer(request):
            assert isinstance(request.auth, TableToken)  # is_scorer's own test
            if request.auth.table_id != table.event_table_id:  # its card's table, any round
                raise ApiError("wrong-table", "this token is for another table", status_code=403)
        else:
            require_director(actor_for(request), table.round.tournament)
        call = services.table_call(table)
        if call is None:
            return Response(status=204)
        return Response(CallSerializer(call).data)

    @extend_schema(
        summary="Call the director to this table (its own scoring token only; "
        "calling again while a call is open answers the open call)",
        request=CallRequestSerializer,
        responses={200: CallSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(in_club(request, Table.objects), pk=pk)
        data = valid(CallRequestSerializer, request)
        call = services.call_director(table=table, actor=actor_for(request), **data)
        return Response(CallSerializer(call).data)


@extend_schema(
    tags=["rounds"],
    parameters=[ROUND],
    summary="The round's open calls for the director, oldest first (directors)",
    responses={200: CallSerializer(many=True)},
)
class RoundCalls(ApiView):
    serializer_class = CallSerializer
    permission_classes = [SignedIn]
    filter_backends: list = []

    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(pk, request, director=True)
        return paginated(
            request,
            self,
            list(select.open_calls(round_)),
            lambda rows: CallSerializer(rows, many=True).data,
        )


@extend_schema(
    tags=["rounds"],
    parameters=[ID(what="The call's id.")],
    summary="Acknowledge a call: the table's phone says a director is on the way",
    request=None,
    responses={200: CallSerializer},
)
class CallAcknowledge(ActionView):
    serializer_class = CallSerializer
    permission_classes = [SignedIn]

    def post(self, request: Request, pk: int) -> Response:
        call = get_object_or_404(in_club(request, DirectorCall.objects), pk=pk)
        call = services.acknowledge_call(call=call, actor=actor_for(request))
        return Response(CallSerializer(call).data)


@extend_schema(
    tags=["rounds"],
    parameters=[ROUND],
    summary="Each table's progress in the round, slowest first (directors)",
    responses={200: TableProgressSerializer(many=True)},
)
class RoundProgress(ApiView):
    serializer_class = TableProgressSerializer
    permission_classes = [SignedIn]
    filter_backends: list = []

    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(pk, request, director=True)
        now = timezone.now()
        return paginated(
            request,
            self,
            list(select.table_progress(round_, now=now)),
            lambda rows: TableProgressSerializer(rows, many=True, context={"now": now}).data,
        )
