"""Request and response shapes. Request serializers only parse and validate the input; the
services decide. Response serializers are read-only views of the models."""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.knockout.services import seeds as knockout_seeds
from tournaments.models import (
    GAMES,
    AuditEvent,
    Entry,
    HandSubmission,
    KeepApart,
    Match,
    Player,
    Rating,
    Round,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.words.formatting import exact

from .enums import TABLE_SIDE
from .models import ApiToken
from .schema_refs import CHECK_RESULT_REF, HAND_REF

# -- shared ---------------------------------------------------------------------------------------


@extend_schema_field({})
class AnyField(serializers.JSONField):
    """Any JSON value, null included."""


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API."""

    code = serializers.CharField(
        help_text="A stable error code, e.g. `invalid-hand`: one of `ErrorCode`."
    )
    message = serializers.CharField(help_text="A human-readable message.")
    details = AnyField(
        help_text="Structured context (or null): field errors, the rules engine's errors."
    )

    class Meta:
        ref_name = "Error"


@extend_schema_field({"$ref": HAND_REF})
class HandField(serializers.JSONField):
    """A `hand/1` record (the JSON as the scorer sends it)."""


@extend_schema_field({"$ref": CHECK_RESULT_REF})
class CheckResultField(serializers.JSONField):
    pass


@extend_schema_field(OpenApiTypes.OBJECT)
class ObjectField(serializers.JSONField):
    pass


#: A number as the API writes every score and point: an integer when whole, else the exact
#: fraction as a string "p/q" (`tournaments.words.formatting.exact`; docs/api.md).
EXACT_NUMBER = {
    "oneOf": [
        {"type": "integer"},
        {
            "type": "string",
            "pattern": "^-?[0-9]+/[0-9]+$",
            "description": 'An exact fraction, "p/q" in lowest terms (e.g. "7/2").',
        },
    ]
}


@extend_schema_field(EXACT_NUMBER)
class ExactNumberField(serializers.Field):
    """A read-only score or points value, written by the API's one rule for numbers (null when
    there is none yet)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> int | str | None:
        return exact(value)


# -- players and ratings --------------------------------------------------------------------------


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club_number"]


class RatingSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer(read_only=True)
    win_rate = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "player",
            "game",
            "ordinal",
            "mu",
            "sigma",
            "games",
            "wins",
            "draws",
            "win_rate",
            "last_played",
        ]

    def get_win_rate(self, rating: Rating) -> float | None:
        return round(rating.wins / rating.games, 4) if rating.games else None


class RatingHistoryPointSerializer(serializers.Serializer):
    played_at = serializers.CharField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PlayerRatingSerializer(RatingSerializer):
    history = serializers.SerializerMethodField()

    class Meta(RatingSerializer.Meta):
        fields = [f for f in RatingSerializer.Meta.fields if f != "player"] + ["history"]

    @extend_schema_field(RatingHistoryPointSerializer(many=True))
    def get_history(self, rating: Rating) -> list[dict]:
        out = []
        for point in rating.history or []:
            if isinstance(point, list | tuple) and len(point) >= 5:
                out.append(
                    {
                        "played_at": point[0],
                        "match": point[1],
                        "mu": point[2],
                        "sigma": point[3],
                        "ordinal": point[4],
                    }
                )
        return out


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club_number", "created_at"]


class PlayerDetailSerializer(PlayerSerializer):
    ratings = PlayerRatingSerializer(many=True, read_only=True)

    class Meta(PlayerSerializer.Meta):
        fields = PlayerSerializer.Meta.fields + ["ratings"]


# -- tournaments ----------------------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": True}],
        "description": "A preset name (e.g. `standard`) or the rules object the engine accepts.",
    }
)
class RulesField(serializers.JSONField):
    pass


