from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.checker.records import MAX_BYTES


class CheckHandsForm(forms.Form):
    """Hand records to check: pasted JSON, or a file (JSON, an array, or JSON Lines)."""

    records = forms.CharField(
        label=_("Hand records (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off"}),
    )
    file = forms.FileField(label=_("…or a file"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # Form.clean returns the cleaned data
        text, upload = cleaned.get("records", ""), cleaned.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(
                    _("The file is larger than %(size)s MB: check it with manage.py check_hands."),
                    code="too-large",
                    params={"size": MAX_BYTES // (1024 * 1024)},
                )
            cleaned["data"] = upload.read()
        elif text.strip():
            data = text.encode()
            if len(data) > MAX_BYTES:
                raise forms.ValidationError(
                    _("The text is larger than %(size)s MB: check it with manage.py check_hands."),
                    code="too-large",
                    params={"size": MAX_BYTES // (1024 * 1024)},
                )
            cleaned["data"] = data
        else:
            raise forms.ValidationError(_("Paste a hand record or choose a file."), code="empty")
        return cleaned
