"""Whist (English short whist) and its variations: long whist (to 10 or 9) and American whist.

Rules: ``shared/spec/games/whist.md`` (from the club's Japanese note, after Parlett). A hand is
scored in the order the rules give — revoke penalties, then tricks, then honours — and the
game, game points and rubber follow from the cumulative score. See ``docs/whist.md``.

Every decision the rules leave open is listed in ``RESOLUTIONS`` below and nowhere else; the
code that applies one names it in a comment (``# resolution: <key>``).
"""

from __future__ import annotations

from typing import Any

from games.base import (
    Game,
    next_seat,
    read_claim,
    read_counts,
    read_dealer,
    read_hands,
    signed,
)
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
    "honours-as-dealt": "[spec] Honours come from the cards as dealt; the turned card counts for "
    "the dealer.",
    "scores-reset": "[spec] After a game both sides start the next game at 0; points beyond "
    "game do not carry over.",
    "honours-barred-long": "[spec] long-whist: honours are barred at 9; long-whist-9: game is "
    "9, honours barred at 8.",
    "barred-at-or-above": "A side whose score at the start of the hand is at or above "
    "`honours_barred_at` (when that option is > 0) cannot score honours.",
    "honours-after-own-game": "A side that has itself reached game earlier in the hand's "
    "scoring order still scores its honours (only the OTHER side's reaching game bars them); "
    "this matters only for American-whist settlement.",
    "both-reach-game": "If both sides reach game in one hand, the side that reached it at the "
    "earlier stage wins (revoke penalties, then tricks, then honours); if both reached it at "
    "the same stage (both revoked, penalty transfer) the higher score wins, then the side with "
    "more tricks (13 tricks cannot tie).",
    "short-game-points": "short game points are counted from the losers' score at the end of "
    "the game: 3 or more -> 1 (so also 5 or more, after a game won by a revoke), 1-2 -> 2, "
    "0 or below -> 3.",
    "long-game-points": "long game points: 2 if the losers have fewer than 5, else 1 — the 5 "
    "is fixed (also for long-whist-9 and any other target).",
    "settlement-as-game-points": "With game_points `none` the game's settlement (settle "
    "`difference`: winner's score minus loser's; `official`: target minus loser's score) is "
    "credited to the winner's game points, so `net` is the settlement; a settlement below 0 "
    "(possible only when the losers passed the winners' score after losing to a revoke) "
    "counts 0.",
    "rubber-bonus-in-state": "The rubber's 2 game points are added to `game_points` in the "
    "state by the hand that wins the rubber (so `after` and the match summary include them).",
    "one-game-match": "With rubber false the match ends after one game.",
    "one-penalty-choice": "One `penalty` (transfer or deduct) applies to every revoke of the "
    "hand; it is required whenever there is a revoke and ignored otherwise.",
    "summary-revoke-count": "Summary `revokes` entries are {seat, count}; count defaults to 1; "
    "several entries for one seat add up.",
    "full-record-revokes": "In a full record, stated `revokes` ({seat, count} or {seat, trick}) "
    "must agree with the replay per seat; a stated trick must be one where that seat revoked "
    "(`revokes-mismatch`).",
    "revoke-stands": "A failure to follow suit is not an error: it is recorded with seat and "
    "trick, penalised, and the trick stands as played (the revoking card can win it).",
    "claim": "A claim {seat, tricks} after the last trick in `play` gives the claimer's side "
    "`tricks` of the remaining tricks and the opponents the rest; revokes found before the "
    "claim stand.",
    "state-checks": "`before` may leave out `games` or `game_points` (zero); a score at or "
    "above the target, or (with rubbers) a side with 2 games, is `bad-state`: that game or "
    "rubber is already over.",
    "game-result-key": "The hand result reports a finished game under `game_over` (not `game`,"
    " which the result already uses for the game's name).",
}