class TournamentSerializer(serializers.ModelSerializer):
    rules = RulesField(read_only=True)
    rounds = serializers.SerializerMethodField()
    points_win = ExactNumberField()
    points_draw = ExactNumberField()
    points_loss = ExactNumberField()
    points_bye = ExactNumberField(allow_null=True)
    place_points = serializers.ListField(child=ExactNumberField(), read_only=True)
    tiebreaks = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "game",
            "rules",
            "format",
            "double_round_robin",
            "rounds",
            "table_size",
            "match_length",
            "match_hands",
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "place_points",
            "tiebreaks",
            "late_entry",
            "show_provisional",
            "confirmation",
            "seed",
            "state",
            "starts_at",
            "venue",
            "results_version",
            "created_at",
            "top_cut",
            "knockout_length",
            "knockout_count",
            "tiebreak_hands",
            "third_place",
            "consolation",
        ]
        read_only_fields = fields

    def get_rounds(self, tournament: Tournament) -> int | None:
        """The rounds it plays; a knockout's follow from its bracket (null until the bracket is
        made: the stored number means nothing there)."""
        if tournament.format != Tournament.Format.KNOCKOUT:
            return tournament.rounds
        seeded = knockout_seeds(tournament)
        if len(seeded) < 2:
            return None
        return (len(seeded) - 1).bit_length()


class KnockoutSettingsSerializer(serializers.Serializer):
    """The knockout's settings; send only those to change."""

    top_cut = serializers.ChoiceField(
        choices=[0, 2, 4, 8],
        required=False,
        help_text="Swiss: how many go on to the knockout after the last Swiss round (0: none).",
    )
    length = serializers.ChoiceField(
        choices=Tournament.KnockoutLength.choices,
        required=False,
        help_text="A knockout match: to the rules' target, a number of hands, or best of N.",
    )
    count = serializers.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        help_text="Hands per knockout match (`hands`) or N (`best-of`, odd).",
    )
    tiebreak_hands = serializers.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        help_text="A match level after its hands plays this many more, again while level.",
    )
    third_place = serializers.BooleanField(required=False)
    consolation = serializers.BooleanField(
        required=False, help_text="Those outside the cut play on in a Swiss of their own."
    )


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    slug = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    game = serializers.ChoiceField(choices=GAMES)
    rules = RulesField(help_text="A preset name or the rules with house options.")
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        allow_null=True,
        default=None,
        help_text="Required, except for a knockout (its rounds follow from the field).",
    )
    knockout = KnockoutSettingsSerializer(
        required=False,
        help_text="A knockout's or a Swiss's top cut settings at creation, "
        "checked as `PATCH .../knockout` checks them; refused, nothing is created.",
    )
    match_length = serializers.ChoiceField(
        choices=Tournament.MatchLength.choices, default=Tournament.MatchLength.TARGET
    )
    match_hands = serializers.IntegerField(
        min_value=1, max_value=32767, required=False, allow_null=True, default=None
    )
    table_size = serializers.IntegerField(
        min_value=2, max_value=4, required=False, allow_null=True, default=None
    )
    double_round_robin = serializers.BooleanField(default=False)
    points_win = serializers.DecimalField(max_digits=5, decimal_places=1, required=False)
    points_draw = serializers.DecimalField(max_digits=5, decimal_places=1, required=False)
    points_loss = serializers.DecimalField(max_digits=5, decimal_places=1, required=False)
    points_bye = serializers.DecimalField(
        max_digits=5, decimal_places=1, required=False, allow_null=True
    )
    place_points = serializers.ListField(
        child=serializers.DecimalField(max_digits=5, decimal_places=1),
        required=False,
        allow_null=True,
        max_length=4,
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        allow_null=True,
        max_length=20,
    )
    late_entry = serializers.ChoiceField(
        choices=Tournament.LateEntry.choices, default=Tournament.LateEntry.ZERO
    )
    show_provisional = serializers.BooleanField(default=False)
    confirmation = serializers.ChoiceField(
        choices=Tournament.Confirmation.choices,
        default=Tournament.Confirmation.PIN,
        help_text="`pin` (default): each side proves itself with its entry's PIN: the side "
        "entering a hand with its own, the other side confirming it with its own; "
        "`same-phone`: the table's token alone enters and confirms, the phone saying which "
        "side acts (a trusting club: one side can then score for both).",
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    venue = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class TournamentUpdateSerializer(TournamentCreateSerializer):
    """The setup fields a director may change (send only those that change). The game, rules,
    format, table size and match length are fixed once a round is published; the number of
    rounds may grow."""

    slug = None  # type: ignore[assignment]  # DRF's way to drop an inherited field

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("partial", True)
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


# -- entries --------------------------------------------------------------------------------------


@extend_schema_field(
    {"oneOf": [{"type": "string", "format": "email"}, {"type": "string", "maxLength": 0}]}
)
class OptionalEmailField(serializers.EmailField):
    """An email address or nothing: documented as either, so that the empty default is valid
    against its own schema (an `email` format holds no empty string)."""


class PlayerSpecSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    club_number = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    email = OptionalEmailField(required=False, allow_blank=True, default="")


class EntryPinSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "name", "pin"]
        read_only_fields = fields


