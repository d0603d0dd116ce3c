"""The director's forms: a tournament's setup (game, preset and house options built from the rules
engine's own option list, format, points, tiebreak order), entries, swaps and corrections.

Forms only read and tidy input; the services decide. A form's cleaned data is handed to one
service call, whose refusal (`ServiceError`) is shown against the form.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.errors import RecordError
from games.records import get_game
from tournaments.models import GAMES, Entry, Tournament
from tournaments.presentation import PRESENTATIONS
from tournaments.services.tournaments import default_tiebreaks
from tournaments.words.labels import metric_choice_label
from tournaments.words.options import choices as value_choices
from tournaments.words.options import option_label, preset_label

TIEBREAK_SLOTS = 6

#: The formats of the setup form (a duplicate event ranks by its own percentages).
FORMAT_CHAINS = ("swiss", "round-robin", "individual", "progressive", "knockout")

#: What each format's default chain means, for the director choosing it (docs/standings.md
#: gives each default's source).
CHAIN_MEANINGS = (
    (
        "swiss knockout",
        _(
            "Default for a Swiss: match points (a win, a draw), then the point difference, "
            "the opponents' strength (Buchholz), head to head and wins."
        ),
    ),
    (
        "round-robin",
        _(
            "Default for a round robin: match points, then head to head (everybody met "
            "everybody), Sonneborn-Berger, the point difference and wins."
        ),
    ),
    (
        "individual",
        _(
            "Default for tables of 3 or 4 (Solo Whist, cutthroat and 3-player Spades): each "
            "player's own total over the evening, then the sum of places, the opponents' "
            "strength and head to head. To rank by place points per table instead, put Match "
            "points first."
        ),
    ),
    (
        "progressive",
        _(
            "Default for a whist drive: each player's total points over the evening (each "
            "hand's points, by the rules' preset: tricks over six and honours in whist), then "
            "the hands won, the tables won with a partner (match points), the opponents' "
            "strength and head to head."
        ),
    ),
)


def number(value: Any) -> str:
    """A stored point value as people write it: "3", "1.5" (never "3.0" or "1E+1")."""
    text = format(Decimal(str(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def metric_choices() -> list[tuple[str, Any]]:
    """Every registered standings metric (in registry order), labelled."""
    from tournaments.standings import METRICS

    return [(name, metric_choice_label(name)) for name in METRICS]


def presets(game: str) -> list[str]:
    return list(get_game(game).book.presets)


def split_rules(rules: Any) -> tuple[str, dict[str, Any]]:
    """(preset, house options) of a stored rules value."""
    if isinstance(rules, str):
        return rules, {}
    return rules.get("preset", ""), dict(rules.get("options", {}))


def _choice_key(value: Any) -> str:
    return json.dumps(value)


class DirectorForm(forms.Form):
    """Labels without a trailing colon (they sit above their controls)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # Form.clean returns the cleaned data
        return cleaned

    def choice_field(self, name: str) -> forms.ChoiceField:
        """The form's field `name`, a choice field (to set its choices)."""
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field


