"""The rules engines' notes and errors in the reader's language.

The engines (`games`, no Django) give each note a stable code and parameters (`games.notes.Note`,
codes in `games.notes.NOTE_CODES`) and each error a stable code (`games.errors.CODES`) with where
it is (hand, trick, seat, card); their English text stays the records' and the command line's.
Here each code has its translatable sentence with named placeholders, so the pages and the API
say them in English or Japanese. A test checks that every code of both registries has a
sentence here and a Japanese translation.

Notes read from storage are plain strings (the result's JSON): `hand_notes` asks the engine
again for the hand's notes, with their codes, from the stored record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy
from django.utils.translation import ngettext, pgettext

from games.records import check_hand
from tournaments.words.rules import call_label, card, solo_labels

#: Each engine error code as a sentence for players (the English detail stays in `message`).
ERROR_MESSAGES: dict[str, Any] = {
    "bad-format": lazy("The hand is not written as the rules engine reads it."),
    "bad-rules": lazy("These rules are not known: a preset, option or value is wrong."),
    "rules-mismatch": lazy("The hand's rules differ from the tournament's."),
    "bad-card": lazy("That is not a card."),
    "bad-seat": lazy("That seat or side is not at this table."),
    "bad-deal": lazy(
        "The deal is not right: a card is missing or twice, or a hand has the wrong "
        "number of cards."
    ),
    "bad-state": lazy("The score before this hand differs from the earlier hands."),
    "wrong-dealer": lazy("That is not the dealer of this hand."),
    "match-over": lazy("The match is already complete."),
    "bad-call": lazy("That is not a call of this game."),
    "call-out-of-turn": lazy("The bids are not in turn, or a bid is missing or left over."),
    "bid-not-allowed": lazy("That bid is not allowed under these rules."),
    "not-eligible": lazy("That bid needs the side to be further behind."),
    "bid-too-low": lazy("That bid is too low."),
    "auction-over": lazy("A call was made after the bidding had ended."),
    "bad-exchange": lazy("The card exchange is not one these rules call for."),
    "bad-trump": lazy("The trump suit is missing or not allowed for this contract."),
    "bad-turned": lazy("The turned card is missing or not possible."),
    "bad-trick": lazy("A trick has the wrong number of cards."),
    "too-many-tricks": lazy("More tricks are played than the hand has."),
    "play-incomplete": lazy("The play stops before the hand is decided, and no claim ends it."),
    "card-not-held": lazy("A player played a card they do not hold."),
    "must-follow-suit": lazy("A player did not follow suit although they could."),
    "spades-not-broken": lazy("A spade was led before spades were broken."),
    "must-play-lowest-club": lazy("On the first trick each player plays their lowest club."),
    "spade-on-first-trick": lazy(
        "A spade was played to the first trick by a player holding a heart or diamond."
    ),
    "must-play-top-card": lazy("A hand played blind must play its top card."),
    "bad-claim": lazy("The claim is not possible: more tricks than remain, or not a player here."),
    "claim-ambiguous": lazy("The claim leaves each player's tricks unknown: say the tricks."),
    "tricks-do-not-sum": lazy("The tricks do not add up to the tricks in the hand."),
    "tricks-mismatch": lazy("The tricks given differ from those the play gives."),
    "honours-mismatch": lazy("The honours given differ from those in the deal."),
    "full-record-required": lazy(
        "These rules need the cards played to score this hand: enter it card by card."
    ),
    "revokes-mismatch": lazy("The revokes given differ from those the play shows."),
    "winner-mismatch": lazy("The winner given differs from the one the tricks give."),
}


#: `bid-too-low` by the rule the bid breaks (`games.errors.RULES_TOO_LOW`): the sentence says
#: the rule and the least bid it allows (or the call to outrank).
BID_TOO_LOW: dict[str, Any] = {
    "blind-minimum": lazy("That bid is too low: a blind bid is at least %(minimum)s."),
    "side-minimum": lazy(
        "That bid is too low: under these rules a side bids at least %(minimum)s tricks."
    ),
    "raise-side": lazy(
        "That bid is too low: a second-round bid raises the side's bid, so it is at least "
        "%(minimum)s."
    ),
    "partner-bid": lazy(
        "That bid is too low: the side's bid is its second bid, which is at least the "
        "partner's %(minimum)s."
    ),
    "outrank": lazy("That bid is too low: each bid must outrank the standing %(standing)s."),
}


def _bid_too_low(error: dict) -> str | None:
    """A `bid-too-low` naming its rule and minimum as that rule's sentence (None: the code's
    general sentence)."""
    sentence = BID_TOO_LOW.get(str(error.get("rule", "")))
    if sentence is None:
        return None
    standing = error.get("standing")
    standing = solo_labels().get(str(standing), str(standing)) if standing else ""
    try:
        return str(sentence) % {"minimum": error.get("minimum", "?"), "standing": standing}
    except (TypeError, ValueError):
        return None


def where(error: dict) -> str:
    """Where an error is, in words: "hand 3, trick 2, N, A♠" (empty when the engine says not)."""
    parts = []
    if error.get("hand") is not None:
        parts.append(_("hand %(number)s") % {"number": error["hand"]})
    if error.get("trick") is not None:
        parts.append(_("trick %(number)s") % {"number": error["trick"]})
    if error.get("seat"):
        parts.append(str(error["seat"]))
    if error.get("card"):
        parts.append(card(str(error["card"])))
    return pgettext("list separator", ", ").join(parts)


def error_sentence(error: dict) -> str:
    """An engine error (`RecordError.as_dict()`) as a sentence in the active language, with where
    it is; an unknown code keeps the engine's English message. No code in brackets: the code is
    the caller's to show (to a director) or not."""
    known = ERROR_MESSAGES.get(error.get("code", ""))
    text = str(known) if known is not None else str(error.get("message", ""))
    if error.get("code") == "bid-too-low":
        text = _bid_too_low(error) or text
    place = where(error)
    return _("%(error)s (%(where)s)") % {"error": text, "where": place} if place else text