class EntrySerializer(serializers.ModelSerializer):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    name = serializers.CharField(read_only=True)
    kind = serializers.SerializerMethodField()
    team = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    late_entry = serializers.CharField(
        read_only=True, help_text="A late entry's policy (zero, draw, bye), or empty."
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "name",
            "kind",
            "team",
            "players",
            "status",
            "seed",
            "joined_round",
            "late_entry",
            "withdrawn_after_round",
            "fixed_table",
            "affiliation",
            "registered_at",
        ]
        read_only_fields = fields

    def get_kind(self, entry: Entry) -> str:
        return "team" if entry.team_id else "player"

    @extend_schema_field(
        {
            "type": ["object", "null"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        }
    )
    def get_team(self, entry: Entry) -> dict | None:
        return {"id": entry.team_id, "name": entry.team.name} if entry.team is not None else None

    @extend_schema_field(PlayerBriefSerializer(many=True))
    def get_players(self, entry: Entry) -> list[dict]:
        players = entry.players
        return PlayerBriefSerializer(players, many=True).data  # type: ignore[return-value]  # many=True: a list


class RegisterSerializer(serializers.Serializer):
    players = PlayerSpecSerializer(many=True, min_length=1, max_length=2)  # type: ignore[call-arg]  # ListSerializer's lengths, through many=True (the stubs lack them)
    name = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="A team's name (team events; default: the players' names).",
    )
    seed = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, allow_null=True, default=None
    )
    late_entry = serializers.ChoiceField(
        choices=Tournament.LateEntry.choices, required=False, allow_blank=True, default=""
    )
    affiliation = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="A club or family: entries with the same one are kept apart in the pairings "
        "while the draw can.",
    )
    checked_in = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Directors only: the entry is here now and is checked in at once.",
    )


class AffiliationSerializer(serializers.Serializer):
    affiliation = serializers.CharField(
        max_length=100, allow_blank=True, help_text="The entry's club or family (empty: none)."
    )


class CheckInManySerializer(serializers.Serializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        min_length=1,
        max_length=2000,
        help_text="The entries' ids.",
    )


class KeepApartSerializer(serializers.ModelSerializer):
    first: serializers.PrimaryKeyRelatedField[Player] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )
    second: serializers.PrimaryKeyRelatedField[Player] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )

    class Meta:
        model = KeepApart
        fields = ["id", "first", "second", "reason", "created_at"]
        read_only_fields = fields


class KeepApartCreateSerializer(serializers.Serializer):
    first = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="One entry's id.")
    second = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, help_text="The other entry's id."
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A CSV (UTF-8) or XLSX file with a header row.")
    dry_run = serializers.BooleanField(default=False)


class RowErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    row = serializers.IntegerField(allow_null=True)
    column = serializers.CharField(allow_blank=True)


class ImportRowSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    team = serializers.CharField(allow_blank=True)
    players = PlayerBriefSerializer(many=True)
    seed = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField(allow_null=True)
    errors = RowErrorSerializer(many=True)  # type: ignore[assignment]  # a field named like a Serializer attribute


class ImportPreviewSerializer(serializers.Serializer):
    filename = serializers.CharField()
    team_event = serializers.BooleanField()
    ok = serializers.BooleanField()
    dry_run = serializers.BooleanField()
    imported = serializers.BooleanField()
    errors = RowErrorSerializer(many=True)  # type: ignore[assignment]  # a field named like a Serializer attribute
    rows = ImportRowSerializer(many=True)


class SeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField(min_value=1, max_value=2**31 - 1, allow_null=True)


class FixTableSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        allow_null=True,
        help_text="The table number the entry always sits at (null frees it again).",
    )
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


# -- rounds, tables, matches ----------------------------------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id", read_only=True)
    name = serializers.CharField(source="entry.name", read_only=True)
    match_points = ExactNumberField(allow_null=True)
    points_for = ExactNumberField(allow_null=True)
    points_against = ExactNumberField(allow_null=True)
    outcome = serializers.SerializerMethodField()

    @extend_schema_field({"type": ["string", "null"], "enum": ["win", "draw", "loss", "bye", None]})
    def get_outcome(self, seat: Seat) -> str | None:
        """The seat's outcome once the match is over, else null."""
        return seat.outcome or None

    class Meta:
        model = Seat
        fields = [
            "entry",
            "name",
            "side",
            "seats",
            "match_points",
            "points_for",
            "points_against",
            "outcome",
            "place",
        ]
        read_only_fields = fields


class RoundRefSerializer(serializers.Serializer):
    """A round wherever a body names one: its `id` (the paths' `/rounds/{id}`) and its
    `number` in the tournament (for people)."""

    id = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)

    class Meta:
        ref_name = "RoundRef"


class TableRefSerializer(serializers.Serializer):
    """A round's table wherever a body names one: its `id` (the paths' `/tables/{id}`) and its
    `number` in the room (for people)."""

    id = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)

    class Meta:
        ref_name = "TableRef"


class CardRefSerializer(serializers.Serializer):
    """A table of the event, all evening (its card): `id` and the table's `number`."""

    id = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)

    class Meta:
        ref_name = "CardRef"


class MatchBriefSerializer(serializers.ModelSerializer):
    table = TableRefSerializer(read_only=True, allow_null=True)
    seats = SeatSerializer(many=True, read_only=True)
    result = ObjectField(read_only=True, allow_null=True)

    class Meta:
        model = Match
        fields = ["id", "table", "is_bye", "state", "result", "finished_at", "seats"]
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    notes = serializers.ListField(child=serializers.JSONField(), read_only=True)
    matches = MatchBriefSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "state",
            "generated_at",
            "published_at",
            "closed_at",
            "notes",
            "matches",
        ]
        read_only_fields = fields


class GenerateSerializer(serializers.Serializer):
    regenerate = serializers.BooleanField(
        default=False, help_text="Replace the current draft with a fresh one."
    )


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="An entry id.")
    second = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text="Another entry id."
    )
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class FieldsBuiltOnce:
    """A ModelSerializer whose fields are built from the model once per class, then copied for
    each instance (DRF's own way of copying declared fields: `copy.deepcopy`). DRF builds them
    again for every instance, reading the model's metadata, which was half the cost of a
    submission's answer (docs/benchmarks.md). The fields depend only on the class (Meta and its
    declared fields), never on the instance or context."""

    def get_fields(self) -> dict[str, Any]:
        built = type(self).__dict__.get("_fields_built")
        if built is None:
            built = super().get_fields()  # type: ignore[misc]
            type(self)._fields_built = built  # type: ignore[attr-defined]
        return copy.deepcopy(built)


class HandVersionSerializer(FieldsBuiltOnce, serializers.ModelSerializer):
    number = serializers.IntegerField(source="hand.number", read_only=True)
    raw = ObjectField(read_only=True)
    record = ObjectField(read_only=True)
    result = CheckResultField(read_only=True)

    class Meta:
        model = HandSubmission
        fields = [
            "id",
            "number",
            "version",
            "is_current",
            "status",
            "source",
            "raw",
            "record",
            "result",
            "submitted_side",
            "submitted_label",
            "submitted_at",
            "decided_label",
            "decided_side",
            "decided_at",
            "reason",
        ]
        read_only_fields = fields


class HandSummarySerializer(serializers.ModelSerializer):
    """A hand's current version without the records (match detail)."""

    number = serializers.IntegerField(source="hand.number", read_only=True)
    result = CheckResultField(read_only=True)

    class Meta:
        model = HandSubmission
        fields = [
            "id",
            "number",
            "version",
            "status",
            "source",
            "result",
            "submitted_side",
            "submitted_at",
            "decided_side",
            "decided_at",
            "reason",
        ]
        read_only_fields = fields