class RulesForm(DirectorForm):
    """Game, preset and every house option of the chosen preset (the engine's option list:
    each field starts at the preset's value; only options changed from it are stored)."""

    # Django's form metaclass moves declared fields into `base_fields`, so the instance's
    # `game` and `preset` are free: __init__ sets them to the chosen game's and preset's keys.
    game: str = forms.ChoiceField(label=_("Game"), choices=GAMES)  # type: ignore[assignment]
    preset: str = forms.ChoiceField(label=_("Rule preset"))  # type: ignore[assignment]

    def __init__(
        self,
        *args: Any,
        game: str = "spades",
        preset: str = "",
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        data = self.data if self.is_bound else {}
        self.game = data.get("game") or game
        if self.game not in PRESENTATIONS:
            self.game = "spades"
        book = get_game(self.game).book
        self.preset = data.get("preset") or preset
        if self.preset not in book.presets:
            self.preset = next(iter(book.presets))
        names = PRESENTATIONS[self.game].preset_names
        self.choice_field("preset").choices = [
            (p, f"{names[p]} ({p})" if p in names else p) for p in book.presets
        ]
        self.initial["game"], self.initial["preset"] = self.game, self.preset
        self.preset_values = book.preset_options(self.preset)
        chosen = {**self.preset_values, **(options or {})}
        self.option_names = list(book.options)
        for name, option in book.options.items():
            self.fields[f"opt_{name}"] = self._option_field(self.game, name, option)
            self.initial.setdefault(f"opt_{name}", self._initial(option, chosen[name]))

    @staticmethod
    def _initial(option: Any, value: Any) -> Any:
        if option.cards:
            return " ".join(value)
        if option.choices:
            return _choice_key(value)
        return value

    @staticmethod
    def _option_field(game: str, name: str, option: Any) -> forms.Field:
        label = option_label(name)
        help_text = option.help
        if option.cards:
            return forms.CharField(
                label=label,
                required=False,
                help_text=_("Cards separated by spaces, e.g. 2C 2H"),
                max_length=200,
            )
        if isinstance(option.default, bool):
            return forms.BooleanField(label=label, required=False, help_text=help_text)
        if option.choices:
            return forms.ChoiceField(
                label=label,
                help_text=help_text,
                choices=[(_choice_key(c), words) for c, words in value_choices(game, name)],
            )
        return forms.IntegerField(
            label=label, help_text=help_text, min_value=option.low, max_value=option.high
        )

    @property
    def chosen_preset(self) -> str:
        """The preset the option fields show, by its name (templates read `form.preset` as the
        field)."""
        return preset_label(self.game, self.preset)

    @property
    def options_for(self) -> str:
        """Which game and preset the option fields were built for ("spades:standard"): a form
        posted for another is shown again with the new preset's options."""
        return f"{self.game}:{self.preset}"

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{name}"] for name in self.option_names]

    def option_value(self, name: str) -> Any:
        raw: Any = self.cleaned_data.get(f"opt_{name}")
        option = get_game(self.game).book.options[name]
        if option.cards:
            return [card for card in (raw or "").replace(",", " ").split() if card]
        if option.choices and not isinstance(option.default, bool):
            return json.loads(raw)
        return raw

    def rules(self) -> Any:
        """The rules to store: the preset, with the options changed from it."""
        book = get_game(self.game).book
        changed = {}
        for name in self.option_names:
            value = self.option_value(name)
            try:
                same = book.options[name].check(value) == self.preset_values[name]
            except RecordError:  # an unreadable value: the engine refuses it with its message
                same = False
            if not same:
                changed[name] = value
        return {"preset": self.preset, "options": changed} if changed else self.preset


def _decimal_field(label: Any, *, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        max_digits=5,
        decimal_places=1,
        required=required,
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )


class SetupForm(RulesForm):
    """A tournament's setup: new (no tournament) or the edit of an existing one."""

    name = forms.CharField(label=_("Name"), max_length=150)
    venue = forms.CharField(label=_("Venue"), max_length=150, required=False)
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    format = forms.ChoiceField(  # duplicate events: their own form (duplicate/views.py)
        label=_("Format"),
        choices=[c for c in Tournament.Format.choices if c[0] != Tournament.Format.DUPLICATE],
    )
    double_round_robin = forms.BooleanField(label=_("Double round robin"), required=False)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=32767,
        help_text=_("Not asked for a knockout: its rounds follow from the number of entries."),
    )
    match_length = forms.ChoiceField(
        label=_("Match length"), choices=Tournament.MatchLength.choices
    )
    match_hands = forms.IntegerField(
        label=_("Hands per match"),
        min_value=1,
        max_value=32767,
        required=False,
        help_text=_("For a fixed number of hands."),
    )
    points_win = _decimal_field(_("Match points for a win"))
    points_draw = _decimal_field(_("Match points for a draw"))
    points_loss = _decimal_field(_("Match points for a loss"))
    points_bye = _decimal_field(_("Match points for a bye"), required=False)
    points_bye.help_text = _(
        "Empty: the format's usual value (a win; a draw in progressive "
        "play; the average place at tables)."
    )
    place_points = forms.CharField(
        label=_("Match points by place"),
        required=False,
        max_length=60,
        help_text=_("Tables of 3 or 4: points for 1st, 2nd, … place, e.g. 3, 2, 1, 0."),
    )
    late_entry = forms.ChoiceField(label=_("Late entries"), choices=Tournament.LateEntry.choices)
    show_provisional = forms.BooleanField(
        label=_("Show unconfirmed hands in the standings (marked provisional)"), required=False
    )
    confirmation = forms.ChoiceField(
        label=_("Confirming hands"),
        choices=Tournament.Confirmation.choices,
        required=False,
        help_text=_(
            "With PINs (the default), each side proves who it is with the PIN on its entry's "
            "card: the side entering a hand types its own PIN, another side confirms it with "
            "its own, so nobody can score or confirm for someone else. Same phone: no PINs at "
            "all; whoever holds the table's phone enters and confirms hands for every side, "
            "even their own. Only for a club that trusts everyone at every table."
        ),
    )
    seed = forms.IntegerField(
        label=_("Pairing seed"),
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("The same seed draws the same pairings."),
    )
    # The format whose default chain fills the tiebreak fields (as shown): a chain posted
    # unchanged with another format chosen takes that format's own default (`clean`).
    chain_for = forms.CharField(required=False, widget=forms.HiddenInput)

    #: The fields that shape the hands and the draw: read-only once a round is published.
    LOCKED = ("game", "preset", "format", "double_round_robin", "match_length", "match_hands")

    def __init__(
        self, *args: Any, tournament: Tournament | None = None, locked: bool = False, **kwargs: Any
    ) -> None:
        self.tournament = tournament
        initial = dict(kwargs.pop("initial", None) or {})
        if tournament is not None:
            preset, options = split_rules(tournament.rules)
            kwargs.setdefault("game", tournament.game)
            kwargs.setdefault("preset", preset)
            kwargs.setdefault("options", options)
            initial = {**self._initial_from(tournament), **initial}
        else:
            initial = {**self._defaults(initial.get("format", "swiss")), **initial}
        super().__init__(*args, initial=initial, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": slot},
                choices=[("", _("— none —")), *metric_choices()],
                required=slot == 1,
            )
        shown_format = initial.get("format", "swiss")
        chain = initial.get("tiebreaks") or default_tiebreaks(shown_format)
        for slot, name in enumerate(chain[:TIEBREAK_SLOTS], 1):
            self.initial.setdefault(f"tiebreak_{slot}", name)
        if list(chain) == default_tiebreaks(shown_format):
            self.initial.setdefault("chain_for", shown_format)
        self.locked = locked
        if self.chosen_format() == Tournament.Format.KNOCKOUT:
            # A knockout's rounds follow from its field: whatever was posted is ignored.
            self.fields["rounds"].required = False
            if self.is_bound and "rounds" in self.data:
                # Bound: a QueryDict (a dict in tests), both copied and popped alike.
                data = cast(QueryDict, self.data).copy()
                data.pop("rounds")
                self.data = data
        if locked:
            for name in self.LOCKED:
                self.fields[name].disabled = True
            for name in self.option_names:
                self.fields[f"opt_{name}"].disabled = True
        self.order_fields(
            [
                "name",
                "venue",
                "starts_at",
                "game",
                "preset",
                "format",
                "double_round_robin",
                "rounds",
                "match_length",
                "match_hands",
                "points_win",
                "points_draw",
                "points_loss",
                "points_bye",
                "place_points",
                *[f"tiebreak_{n}" for n in range(1, TIEBREAK_SLOTS + 1)],
                "late_entry",
                "show_provisional",
                "confirmation",
                "seed",
            ]
        )

    @staticmethod
    def _defaults(fmt: str) -> dict[str, Any]:
        return {
            "format": fmt,
            "rounds": 4,
            "match_length": Tournament.MatchLength.TARGET,
            "points_win": Decimal(2),
            "points_draw": Decimal(1),
            "points_loss": Decimal(0),
            "late_entry": Tournament.LateEntry.ZERO,
            "seed": 0,
            "confirmation": Tournament.Confirmation.PIN,
        }

    @staticmethod
    def _initial_from(tournament: Tournament) -> dict[str, Any]:
        return {
            "name": tournament.name,
            "venue": tournament.venue,
            "starts_at": tournament.starts_at,
            "format": tournament.format,
            "double_round_robin": tournament.double_round_robin,
            "rounds": tournament.rounds,
            "match_length": tournament.match_length,
            "match_hands": tournament.match_hands,
            "points_win": tournament.points_win,
            "points_draw": tournament.points_draw,
            "points_loss": tournament.points_loss,
            "points_bye": tournament.points_bye,
            "place_points": ", ".join(number(p) for p in tournament.place_points),
            "tiebreaks": list(tournament.tiebreaks),
            "late_entry": tournament.late_entry,
            "show_provisional": tournament.show_provisional,
            "seed": tournament.seed,
            "confirmation": tournament.confirmation,
        }

    def chosen_format(self) -> str:
        """The format posted (or, locked or unposted, the tournament's or the initial one)."""
        if self.is_bound and not self.locked and self.data.get("format"):
            return str(self.data["format"])
        if self.tournament is not None:
            return self.tournament.format
        return str(self.initial.get("format", Tournament.Format.SWISS))

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{n}"] for n in range(1, TIEBREAK_SLOTS + 1)]

    def clean_place_points(self) -> list[Decimal] | None:
        text = self.cleaned_data.get("place_points", "").strip()
        if not text:
            return None
        try:
            return [
                Decimal(part)
                for part in text.replace(";", ",").replace(" ", ",").split(",")
                if part
            ]
        except ArithmeticError:
            raise forms.ValidationError(
                _("Give numbers separated by commas, e.g. 3, 2, 1, 0."), code="bad-points"
            ) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        slots = [cleaned.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        chain: list[str] = [name for name in slots if name]
        if len(set(chain)) != len(chain):
            raise forms.ValidationError(_("Name each tiebreak once."), code="duplicate-metric")
        shown, chosen = cleaned.get("chain_for") or "", cleaned.get("format")
        if (
            shown in FORMAT_CHAINS
            and chosen
            and chosen != shown
            and chain == default_tiebreaks(shown)
        ):  # the chain shown for another format, untouched: the chosen format's own
            chain = default_tiebreaks(chosen)
        cleaned["tiebreaks"] = chain
        return cleaned

    @staticmethod
    def default_chains() -> str:
        """Each format's default chain as JSON, for the page's script (which puts the chosen
        format's chain in the fields when the one shown was left as it was)."""
        return json.dumps({fmt: default_tiebreaks(fmt) for fmt in FORMAT_CHAINS})

    @staticmethod
    def chain_meanings() -> list[tuple[str, Any]]:
        """(formats, what their default chain means), shown under the tiebreak fields."""
        return list(CHAIN_MEANINGS)

    def values(self) -> dict[str, Any]:
        """The keyword arguments of create_tournament (and the changes of update_tournament)."""
        data = self.cleaned_data
        values = {
            "name": data["name"],
            "venue": data.get("venue", ""),
            "starts_at": data.get("starts_at"),
            "game": self.game,
            "rules": self.rules(),
            "format": data["format"],
            "double_round_robin": data["double_round_robin"],
            "rounds": data["rounds"],
            "match_length": data["match_length"],
            "match_hands": data.get("match_hands"),
            "points_win": data["points_win"],
            "points_draw": data["points_draw"],
            "points_loss": data["points_loss"],
            "points_bye": data.get("points_bye"),
            "place_points": data.get("place_points"),
            "tiebreaks": data["tiebreaks"],
            "late_entry": data["late_entry"],
            "show_provisional": data["show_provisional"],
            "seed": data["seed"],
        }
        if data.get("confirmation"):  # left out of a form: unchanged (or the default, PINs)
            values["confirmation"] = data["confirmation"]
        if data["format"] == Tournament.Format.KNOCKOUT:  # ignored: the field decides
            if self.tournament is None:
                values["rounds"] = None
            else:
                values.pop("rounds")
        if self.tournament is not None and self.locked:
            for name in (
                "game",
                "rules",
                "format",
                "double_round_robin",
                "match_length",
                "match_hands",
            ):
                values.pop(name)
        return values


class RegisterEntryForm(DirectorForm):
    """A team (two players) or a player entered by the director."""

    name = forms.CharField(
        label=_("Team name"),
        max_length=100,
        required=False,
        help_text=_("Leave empty to name the team after its players."),
    )
    player_1 = forms.CharField(label=_("Player"), max_length=100)
    club_1 = forms.CharField(label=_("Club number"), max_length=30, required=False)
    player_2 = forms.CharField(label=_("Partner"), max_length=100, required=False)
    club_2 = forms.CharField(label=_("Partner's club number"), max_length=30, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False)
    late_entry = forms.ChoiceField(
        label=_("Missed rounds (late entry)"),
        required=False,
        choices=[("", _("The tournament's policy")), *Tournament.LateEntry.choices],
    )
    affiliation = forms.CharField(
        label=_("Affiliation"),
        max_length=100,
        required=False,
        help_text=_(
            "A club or family: entries with the same one are kept apart in the pairings "
            "while the draw can."
        ),
    )
    checked_in = forms.BooleanField(label=_("Here now: check in at once"), required=False)

    def __init__(self, *args: Any, team: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.team = team
        if team:
            self.fields["player_2"].required = True
        else:
            for name in ("name", "player_2", "club_2"):
                del self.fields[name]

    def players(self) -> list[Any]:
        from tournaments.services import PlayerSpec

        data = self.cleaned_data
        found = [PlayerSpec(name=data["player_1"], club_number=data.get("club_1", ""))]
        if self.team:
            found.append(PlayerSpec(name=data["player_2"], club_number=data.get("club_2", "")))
        return found


class AffiliationForm(DirectorForm):
    affiliation = forms.CharField(label=_("Affiliation"), max_length=100, required=False)


class KeepApartForm(DirectorForm):
    """Two entries the pairings are to keep apart."""

    first: forms.ModelChoiceField[Entry] = forms.ModelChoiceField(
        queryset=None, label=_("Keep apart")
    )
    second: forms.ModelChoiceField[Entry] = forms.ModelChoiceField(queryset=None, label=_("from"))
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args: Any, entries: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = entries  # each shown as str(entry): its name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different entries."))
        return data


class WithdrawForm(DirectorForm):
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)


class SeedForm(DirectorForm):
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False)


