"""Duplicate Spades and Whist in the database: the event's settings, its numbered pairs, its
boards, and the board results (versioned, confirmed by the other side, adjusted by a director).

A duplicate tournament is a `Tournament` with `format = "duplicate"` and one `DuplicateEvent`
holding the movement and the scoring options (the option names are the spec's contract:
`board_scoring`, `board_compare`, `board_honours`). Each round of the movement is a `Round`
with a `Table`, a `Match` and two `Seat`s (NS and EW) per table, so table tokens, PINs and the
phones work as for any tournament; the boards played at a table in a round are `BoardResult`s
of that match. Invariants are database constraints: one board number per event, one pair
number per event, one current and one confirmed result per board per table-round, an adjusted
result carries both sides' adjustments and a reason.

Imported by `tournaments.models` (the app's models live in both modules).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class DuplicateEvent(models.Model):
    """The duplicate settings of a tournament (docs/duplicate.md)."""

    class Movement(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell (NS stay, EW move)")
        HOWELL = "howell", _("Howell (one field)")
        BAROMETER = "barometer", _("Barometer (every table plays the same boards)")

    class Even(models.TextChoices):
        SKIP = "skip", _("Skip (EW move two tables once)")
        RELAY = "relay", _("Relay and bye stand")

    class BoardScoring(models.TextChoices):
        STANDARD = "standard", _("Standard (the rules' score from 0–0)")
        CGA = "cga", _("Card Game Academy (bags ±1, set bids to the opponents)")
        ANDREWS = "andrews", _("Joe Andrews (failed bids to the setters, bags −1)")

    class BoardCompare(models.TextChoices):
        OWN = "own", _("Each side's own score")
        NET = "net", _("NS's score minus EW's")

    class Comparison(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("Matchpoints (Neuberg for boards played fewer times)")
        CROSS_IMPS = "cross-imps", _("Cross-IMPs")
        BUTLER = "butler", _("Butler IMPs")

    class BoardSource(models.TextChoices):
        SEEDED = "seeded", _("Dealt by TrickTable from a seed")
        DIRECTOR = "director", _("Entered by the director")
        FIRST_RECORD = "first-record", _("The first full record played of each board")

    tournament = models.OneToOneField(
        "tournaments.Tournament", models.CASCADE, related_name="duplicate"
    )
    movement = models.CharField(_("movement"), max_length=12, choices=Movement.choices)
    even = models.CharField(
        _("even number of tables"), max_length=6, choices=Even.choices, default=Even.SKIP
    )
    tables = models.PositiveSmallIntegerField(_("tables"))
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"))
    board_scoring = models.CharField(
        _("board scoring"),
        max_length=10,
        choices=BoardScoring.choices,
        default=BoardScoring.STANDARD,
    )
    board_compare = models.CharField(
        _("what is compared"), max_length=4, choices=BoardCompare.choices
    )
    board_honours = models.BooleanField(_("honours count (Whist)"), default=False)
    comparison = models.CharField(
        _("comparison"), max_length=12, choices=Comparison.choices, default=Comparison.MATCHPOINTS
    )
    imp_scale = models.JSONField(
        _("IMP scale"),
        default=dict,
        blank=True,
        help_text=_('Empty: the game\'s default scale. Otherwise {"name", "factor", "steps"}.'),
    )
    board_source = models.CharField(
        _("boards"), max_length=12, choices=BoardSource.choices, default=BoardSource.SEEDED
    )
    deal_seed = models.CharField(_("deal seed"), max_length=64, blank=True)
    pairs = models.PositiveSmallIntegerField(_("pairs"), default=0)
    movement_data = models.JSONField(
        default=dict, blank=True, help_text=_("The movement as generated (rounds, tables, pairs).")
    )
    released_round = models.PositiveSmallIntegerField(
        _("results released up to round"),
        default=0,
        help_text=_("The tables see other tables' results of the rounds up to this one."),
    )

    class Meta:
        verbose_name = _("duplicate event")
        constraints = [
            models.CheckConstraint(
                condition=Q(movement__in=["mitchell", "howell", "barometer"]),
                name="duplicate_movement_known",
            ),
            models.CheckConstraint(
                condition=Q(even__in=["skip", "relay"]), name="duplicate_even_known"
            ),
            models.CheckConstraint(
                condition=Q(board_scoring__in=["standard", "cga", "andrews"]),
                name="duplicate_board_scoring_known",
            ),
            models.CheckConstraint(
                condition=Q(board_compare__in=["own", "net"]), name="duplicate_board_compare_known"
            ),
            models.CheckConstraint(
                condition=Q(comparison__in=["matchpoints", "cross-imps", "butler"]),
                name="duplicate_comparison_known",
            ),
            models.CheckConstraint(
                condition=Q(board_source__in=["seeded", "director", "first-record"]),
                name="duplicate_board_source_known",
            ),
            models.CheckConstraint(condition=Q(tables__gte=2), name="duplicate_two_tables"),
            models.CheckConstraint(
                condition=Q(boards_per_round__gte=1), name="duplicate_boards_per_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} ({self.movement})"

    @property
    def fields(self) -> dict[str, list[int]]:
        """The ranking fields, North-South before East-West as the movement made them:
        PostgreSQL's jsonb keeps an object's keys in its own order ("EW" before "NS")."""
        stored = self.movement_data.get("fields", {})
        order = {"NS": 0, "EW": 1}
        return {k: stored[k] for k in sorted(stored, key=lambda k: (order.get(k, 2), k))}


class DuplicatePair(models.Model):
    """A pair's number in the movement (its entry is the partnership)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, related_name="duplicate_pairs"
    )
    number = models.PositiveSmallIntegerField(_("pair"))
    entry = models.OneToOneField("tournaments.Entry", models.CASCADE, related_name="duplicate_pair")

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="duplicate_pair_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="duplicate_pair_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('pair')} {self.number}"


