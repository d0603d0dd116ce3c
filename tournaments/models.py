"""The tournament domain: players, teams, tournaments, entries, rounds, tables, matches, hands and
their versioned submissions, and the director's audit trail.

Invariants live in the database (check and unique constraints), not only in Python: one current
version per hand, one confirmed version per hand, one entry per team or player in a tournament,
an entry is a team or a player (never both), a table number once per round. Workflows that
write go through `tournaments.services`, one transaction each.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import (  # noqa: F401  (re-exported)
    Club,
    ClubAuditEvent,
    ClubInvitation,
    Person,
    home_club,
    home_club_pk,
)
from tournaments.knockout.models import BracketPlace, KnockoutSettings
from tournaments.presentation import choices as game_choices
from tournaments.tokens import (  # noqa: F401  (re-exported: the tokens' home)
    SECRET_BYTES,
    SecretToken,
    TokenState,
    hash_secret,
    new_secret,
)

#: (game, its name) for every game in the club's order (games.registry, tournaments.presentation).
GAMES = game_choices()


class Player(models.Model):
    club = models.ForeignKey(
        Club, models.PROTECT, related_name="players", default=home_club_pk, verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    club_number = models.CharField(
        _("club number"), max_length=30, blank=True, help_text=_("Optional membership number.")
    )
    email = models.EmailField(_("email"), blank=True)
    # The record's identity wherever its results go (an archive, the club's site): opaque,
    # never shown, the same person however the name is spelt or hidden. Restoring an archive
    # reuses the player of the same uid; a published event's players keep theirs on the site.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # The person this record is, across clubs (tournaments/clubs): set when the person
    # confirmed the link; none: the record is a person of its own.
    person = models.ForeignKey(
        Person, models.SET_NULL, null=True, blank=True, related_name="records"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        # A club's members by name (the members' pages) from the index, not every club's.
        indexes = [models.Index(fields=["club", "name", "id"], name="player_club_name")]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "club_number"],
                condition=~Q(club_number=""),
                name="player_club_number_unique_in_club",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
            # A person has one record a club (tournaments/people links records across clubs).
            models.UniqueConstraint(
                fields=["person", "club"],
                condition=Q(person__isnull=False),
                name="player_one_record_a_club_per_person",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A partnership of two players."""

    club = models.ForeignKey(
        Club, models.PROTECT, related_name="teams", default=home_club_pk, verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    first = models.ForeignKey(Player, models.PROTECT, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(Player, models.PROTECT, related_name="+", verbose_name=_("partner"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(first=F("second")), name="team_two_players"),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.first, self.second)


class Tournament(KnockoutSettings, models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round-robin", _("Round robin")
        INDIVIDUAL = "individual", _("Individual movement (tables of 3 or 4)")
        PROGRESSIVE = "progressive", _("Progressive partnerships")
        KNOCKOUT = "knockout", _("Knockout")
        DUPLICATE = "duplicate", _("Duplicate (boards, matchpoints or IMPs)")

    class MatchLength(models.TextChoices):
        TARGET = "target", _("To the rules' target score")
        HANDS = "hands", _("A fixed number of hands")
        DIRECTOR = "director", _("Until the director closes the round")

    class State(models.TextChoices):
        SETUP = "setup", _("Setting up")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Confirmation(models.TextChoices):
        PIN = "pin", _("The other side confirms with its PIN")
        SAME_PHONE = "same-phone", _("Either side confirms on the table's phone, no PIN")

    class LateEntry(models.TextChoices):
        ZERO = "zero", _("Missed rounds score nothing")
        DRAW = "draw", _("Missed rounds score a draw")
        BYE = "bye", _("Missed rounds score a bye")

    club = models.ForeignKey(
        Club,
        models.PROTECT,
        related_name="tournaments",
        default=home_club_pk,
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=GAMES)
    rules = models.JSONField(
        _("rules"), help_text=_("The preset and house options, as the rules engine states them.")
    )
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    table_size = models.PositiveSmallIntegerField(
        _("players per table"), default=4, help_text=_("Individual movements: 3 or 4.")
    )
    match_length = models.CharField(
        _("match length"), max_length=10, choices=MatchLength.choices, default=MatchLength.TARGET
    )
    match_hands = models.PositiveSmallIntegerField(
        _("hands per match"), null=True, blank=True, help_text=_("For a fixed number of hands.")
    )
    points_win = models.DecimalField(
        _("points for a win"), max_digits=5, decimal_places=1, default=Decimal(2)
    )
    points_draw = models.DecimalField(
        _("points for a draw"), max_digits=5, decimal_places=1, default=Decimal(1)
    )
    points_loss = models.DecimalField(
        _("points for a loss"), max_digits=5, decimal_places=1, default=Decimal(0)
    )
    points_bye = models.DecimalField(
        _("points for a bye"), max_digits=5, decimal_places=1, default=Decimal(2)
    )
    place_points = models.JSONField(
        _("points by place"),
        default=list,
        blank=True,
        help_text=_("Tables of 3 or 4: match points for 1st, 2nd, ... place, e.g. [3, 2, 1, 0]."),
    )
    tiebreaks = models.JSONField(_("tiebreak order"), default=list, blank=True)
    late_entry = models.CharField(
        _("late entries"), max_length=10, choices=LateEntry.choices, default=LateEntry.ZERO
    )
    show_provisional = models.BooleanField(_("show unconfirmed hands in standings"), default=False)
    confirmation = models.CharField(
        _("confirming hands"),
        max_length=12,
        choices=Confirmation.choices,
        default=Confirmation.PIN,
        help_text=_(
            "With PINs, the side that did not enter a hand confirms it with the PIN printed on "
            "its card; the table's code alone cannot. Same phone trusts whoever holds it."
        ),
    )
    seed = models.PositiveIntegerField(_("pairing seed"), default=0)
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.SETUP)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=150, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_tournaments",
        verbose_name=_("directors"),
    )
    results_version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text=_("Counts changes to results; a standings snapshot records the count it saw."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"),
        default=60,
        help_text=_("The round clock's length for each new round (the director may change it)."),
    )
    last_hand_minutes = models.PositiveSmallIntegerField(
        _("last hand warning (minutes left)"),
        default=10,
        help_text=_("The clock says 'last hand' when this many minutes are left."),
    )

    class Meta:
        ordering = ["-starts_at", "-id"]
        # A club's events in the model's order (the API's pages of them), read from the index:
        # one club's rows of the installation's.
        indexes = [
            models.Index(fields=["club", "-starts_at", "-id"], name="tournament_club_starts"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(
                condition=Q(table_size__in=[2, 3, 4]), name="tournament_table_size"
            ),
            models.CheckConstraint(
                condition=~Q(match_length="hands")
                | Q(match_hands__isnull=False, match_hands__gte=1),
                name="tournament_fixed_hands_counted",
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_draw"), points_draw__gte=F("points_loss")),
                name="tournament_points_ordered",
            ),
            models.CheckConstraint(
                condition=Q(game__in=[g for g, _ in GAMES]), name="tournament_game_known"
            ),
            models.CheckConstraint(
                condition=Q(
                    format__in=[
                        "swiss",
                        "round-robin",
                        "individual",
                        "progressive",
                        "knockout",
                        "duplicate",
                    ]
                ),
                name="tournament_format_known",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["setup", "registration", "running", "finished"]),
                name="tournament_state_known",
            ),
            models.CheckConstraint(
                condition=Q(confirmation__in=["pin", "same-phone"]),
                name="tournament_confirmation_known",
            ),
            *KnockoutSettings.Meta.constraints,
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_team_event(self) -> bool:
        """Entries are teams (fixed partnerships) rather than single players."""
        from tournaments import gameplay

        return gameplay.entry_kind(self.game, self.rules, self.format) == "team"


#: An entry's PIN: short enough to type on a phone at the table; wrong guesses are counted per
#: entry and per client (tournaments.services.side_pins).
PIN_DIGITS = 4


def max_length(model: type[models.Model], name: str) -> int:
    """The length limit of a model's text column (`max_length` typed: every such column has
    one), for the services' checks before a write."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.max_length is not None, name
    return field.max_length


def new_pin(taken: Iterable[str] = ()) -> str:
    """A random PIN (`secrets`) that no other entry of the tournament holds, so the two sides
    of a table never share one."""
    taken = set(taken)
    space = 10**PIN_DIGITS
    while True:
        pin = f"{secrets.randbelow(space):0{PIN_DIGITS}d}"
        if pin not in taken or len(taken) >= space:
            return pin


class Entry(models.Model):
    """A team or a player in a tournament. Its `pin` proves its side at the table (entering a
    hand, confirming or rejecting the other side's): one per entry for the whole tournament, so
    reprinting a card or a new round keeps it."""

    # Default orderings name foreign keys by their column (`tournament_id`), never the related
    # model: ordering by the relation follows its ordering too, adding a join per level to
    # every query (a seat's query sorted by the tournament's date).

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked-in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, models.PROTECT, null=True, blank=True, related_name="entries")
    player = models.ForeignKey(
        Player, models.PROTECT, null=True, blank=True, related_name="entries"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(
        _("first round"), default=1, help_text=_("Late entries join from a later round.")
    )
    late_entry = models.CharField(
        _("late entry policy"), max_length=10, choices=Tournament.LateEntry.choices, blank=True
    )
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table"),
        null=True,
        blank=True,
        help_text=_("Always seat this entry at this table number (e.g. for access)."),
    )
    affiliation = models.CharField(
        _("affiliation"),
        max_length=100,
        blank=True,
        help_text=_(
            "A club or family: entries with the same one are kept apart in the pairings "
            "while the draw can."
        ),
    )
    pin = models.CharField(
        _("PIN"),
        max_length=PIN_DIGITS,
        blank=True,
        help_text=_("Confirms the hands the other side enters (printed on the entry's card)."),
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=(Q(team__isnull=False) & Q(player__isnull=True))
                | (Q(team__isnull=True) & Q(player__isnull=False)),
                name="entry_team_or_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"],
                condition=Q(team__isnull=False),
                name="entry_team_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="entry_player_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_once",
            ),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="entry_joined_round"),
            models.CheckConstraint(
                condition=Q(status__in=["registered", "checked-in", "withdrawn"]),
                name="entry_status_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.pin:  # every entry has its PIN from the start: it lasts all tournament
            self.pin = new_pin(
                Entry.objects.filter(tournament_id=self.tournament_id).values_list("pin", flat=True)
            )
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        entrant = self.team if self.team_id else self.player
        assert entrant is not None  # the check constraint: a team's entry or a player's
        return entrant.name

    @property
    def players(self) -> tuple[Player, ...]:
        """Who plays for the entry: a team's two (in registration order), or the one player."""
        if self.team is not None:
            return self.team.players
        assert self.player is not None  # the check constraint: a team's entry or a player's
        return (self.player,)

    @property
    def active(self) -> bool:
        return self.status != self.Status.WITHDRAWN


class KeepApart(models.Model):
    """Two entries the director asked the pairings to keep apart while they can."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="kept_apart")
    first = models.ForeignKey(Entry, models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        verbose_name = _("pair kept apart")
        verbose_name_plural = _("pairs kept apart")
        constraints = [
            # One row per pair, named in id order: (3, 7), never (7, 3) beside it.
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="keep_apart_in_order"),
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="keep_apart_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class RoundQuerySet(models.QuerySet):
    def public(self) -> RoundQuerySet:
        """The rounds visitors may see: every one but a draft (drafts are the directors')."""
        return self.filter(Round.public_q())


class Round(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in-play", _("In play")
        CLOSED = "closed", _("Closed")

    objects = RoundQuerySet.as_manager()

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAFT)
    generated_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    notes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(state__in=["draft", "published", "in-play", "closed"]),
                name="round_state_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.number}"

    @property
    def is_public(self) -> bool:
        """Whether visitors may see the round (anything but a draft)."""
        return self.state != self.State.DRAFT

    @staticmethod
    def public_q(path: str = "") -> Q:
        """The published-or-later condition, for a query reaching rounds through `path`
        (e.g. "match__round__"): what `Round.objects.public()` means, one home for both."""
        return ~Q(**{f"{path}state": Round.State.DRAFT})


class EventTableQuerySet(models.QuerySet["EventTable"]):
    def numbered(
        self: models.QuerySet[EventTable], tournament_id: int, numbers: Iterable[int]
    ) -> dict[int, EventTable]:
        """The event's tables with these numbers, {number: table}, made where missing (one
        query when they all exist, two more otherwise; a table made meanwhile is not made
        twice: the unique constraint and ignore_conflicts)."""
        wanted = set(numbers)
        mine = self.filter(tournament_id=tournament_id, number__in=wanted)
        found = {t.number: t for t in mine}
        missing = wanted - set(found)
        if missing:
            self.bulk_create(
                [EventTable(tournament_id=tournament_id, number=n) for n in sorted(missing)],
                ignore_conflicts=True,
            )
            found = {t.number: t for t in mine.all()}
        return found


class EventTable(models.Model):
    """A numbered table of the event: the physical table in the room, for every round. Its card
    (a `TableToken`) is printed once and scores whichever match is at this table now."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="event_tables")
    number = models.PositiveSmallIntegerField(_("table"))

    objects = EventTableQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "number"]
        verbose_name = _("table of the event")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="event_table_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="event_table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"


class Table(models.Model):
    """A numbered table in a round; its match is who plays there. `event_table` is the same
    physical table in every round (the one its card scores)."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    event_table = models.ForeignKey(
        EventTable, models.RESTRICT, related_name="round_tables", verbose_name=_("table")
    )

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
            models.UniqueConstraint(fields=["round", "event_table"], name="table_event_table_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A table made one at a time (the duplicate movement, a director's repair) finds its
        # event table by number; bulk inserts pass it (services.rounds). (Not "is None": the
        # column is NOT NULL, so its type has no None, though an unsaved table has none yet.)
        if not self.event_table_id:
            tournament_id = (
                Round.objects.filter(pk=self.round_id).values_list("tournament_id", flat=True).get()
            )
            self.event_table = EventTable.objects.numbered(tournament_id, [self.number])[
                self.number
            ]
        super().save(*args, **kwargs)


# -- table scorers' tokens ----------------------------------------------------------------------


class TableToken(SecretToken):
    """A table card's token (`Authorization: Table <secret>`), printed on the card as a QR code:
    its bearer scores the match at that table of the event (`EventTable`) in whichever round is
    being played, and nothing else, until the event ends or the card is revoked (reprinting a
    table's card revokes its earlier ones)."""

    table = models.ForeignKey(
        EventTable, models.CASCADE, related_name="tokens", verbose_name=_("table")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("table token")

    def __str__(self) -> str:
        return f"{self.table} — {self.label or self.pk}"

    @classmethod
    def of_club(cls, secret: str, club: Club) -> TableToken | None:
        """The club's token with this secret, or None: at another club's address a card's
        secret is as unknown as a made-up one (neither its table nor its state is told)."""
        mine = cls.objects.filter(table__tournament__club=club)
        return mine.filter(key_hash=hash_secret(secret)).first()


class Match(BracketPlace, models.Model):
    """The match at a table in a round, or a bye (no table)."""

    class State(models.TextChoices):
        PENDING = "pending", _("Not started")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    round = models.ForeignKey(Round, models.CASCADE, related_name="matches")
    table = models.OneToOneField(Table, models.CASCADE, null=True, blank=True, related_name="match")
    is_bye = models.BooleanField(_("bye"), default=False)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    result = models.JSONField(
        _("result"),
        null=True,
        blank=True,
        help_text=_("The final state and winner, as computed from the confirmed hands."),
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "id"]
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bye=True, table__isnull=True) | Q(is_bye=False, table__isnull=False),
                name="match_bye_has_no_table",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "playing", "finished"]), name="match_state_known"
            ),
            *BracketPlace.Meta.constraints,
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.round}: {_('bye')}"
        return f"{self.round}, {self.table}"

    @property
    def played_table(self) -> Table:
        """The table of a match played at one: every match but a bye, which has none."""
        if self.table is None:
            raise ValueError(f"match {self.pk} is a bye: it has no table")
        return self.table


