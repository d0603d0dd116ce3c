"""The publishing pages' forms."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TargetForm(forms.Form):
    """The room's setup: the club's site and its publishing key (both empty: stop publishing)."""

    url = forms.URLField(
        label=_("The club's site"),
        required=False,
        max_length=300,
        assume_scheme="https",
        help_text=_("Its address, e.g. https://results.example-club.org"),
    )
    key = forms.CharField(
        label=_("Publishing key"),
        required=False,
        max_length=200,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text=_("Made on the site's publishing page. Leave empty to keep the saved key."),
    )


class KeyForm(forms.Form):
    """The site's side: a new publishing key for a room."""

    label = forms.CharField(
        label=_("Label"),
        required=False,
        max_length=100,
        help_text=_("Which room or laptop uses it, e.g. “Thursday club laptop”."),
    )