class FixTableForm(DirectorForm):
    table = forms.IntegerField(
        label=_("Fixed table"),
        min_value=1,
        required=False,
        help_text=_("Empty: seat anywhere."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)


class SwapForm(DirectorForm):
    """Two entries of a draft round trade places (tables, sides or byes)."""

    first = forms.TypedChoiceField(label=_("Entry"), coerce=int)
    second = forms.TypedChoiceField(label=pgettext_lazy("swap", "Swap with"), coerce=int)
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args: Any, entries: Sequence[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(e.pk, e.name) for e in entries]
        self.choice_field("first").choices = choices
        self.choice_field("second").choices = choices
        if len(choices) > 1:
            self.fields["second"].initial = choices[1][0]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("first") is not None and cleaned.get("first") == cleaned.get("second"):
            raise forms.ValidationError(_("Choose two different entries."), code="bad-swap")
        return cleaned


class VoidForm(DirectorForm):
    """A director sets a pending or disputed hand aside: why, and the version seen."""

    reason = forms.CharField(label=_("Why the hand is voided"), max_length=500)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Give a reason."), code="required")
        return reason


class CorrectionForm(DirectorForm):
    """A director's new version of a hand: the hand record (JSON) and why it changed."""

    record = forms.CharField(
        label=_("Hand record (JSON)"),
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_(
            "The facts of the hand (dealer, bids, tricks or the play). The score is "
            "computed by the rules engine."
        ),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    #: The version the director saw and corrects: the service refuses a stale one.
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def clean_record(self) -> dict:
        try:
            record = json.loads(self.cleaned_data["record"])
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("This is not JSON: %(error)s"), code="bad-json", params={"error": error}
            ) from None
        if not isinstance(record, dict):
            raise forms.ValidationError(_("A hand is a JSON object."), code="bad-json")
        return record

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A correction needs a reason."), code="reason-required")
        return reason


def record_for_editing(record: dict) -> str:
    """A stored hand record as the director edits it: the facts only (the rules and the score
    before the hand come from the match)."""
    facts = {k: v for k, v in record.items() if k not in ("format", "game", "rules", "before")}
    return json.dumps(facts, indent=2, ensure_ascii=False)