class Board(models.Model):
    """One board: its number, dealer and deal (each seat's 13 cards; Whist: the turned card).
    `hands` is empty while a director-entered or first-record board has no deal yet."""

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"))
    dealer = models.CharField(_("dealer"), max_length=1)
    hands = models.JSONField(_("deal"), default=dict, blank=True)
    turned = models.CharField(_("turned card"), max_length=2, blank=True)
    source = models.CharField(max_length=12, default="seeded")

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="board_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
            models.CheckConstraint(
                condition=Q(dealer__in=["N", "E", "S", "W"]), name="board_dealer_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{_('board')} {self.number}"

    @property
    def dealt(self) -> bool:
        return bool(self.hands)


class BoardResult(models.Model):
    """One version of a board's result at one table in one round (the `match`).

    Versions are never edited but for their status: a re-submission after a rejection, or a
    director's adjustment, is a new version. A table's result waits for the other side's
    confirmation (its PIN) as a hand does; a director's result is confirmed at once."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        REJECTED = "rejected", _("Rejected")
        SUPERSEDED = "superseded", _("Superseded")

    class Kind(models.TextChoices):
        SUMMARY = "summary", _("Bids and tricks")
        FULL = "full", _("Full record")
        ADJUSTED = "adjusted", _("Adjusted")
        ASSIGNED = "assigned", _("Assigned score")

    class Adjustment(models.TextChoices):
        AVERAGE_PLUS = "average-plus", _("Average plus (60%)")
        AVERAGE = "average", _("Average (50%)")
        AVERAGE_MINUS = "average-minus", _("Average minus (40%)")

    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, related_name="board_results"
    )
    board = models.ForeignKey(Board, models.CASCADE, related_name="results")
    match = models.ForeignKey("tournaments.Match", models.CASCADE, related_name="board_results")
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    ns_pair = models.PositiveSmallIntegerField()
    ew_pair = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    record = models.JSONField(null=True, blank=True, help_text=_("The hand record (hand/1)."))
    ns_score = models.IntegerField(null=True, blank=True)
    ew_score = models.IntegerField(null=True, blank=True)
    notes = models.JSONField(default=list, blank=True)
    ns_adjusted = models.CharField(max_length=14, choices=Adjustment.choices, blank=True)
    ew_adjusted = models.CharField(max_length=14, choices=Adjustment.choices, blank=True)
    reason = models.TextField(blank=True)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    submitted_side = models.CharField(max_length=2, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_label = models.CharField(max_length=100, blank=True)
    submitted_at = models.DateTimeField(auto_now_add=True)
    decided_label = models.CharField(max_length=100, blank=True)
    decided_side = models.CharField(max_length=2, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["board_id", "round_number", "table_number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "board", "version"], name="board_result_version_once"
            ),
            models.UniqueConstraint(
                fields=["match", "board"],
                condition=Q(is_current=True),
                name="board_result_one_current",
            ),
            models.UniqueConstraint(
                fields=["match", "board"],
                condition=Q(status="confirmed"),
                name="board_result_one_confirmed",
            ),
            models.UniqueConstraint(
                fields=["idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="board_result_idempotency_key_once",
            ),
            models.CheckConstraint(
                condition=Q(is_current=True) | ~Q(status="pending"),
                name="board_result_pending_is_current",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "rejected", "superseded"]),
                name="board_result_status_known",
            ),
            models.CheckConstraint(
                condition=Q(
                    kind="adjusted",
                    ns_adjusted__in=["average-plus", "average", "average-minus"],
                    ew_adjusted__in=["average-plus", "average", "average-minus"],
                )
                & ~Q(reason="")
                | Q(
                    kind__in=["summary", "full", "assigned"],
                    ns_adjusted="",
                    ew_adjusted="",
                    ns_score__isnull=False,
                    ew_score__isnull=False,
                ),
                name="board_result_scored_or_adjusted",
            ),
            models.CheckConstraint(
                condition=~Q(kind="assigned") | ~Q(reason=""),
                name="board_result_assigned_has_reason",
            ),
            models.CheckConstraint(
                condition=~Q(ns_pair=models.F("ew_pair")), name="board_result_two_pairs"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.board}, {_('round')} {self.round_number} {_('table')} "
            f"{self.table_number} v{self.version} ({self.status})"
        )