def translate_errors(errors: Iterable[dict]) -> list[dict]:
    """The engine's error objects with `message` in the active language (and the engine's English
    kept as `detail`): what the API sends."""
    out = []
    for error in errors:
        shown = dict(error)
        if error.get("code") in ERROR_MESSAGES:
            shown["detail"] = error.get("message", "")
            shown["message"] = error_sentence(
                {**error, "hand": None, "trick": None, "seat": None, "card": None}
            )
        out.append(shown)
    return out


#: The services' refusals that carry the rules engine's errors, as the API says them (the
#: service's English message stays for the logs and the command line; `code` never changes).
REFUSALS: dict[str, Any] = {
    "invalid-hand": lazy("The rules engine refused the hand."),
    "later-hand-invalid": lazy(
        "Hand %(number)s is no longer legal after this change: correct it first."
    ),
    "later-hand-after-end": lazy("The match would end before hand %(number)s: correct that first."),
    "bad-record": lazy("The rules engine refused the result."),
}


#: The duplicate engine's refusals (`tournaments.duplicate.ERROR_CODES`) as sentences; the
#: services mark them `{"engine": "duplicate"}` (a code such as `bad-pair` means something else
#: elsewhere). `bad-record` carries the rules engine's own error and is said as above.
DUPLICATE_MESSAGES: dict[str, Any] = {
    "bad-board": lazy("A board number is a whole number from 1."),
    "bad-game": lazy("Duplicate is played at partnership Spades or at Whist only."),
    "bad-seed": lazy("The deal seed is not a number or a text."),
    "bad-tables": lazy("This movement does not take that number of tables."),
    "bad-rounds": lazy("This movement does not take that number of rounds."),
    "bad-movement": lazy("That movement, or one of its options, is not known."),
    "bad-pair": lazy("A pair number is not one of this event's pairs."),
    "pair-twice": lazy("A pair has two results on one board."),
    "bad-expected": lazy(
        "A board has more results than the movement plays it, or the expected count is not a "
        "whole number from 1."
    ),
    "bad-option": lazy("A scoring or comparison option is not known."),
    "bad-rules": lazy("These rules cannot be played in duplicate."),
    "bad-record": lazy("The rules engine refused the result."),
    "board-mismatch": lazy("This record is not the board's deal or dealer."),
    "bad-result": lazy(
        "A result needs both sides' scores or both sides' adjustments (not both), and two "
        "different pairs."
    ),
    "bad-adjustment": lazy("An adjustment is average-plus, average or average-minus."),
    "bad-scale": lazy("An IMP scale needs a positive factor and increasing positive steps."),
}