class Seat(models.Model):
    """An entry at a match: which side it plays (`NS`, `EW`, or a seat letter) and where it sits.

    A team entry occupies two seats (`seats` = "NS"); an individual one seat; progressive play puts
    two individual entries on one side.
    """

    match = models.ForeignKey(Match, models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, models.RESTRICT, related_name="seats")
    side = models.CharField(_("side"), max_length=4)
    seats = models.CharField(_("seats"), max_length=4)
    match_points = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    points_for = models.CharField(max_length=40, blank=True)
    points_against = models.CharField(max_length=40, blank=True)
    outcome = models.CharField(max_length=5, blank=True)  # win, draw, loss, bye
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # Hands in which this seat's side made the table's top score (shared or not, unless every
    # side scored the same): a whist drive's usual tiebreak (services.hands._settle).
    hands_won = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match_id", "seats"]
        constraints = [
            models.UniqueConstraint(fields=["match", "entry"], name="seat_entry_once_per_match"),
            models.UniqueConstraint(fields=["match", "seats"], name="seat_taken_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ({self.seats})"


class Hand(models.Model):
    match = models.ForeignKey(Match, models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match}, {_('hand')} {self.number}"


class HandSubmission(models.Model):
    """One version of a hand: as sent, as the engine read it, and what it scored.

    Versions are never edited in place (but for their status): a correction, a re-submission
    after a rejection or a re-score after an earlier correction is a new version, and the one it
    replaces records `superseded_by`.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        REJECTED = "rejected", _("Rejected")
        SUPERSEDED = "superseded", _("Superseded")
        #: Set aside by a director (with a reason): the table enters the hand again.
        VOIDED = "voided", _("Voided")

    class Source(models.TextChoices):
        TABLE = "table", _("Table scorer")
        DIRECTOR = "director", _("Director")
        RESCORE = "rescore", _("Re-scored after a correction")
        IMPORT = "import", _("Import")

    hand = models.ForeignKey(Hand, models.CASCADE, related_name="versions")
    version = models.PositiveSmallIntegerField()
    is_current = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.TABLE)
    raw = models.JSONField(help_text=_("The JSON exactly as sent."))
    record = models.JSONField(help_text=_("The canonical hand/1 record, with rules and before."))
    result = models.JSONField(help_text=_("The rules engine's result."))
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    submitted_side = models.CharField(max_length=4, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_label = models.CharField(max_length=100, blank=True)
    submitted_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_label = models.CharField(max_length=100, blank=True)
    decided_side = models.CharField(max_length=4, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    superseded_by = models.OneToOneField(
        "self", models.SET_NULL, null=True, blank=True, related_name="supersedes"
    )

    class Meta:
        ordering = ["hand_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="submission_version_once"),
            models.UniqueConstraint(
                fields=["hand"], condition=Q(is_current=True), name="submission_one_current"
            ),
            models.UniqueConstraint(
                fields=["hand"],
                condition=Q(status="confirmed"),
                name="submission_one_confirmed",
            ),
            models.UniqueConstraint(
                fields=["idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="submission_idempotency_key_once",
            ),
            models.CheckConstraint(
                condition=Q(is_current=True) | ~Q(status="pending"),
                name="submission_pending_is_current",
            ),
            models.CheckConstraint(
                condition=Q(is_current=False) | ~Q(status="superseded"),
                name="submission_superseded_not_current",
            ),
            models.CheckConstraint(
                condition=Q(
                    status__in=["pending", "confirmed", "rejected", "superseded", "voided"]
                ),
                name="submission_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} v{self.version} ({self.status})"


class PinFailure(models.Model):
    """A wrong PIN typed at a table, charged to one entry it was tested against (one row per
    entry per wrong PIN): the budget of wrong PINs an entry's PIN may take an hour, and a
    client's growing wait, are counted from these (tournaments.services.side_pins). Kept an
    hour; a director clears a table's."""

    entry = models.ForeignKey(Entry, models.CASCADE, related_name="pin_failures")
    #: Who typed it: the table's token (its table) and the client's address.
    client = models.CharField(max_length=120)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [
            models.Index(fields=["entry", "at"], name="pin_failure_entry_at"),
            models.Index(fields=["client", "at"], name="pin_failure_client_at"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} {self.client} {self.at:%H:%M:%S}"


class AuditEvent(models.Model):
    """An append-only record of a director's (or the system's) action."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(max_length=100, blank=True)
    action = models.CharField(max_length=40)
    subject = models.CharField(max_length=100, blank=True)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.subject}"


class StandingsSnapshot(models.Model):
    """The standings as computed once: immutable, numbered per tournament.

    `inputs_version` is the tournament's `results_version` the computation saw; a snapshot is
    stale while the tournament's count is ahead of it.
    """

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    inputs_version = models.PositiveBigIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    payload = models.JSONField()

    class Meta:
        ordering = ["tournament_id", "-version"]
        get_latest_by = "version"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="snapshot_version_once"),
            models.UniqueConstraint(
                fields=["tournament", "inputs_version"], name="snapshot_inputs_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} standings v{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a standings snapshot is immutable: write a new version")
        super().save(*args, **kwargs)


class StandingsChange(models.Model):
    """One count of a tournament's `results_version` (`inputs_version`: the count it made) and
    the match it was about; no match: anything else (entries, settings, rounds). A recompute
    that starts from the standings it kept for the latest snapshot reads only the matches these
    name (services/standings.py); the rows up to a snapshot's inputs are deleted when it is
    written. A deleted match leaves its rows without a match: the next recompute reads all."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="+")
    inputs_version = models.PositiveBigIntegerField()
    match = models.ForeignKey("Match", models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "inputs_version"], name="standings_change_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} results v{self.inputs_version}: match {self.match_id}"


class Rating(models.Model):
    """A player's club rating in one game (OpenSkill), over every tournament."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20, choices=GAMES)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    history = models.JSONField(
        default=list,
        blank=True,
        help_text=_("One point per rated match: [played at, match id, mu, sigma, ordinal]."),
    )
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal", "-games", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.game}): {self.ordinal:.1f}"


class ImportJob(models.Model):
    """A file of hand records imported in the background, line by line, with its progress.

    The upload is kept (`content`) so a worker can run the job later, or again after a crash:
    each line's idempotency key comes from the file's hash and the line number, so a second run
    stores nothing twice. The counters always add up (`processed` = stored + duplicates +
    failed) and `errors` lists the lines that were not imported.
    """

    class Kind(models.TextChoices):
        HANDS = "hands", _("Hand records")

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.HANDS)
    filename = models.CharField(_("file"), max_length=255, blank=True)
    file_hash = models.CharField(max_length=64, help_text=_("SHA-256 of the uploaded bytes."))
    content = models.TextField(help_text=_("The uploaded file, as UTF-8 text."))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.QUEUED)
    total = models.PositiveIntegerField(_("lines"), default=0)
    processed = models.PositiveIntegerField(_("processed"), default=0)
    stored = models.PositiveIntegerField(_("stored"), default=0)
    duplicates = models.PositiveIntegerField(_("duplicates"), default=0)
    failed = models.PositiveIntegerField(_("failed"), default=0)
    errors = models.JSONField(
        default=list, blank=True, help_text=_("The lines not imported: {line, code, message}.")
    )
    message = models.TextField(blank=True, help_text=_("Why the whole job failed."))
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    progressed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "When the job last moved: claimed, or its progress written. A running job "
            "that has not moved for a minute is resumed by the sweep."
        ),
    )
    runner = models.CharField(
        max_length=32,
        blank=True,
        help_text=_("The run that holds the job; a run taken over writes nothing more."),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("import job")
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["queued", "running", "done", "failed"]),
                name="import_job_state_known",
            ),
            models.CheckConstraint(condition=Q(kind__in=["hands"]), name="import_job_kind_known"),
            models.CheckConstraint(
                condition=Q(processed__lte=F("total")), name="import_job_processed_le_total"
            ),
            models.CheckConstraint(
                condition=Q(processed=F("stored") + F("duplicates") + F("failed")),
                name="import_job_counts_add_up",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.filename or self.kind} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)

    @property
    def percent(self) -> int:
        """How far the job is, 0–100 (a finished job is at 100 whatever its counts)."""
        if self.finished:
            return 100
        return 100 * self.processed // self.total if self.total else 0


# Each feature's models live in its package (imported here so Django registers them).
from tournaments.duplicate.models import (  # noqa: E402, F401
    Board,
    BoardResult,
    DuplicateEvent,
    DuplicatePair,
)
from tournaments.federation.models import FederationRating, FederationRun  # noqa: E402, F401
from tournaments.members.models import (  # noqa: E402, F401
    MembersSettings,
    RemovedName,
)
from tournaments.people.models import ClaimCode, ClaimFailure  # noqa: E402, F401
from tournaments.publishing.models import (  # noqa: E402, F401
    Publication,
    PublishAttempt,
    PublishedEvent,
    PublishingKey,
    PublishTarget,
)
from tournaments.room.models import DirectorCall, RoundClock  # noqa: E402, F401
from tournaments.seasons.models import (  # noqa: E402, F401
    DEFAULT_SEASON_POINTS,
    Series,
    SeriesMember,
    SeriesSnapshot,
)