SEATS = "NESW"
SIDES = ("NS", "EW")
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}
GAME_RESULT_KEY = "game_over"  # resolution: game-result-key
PENALTIES = ("transfer", "deduct")
TRICKS = 13
RUBBER_BONUS = 2

OPTIONS = {
    "target": Option("target", 5, low=1, high=1000, help="points for game"),
    "honours": Option("honours", True, help="whether honours score"),
    "honours_barred_at": Option(
        "honours_barred_at",
        4,
        low=0,
        high=1000,
        help="a side at this score at the start of a hand cannot score honours (0 = never)",
    ),
    "game_points": Option(
        "game_points",
        "short",
        choices=("short", "long", "none"),
        help="short: 3/2/1 by the losers' 0/1-2/3+; long: 2 if losers < 5, else 1; none",
    ),
    "rubber": Option("rubber", True, help="best of three games, +2 to the rubber's winners"),
    "settle": Option(
        "settle",
        "difference",
        choices=("difference", "official"),
        help="difference: winner's minus loser's score; official: target minus loser's score",
    ),
    "revoke_penalty": Option("revoke_penalty", 3, low=0, high=1000, help="points per revoke"),
}

PRESETS: dict[str, dict[str, Any]] = {
    "short-whist": {},
    "long-whist": {"target": 10, "honours_barred_at": 9, "game_points": "long"},
    "long-whist-9": {"target": 9, "honours_barred_at": 8, "game_points": "long"},
    "american-whist": {
        "target": 7,
        "honours": False,
        "game_points": "none",
        "rubber": False,
    },
}


class WhistRules:
    """A compiled whist rule set; `options` is the full option dict."""

    __slots__ = (
        "options",
        "target",
        "honours",
        "barred_at",
        "game_points",
        "rubber",
        "settle",
        "revoke_penalty",
    )

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = dict(options)
        self.target = options["target"]
        self.honours = options["honours"]
        self.barred_at = options["honours_barred_at"]
        self.game_points = options["game_points"]
        self.rubber = options["rubber"]
        self.settle = options["settle"]
        self.revoke_penalty = options["revoke_penalty"]

    def __repr__(self) -> str:
        return f"WhistRules({self.options!r})"


BOOK = RuleBook("whist", OPTIONS, PRESETS, WhistRules)

_HONOUR_MASKS = tuple(0b1111 << (suit * 13 + 9) for suit in range(4))  # J Q K A of each suit


# ---------------------------------------------------------------------------------------------
# State


def _pair(value: Any, what: str, *, low: int | None = None) -> dict[str, int]:
    if not isinstance(value, dict) or set(value) != set(SIDES):
        raise RecordError("bad-state", f"`{what}` must be an object keyed by NS and EW")
    out = {}
    for side in SIDES:
        n = value[side]
        if not isinstance(n, int) or isinstance(n, bool) or (low is not None and n < low):
            raise RecordError("bad-state", f"`{what}`[{side}] must be a whole number, not {n!r}")
        out[side] = n
    return out


def _zero() -> dict[str, int]:
    return {"NS": 0, "EW": 0}


# ---------------------------------------------------------------------------------------------
# Reading a record


def _read_trump(record: dict[str, Any]) -> tuple[int, int | None]:
    """(trump suit, turned card or None) of a summary record."""
    turned = record.get("turned")
    trump = record.get("trump")
    if turned is None and trump is None:
        raise RecordError("bad-trump", "a summary record needs `trump` or `turned`")
    turned_id = parse_card(turned) if turned is not None else None
    if turned_id is not None and turned_id >= 52:
        raise RecordError("bad-turned", "a joker cannot be turned in whist", card=NAMES[turned_id])
    suit = None
    if trump is not None:
        try:
            suit = parse_suit(trump)
        except RecordError:
            raise RecordError("bad-trump", f"{trump!r} is not a suit (S, H, D, C)") from None
    if turned_id is not None:
        if suit is not None and suit != SUIT_OF[turned_id]:
            raise RecordError(
                "bad-trump",
                f"trump {SUITS[suit]} disagrees with the turned card {NAMES[turned_id]}",
                card=NAMES[turned_id],
            )
        suit = SUIT_OF[turned_id]
    assert suit is not None  # `trump` or `turned` was given (checked above)
    return suit, turned_id