def _first_reason(errors: list[dict]) -> str:
    first = next((e for e in errors if isinstance(e, dict)), None)
    return error_sentence(first) if first is not None else ""


def refusal_words(code: str, message: str, details: Any) -> tuple[str, Any]:
    """A service's refusal as the API sends it, in the active language: for the refusals that
    carry the rules engine's errors (`invalid-hand`, `later-hand-invalid`, duplicate's
    `bad-record`), the `message` a sentence naming the first error, and each engine error's
    `message` its sentence (the engine's English kept as `detail`, see `translate_errors`);
    for the duplicate engine's other refusals its sentence (`DUPLICATE_MESSAGES`, the
    engine's English kept as `details.detail`). Any other refusal as given."""
    if code == "invalid-hand" and isinstance(details, list):
        errors = translate_errors(e for e in details if isinstance(e, dict))
        reason = _first_reason(details)
        text = str(REFUSALS[code])
        return (f"{text} {reason}" if reason else text), errors
    if code == "later-hand-invalid" and isinstance(details, dict):
        errors = [e for e in details.get("errors") or [] if isinstance(e, dict)]
        after_end = any(e.get("code") == "match-over" for e in errors)
        text = str(REFUSALS["later-hand-after-end" if after_end else code]) % {
            "number": details.get("hand", "?")
        }
        reason = "" if after_end else _first_reason(errors)
        return (f"{text} {reason}" if reason else text), {
            **details,
            "errors": translate_errors(errors),
        }
    if code == "bad-record" and isinstance(details, dict) and details.get("code"):
        text = str(REFUSALS[code])
        return f"{text} {error_sentence(details)}", translate_errors([details])[0]
    if (
        isinstance(details, dict)
        and details.get("engine") == "duplicate"
        and code in DUPLICATE_MESSAGES
    ):  # the duplicate engine's refusal: its sentence, the engine's English kept as `detail`
        return str(DUPLICATE_MESSAGES[code]), {**details, "detail": message}
    return message, details


def result_words(result: Any) -> Any:
    """A checked record's result (`games.records.check_record`) with its notes and its errors
    in the active language (each error's English kept as `detail`; the same text in English):
    what the API's check endpoint answers."""
    if not isinstance(result, dict):
        return result
    shown = dict(result)
    if isinstance(result.get("notes"), list):
        shown["notes"] = [note_sentence(n) for n in result["notes"]]
    if isinstance(result.get("errors"), list):
        shown["errors"] = translate_errors(e for e in result["errors"] if isinstance(e, dict))
    if isinstance(result.get("hands"), list):
        shown["hands"] = [result_words(hand) for hand in result["hands"]]
    return shown


# -- notes -------------------------------------------------------------------------------------

NIL_CALLS = {"nil": "nil", "dnil": "double-nil", "dbn": "double-blind-nil"}
SUIT_WORDS = {"S": lazy("spades"), "H": lazy("hearts"), "D": lazy("diamonds"), "C": lazy("clubs")}


def _bid(value: Any) -> str:
    return call_label(str(value))


def _who(p: dict) -> str:
    if p.get("partner"):
        return _("%(declarer)s and %(partner)s") % p
    return str(p["declarer"])


def _contract(p: dict) -> str:
    name = solo_labels().get(p["contract"], p["contract"])
    if p.get("trumps"):
        suit = SUIT_WORDS.get(p["trumps"], p["trumps"])
        if p.get("after_lead"):
            return _("%(contract)s (%(suit)s trumps, named after the opening lead)") % {
                "contract": name,
                "suit": suit,
            }
        return _("%(contract)s (%(suit)s trumps)") % {"contract": name, "suit": suit}
    return str(name)


def _solo_misere(p: dict) -> str:
    if p["made"]:
        return _("%(who)s, %(contract)s: took no trick (made)") % {
            "who": _who(p),
            "contract": _contract(p),
        }
    return ngettext(
        "%(who)s, %(contract)s: took %(count)s trick (failed)",
        "%(who)s, %(contract)s: took %(count)s tricks (failed)",
        p["taken"],
    ) % {"who": _who(p), "contract": _contract(p), "count": p["taken"]}


