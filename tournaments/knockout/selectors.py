"""The knockout as plain data for the pages, the API and the exports: the bracket round by round
(each match with its entrants, seeds, legs and winner), the places so far, and the cut list."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.knockout import services as knockout
from tournaments.models import Entry, Tournament
from tournaments.words import pairing as pairing_words
from tournaments.words.labels import metric_label

#: The standings columns shown beside the cut list (the chain's first few).
CUT_COLUMNS = 4


def round_name(number: int, rounds: int) -> str:
    """A bracket round as people say it: the final, the semi-finals, the quarter-finals, or
    the round of N."""
    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round of %(count)s") % {"count": 2 ** (left + 1)}


def table_label(tournament: Tournament, match: Any) -> str:
    """A knockout match's place in the bracket, as its table is labelled on the round pages:
    Final, Third place, Semi-final, Quarter-final, Round of N ("" for any other match)."""
    if getattr(match, "bracket_round", None) is None:
        return ""
    entrants = len(knockout.seeds(tournament))
    rounds = max(1, (entrants - 1).bit_length())
    left = rounds - match.bracket_round
    if left == 0:
        if tournament.third_place and match.bracket_index == 2:
            return _("Third place")
        return _("Final")
    if left == 1:
        return _("Semi-final")
    if left == 2:
        return _("Quarter-final")
    return _("Round of %(count)s") % {"count": 2 ** (left + 1)}


def summary(tournament: Tournament) -> str:
    """What a knockout tournament is, in a line ("Knockout of 8, best of 3, third-place
    match"), in place of its unused rounds setting; rounds come from the bracket's size."""
    entrants = len(knockout.seeds(tournament)) or tournament.entries.count()
    parts = [_("Knockout of %(count)s") % {"count": entrants}]
    n = tournament.knockout_count or 0
    if tournament.knockout_length == Tournament.KnockoutLength.BEST_OF:
        parts.append(_("best of %(count)s") % {"count": n})
    elif tournament.knockout_length == Tournament.KnockoutLength.HANDS:
        parts.append(
            ngettext("%(count)s hand a match", "%(count)s hands a match", n) % {"count": n}
        )
    else:
        parts.append(_("to the target score"))
    if tournament.third_place and entrants > 2:  # two entrants: the final only
        parts.append(_("third-place match"))
    if tournament.consolation:
        parts.append(_("consolation Swiss"))
    rounds = max(1, (entrants - 1).bit_length()) if entrants > 1 else 0
    parts.append(
        ngettext("%(count)s bracket round", "%(count)s bracket rounds", rounds) % {"count": rounds}
    )
    return ", ".join(str(p) for p in parts)


def _names(tournament: Tournament) -> dict[int, str]:
    entries = Entry.objects.filter(tournament=tournament).select_related("team", "player")
    return {e.pk: e.name for e in entries}


def _value(value: Any) -> Any:
    from fractions import Fraction

    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def projector_bracket(tournament: Tournament) -> dict | None:
    """What the room's projector shows in place of the standings once the knockout stage has
    begun (the bracket is made: a knockout from its first round, a Swiss from its confirmed
    cut): the public bracket. None before then, and for a tournament without a knockout."""
    if not knockout.seeds(tournament):
        return None
    return bracket_data(tournament)


def bracket_data(tournament: Tournament, *, public: bool = True) -> dict | None:
    """The bracket as the finished knockout matches have filled it, or None before it is made.
    Entrants are {entry, name, seed}; a match says its legs (one per match played at its
    place: best of N has several) with each leg's winner and points."""
    board = knockout.board(tournament, public=public)
    if board is None:
        return None
    names = _names(tournament)
    seeds = board.bracket.seeds

    def who(entry_id: int | None) -> dict | None:
        if entry_id is None:
            return None
        return {"entry": entry_id, "name": names.get(entry_id, "?"), "seed": seeds[entry_id]}

    count = len(board.bracket.rounds)
    rounds = []
    for number, matches in enumerate(board.bracket.rounds, 1):
        out = []
        for m in matches:
            played = board.series.get((m.round, m.index))
            legs: list[dict[str, Any]] = []
            for leg in played.legs if played else []:
                legs.append(
                    {
                        "match": leg.match_id,
                        "round": leg.round,
                        "table": leg.table,
                        "state": leg.state,
                        "winner": leg.winner,
                        "points": {str(k): v for k, v in leg.points.items()},
                    }
                )
            wins = dict(played.wins) if played else {}
            state = (
                "bye"
                if m.bye
                else "decided"
                if m.winner is not None
                else "playing"
                if any(leg["state"] != "finished" for leg in legs)
                else "ready"
                if m.ready
                else "waiting"
            )
            best_of = tournament.knockout_length == Tournament.KnockoutLength.BEST_OF
            lines = []
            for entry_id in (m.top, m.bottom):
                if best_of and legs:
                    score = str(wins.get(entry_id, 0))
                elif legs:
                    score = str(legs[-1]["points"].get(str(entry_id), ""))
                else:
                    score = ""
                lines.append(
                    {
                        "who": who(entry_id),
                        "won": entry_id is not None and entry_id == m.winner and not m.bye,
                        "score": score,
                    }
                )
            out.append(
                {
                    "lines": lines,
                    "round": m.round,
                    "index": m.index,
                    "top": who(m.top),
                    "bottom": who(m.bottom),
                    "winner": m.winner,
                    "bye": m.bye,
                    "third_place": m.third_place,
                    "state": state,
                    "legs": legs,
                    "wins": {str(k): v for k, v in wins.items()},
                    "name": (
                        _("Third-place match") if m.third_place else round_name(number, count)
                    ),
                }
            )
        rounds.append({"number": number, "name": round_name(number, count), "matches": out})
    placings = sorted(board.placings.items(), key=lambda kv: (kv[1], seeds[kv[0]]))
    return {
        "size": board.bracket.size,
        "entrants": len(seeds),
        # Whether the bracket has one (two entrants have no semi-finals, so no third place).
        "third_place": any(m.third_place for r in board.bracket.rounds for m in r),
        "length": _length_words(tournament),
        "seeds": [who(e) for e in sorted(seeds, key=seeds.get)],
        "rounds": rounds,
        "champion": who(board.bracket.champion),
        "complete": board.complete,
        "placings": [{"place": place, **(who(e) or {})} for e, place in placings],
        "notes": [pairing_words.note(text, names) for text in board.notes],
    }


def _length_words(tournament: Tournament) -> str:
    n = tournament.knockout_count or 0
    if tournament.knockout_length == Tournament.KnockoutLength.HANDS:
        words = ngettext("%(count)s hand a match", "%(count)s hands a match", n) % {"count": n}
        extra = tournament.tiebreak_hands
        return (
            words
            + "; "
            + ngettext("a tie plays %(count)s more hand", "a tie plays %(count)s more hands", extra)
            % {"count": extra}
        )
    if tournament.knockout_length == Tournament.KnockoutLength.BEST_OF:
        return _("Best of %(count)s matches, each to the rules' target") % {"count": n}
    return _("To the rules' target score; a tie at the target plays on by the rules")


def cut_data(tournament: Tournament) -> dict:
    """The cut list as the director sees it before confirming (or as confirmed)."""
    from tournaments.words.audit import decided_by_words

    listed = knockout.cut_list(tournament=tournament)
    columns = list(listed.chain[:CUT_COLUMNS])

    inside = set(listed.ids)

    def row(c: knockout.CutEntry) -> dict:
        return {
            "entry": c.entry.pk,
            "name": c.entry.name,
            "seed": c.seed or None,
            "rank": c.rank,
            "at_line": c.at_line,
            "in_cut": c.entry.pk in inside,
            "values": {name: _value(c.values.get(name)) for name in columns if name in c.values},
        }

    return {
        "size": listed.size,
        "top_cut": tournament.top_cut,
        "confirmed": listed.confirmed,
        "entries": [row(c) for c in listed.entries],
        "line": [row(c) for c in listed.line],
        "decided_by": listed.decided_by,
        "decided_by_words": decided_by_words(listed.decided_by) if listed.decided_by else "",
        "columns": [{"name": name, "label": str(metric_label(name))} for name in columns],
        "can_confirm": listed.refusal is None,
        "refusal": listed.refusal.as_dict() if listed.refusal is not None else None,
    }