def _read_tricks(value: Any) -> dict[str, int]:
    tricks = read_counts(value, SIDES, "tricks")
    if tricks["NS"] + tricks["EW"] != TRICKS:
        raise RecordError(
            "tricks-do-not-sum",
            f"tricks NS {tricks['NS']} + EW {tricks['EW']} must add up to {TRICKS}",
        )
    return tricks


def _read_honours(value: Any) -> dict[str, int]:
    honours = read_counts(value, SIDES, "honours")
    if honours["NS"] + honours["EW"] != 4:
        raise RecordError(
            "bad-format",
            f"honours NS {honours['NS']} + EW {honours['EW']} must add up to 4 (A K Q J of trumps)",
        )
    return honours


def _read_revokes(value: Any) -> list[dict[str, Any]]:
    """Stated revokes: a list of {seat, count} (count defaults to 1) or {seat, trick}."""
    # resolution: summary-revoke-count
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError("bad-format", "`revokes` must be a list of {seat, count}")
    out = []
    for entry in value:
        if not isinstance(entry, dict) or not set(entry) <= {"seat", "count", "trick"}:
            raise RecordError("bad-format", f"a revoke is {{seat, count}}, not {entry!r}")
        seat = entry.get("seat")
        if not isinstance(seat, str) or seat not in SEATS:
            raise RecordError("bad-seat", f"revoke by {seat!r}: not a seat (N, E, S, W)")
        count = entry.get("count", 1)
        trick = entry.get("trick")
        for name, n in (("count", count), ("trick", trick)):
            if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
                raise RecordError("bad-format", f"revoke {name} must be a whole number", seat=seat)
        if trick is not None and not 1 <= trick <= TRICKS:
            raise RecordError("bad-format", f"revoke trick {trick} is not 1..13", seat=seat)
        out.append({"seat": seat, "count": count, "trick": trick})
    return out


def _read_penalty(record: dict[str, Any], revoked: bool) -> str | None:
    # resolution: one-penalty-choice
    penalty: str | None = record.get("penalty")
    if penalty is None:
        if revoked:
            raise RecordError(
                "bad-format", 'a hand with a revoke needs `penalty`: "transfer" or "deduct"'
            )
        return None
    if penalty not in PENALTIES:
        raise RecordError("bad-format", f'penalty must be "transfer" or "deduct", not {penalty!r}')
    return penalty


def _read_deal(deal: Any) -> list[int]:
    """The four hands as bitmasks (N, E, S, W), checked to be a permutation of the pack."""
    if not isinstance(deal, dict):
        raise RecordError("bad-format", "`deal` must be an object keyed by N, E, S, W")
    if set(deal) != set(SEATS):
        raise RecordError("bad-seat", f"`deal` must name exactly N, E, S, W, not {', '.join(deal)}")
    return read_hands(deal, SEATS, (TRICKS,) * 4, PACK_52)


def _not_held(hands: list[int], dealt: list[int], seat: int, card: int, trick: int) -> RecordError:
    name = NAMES[card]
    if dealt[seat] >> card & 1:
        why = "already played it"
    else:
        holder = next((SEATS[s] for s in range(4) if dealt[s] >> card & 1), None)
        why = f"{holder} holds it" if holder else "it is not in the pack"
    return RecordError(
        "card-not-held",
        f"trick {trick}: {SEATS[seat]} plays {name} but {why}",
        trick=trick,
        seat=SEATS[seat],
        card=name,
    )


def _read_claim(claim: Any, remaining: int) -> tuple[str, int]:
    return read_claim(claim, SEATS, remaining)  # resolution: claim