def _solo_declared(p: dict) -> str:
    if p["made"]:
        return _("%(who)s, %(contract)s: took all 13 (made)") % {
            "who": _who(p),
            "contract": _contract(p),
        }
    return ngettext(
        "%(who)s, %(contract)s: lost %(count)s trick (failed)",
        "%(who)s, %(contract)s: lost %(count)s tricks (failed)",
        p["lost"],
    ) % {"who": _who(p), "contract": _contract(p), "count": p["lost"]}


def _solo_made(p: dict) -> str:
    text = _("%(who)s, %(contract)s: took %(taken)s of %(need)s") % {
        "who": _who(p),
        "contract": _contract(p),
        "taken": p["taken"],
        "need": p["need"],
    }
    if p.get("extra"):
        extra = ngettext("%(count)s overtrick", "%(count)s overtricks", p["extra"]) % {
            "count": p["extra"]
        }
        text += (
            " (+"
            + (extra if p["scored"] else _("%(tricks)s, not scored") % {"tricks": extra})
            + ")"
        )
    return text


def _solo_failed(p: dict) -> str:
    text = _("%(who)s, %(contract)s: took %(taken)s of %(need)s") % {
        "who": _who(p),
        "contract": _contract(p),
        "taken": p["taken"],
        "need": p["need"],
    }
    short = _("%(count)s short") % {"count": p["short"]}
    if p.get("under"):
        under = ngettext("%(count)s undertrick", "%(count)s undertricks", p["under"]) % {
            "count": p["under"]
        }
        short += ", " + (under if p["scored"] else _("%(tricks)s, not scored") % {"tricks": under})
    return f"{text} ({short})"


def _solo_pair(p: dict) -> str:
    if p["made"]:
        return _("Value %(value)s: %(who)s each receive it from one opponent each.") % {
            "value": p["value"],
            "who": _who(p),
        }
    return _("Value %(value)s: %(who)s each pay it to one opponent each.") % {
        "value": p["value"],
        "who": _who(p),
    }


def _solo_alone(p: dict) -> str:
    if p["made"]:
        return _("Value %(value)s: %(declarer)s receives it from each opponent.") % p
    return _("Value %(value)s: %(declarer)s pays it to each opponent.") % p


def _german_tricks(p: dict) -> str:
    if p["all"]:
        return _("N took %(n)s, S took %(s)s of all 26 tricks") % p
    return _("N took %(n)s, S took %(s)s of the last %(counted)s tricks") % p


def _revoke(p: dict) -> str:
    if p.get("trick") is not None:
        return _("%(seat)s revoked (trick %(trick)s): %(points)s to %(to)s") % p
    return (
        ngettext(
            "%(seat)s revoked: %(points)s to %(to)s",
            "%(seat)s revoked %(count)s times: %(points)s to %(to)s",
            p["count"],
        )
        % p
    )


class _Over(dict):
    """The converted parameters over the note's own (read through, not copied)."""

    def __init__(self, base: dict, over: dict) -> None:
        super().__init__(over)
        self.base = base

    def __missing__(self, key: str) -> Any:
        return self.base[key]


def _simple(message: Any, **convert: Callable[[Any], str]) -> Callable[[dict], str]:
    def say(p: dict) -> str:
        return str(message) % _Over(p, {k: f(p[k]) for k, f in convert.items()})

    return say


