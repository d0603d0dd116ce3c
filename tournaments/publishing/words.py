"""What the director reads about publishing: states and failures in plain words (English and
Japanese through the project's catalogue), keyed by the stable codes."""

from __future__ import annotations

from django.utils.translation import gettext as _


def failure(code: str) -> str:
    """A failure's plain words (what happened and what happens next)."""
    words = {
        "site-unreachable": _(
            "The site could not be reached (is the laptop online?). It is tried again by itself."
        ),
        "site-busy": _("The site asked to wait. It is tried again by itself."),
        "throttled": _("The site asked to wait. It is tried again by itself."),
        "site-error": _("The site had a problem. It is tried again by itself."),
        "publish-busy": _("The site was busy with this event. It is tried again by itself."),
        "site-redirects": _(
            "The site's address sends elsewhere: enter the exact address, starting https://."
        ),
        "site-not-tricktable": _("No TrickTable site answers at this address: check it."),
        "publish-key-invalid": _(
            "The site does not know this publishing key, or it was revoked: ask the site for a "
            "new key and enter it below."
        ),
        "publish-slug-taken": _(
            "The site already has an event of its own with this short name (slug): give the "
            "event here another one."
        ),
        "publish-other-key": _("The site has this event from another publishing key."),
        "publish-taken-over": _(
            "The site's directors took this event over: it is no longer published from here."
        ),
        "publish-slug-mismatch": _("The site could not read the event."),
        "bad-archive": _("The site could not read the event (another TrickTable version?)."),
        "unsupported-archive": _(
            "The site could not read the event (another TrickTable version?)."
        ),
        "archive-inconsistent": _("The site could not store the event."),
        "too-large": _("The event is larger than the site accepts."),
    }
    return words.get(code) or _("The site refused the event (%(code)s).") % {"code": code}


def outcome(code: str) -> str:
    return {
        "created": _("first sent"),
        "updated": _("updated"),
        "unchanged": _("unchanged"),
    }.get(code, code)


def reason(code: str) -> str:
    """Why a publish was asked: "round-closed:round 3", "event-finished", "now"."""
    kind, _sep, subject = code.partition(":")
    if kind == "round-closed":
        number = subject.removeprefix("round ").strip()
        return _("round %(number)s closed") % {"number": number}
    return {
        "event-finished": _("event finished"),
        "now": _("Publish now"),
        "setup": _("set up"),
    }.get(kind, kind)