def _replay(record: dict[str, Any], dealer: int) -> dict[str, Any]:
    """Replay a full record: tricks per side, honours, revokes [(seat, trick)], trump, and
    the seat that won each trick played (`winners`)."""
    hands = _read_deal(record["deal"])
    dealt = list(hands)
    turned_raw = record.get("turned")
    if turned_raw is None:
        raise RecordError("bad-turned", "a full record needs the `turned` card")
    turned = parse_card(turned_raw)
    if turned >= 52 or not dealt[dealer] >> turned & 1:
        raise RecordError(
            "bad-turned",
            f"the turned card {NAMES[turned]} is not in the dealer's ({SEATS[dealer]}) hand",
            seat=SEATS[dealer],
            card=NAMES[turned],
        )
    trump = SUIT_OF[turned]
    if record.get("trump") is not None:
        try:
            stated = parse_suit(record["trump"])
        except RecordError:
            raise RecordError("bad-trump", f"{record['trump']!r} is not a suit") from None
        if stated != trump:
            raise RecordError(
                "bad-trump",
                f"trump {SUITS[stated]} disagrees with the turned card {NAMES[turned]}",
                card=NAMES[turned],
            )
    play = record.get("play")
    if not isinstance(play, list):
        raise RecordError("bad-format", "a full record needs `play`: a list of tricks")
    if len(play) > TRICKS:
        raise RecordError(
            "too-many-tricks", f"{len(play)} tricks played, a hand has {TRICKS}", trick=TRICKS + 1
        )
    taken = [0, 0]
    winners: list[str] = []
    revokes: list[tuple[int, int]] = []
    leader = (dealer + 1) & 3
    suit_of = SUIT_OF
    masks = SUIT_MASKS
    for number, raw in enumerate(play, 1):
        cards = parse_cards(raw, trick=number)
        if len(cards) != 4:
            raise RecordError(
                "bad-trick", f"trick {number} has {len(cards)} cards, not 4", trick=number
            )
        best = cards[0]
        if not hands[leader] >> best & 1:
            raise _not_held(hands, dealt, leader, best, number)
        hands[leader] ^= 1 << best
        led = suit_of[best]
        best_seat = seat = leader
        for card in cards[1:]:
            seat = (seat + 1) & 3
            hand = hands[seat]
            if not hand >> card & 1:
                raise _not_held(hands, dealt, seat, card, number)
            suit = suit_of[card]
            if suit != led and hand & masks[led]:
                revokes.append((seat, number))  # resolution: revoke-stands
            hands[seat] = hand ^ (1 << card)
            best_suit = suit_of[best]
            if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                best, best_seat = card, seat
        taken[best_seat & 1] += 1
        winners.append(SEATS[best_seat])
        leader = best_seat
    remaining = TRICKS - len(play)
    claim = record.get("claim")
    if claim is not None:
        claimer, n = _read_claim(claim, remaining)
        side = SEATS.index(claimer) & 1
        taken[side] += n
        taken[1 - side] += remaining - n
    elif remaining:
        raise RecordError(
            "play-incomplete",
            f"the play stops after {len(play)} tricks and no claim closes it",
            trick=len(play) + 1,
            trick_winners=list(winners),
            next_leader=SEATS[leader],
        )
    honour_mask = _HONOUR_MASKS[trump]
    return {
        "trump": trump,
        "tricks": {"NS": taken[0], "EW": taken[1]},
        "honours": {
            "NS": ((dealt[0] | dealt[2]) & honour_mask).bit_count(),
            "EW": ((dealt[1] | dealt[3]) & honour_mask).bit_count(),
        },
        "revokes": revokes,
        "winners": winners,
    }


# ---------------------------------------------------------------------------------------------
# Scoring