#: Each note code (games.notes.NOTE_CODES) and how it reads.
NOTE_SENTENCES: dict[str, Callable[[dict], str]] = {
    "spades-nil-made": _simple(
        lazy("%(seat)s made %(nil)s (%(points)s)"),
        nil=lambda k: call_label(NIL_CALLS.get(k, str(k))).lower(),
    ),
    "spades-nil-failed": _simple(
        lazy("%(seat)s took %(taken)s: failed %(nil)s (%(points)s)"),
        nil=lambda k: call_label(NIL_CALLS.get(k, str(k))).lower(),
    ),
    "spades-bid-made": _simple(lazy("%(side)s bid %(bid)s, took %(taken)s (%(points)s)"), bid=_bid),
    "spades-bid-set": _simple(
        lazy("%(side)s bid %(bid)s, took %(taken)s: set (%(points)s)"), bid=_bid
    ),
    "spades-no-last-trick-bonus": _simple(lazy("%(side)s: no last-trick bonus after a claim")),
    "spades-last-tricks-bonus": _simple(
        lazy("%(side)s won the last tricks with high trumps (+%(bonus)s)")
    ),
    "spades-all-tricks-bonus": _simple(lazy("%(side)s took all %(total)s tricks (+%(bonus)s)")),
    "spades-all-tricks-wins": _simple(lazy("%(side)s took all %(total)s tricks and wins the game")),
    "spades-bag-penalty": _simple(lazy("%(side)s reached %(limit)s bags (-%(penalty)s)")),
    "whist-revoke": _revoke,
    "whist-odd-tricks": _simple(lazy("%(side)s took %(tricks)s tricks (%(points)s)")),
    "whist-honours": _simple(lazy("%(side)s held %(held)s honours (%(points)s)")),
    "whist-honours-barred": _simple(
        lazy(
            "%(side)s held %(held)s honours: not scored (%(side)s had %(start)s at the start of the "  # noqa: E501
            "hand)"
        )
    ),
    "whist-honours-after-game": _simple(
        lazy("%(side)s held %(held)s honours: not scored (%(other)s reached game)")
    ),
    "whist-game-pays": _simple(
        lazy("%(winner)s win the game %(score)s-%(other_score)s: %(loser)s pay %(points)s")
    ),
    "whist-game": lambda p: (
        ngettext(
            "%(winner)s win the game %(score)s-%(other_score)s (%(points)s game point)",
            "%(winner)s win the game %(score)s-%(other_score)s (%(points)s game points)",
            p["points"],
        )
        % p
    ),
    "whist-rubber": _simple(
        lazy("%(winner)s win the rubber %(games)s-%(other_games)s (%(points)s game points)")
    ),
    "solo-thrown-in": _simple(lazy("Thrown in: everyone passed, no score.")),
    "solo-misere": _solo_misere,
    "solo-declared": _solo_declared,
    "solo-made": _solo_made,
    "solo-failed": _solo_failed,
    "solo-paid-pair": _solo_pair,
    "solo-paid-alone": _solo_alone,
    "german-whist-tricks": _german_tricks,
    "german-whist-wins": _simple(lazy("%(seat)s wins (%(points)s)")),
    "german-whist-tie": _simple(lazy("A tie: no score.")),
    "board-nil-made": _simple(lazy("%(seat)s made nil: +%(value)s to %(side)s")),
    "board-nil-failed": _simple(
        lazy("%(seat)s failed nil: 0 to %(side)s, +%(value)s to %(other)s")
    ),
    "board-bid-made": _simple(lazy("%(side)s made %(bid)s: +%(value)s")),
    "board-bid-set": _simple(
        lazy("%(side)s set at %(bid)s: 0 to %(side)s, +%(value)s to %(other)s")
    ),
    "board-bags": lambda p: (
        ngettext(
            "%(side)s took %(bags)s bag: -%(bags)s to %(side)s",
            "%(side)s took %(bags)s bags: -%(bags)s to %(side)s",
            p["bags"],
        )
        % p
    ),
    "board-bags-to-other": _simple(lazy("… and +%(bags)s to %(other)s")),
}


def notes_again(stored: Iterable[Any], again: Iterable[Any] | None) -> list[str]:
    """Stored notes (plain strings) in the active language, given the same notes made again by
    the engine with their codes; the stored text when the engine no longer gives the same."""
    written = [str(n) for n in stored]
    made = list(again or [])
    if not made or [str(n) for n in made] != written:
        return written
    return [note_sentence(n) for n in made]


def note_sentence(note: Any) -> str:
    """One engine note in the active language: a `Note` by its code, a plain string as written."""
    say = NOTE_SENTENCES.get(getattr(note, "code", ""))
    if say is None:
        return str(note)
    try:
        return say(note.params)
    except (KeyError, TypeError, ValueError):  # a note made by another engine version
        return str(note)


def hand_notes(record: dict, result: dict, *, game: str, rules: Any) -> list[str]:
    """A stored hand's notes in the active language: the engine reads the stored record again
    (its `before` included) to give the notes with their codes; if it cannot, the stored text."""
    stored = result.get("notes") or []
    try:
        again = check_hand(record, rules=rules, game=game)
    except Exception:  # noqa: BLE001 - the stored text is always a good answer
        again = {}
    return notes_again(stored, again.get("notes") if again.get("ok") else None)
