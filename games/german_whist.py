"""German Whist: two players, 13 drawing tricks from a stock, then 13 tricks that count.

Rules: ``shared/spec/games/german-whist.md`` (from a Japanese family rules sheet). A hand is a
whole game; a full record is replayed trick by trick, with each player's draws from the stock,
so that every later card is checked against what that player actually held. See
``docs/german-whist.md``.

Every decision the rules leave open is listed in ``RESOLUTIONS`` below and nowhere else; the
code that applies one names it in a comment (``# resolution: <key>``).
"""

from __future__ import annotations

from typing import Any

from games.base import Game, read_claim, read_counts, read_dealer, read_hands, read_scores, signed
from games.cards import (
    NAMES,
    PACK_52,
    SUIT_MASKS,
    SUIT_OF,
    SUITS,
    parse_card,
    parse_cards,
    parse_suit,
)
from games.errors import RecordError
from games.notes import note
from games.rules import Option, RuleBook

RESOLUTIONS: dict[str, str] = {
    "hand-size-6": "[spec] With hand_size 6 the stock has 40 cards, the drawing phase lasts 20 "
    "tricks and the last 6 tricks count (all 26 with counted_tricks all-26).",
    "seats": "The two players sit N and S; `dealer` names one; the other leads trick 1.",
    "claim": "A claim {seat, tricks} after the last trick in `play` gives the claimer `tricks` "
    "of the counted tricks still to play, the other player the rest. A claim during the "
    "drawing phase therefore distributes every remaining counted trick: with last-13 all 13 "
    "(or 6) of the last tricks, with all-26 all tricks not yet played.",
    "tie": "A tie (possible with all-26 at 13-13, or with hand_size 6 at 3-3) scores 0 to both "
    "and has no winner (`winner` null).",
    "difference-score": "Under score `difference` the winner scores the trick difference of the "
    "counted tricks (all 26 tricks with all-26).",
    "summary-winner": "A summary record's optional `winner` (N, S, or null for a tie) must agree "
    "with its tricks (`winner-mismatch`).",
    "match-never-ends": "The rules never end a match: its winner so far is the seat with the "
    "higher total score (none on a tie); tournaments cap matches by hands.",
    "full-record-stock": "A full record needs `stock` (bad-format when missing); `turned`, if "
    "given, must be the stock's first card (bad-turned); `trump`, if given, must be its suit "
    "(bad-trump).",
}

SEATS = "NS"
OTHER = {"N": "S", "S": "N"}
PACK = 52
TOTAL_TRICKS = PACK // 2

OPTIONS = {
    "counted_tricks": Option(
        "counted_tricks",
        "last-13",
        choices=("last-13", "all-26"),
        help="count the tricks after the stock is empty, or all tricks",
    ),
    "score": Option(
        "score",
        "win",
        choices=("win", "difference"),
        help="1 to the winner, or the trick difference to the winner",
    ),
    "hand_size": Option("hand_size", 13, choices=(13, 6), help="cards dealt to each player"),
}

PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


class GermanWhistRules:
    """A compiled German Whist rule set; `options` is the full option dict."""

    __slots__ = ("options", "hand_size", "drawing", "all_count", "counted", "difference")

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = dict(options)
        self.hand_size = options["hand_size"]
        self.drawing = (PACK - 2 * self.hand_size) // 2  # resolution: hand-size-6
        self.all_count = options["counted_tricks"] == "all-26"
        self.counted = TOTAL_TRICKS if self.all_count else TOTAL_TRICKS - self.drawing
        self.difference = options["score"] == "difference"

    def __repr__(self) -> str:
        return f"GermanWhistRules({self.options!r})"


BOOK = RuleBook("german-whist", OPTIONS, PRESETS, GermanWhistRules)


def _read_pack(record: dict[str, Any], rules: GermanWhistRules) -> tuple[list[int], list[int]]:
    """(hands as bitmasks [N, S], stock as card ids), checked to be a permutation of 52."""
    deal = record["deal"]
    if not isinstance(deal, dict):
        raise RecordError("bad-format", "`deal` must be an object keyed by N and S")
    if set(deal) != set(SEATS):
        raise RecordError("bad-seat", f"`deal` must name exactly N and S, not {', '.join(deal)}")
    hands = read_hands(deal, SEATS, (rules.hand_size,) * 2, PACK_52)
    if record.get("stock") is None:  # resolution: full-record-stock
        raise RecordError("bad-format", "a full record needs the `stock` in order")
    stock = parse_cards(record["stock"])
    size = PACK - 2 * rules.hand_size
    if len(stock) != size:
        raise RecordError("bad-deal", f"the stock has {len(stock)} cards, not {size}")
    seen = hands[0] | hands[1]
    for card in stock:
        if card >= PACK:
            raise RecordError("bad-deal", "German Whist uses no jokers", card=NAMES[card])
        if seen >> card & 1:
            raise RecordError(
                "bad-deal", f"{NAMES[card]} appears twice (in the stock)", card=NAMES[card]
            )
        seen |= 1 << card
    return hands, stock