def _game_points(rules: WhistRules, winner_score: int, loser_score: int) -> int:
    if rules.game_points == "short":  # resolution: short-game-points
        return 1 if loser_score >= 3 else 2 if loser_score >= 1 else 3
    if rules.game_points == "long":  # resolution: long-game-points
        return 2 if loser_score < 5 else 1
    # resolution: settlement-as-game-points
    if rules.settle == "difference":
        return max(0, winner_score - loser_score)
    return max(0, int(rules.target) - loser_score)


def _score(
    rules: WhistRules,
    state: dict[str, Any],
    tricks: dict[str, int],
    honours: dict[str, int] | None,
    revokes: list[tuple[str, int, int | None]],
    penalty: str | None,
) -> dict[str, Any]:
    """Score one hand from `state`: revoke penalties, then tricks, then honours; then game."""
    start = state["score"]
    score = dict(start)
    target = rules.target
    notes: list[str] = []
    reached: dict[str, int] = {}  # side -> stage at which it reached game (0, 1, 2)

    # 1. revoke penalties
    for seat, count, trick in revokes:
        side = SIDE_OF[seat]
        points = rules.revoke_penalty * count
        where = (
            f" (trick {trick})" if trick is not None else ("" if count == 1 else f" {count} times")
        )
        if penalty == "transfer":
            score[OTHER[side]] += points
            notes.append(
                note(
                    "whist-revoke",
                    f"{seat} revoked{where}: {signed(points)} to {OTHER[side]}",
                    {
                        "seat": seat,
                        "trick": trick,
                        "count": count,
                        "points": signed(points),
                        "to": OTHER[side],
                    },
                )
            )
        else:
            score[side] -= points
            notes.append(
                note(
                    "whist-revoke",
                    f"{seat} revoked{where}: {signed(-points)} to {side}",
                    {
                        "seat": seat,
                        "trick": trick,
                        "count": count,
                        "points": signed(-points),
                        "to": side,
                    },
                )
            )
    for side in SIDES:
        if score[side] >= target:
            reached[side] = 0

    # 2. tricks
    for side in SIDES:
        if tricks[side] > 6:
            odd = tricks[side] - 6
            score[side] += odd
            notes.append(
                note(
                    "whist-odd-tricks",
                    f"{side} took {tricks[side]} tricks ({signed(odd)})",
                    {"side": side, "tricks": tricks[side], "points": signed(odd)},
                )
            )
            if side not in reached and score[side] >= target:
                reached[side] = 1

    # 3. honours
    if honours is not None and rules.honours:
        for side in SIDES:
            held = honours[side]
            points = 4 if held == 4 else 2 if held == 3 else 0
            if not points:
                continue
            if rules.barred_at > 0 and start[side] >= rules.barred_at:  # barred-at-or-above
                notes.append(
                    note(
                        "whist-honours-barred",
                        f"{side} held {held} honours: not scored ({side} had {start[side]} "
                        "at the start of the hand)",
                        {"side": side, "held": held, "start": start[side]},
                    )
                )
            elif OTHER[side] in reached:  # resolution: honours-after-own-game
                notes.append(
                    note(
                        "whist-honours-after-game",
                        f"{side} held {held} honours: not scored ({OTHER[side]} reached game)",
                        {"side": side, "held": held, "other": OTHER[side]},
                    )
                )
            else:
                score[side] += points
                notes.append(
                    note(
                        "whist-honours",
                        f"{side} held {held} honours ({signed(points)})",
                        {"side": side, "held": held, "points": signed(points)},
                    )
                )
                if side not in reached and score[side] >= target:
                    reached[side] = 2

    added = {side: score[side] - start[side] for side in SIDES}
    games = dict(state["games"])
    game_points = dict(state["game_points"])
    result: dict[str, Any] = {"tricks": dict(tricks), "score": added}
    after_score = score
    game_over = None
    if reached:
        if len(reached) == 1:
            (winner,) = reached
        else:  # resolution: both-reach-game
            winner = max(SIDES, key=lambda s: (-reached[s], score[s], tricks[s]))
        loser = OTHER[winner]
        points = _game_points(rules, score[winner], score[loser])
        games[winner] += 1
        game_points[winner] += points
        game_over = {"winner": winner, "score": dict(score), "game_points": points}
        if rules.game_points == "none":
            notes.append(
                note(
                    "whist-game-pays",
                    f"{winner} win the game {score[winner]}-{score[loser]}: {loser} pay {points}",
                    {
                        "winner": winner,
                        "loser": loser,
                        "score": score[winner],
                        "other_score": score[loser],
                        "points": points,
                    },
                )
            )
        else:
            notes.append(
                note(
                    "whist-game",
                    f"{winner} win the game {score[winner]}-{score[loser]} "
                    f"({points} game point{'s' if points != 1 else ''})",
                    {
                        "winner": winner,
                        "loser": loser,
                        "score": score[winner],
                        "other_score": score[loser],
                        "points": points,
                    },
                )
            )
        if rules.rubber and games[winner] == 2:  # resolution: rubber-bonus-in-state
            game_points[winner] += RUBBER_BONUS
            game_over["rubber_bonus"] = RUBBER_BONUS
            notes.append(
                note(
                    "whist-rubber",
                    f"{winner} win the rubber {games[winner]}-{games[loser]} "
                    f"({signed(RUBBER_BONUS)} game points)",
                    {
                        "winner": winner,
                        "games": games[winner],
                        "other_games": games[loser],
                        "points": signed(RUBBER_BONUS),
                    },
                )
            )
        after_score = _zero()  # resolution: scores-reset
    result["after"] = {"score": after_score, "games": games, "game_points": game_points}
    result["notes"] = notes
    if game_over is not None:
        result[GAME_RESULT_KEY] = game_over
    return result


