"""The knockout's settings form: on the director's knockout page and on the new-tournament page.

Forms only read and tidy input; `tournaments.knockout.services.set_knockout` decides.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament
from tournaments.views.director_forms import DirectorForm


class KnockoutForm(DirectorForm):
    """The knockout's settings (the keyword arguments of `services.set_knockout`, which checks
    them): on the director's knockout page, and on the new-tournament page (no tournament yet,
    under the prefix "knockout"), where `settings` keeps what the chosen format uses."""

    top_cut = forms.TypedChoiceField(
        label=_("Top cut"),
        coerce=int,
        required=False,
        choices=[(0, _("No cut")), (2, _("Top 2")), (4, _("Top 4")), (8, _("Top 8"))],
        help_text=_(
            "After the last Swiss round, the best by the tiebreak chain go on to a "
            "knockout, seeded by their places."
        ),
    )
    length = forms.ChoiceField(
        label=_("Knockout match length"), choices=Tournament.KnockoutLength.choices
    )
    count = forms.IntegerField(
        label=_("Hands, or N of best of N"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("A fixed number of hands: how many. Best of N matches: N (odd)."),
    )
    tiebreak_hands = forms.IntegerField(
        label=_("Tie-break hands"),
        min_value=1,
        max_value=99,
        help_text=_(
            "A knockout match level after its hands plays this many more, again "
            "while it stays level. To a target, the rules' own tie rule plays on."
        ),
    )
    third_place = forms.BooleanField(label=_("Play a third-place match"), required=False)
    consolation = forms.BooleanField(
        label=_("Those outside the cut play on in a consolation Swiss"), required=False
    )

    #: The settings only a Swiss has (a top cut, and a consolation Swiss beside it).
    SWISS_ONLY = ("top_cut", "consolation")

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        fmt: str | None = None,
        **kwargs: Any,
    ) -> None:
        """`fmt`: a new tournament's chosen format (its settings are checked for that format)."""
        if tournament is None:
            kwargs.setdefault("prefix", "knockout")
            kwargs["initial"] = {**self.defaults(), **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)
        self.fmt = tournament.format if tournament is not None else fmt
        if tournament is not None and tournament.format != Tournament.Format.SWISS:
            for name in self.SWISS_ONLY:
                del self.fields[name]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        swiss = self.fmt in (None, Tournament.Format.SWISS)
        if swiss and data.get("third_place") and data.get("top_cut") == 2:
            self.add_error(
                "third_place",
                _(
                    "A top cut of 2 goes straight to the final: with no semi-finals there is "
                    "no third-place match. Untick it, or cut to 4 or 8."
                ),
            )
        return data

    @staticmethod
    def defaults() -> dict[str, Any]:
        """The model's defaults (a new tournament's settings until changed)."""
        default = {f.name: f.default for f in Tournament._meta.concrete_fields}
        return {
            "top_cut": default["top_cut"],
            "length": default["knockout_length"],
            "count": None,
            "tiebreak_hands": default["tiebreak_hands"],
            "third_place": default["third_place"],
            "consolation": default["consolation"],
        }

    @staticmethod
    def uses(fmt: str) -> bool:
        """Whether a tournament of this format has knockout settings (a Swiss may end in a
        top cut; a knockout is one). Other formats ignore the section."""
        return fmt in (Tournament.Format.SWISS, Tournament.Format.KNOCKOUT)

    def settings(self, fmt: str | None = None) -> dict[str, Any]:
        """The cleaned settings as `set_knockout`'s keyword arguments (those given); for a new
        tournament of format `fmt`, without those its format does not have."""
        data = {k: v for k, v in self.cleaned_data.items() if v is not None and v != ""}
        if fmt is not None and fmt != Tournament.Format.SWISS:
            for name in self.SWISS_ONLY:
                data.pop(name, None)
        return data