def _check_trump(record: dict[str, Any], turned: int) -> None:
    if record.get("turned") is not None:
        stated = parse_card(record["turned"])
        if stated != turned:
            raise RecordError(
                "bad-turned",
                f"the turned card is the stock's first, {NAMES[turned]}, not {NAMES[stated]}",
                card=NAMES[stated],
            )
    trump = record.get("trump")
    if trump is not None:
        try:
            suit = parse_suit(trump)
        except RecordError:
            raise RecordError("bad-trump", f"{trump!r} is not a suit (S, H, D, C)") from None
        if suit != SUIT_OF[turned]:
            raise RecordError(
                "bad-trump", f"trump {trump!r} disagrees with the turned card {NAMES[turned]}"
            )


def _replay(
    record: dict[str, Any], rules: GermanWhistRules, dealer: int
) -> tuple[dict[str, int], list[str]]:
    """Replay a full record: the tricks that count per seat (a claim's included) and the seat
    that won each trick played, drawing tricks too."""
    hands, stock = _read_pack(record, rules)
    dealt = list(hands)
    turned = stock[0]
    _check_trump(record, turned)
    trump = SUIT_OF[turned]
    play = record.get("play")
    if not isinstance(play, list):
        raise RecordError("bad-format", "a full record needs `play`: a list of tricks")
    if len(play) > TOTAL_TRICKS:
        raise RecordError(
            "too-many-tricks",
            f"{len(play)} tricks played, a game has {TOTAL_TRICKS}",
            trick=TOTAL_TRICKS + 1,
        )
    drawing = rules.drawing
    all_count = rules.all_count
    taken = [0, 0]
    winners: list[str] = []
    leader = 1 - dealer
    for number, raw in enumerate(play, 1):
        cards = parse_cards(raw, trick=number)
        if len(cards) != 2:
            raise RecordError(
                "bad-trick", f"trick {number} has {len(cards)} cards, not 2", trick=number
            )
        lead, follow = cards
        other = 1 - leader
        for seat, card in ((leader, lead), (other, follow)):
            if not hands[seat] >> card & 1:
                raise _not_held(dealt, stock, seat, card, number)
        hands[leader] ^= 1 << lead
        led = SUIT_OF[lead]
        suit = SUIT_OF[follow]
        if suit != led and hands[other] & SUIT_MASKS[led]:
            raise RecordError(
                "must-follow-suit",
                f"trick {number}: {SEATS[other]} plays {NAMES[follow]} holding {SUITS[led]}, "
                "the suit led",
                trick=number,
                seat=SEATS[other],
                card=NAMES[follow],
            )
        hands[other] ^= 1 << follow
        if (suit == led and follow > lead) or (suit == trump and led != trump):
            winner = other
        else:
            winner = leader
        if number <= drawing:
            top = 2 * (number - 1)
            hands[winner] |= 1 << stock[top]
            hands[1 - winner] |= 1 << stock[top + 1]
            if all_count:
                taken[winner] += 1
        else:
            taken[winner] += 1
        winners.append(SEATS[winner])
        leader = winner
    claim = record.get("claim")
    played_counted = len(play) if all_count else max(0, len(play) - drawing)
    remaining = rules.counted - played_counted
    if claim is not None:
        claimer, n = read_claim(claim, SEATS, remaining)  # resolution: claim
        i = SEATS.index(claimer)
        taken[i] += n
        taken[1 - i] += remaining - n
    elif len(play) < TOTAL_TRICKS:
        raise RecordError(
            "play-incomplete",
            f"the play stops after {len(play)} tricks and no claim closes it",
            trick=len(play) + 1,
            trick_winners=winners,
            next_leader=SEATS[leader],
        )
    return {"N": taken[0], "S": taken[1]}, winners


def _not_held(dealt: list[int], stock: list[int], seat: int, card: int, trick: int) -> RecordError:
    name = NAMES[card]
    if dealt[seat] >> card & 1:
        why = "already played it"
    elif dealt[1 - seat] >> card & 1:
        why = f"{SEATS[1 - seat]} was dealt it"
    elif card in stock:
        why = f"it is stock card {stock.index(card) + 1}, not drawn by {SEATS[seat]} by then"
    else:
        why = "it is not in the pack"
    return RecordError(
        "card-not-held",
        f"trick {trick}: {SEATS[seat]} plays {name} but {why}",
        trick=trick,
        seat=SEATS[seat],
        card=name,
    )