# ---------------------------------------------------------------------------------------------
# The game


class Whist:
    name = "whist"
    book = BOOK

    def seats(self, rules: WhistRules) -> str:
        return SEATS

    def initial_state(self, rules: WhistRules) -> dict[str, Any]:
        return {"score": _zero(), "games": _zero(), "game_points": _zero()}

    def read_state(self, before: Any, rules: WhistRules) -> dict[str, Any]:
        # resolution: state-checks
        if not isinstance(before, dict):
            raise RecordError("bad-state", "`before` must be an object")
        unknown = set(before) - {"score", "games", "game_points"}
        if unknown:
            raise RecordError("bad-state", f"`before` has unknown fields: {', '.join(unknown)}")
        state = {
            "score": _pair(before["score"], "score") if "score" in before else _zero(),
            "games": _pair(before["games"], "games", low=0) if "games" in before else _zero(),
            "game_points": (
                _pair(before["game_points"], "game_points", low=0)
                if "game_points" in before
                else _zero()
            ),
        }
        for side in SIDES:
            if state["score"][side] >= rules.target:
                raise RecordError(
                    "bad-state",
                    f"{side} at {state['score'][side]} has already reached game "
                    f"({rules.target}): scores start again at 0",
                )
            if rules.rubber and state["games"][side] >= 2:
                raise RecordError("bad-state", f"{side} have already won the rubber")
        return state

    def check_hand(
        self, record: dict[str, Any], rules: WhistRules, state: dict[str, Any]
    ) -> dict[str, Any]:
        dealer = SEATS.index(read_dealer(record, SEATS))
        if "deal" in record:
            replay = _replay(record, dealer)
            tricks = replay["tricks"]
            if record.get("tricks") is not None:
                stated = _read_tricks(record["tricks"])
                if stated != tricks:
                    raise RecordError(
                        "tricks-mismatch",
                        f"tricks stated NS {stated['NS']} EW {stated['EW']}, the play gives "
                        f"NS {tricks['NS']} EW {tricks['EW']}",
                    )
            honours = replay["honours"]  # resolution: honours-as-dealt
            if record.get("honours") is not None:
                stated = _read_honours(record["honours"])
                if stated != honours:
                    raise RecordError(
                        "honours-mismatch",
                        f"honours stated NS {stated['NS']} EW {stated['EW']}, the deal gives "
                        f"NS {honours['NS']} EW {honours['EW']}",
                    )
            found = replay["revokes"]
            if record.get("revokes") is not None:
                _agree_revokes(_read_revokes(record["revokes"]), found)
            penalty = _read_penalty(record, bool(found))
            revokes = [(SEATS[seat], 1, trick) for seat, trick in found]
            result = _score(rules, state, tricks, honours, revokes, penalty)
            result["revokes"] = [{"seat": SEATS[seat], "trick": trick} for seat, trick in found]
            trump = replay["trump"]
        else:
            if "play" in record:
                raise RecordError("bad-format", "`play` needs the `deal` it was played from")
            trump, _ = _read_trump(record)
            if record.get("tricks") is None:
                raise RecordError("bad-format", "a summary record needs `tricks` per side")
            tricks = _read_tricks(record["tricks"])
            if record.get("honours") is not None:
                honours = _read_honours(record["honours"])
            elif rules.honours:
                raise RecordError(
                    "bad-format", "a summary record needs `honours` (NS and EW) under these rules"
                )
            else:
                honours = None
            stated_revokes = _read_revokes(record.get("revokes"))
            counts: dict[str, int] = {}
            for entry in stated_revokes:
                counts[entry["seat"]] = counts.get(entry["seat"], 0) + entry["count"]
            penalty = _read_penalty(record, any(counts.values()))
            revokes = [(seat, counts[seat], None) for seat in SEATS if counts.get(seat)]
            result = _score(rules, state, tricks, honours, revokes, penalty)
            result["revokes"] = [{"seat": seat, "count": n} for seat, n, _ in revokes]
        if honours is not None:
            result["honours"] = honours
        result["trump"] = SUITS[trump]
        if revokes:
            result["penalty"] = penalty
        if "deal" in record:
            result["trick_winners"] = replay["winners"]
        return result

    def next_dealer(self, rules: WhistRules, dealer: str) -> str:
        return next_seat(SEATS, dealer)

    def match_end(self, rules: WhistRules, state: dict[str, Any]) -> tuple[bool, str | None]:
        games = state["games"]
        needed = 2 if rules.rubber else 1  # resolution: one-game-match
        for side in SIDES:
            if games[side] >= needed:
                return True, side
        return False, None

    def match_summary(self, rules: WhistRules, state: dict[str, Any]) -> dict[str, Any]:
        points = state["game_points"]
        net = points["NS"] - points["EW"]
        return {
            "games": dict(state["games"]),
            "game_points": dict(points),
            "net": {"NS": net, "EW": -net},
        }


def _agree_revokes(stated: list[dict[str, Any]], found: list[tuple[int, int]]) -> None:
    # resolution: full-record-revokes
    want: dict[str, int] = {}
    for entry in stated:
        want[entry["seat"]] = want.get(entry["seat"], 0) + entry["count"]
        if entry["trick"] is not None and (SEATS.index(entry["seat"]), entry["trick"]) not in found:
            raise RecordError(
                "revokes-mismatch",
                f"{entry['seat']} did not revoke at trick {entry['trick']}",
                trick=entry["trick"],
                seat=entry["seat"],
            )
    have: dict[str, int] = {}
    for index, _ in found:
        have[SEATS[index]] = have.get(SEATS[index], 0) + 1
    for seat in SEATS:
        if want.get(seat, 0) != have.get(seat, 0):
            found_at = [t for s, t in found if SEATS[s] == seat]
            raise RecordError(
                "revokes-mismatch",
                f"{seat} revoked {have.get(seat, 0)} times in the play "
                f"{'(tricks ' + ', '.join(map(str, found_at)) + ')' if found_at else ''}"
                f", the record states {want.get(seat, 0)}",
                seat=seat,
            )


GAME: Game = Whist()