class QueueItemSerializer(HandSummarySerializer):
    """A hand in the director's queue: awaiting confirmation, or disputed."""

    match = serializers.IntegerField(source="hand.match_id", read_only=True)
    round = RoundRefSerializer(source="hand.match.round", read_only=True)
    table = TableRefSerializer(source="hand.match.table", read_only=True, allow_null=True)

    class Meta(HandSummarySerializer.Meta):
        fields = ["match", "round", "table", *HandSummarySerializer.Meta.fields]
        read_only_fields = fields


class MatchSerializer(MatchBriefSerializer):
    tournament = serializers.CharField(source="round.tournament.slug", read_only=True)
    round = RoundRefSerializer(read_only=True)

    class Meta(MatchBriefSerializer.Meta):
        fields = ["id", "tournament", "round"] + MatchBriefSerializer.Meta.fields[1:]


class MatchDetailSerializer(MatchSerializer):
    hands = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = MatchSerializer.Meta.fields + ["hands"]

    @extend_schema_field(HandSummarySerializer(many=True))
    def get_hands(self, match: Match) -> list[dict]:
        from tournaments.services import current_versions

        return HandSummarySerializer(current_versions(match), many=True).data  # type: ignore[return-value]  # many=True: a list


class TableSerializer(serializers.ModelSerializer):
    tournament = serializers.CharField(source="round.tournament.slug", read_only=True)
    round = RoundRefSerializer(read_only=True)
    match = MatchBriefSerializer(read_only=True)

    class Meta:
        model = Table
        fields = ["id", "number", "tournament", "round", "match"]


# -- hands ----------------------------------------------------------------------------------------


def _hand_object(value: Any) -> None:
    """A hand is a JSON object; its `game` and `rules` (if stated) are read by the engine."""
    if not isinstance(value, dict):
        raise serializers.ValidationError("a hand record is a JSON object")
    if "game" in value and not isinstance(value["game"], str):
        raise serializers.ValidationError("`game` is a string")


class SubmitSerializer(serializers.Serializer):
    record = HandField(
        help_text="The hand/1 record (`format` and `before` may be left out).",
        validators=[_hand_object],
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        allow_null=True,
        default=None,
        help_text="The hand's number (default: the next hand).",
    )
    side = serializers.ChoiceField(
        choices=TABLE_SIDE,
        required=False,
        allow_blank=True,
        help_text="The side submitting (NS, EW, N, ...). In PIN mode the side is the one whose "
        "entry's `pin` is given, and a side given here must agree with it (403 "
        "`side-pin-mismatch`); in `same-phone` mode a table scorer must say it.",
    )
    pin = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=True,
        help_text="In PIN mode (the tournament's `confirmation`), a table scorer gives the PIN "
        "of an entry seated at this match (its card's): the hand is entered by that entry's "
        "side. The same PIN serves every hand of the match. Refusals, nothing stored: 403 "
        "`side-pin-required`, `side-pin-wrong`, `side-pin-mismatch`; 429 `side-pin-wait` (this "
        "phone waits a little after repeated wrong PINs) or `side-pin-locked` (an entry's PIN "
        "took its budget of wrong PINs this hour: the director clears it), with Retry-After. "
        "Directors need none.",
    )
    idempotency_key = serializers.CharField(
        min_length=8,
        max_length=100,
        required=False,
        allow_null=True,
        default=None,
        help_text="Or the `Idempotency-Key` header: a retry with it returns the stored version.",
    )


class DecideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(
        choices=TABLE_SIDE,
        required=False,
        allow_blank=True,
        help_text="The side answering. In PIN mode the side is the one whose entry's `pin` is "
        "given (a side given here must agree: 403 `side-pin-mismatch`); in `same-phone` mode a "
        "table scorer must say it.",
    )
    pin = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=True,
        help_text="The answering side's PIN, from its entry's card, typed for this answer: a "
        "table scorer must give it when the tournament's `confirmation` is `pin`. Not the PIN "
        "of the side that entered the hand (403 `own-side`) nor, at an individual table, of "
        "the hand's declarer or the declarer's partner (403 `declarer-side`). Other refusals: "
        "403 `side-pin-required`, `side-pin-wrong`; 429 `side-pin-wait`, `side-pin-locked` "
        "with Retry-After (as for a submission). Directors need none.",
    )
    version = serializers.IntegerField(
        min_value=1,
        help_text="The version answered, as the answerer saw it: if the hand has changed since, "
        "the answer is refused (409 `stale-version`, with the current version in `details`) "
        "and nothing changes.",
    )


