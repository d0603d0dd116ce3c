"""A match hand by hand: what was bid, taken and scored, the game's facts of each hand and,
for a full record, the play trick by trick with the engine's winner of each trick."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.records import check_hand
from tournaments import gameplay
from tournaments.models import (
    HandSubmission,
    Match,
    Tournament,
)
from tournaments.presentation import TrickView, presentation
from tournaments.selectors.public.round import SideView, seat_prefetch, table_view
from tournaments.words.engine import hand_notes
from tournaments.words.formatting import side_numbers

S = HandSubmission.Status


@dataclass
class HandView:
    number: int
    submission: HandSubmission
    status: str  # confirmed, pending, disputed
    dealer: str
    calls: list[tuple[str, str]]  # (seat or side, call)
    tricks: dict[str, str]
    score: dict[str, str]
    totals: dict[str, str]
    facts: list[tuple[str, str]]  # game-specific (label, value): bags, honours, contract ...
    notes: list[str]
    play: list[TrickView] | None
    full: bool


@dataclass
class MatchView:
    match: Match
    tournament: Tournament
    sides: list[SideView]
    hands: list[HandView] = field(default_factory=list)
    final: dict[str, str] = field(default_factory=dict)

    @property
    def has_calls(self) -> bool:
        """Whether the game bids (Spades, Solo Whist): else the bids column is left out."""
        return any(hand.calls for hand in self.hands)


STATUS_WORDS: dict[str, str] = {
    S.CONFIRMED: "confirmed",
    S.PENDING: "pending",
    S.REJECTED: "disputed",
    S.VOIDED: "voided",
}


def match_in(tournament: Tournament, match_id: int) -> Match | None:
    return (
        Match.objects.filter(round__tournament=tournament, pk=match_id, is_bye=False)
        .select_related("round__tournament", "table")
        .prefetch_related(seat_prefetch())
        .first()
    )


def match_view(match: Match) -> MatchView:
    """The match's sides and every current hand version: what was bid, taken and scored."""
    tournament = match.round.tournament
    order = gameplay.layout(tournament.game, tournament.rules).sides
    table = table_view(match, order, None, None)
    versions = (
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .order_by("hand__number")
    )
    view = MatchView(match=match, tournament=tournament, sides=table.sides)
    for version in versions:
        view.hands.append(_hand_view(tournament, version))
    if match.result:
        view.final = side_numbers(match.result.get("points"))
    return view


def _hand_view(tournament: Tournament, version: HandSubmission) -> HandView:
    record, result = version.record or {}, version.result or {}
    game = tournament.game
    return HandView(
        number=version.hand.number,
        submission=version,
        status=STATUS_WORDS.get(version.status, version.status),
        dealer=record.get("dealer", ""),
        calls=_calls(game, record),
        tricks={
            _tricks_key(game, k): str(v)
            for k, v in (result.get("tricks") or record.get("tricks") or {}).items()
        },
        score=side_numbers(result.get("score")),
        totals=side_numbers((result.get("after") or {}).get("score")),
        facts=presentation(game).facts(record, result),
        notes=hand_notes(record, result, game=game, rules=tournament.rules),
        play=tricks(game, tournament.rules, record, result),
        full="deal" in record and "play" in record,
    )


def _tricks_key(game: str, key: str) -> str:
    """Who took the tricks: a seat or side as stored; Solo Whist's declaring pair as "N+W" (a
    record states the declaring side's tricks alone, the pair's together)."""
    return "+".join(key) if game == "solo-whist" else key


def _calls(game: str, record: dict) -> list[tuple[str, str]]:
    shown = presentation(game)
    out = []
    for call in record.get("calls") or []:
        who = call.get("seat") or call.get("side") or "?"
        out.append((who, shown.call_word(str(call.get("call", "")))))
    return out


def tricks(game: str, rules: Any, record: dict, result: dict) -> list[TrickView] | None:
    """Each trick of a full record: who led, who played what and who won, the winners as the
    rules engine found them (`trick_winners`); None without the play.

    A result stored before the engine returned the winners is checked again for them (from the
    match's initial state: the winners do not depend on the score); a trick's winner stays
    unknown if that fails."""
    play, deal = record.get("play"), record.get("deal")
    if not isinstance(play, list) or not isinstance(deal, dict) or not play:
        return None
    if "trick_winners" not in result and result.get("ok", True):
        again = check_hand(
            {k: v for k, v in record.items() if k != "before"}, rules=rules, game=game
        )
        if again.get("ok"):
            result = {**result, "trick_winners": again.get("trick_winners")}
    try:
        return presentation(game).tricks(record, result)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