class GermanWhist:
    name = "german-whist"
    book = BOOK

    def seats(self, rules: GermanWhistRules) -> str:
        return SEATS

    def initial_state(self, rules: GermanWhistRules) -> dict[str, Any]:
        return {"score": {"N": 0, "S": 0}}

    def read_state(self, before: Any, rules: GermanWhistRules) -> dict[str, Any]:
        if not isinstance(before, dict) or not set(before) <= {"score"}:
            raise RecordError("bad-state", '`before` must be {"score": {"N": n, "S": n}}')
        if "score" not in before:
            return self.initial_state(rules)
        score = read_scores(before["score"], SEATS, "score")
        if min(score.values()) < 0:
            raise RecordError("bad-state", "German Whist scores are never negative")
        return {"score": score}

    def check_hand(
        self, record: dict[str, Any], rules: GermanWhistRules, state: dict[str, Any]
    ) -> dict[str, Any]:
        dealer = SEATS.index(read_dealer(record, SEATS))
        counted = rules.counted
        winners: list[str] | None = None
        if "deal" in record:
            tricks, winners = _replay(record, rules, dealer)
            if record.get("tricks") is not None:
                stated = read_counts(record["tricks"], SEATS, "tricks")
                if stated != tricks:
                    raise RecordError(
                        "tricks-mismatch",
                        f"tricks stated N {stated['N']} S {stated['S']}, the play gives "
                        f"N {tricks['N']} S {tricks['S']}",
                    )
        else:
            if "play" in record:
                raise RecordError("bad-format", "`play` needs the `deal` and `stock`")
            if record.get("tricks") is None:
                raise RecordError("bad-format", "a summary record needs `tricks` per seat")
            tricks = read_counts(record["tricks"], SEATS, "tricks")
            if tricks["N"] + tricks["S"] != counted:
                raise RecordError(
                    "tricks-do-not-sum",
                    f"tricks N {tricks['N']} + S {tricks['S']} must add up to {counted}",
                )
            if record.get("turned") is not None:
                turned = parse_card(record["turned"])
                if turned >= PACK:
                    raise RecordError("bad-turned", "a joker cannot be turned", card=NAMES[turned])
                _check_trump(record, turned)
        n, s = tricks["N"], tricks["S"]
        winner = "N" if n > s else "S" if s > n else None  # resolution: tie
        if "winner" in record:  # resolution: summary-winner
            stated = record["winner"]
            if stated is not None and stated not in ("N", "S"):
                raise RecordError("bad-seat", f"winner {stated!r} is not N, S or null")
            if stated != winner:
                raise RecordError(
                    "winner-mismatch",
                    f"winner stated {stated}, the tricks (N {n}, S {s}) give {winner}",
                )
        score = {"N": 0, "S": 0}
        phase = "all 26 tricks" if rules.all_count else f"the last {counted} tricks"
        notes = [
            note(
                "german-whist-tricks",
                f"N took {n}, S took {s} of {phase}",
                {"n": n, "s": s, "all": rules.all_count, "counted": counted},
            )
        ]
        if winner is not None:
            points = abs(n - s) if rules.difference else 1  # resolution: difference-score
            score[winner] = points
            notes.append(
                note(
                    "german-whist-wins",
                    f"{winner} wins ({signed(points)})",
                    {"seat": winner, "points": signed(points)},
                )
            )
        else:
            notes.append(note("german-whist-tie", "a tie: no score"))
        before = state["score"]
        after = {"score": {seat: before[seat] + score[seat] for seat in SEATS}}
        result: dict[str, Any] = {
            "tricks": tricks,
            "score": score,
            "after": after,
            "notes": notes,
            "winner": winner,
        }
        if winners is not None:
            result["trick_winners"] = winners
        return result

    def next_dealer(self, rules: GermanWhistRules, dealer: str) -> str:
        return OTHER[dealer]

    def match_end(self, rules: GermanWhistRules, state: dict[str, Any]) -> tuple[bool, str | None]:
        # resolution: match-never-ends
        score = state["score"]
        if score["N"] == score["S"]:
            return False, None
        return False, "N" if score["N"] > score["S"] else "S"

    def match_summary(self, rules: GermanWhistRules, state: dict[str, Any]) -> dict[str, Any]:
        return {}


GAME: Game = GermanWhist()