class RejectSerializer(DecideSerializer):
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class CorrectSerializer(serializers.Serializer):
    record = HandField(validators=[_hand_object])
    reason = serializers.CharField(max_length=1000)
    version = serializers.IntegerField(
        min_value=1,
        help_text="The version being corrected (the current one as the director saw it): a "
        "stale one is a 409 `stale-version` and changes nothing.",
    )


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)
    version = serializers.IntegerField(
        min_value=1,
        help_text="The version being voided, as the director saw it (409 `stale-version` "
        "otherwise).",
    )


class CheckRequestSerializer(serializers.Serializer):
    """Only for the schema: the request body is the record itself."""


# -- audit, tokens --------------------------------------------------------------------------------


class AuditEventSerializer(serializers.ModelSerializer):
    data = ObjectField(read_only=True)  # type: ignore[assignment]  # a field named like a Serializer attribute

    class Meta:
        model = AuditEvent
        fields = ["id", "at", "actor_label", "action", "subject", "reason", "data"]
        read_only_fields = fields


class TableTokenCreateSerializer(serializers.Serializer):
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")  # type: ignore[assignment]  # a field named like a Serializer attribute
    expires_in = serializers.IntegerField(
        min_value=60,
        max_value=7 * 24 * 3600,
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds until the token expires; left out (or null), it is valid until the "
        "event ends or it is revoked.",
    )


class TableTokenSelfSerializer(serializers.Serializer):
    """What a table card's token is for: its table of the event and what is at that table now
    (the match of the round in play, or the round awaited next), until when. Built from the
    card's `CardNow` (tournaments.selectors.cards) with the token as `token`."""

    card = CardRefSerializer(source="event_table", help_text="The event's table (the card).")
    table = TableRefSerializer(
        allow_null=True,
        default=None,
        help_text="The round's table now shown (null before the first round).",
    )
    match = serializers.IntegerField(source="match_id", allow_null=True)
    round = RoundRefSerializer(allow_null=True, default=None)
    now = serializers.ChoiceField(
        source="state",
        choices=["playing", "idle", "waiting", "over"],
        help_text="playing: the match at the table; idle: no match here this round; waiting: "
        "the next round is not published yet; over: the event has finished.",
    )
    next_round = serializers.IntegerField(allow_null=True)
    tournament = serializers.CharField(source="tournament.slug")
    label = serializers.SerializerMethodField()  # type: ignore[assignment]  # a field named like a Serializer attribute
    state = serializers.SerializerMethodField()
    expires_at = serializers.SerializerMethodField()

    def __init__(self, *args: Any, token: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.token = token

    def get_label(self, now: Any) -> str:
        return self.token.label

    def get_state(self, now: Any) -> str:
        return str(self.token.state)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_expires_at(self, now: Any) -> str | None:
        expires = self.token.expires_at
        return serializers.DateTimeField().to_representation(expires) if expires else None


class TableTokenSerializer(serializers.ModelSerializer):
    card = CardRefSerializer(source="table", read_only=True, help_text="The event's table.")
    state = serializers.CharField(read_only=True)
    created_by = serializers.CharField(
        source="created_by.get_username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = TableToken
        fields = [
            "id",
            "card",
            "label",
            "state",
            "created_at",
            "expires_at",
            "revoked_at",
            "last_used_at",
            "created_by",
        ]
        read_only_fields = fields


class TableTokenSecretSerializer(TableTokenSerializer):
    secret = serializers.CharField(read_only=True, help_text="Shown once; stored hashed.")
    url = serializers.CharField(
        read_only=True, help_text="The scoring page with the secret in the fragment (QR code)."
    )

    class Meta(TableTokenSerializer.Meta):
        fields = TableTokenSerializer.Meta.fields + ["secret", "url"]


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, required=False, help_text="Not needed when signed in by session."
    )
    password = serializers.CharField(
        max_length=4096,
        required=False,
        style={"input_type": "password"},
        help_text="Needed unless signed in by session (also with `Authorization: Token`).",
    )
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")  # type: ignore[assignment]  # a field named like a Serializer attribute
    expires_in = serializers.IntegerField(
        min_value=60,
        max_value=366 * 24 * 3600,
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds until the token expires (default: never). A token made with a "
        "token expires no later than it.",
    )


class ApiTokenSerializer(serializers.ModelSerializer):
    state = serializers.CharField(read_only=True)
    parent: serializers.PrimaryKeyRelatedField[ApiToken] = serializers.PrimaryKeyRelatedField(  # type: ignore[assignment]  # a field named like a Serializer attribute
        read_only=True,
        allow_null=True,
        help_text="The token this one was made with (null: made with a password or a session); "
        "revoking it revokes this one.",
    )

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "label",
            "state",
            "created_at",
            "expires_at",
            "revoked_at",
            "last_used_at",
            "parent",
        ]
        read_only_fields = fields


