"""The one error shape of the rules engine, and the catalogue of its stable codes."""

from __future__ import annotations

from typing import Any, TypedDict

# Every code the engine emits, with what it means. Codes are part of the public format:
# never rename one; add new ones here (tests check that nothing outside this list is raised).
CODES: dict[str, str] = {
    "bad-format": "the record is not a well-formed hand/1 or match/1 object",
    "bad-rules": "unknown preset, unknown option, or a value the option does not take",
    "rules-mismatch": "the record's rules disagree with the match, tournament or command line",
    "bad-card": "a string that is not a card",
    "bad-seat": "a seat or side that is not at this table",
    "bad-deal": "the deal is not a permutation of the pack in use, or a hand has the wrong size",
    "bad-state": "`before` is malformed or disagrees with the state the match reached",
    "wrong-dealer": "the dealer is not the one the rotation gives",
    "match-over": "a hand after the match has ended",
    "bad-call": "a call that is not a call of this game",
    "call-out-of-turn": "a call by the wrong seat or side, or calls missing or left over",
    "bid-not-allowed": "a call the rules do not allow",
    "not-eligible": "a call the rules allow only at another score",
    "bid-too-low": "a bid below the minimum, the partner's bid or the standing bid",
    "auction-over": "a call after the auction has ended",
    "bad-exchange": "a card exchange that the rules do not call for or that is malformed",
    "bad-trump": "a trump suit that is missing, not allowed or disagrees with the record",
    "bad-turned": "the turned card is missing, not in the dealer's hand, or not allowed",
    "bad-trick": "a trick with the wrong number of cards",
    "too-many-tricks": "more tricks in the play than the hand has",
    "play-incomplete": "the play stops before the hand is decided and no claim closes it",
    "card-not-held": "a card played by a seat that does not hold it",
    "must-follow-suit": "a card of another suit played while holding the suit led",
    "spades-not-broken": "a spade led before spades were broken while holding another suit",
    "must-play-lowest-club": "the first trick must be played with each player's lowest club",
    "spade-on-first-trick": "a spade played to the first trick while holding a heart or diamond",
    "must-play-top-card": "a seat playing blind (dummy, double blind nil) plays its top card",
    "bad-claim": "a claim of more tricks than remain, or by a seat not at the table",
    "claim-ambiguous": "a claim that leaves per-seat tricks unknown; state `tricks`",
    "tricks-do-not-sum": "the tricks taken do not add up to the tricks in play",
    "tricks-mismatch": "the stated tricks differ from those the replay derives",
    "honours-mismatch": "the stated honours differ from those in the deal",
    "full-record-required": "these rules need the play to score this hand",
    "revokes-mismatch": "the stated revokes differ from those the replay finds (whist)",
    "winner-mismatch": "the stated winner differs from the one the tricks give",
}


#: The rules a `bid-too-low` names (`RecordError.rule`): the least blind bid, the side's minimum
#: bid, a second-round bid raising the side's, the second partner's bid not below the first's
#: (last-bidder), a call outranking the standing one (Solo Whist's auction).
RULES_TOO_LOW: tuple[str, ...] = (
    "blind-minimum",
    "side-minimum",
    "raise-side",
    "partner-bid",
    "outrank",
)


class Where(TypedDict, total=False):
    """Where an error is: the keyword arguments a parser passes on to `RecordError`."""

    trick: int
    seat: str
    card: str


class RecordError(Exception):
    """A reason a record is not legal; `as_dict` gives the public error object."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        trick: int | None = None,
        seat: str | None = None,
        card: str | None = None,
        hand: int | None = None,
        trick_winners: list[str] | None = None,
        next_leader: str | None = None,
        rule: str | None = None,
        minimum: int | None = None,
        standing: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.trick = trick
        self.seat = seat
        self.card = card
        self.hand = hand
        # A play that stops early (`play-incomplete`) still says what its tricks showed: who won
        # each one and who leads the next (card-by-card entry asks as it goes).
        self.trick_winners = trick_winners
        self.next_leader = next_leader
        # `bid-too-low`: which rule the bid breaks (RULES_TOO_LOW) and the least bid it allows,
        # or the call it must outrank, so a reader can say both in its own words.
        self.rule = rule
        self.minimum = minimum
        self.standing = standing

    @property
    def params(self) -> dict[str, Any]:
        """Where the error is (hand, trick, seat, card: those known), the parameters a reader's
        translation of the code (`CODES`) fills in; `message` stays the English detail."""
        return {
            key: value
            for key, value in (
                ("hand", self.hand),
                ("trick", self.trick),
                ("seat", self.seat),
                ("card", self.card),
            )
            if value is not None
        }

    def as_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.hand is not None:
            error["hand"] = self.hand
        if self.trick is not None:
            error["trick"] = self.trick
        if self.seat is not None:
            error["seat"] = self.seat
        if self.card is not None:
            error["card"] = self.card
        for key in ("rule", "minimum", "standing"):
            if getattr(self, key) is not None:
                error[key] = getattr(self, key)
        return error

    def __repr__(self) -> str:
        return f"RecordError({self.code!r}, {self.message!r})"