class ApiTokenSecretSerializer(ApiTokenSerializer):
    secret = serializers.CharField(read_only=True, help_text="Shown once; stored hashed.")

    class Meta(ApiTokenSerializer.Meta):
        fields = ApiTokenSerializer.Meta.fields + ["secret"]


# -- the knockout --------------------------------------------------------------------------------


class BracketEntrantSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()


class BracketLegSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The tournament's round the match was played in.")
    table = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=Match.State.choices)
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.DictField(
        child=serializers.CharField(), help_text="The game's points by entry id."
    )


class BracketMatchSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The bracket's round (1 = the first).")
    index = serializers.IntegerField(
        help_text="From the top; the third-place match is 2 of the last round."
    )
    name = serializers.CharField()
    top = BracketEntrantSerializer(allow_null=True)
    bottom = BracketEntrantSerializer(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    bye = serializers.BooleanField()
    third_place = serializers.BooleanField()
    state = serializers.ChoiceField(choices=["bye", "decided", "playing", "ready", "waiting"])
    legs = BracketLegSerializer(many=True)
    wins = serializers.DictField(
        child=serializers.IntegerField(), help_text="Best of N: matches won by entry id."
    )


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    matches = BracketMatchSerializer(many=True)


class BracketPlaceSerializer(BracketEntrantSerializer):
    place = serializers.IntegerField()


class BracketSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text="The bracket's lines: a power of two (byes fill).")
    entrants = serializers.IntegerField()
    third_place = serializers.BooleanField()
    length = serializers.CharField(help_text="The knockout's match length, in words.")
    seeds = BracketEntrantSerializer(many=True)
    rounds = BracketRoundSerializer(many=True)
    champion = BracketEntrantSerializer(allow_null=True)
    complete = serializers.BooleanField()
    placings = BracketPlaceSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField())


class CutRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="The Swiss place.")
    at_line = serializers.BooleanField()
    values = serializers.DictField(help_text="The chain's first values, by metric name.")


class CutColumnSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like a Serializer attribute


class CutListSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    top_cut = serializers.IntegerField()
    confirmed = serializers.BooleanField()
    entries = CutRowSerializer(many=True, help_text="In seed order.")
    line = CutRowSerializer(
        many=True,
        help_text="Level with the last one in on match points, when the line falls inside them.",
    )
    decided_by = serializers.CharField(
        allow_null=True,
        help_text=(
            "The tiebreak that drew the line (a metric name, or `final-key`); null without a tie."
        ),
    )
    decided_by_words = serializers.CharField()
    columns = CutColumnSerializer(many=True)
    can_confirm = serializers.BooleanField()
    refusal = serializers.DictField(
        allow_null=True, help_text="Why it cannot be confirmed now: {code, message}."
    )


class ConfirmCutSerializer(serializers.Serializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=2,
        max_length=4096,
        help_text="The cut list as shown, entry ids in seed order.",
    )
