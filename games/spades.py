"""Spades: every option of spec/games/spades.md, its ten seed presets, summary and full records.

Rules come as options (see `OPTIONS`); presets are dicts over the `standard` values (`PRESETS`).
A compiled rule set (`SpadesRules`) precomputes, for each possible dealer, the table: hands in
clockwise order, bidding order, sides, and the tables the replay needs (effective suits, trick
keys), so that checking a hand does no rule lookups in its inner loop.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

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
    BIG_JOKER,
    CARD_BITS,
    CARD_IDS,
    CLUBS,
    LITTLE_JOKER,
    NAMES,
    RANK_OF,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    parse_cards,
)
from games.errors import RecordError
from games.notes import note
from games.rules import Option, RuleBook

# Where the seed is silent, what we decided. Each decision is applied in exactly one place,
# which cites it by key.
RESOLUTIONS = {
    "side-tricks": "A side's tricks for its bid are all the tricks the side took, a failed nil "
    "bidder's included. If both partners bid nil, the side's bid is 0 (every trick is an "
    "overtrick). An individual nil bidder is a side whose bid is 0 likewise.",
    "tie-at-target": "If the leading totals are equal when the target is reached, play on.",
    "bags-always-counted": "Bags (overtricks) are counted in `after` even when the sandbagging "
    "rule is off, as the format's example shows; the penalty applies only with `sandbag`.",
    "one-joker": "With one joker it is the big joker, the highest trump, and 2C is removed.",
    "two-jokers-removed": "With two jokers and no `removed_cards`, 2H and 2D are removed "
    "(the seed's example); `removed_cards` or `dealer_discards` chooses otherwise.",
    "dummy-seat": "In 2-player dummy spades the players sit N and S and the dummy sits at the "
    "dealer's left (`dummy_seat: left`: E when N deals, W when S deals) or right (`right`: W "
    "when N deals, E when S deals). The dummy bids nothing and scores nothing; when the lead "
    "would fall to the dummy (a trick it won, or the first lead at the dealer's left), the "
    "player on the dummy's left leads.",
    "behind": "A side (or individual player) is behind by X when the best opposing score "
    "minus its own is at least X. 0 points needed means any score.",
    "lowest-club-leader": "Where 2C is out of play (removed or undealt), the holder of the "
    "lowest club dealt leads under `two-of-clubs` and `lowest-clubs`.",
    "highest-bidder": "Under `highest-bidder` the highest numeric call leads (moon counts as all "
    "the tricks, a side call belongs to the side's first member in bidding order who made no nil "
    "call); ties go to the first of the tied bidders in bidding order.",
    "both-nil-minimum": "A side whose partners both bid nil is not bound by `minimum_bid`.",
    "blind-first": "Blind bids and blind moons by a side are made before anyone looks at the "
    "cards: in a record they come before every other call. In individual play a blind bid is "
    "the player's one call, in turn.",
    "second-round": "In a second bidding round each player, in the same order, passes or names "
    "a higher bid for the side (individually: for themselves). Nil bidders and blind sides may "
    "only pass.",
    "small-exact-bids": "The small exact bid scores (2/1/0 taken exactly -> 40/60/100) replace "
    "the normal score only for numeric bids, not for a side's bid of 0 that comes from nils.",
    "exact-bonuses-numeric": "exact_bid_bonus and the last-trick bonus need a numeric or blind "
    "bid made exactly; a bid of 0 that comes from nils earns neither.",
    "last-trick-sequence": "[spec] `sequence`: a sequence is a matter of which cards, not of the "
    "order they were played in. The bonus is +10 x k for the largest k >= 2 such that the side "
    "won each of the last k tricks with a trump of 9 or higher and those k winning trumps, taken "
    "as a set, are consecutive in trump rank (Q, A, K won in that order: +30). No such k: no "
    "bonus (the variant asks for two or more tricks). `last` is +10 for the last trick alone.",
    "last-trick-claim": "The last-trick bonus is not awarded when a claim ends the play: the "
    "winning trumps are unknown.",
    "blind-exact-failure": "With blind_bid_exact, taking more than the blind bid fails it; the "
    "shortfall penalty then counts the difference.",
    "dealer-discard": "With dealer_discards 2, a full record names the dealer's two discarded "
    "cards in `discard` (a field of this option only).",
    "claim": "A claim gives the claimer's side `tricks` of the remaining tricks (credited to "
    "the claimer) and the rest to the opponents; when the rest would have to be split among "
    "several seats, the record must state per-seat `tricks`, which must agree with the replay "
    "and the claim (the claimer's side gaining exactly the claimed tricks).",
}

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in [
        Option("players", 4, choices=(4, 3, 2)),
        Option("partnership", True),
        Option("two_player_deal", "draw", choices=("draw", "dummy")),
        Option("dummy_seat", "left", choices=("left", "right")),
        Option("jokers", 0, choices=(0, 1, 2)),
        Option("removed_cards", (), cards=True),
        Option("dealer_discards", 0, choices=(0, 2)),
        Option("deuce_of_spades_high", False),
        Option("high_trumps", (), cards=True),
        Option("bidding", "last-bidder", choices=("last-bidder", "sum", "consult")),
        Option("bidding_rounds", 1, choices=(1, 2)),
        Option("nil", True),
        Option("nil_value", 100, low=0, high=10000),
        Option("double_nil", "when-behind", choices=("never", "always", "when-behind")),
        Option("double_nil_behind", 100, low=0, high=10000),
        Option("double_nil_value", 200, low=0, high=10000),
        Option("double_nil_penalty", 200, low=0, high=10000),
        Option("nil_exchange", 0, low=0, high=3),
        Option("double_nil_exchange", 2, low=0, high=3),
        Option("exchange_when_both_nil", True),
        Option("zero_bid_is_nil", False),
        Option("double_blind_nil", False),
        Option("double_blind_nil_value", 400, low=0, high=10000),
        Option("double_blind_nil_behind", 0, low=0, high=10000),
        Option("blind_bid_min", 0, low=0, high=17),
        Option("blind_bid_behind", 100, low=0, high=10000),
        Option("blind_bid_exact", False),
        Option("blind_made", "double", choices=("double", "bonus-100")),
        Option("blind_failed", "double", choices=("double", "normal", "penalty-100")),
        Option("moon", False),
        Option("moon_value", 200, low=0, high=10000),
        Option("thirteen_is_moon", False),
        Option("blind_moon", False),
        Option("moon_wins_game", False),
        Option("minimum_bid", 0, low=0, high=17),
        Option(
            "first_lead",
            "left-of-dealer",
            choices=("left-of-dealer", "two-of-clubs", "lowest-clubs", "highest-bidder"),
        ),
        Option("spades_broken", True),
        Option("set_penalty", "bid", choices=("bid", "shortfall")),
        Option("overtrick_points", 1, choices=(1, -1, -10)),
        Option("sandbag", False),
        Option("sandbag_limit", 10, low=1, high=100),
        Option("sandbag_penalty", 100, low=0, high=10000),
        Option("ten_for_200", "off", choices=("off", "at-least", "exact")),
        Option("ten_for_two", False),
        Option("big_bid_bonus", 0, low=0, high=10000),
        Option("exact_bid_bonus", 0, low=0, high=10000),
        Option("all_tricks_bonus", 0, low=0, high=10000),
        Option("all_tricks_wins", False),
        Option("last_trick_bonus", "off", choices=("off", "last", "sequence")),
        Option("seven_plus_bonus", False),
        Option("small_exact_bids", False),
        Option("target", 500, low=1, high=100000),
    ]
}

# The seed's named rule sets (spades.md section 3), as option values over `standard`.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "hoyle": {
        "double_nil": "always",
        "nil_exchange": 3,
        "double_nil_exchange": 3,
        "exchange_when_both_nil": False,
    },
    "pagat-1996": {
        "bidding": "consult",
        "first_lead": "lowest-clubs",
        "set_penalty": "shortfall",
        "nil_value": 50,
        "double_nil_value": 100,
        "double_nil_penalty": 100,
        "sandbag": True,
    },
    "pagat-barmore": {
        "jokers": 2,
        "removed_cards": ["2C", "2H"],
        "deuce_of_spades_high": True,
        "nil": False,
        "double_nil": "never",
        "blind_bid_min": 7,
        "blind_made": "double",
        "spades_broken": False,
    },
    "pagat-3p": {
        "players": 3,
        "partnership": False,
        "nil": False,
        "double_nil": "never",
        "blind_bid_min": 6,
        "blind_made": "double",
        "first_lead": "two-of-clubs",
        "overtrick_points": -10,
        "target": 300,
    },
    "dan-brad": {
        "double_nil_behind": 200,
        "double_nil_exchange": 0,
        "minimum_bid": 4,
        "ten_for_two": True,
        "first_lead": "lowest-clubs",
        "double_nil_value": 200,
        "double_nil_penalty": 100,
        "sandbag": True,
        "all_tricks_wins": True,
    },
    "network-spades": {
        "partnership": False,
        "double_nil": "always",
        "double_nil_exchange": 0,
        "all_tricks_bonus": 200,
        "sandbag": True,
        "target": 300,
    },
    "windswept": {
        "partnership": False,
        "double_nil": "always",
        "nil_exchange": 3,
        "double_nil_exchange": 3,
        "zero_bid_is_nil": True,
        "exact_bid_bonus": 20,
    },
    "spaceways": {
        "partnership": False,
        "double_nil": "never",
        "double_nil_exchange": 0,
        "minimum_bid": 2,
        "ten_for_200": "at-least",
    },
    "winspades": {
        "jokers": 2,
        "removed_cards": ["2D", "2H"],
        "nil": False,
        "double_nil": "never",
        "minimum_bid": 4,
        "big_bid_bonus": 100,
        "blind_bid_min": 7,
        "blind_made": "bonus-100",
        "blind_failed": "normal",
        "spades_broken": False,
    },
}

#: Issue 18: the fast paths (`_calls_fast` with its tables of calls and side contracts; in the
#: replay `_tricks_fast`, the usual deal in `_read_deal`, stated tricks equal to the play's, no
#: exchange when nobody bid nil; in scoring `_score_plain` and the plain contracts' table
#: `SpadesRules.plain_notes`) each fall back to the general code on anything unusual. False
#: runs the general code alone: the reference that tests/games/test_spades_fast_paths.py holds
#: the fast paths equal to.
FAST_PATHS = True

CALLS: dict[str, tuple[str, int]] = {str(n): ("num", n) for n in range(18)}
CALLS.update({f"blind-{n}": ("blind", n) for n in range(18)})
CALLS.update(
    {
        "nil": ("nil", 0),
        "double-nil": ("dnil", 0),
        "double-blind-nil": ("dbn", 0),
        "moon": ("moon", 0),
        "blind-moon": ("bmoon", 0),
        "pass": ("pass", 0),
    }
)
NILS = ("nil", "dnil", "dbn")
NUMERIC_SIDES = ["num", "num"]  # `Bidding.kind` of two numeric contracts (`_score_plain`)
NIL_NAMES = {"nil": "nil", "dnil": "double nil", "dbn": "double blind nil"}


class Table:
    """Who sits where for one dealer: hands clockwise, sides, bidding order, first lead."""

    __slots__ = (
        "seats",
        "index",
        "dealer",
        "dummy",
        "players",
        "bid_order",
        "side_of",
        "sides",
        "members",
        "bid_seats",
        "call_sides",
        "side_index",
        "left",
        "consult_order",
        "sizes",
        "four_even",
        "int_types",
        "no_nils",
    )

    def __init__(self, rules: SpadesRules, dealer: str) -> None:
        dummy_seat = ""
        if rules.dummy:  # RESOLUTIONS["dummy-seat"]: at the dealer's left (E of N) or right
            on_left = rules.options["dummy_seat"] == "left"
            dummy_seat = (
                ("E" if dealer == "N" else "W") if on_left else ("W" if dealer == "N" else "E")
            )
            seats = "".join(s for s in "NESW" if s in ("N", "S", dummy_seat))
        else:
            seats = rules.seat_letters
        self.seats = seats
        self.index = {s: i for i, s in enumerate(seats)}
        n = len(seats)
        self.dealer = self.index[dealer]
        self.dummy: int | None = self.index[dummy_seat] if rules.dummy else None
        left = (self.dealer + 1) % n
        order = [(left + i) % n for i in range(n)]
        self.bid_order = tuple(i for i in order if i != self.dummy)
        self.bid_seats = tuple(seats[i] for i in self.bid_order)
        self.players = tuple(i for i in range(n) if i != self.dummy)
        self.sides: tuple[str, ...]
        if rules.partnership:
            self.sides = ("NS", "EW")
            self.side_of = tuple(0 if s in "NS" else 1 for s in seats)
        else:
            self.sides = tuple(seats[i] for i in self.players)
            self.side_of = tuple(
                -1 if i == self.dummy else self.sides.index(s) for i, s in enumerate(seats)
            )
        self.side_index = {name: i for i, name in enumerate(self.sides)}
        self.members = tuple(
            tuple(i for i in self.bid_order if self.side_of[i] == k) for k in range(len(self.sides))
        )
        # Each side's players by their places in the calls (`_calls_fast`).
        self.call_sides = tuple(
            tuple(self.bid_order.index(i) for i in members) for members in self.members
        )
        # The first lead at the dealer's left; the dummy passes it on (RESOLUTIONS["dummy-seat"]).
        self.left = left if left != self.dummy else (left + 1) % n
        dealer_side = self.side_of[self.dealer]
        self.consult_order = tuple(sorted(range(len(self.sides)), key=lambda k: k == dealer_side))
        self.no_nils: list[str | None] = [None] * n  # `Bidding.nil` when nobody bid a nil
        size = rules.hand_size
        self.sizes = tuple(
            size + (rules.options["dealer_discards"] if i == self.dealer else 0) for i in range(n)
        )
        self.four_even = n == 4 and len(set(self.sizes)) == 1  # `_read_deal`'s unrolled read
        self.int_types = [int] * n  # the types of a seat-by-seat count (`check_hand`)


class SpadesRules:
    """A compiled Spades rule set: the options plus everything derived from them."""

    def __init__(self, options: dict[str, Any]) -> None:
        o = self.options = options
        # The options are read from `self.options`; this one is an attribute too. (Compiled
        # with games/accel.py this is a native class: attributes are the ones set here.)
        self.partnership: bool = o["partnership"]
        players = o["players"]
        if o["partnership"] and players != 4:
            raise RecordError("bad-rules", "partnership play needs 4 players")
        self.dummy = players == 2 and o["two_player_deal"] == "dummy"
        self.seat_letters = {4: "NESW", 3: "NES", 2: "NS"}[players]
        self.hand_size = 17 if (players == 3 or self.dummy) else 13
        self.total_tricks = self.hand_size
        hands = 3 if self.dummy else players

        pack = (1 << 52) - 1
        if o["jokers"] >= 1:
            pack |= 1 << BIG_JOKER
        if o["jokers"] == 2:
            pack |= 1 << LITTLE_JOKER
        removed = [CARD_IDS[c] for c in o["removed_cards"]]
        if not removed and o["jokers"] and not o["dealer_discards"] and players == 4:
            # RESOLUTIONS["one-joker"], RESOLUTIONS["two-jokers-removed"]
            removed = [CARD_IDS["2C"]] if o["jokers"] == 1 else [CARD_IDS["2H"], CARD_IDS["2D"]]
        for c in removed:
            if not pack >> c & 1:
                raise RecordError("bad-rules", f"removed card {NAMES[c]} is not in the pack")
            pack &= ~(1 << c)
        self.pack = pack
        self.pack_size = pack.bit_count()
        needed = hands * self.hand_size + o["dealer_discards"]
        if self.pack_size < needed or (players == 4 and self.pack_size != needed):
            raise RecordError(
                "bad-rules",
                f"a pack of {self.pack_size} cards cannot deal {hands} hands of {self.hand_size}"
                + (f" and {o['dealer_discards']} discards" if o["dealer_discards"] else ""),
            )
        self.exact_deal = self.pack_size == needed

        # Effective suits and trump order: high trumps > big joker > little joker >
        # (2S when high) > AS ... 2S.
        suit = list(SUIT_OF)
        highs = [CARD_IDS[c] for c in o["high_trumps"]]
        for c in highs:
            if SUIT_OF[c] == SPADES or not pack >> c & 1:
                raise RecordError(
                    "bad-rules", f"high trump {NAMES[c]} must be an off-suit card in the pack"
                )
            suit[c] = SPADES
        self.suit = tuple(suit)
        masks = [0, 0, 0, 0]
        for c in range(54):
            if pack >> c & 1:
                masks[suit[c]] |= 1 << c
        self.suit_masks = tuple(masks)
        spade_order = [c for c in range(13) if not (o["deuce_of_spades_high"] and c == 0)]
        if o["deuce_of_spades_high"]:
            spade_order.append(0)
        trump_order = spade_order + [LITTLE_JOKER, BIG_JOKER] + highs[::-1]
        self.trump_rank = {c: i for i, c in enumerate(trump_order)}
        keys = []
        for led in range(4):
            row = [0] * 54
            for c in range(54):
                if suit[c] == SPADES:
                    row[c] = 100 + self.trump_rank[c]
                elif suit[c] == led:
                    row[c] = RANK_OF[c]
            keys.append(row)
        self.keys = tuple(keys)
        # Trumps of 9 or higher, for the last-trick bonus.
        nine = self.trump_rank[CARD_IDS["9S"]]
        self.high_trump = frozenset(c for c, r in self.trump_rank.items() if r >= nine)

        if o["sandbag"] and o["overtrick_points"] != 1:
            raise RecordError(
                "bad-rules", "overtricks that cost points leave no sandbagging rule to apply"
            )
        if o["dummy_seat"] != "left" and not self.dummy:
            raise RecordError(
                "bad-rules", "dummy_seat applies only with two_player_deal: dummy (2 players)"
            )
        if o["bidding"] == "consult" and not o["partnership"]:
            raise RecordError("bad-rules", "bidding by consultation needs partnerships")
        self.nil_points = {
            "nil": (o["nil_value"], o["nil_value"]),
            "dnil": (o["double_nil_value"], o["double_nil_penalty"]),
            "dbn": (o["double_blind_nil_value"], o["double_blind_nil_value"]),
        }
        # No bonus option is on: a made bid is 10 a trick plus the overtricks (see _contract).
        self.plain = not (
            o["small_exact_bids"]
            or o["ten_for_two"]
            or o["seven_plus_bonus"]
            or o["ten_for_200"] != "off"
            or o["big_bid_bonus"]
            or o["exact_bid_bonus"]
        )
        self.overtrick_points: int = o["overtrick_points"]
        self.set_by_bid = o["set_penalty"] == "bid"
        self.zero_is_nil = o["nil"] and o["zero_bid_is_nil"]
        self.last_trick = o["last_trick_bonus"] != "off"
        self.bag_limit = o["sandbag_limit"] if o["sandbag"] else 0  # 0: no sandbagging
        self.track_numeric = o["first_lead"] == "highest-bidder"
        self.lead_left = o["first_lead"] == "left-of-dealer"  # `_first_leader`'s first case
        # Decided once per ruleset, not per hand (issue 18); typed here for mypy.
        self.thirteen_is_moon: bool = o["thirteen_is_moon"]
        self.minimum_bid: int = o["minimum_bid"]
        self.all_tricks_bonus: int = o["all_tricks_bonus"]
        self.all_tricks_wins: bool = o["all_tricks_wins"]
        self.sandbag_penalty: int = o["sandbag_penalty"]
        self.consult = o["bidding"] == "consult" and self.partnership
        self.two_rounds = o["bidding_rounds"] == 2
        self.sum_bids = o["bidding"] == "sum"
        self.nil_allowed: bool = o["nil"]
        self.fast_calls = not self.consult and not self.two_rounds  # `_calls_fast`
        # `_calls_fast`'s reading of a call: a numeric bid it takes as it is (up to the tricks
        # of a hand), -1 for a nil (and a 0 bid where a 0 is a nil); other calls are absent.
        self.fast_call: dict[str, int] = {
            text: -1 if kind == "nil" or (n == 0 and self.zero_is_nil) else n
            for text, (kind, n) in CALLS.items()
            if (kind == "num" and n <= self.total_tricks) or (kind == "nil" and self.nil_allowed)
        }
        self.tables = {d: Table(self, d) for d in self.seat_letters}
        # `_calls_fast`'s side contracts, for every pair (or single) of its call values.
        values = sorted(set(self.fast_call.values()))
        self.fast_side: dict[tuple[int, ...], tuple[str, int]] = {}
        for key in [(a, b) for a in values for b in values] + [(a,) for a in values]:
            side = _side_fast(self, key)
            if side is not None:
                self.fast_side[key] = side
        # The replay's fast trick loop (`_tricks_fast`): four hands, no seat playing blind
        # (dummy) and no first-trick rule, and trumps that rank in the order of their card
        # ids, so that a trick's winner is the highest bit of its trumps (else of its led suit).
        trumps = masks[SPADES]
        self.fast_play = (
            players == 4
            and not self.dummy
            and o["first_lead"] != "lowest-clubs"
            and [c for c in trump_order if trumps >> c & 1]
            == [c for c in range(54) if trumps >> c & 1]
        )
        in_pack = [(text, c) for text, c in CARD_IDS.items() if pack >> c & 1]
        # Every spelling of a card in the pack: (its bit, its suit, its key in a trick led in
        # each suit, its id); the keys are `self.keys`'s, read without the led suit's row.
        self.fast_card = {
            text: (1 << c, suit[c], tuple(keys[led][c] for led in range(4)), c)
            for text, c in in_pack
        }
        self.fast_turns = tuple(tuple((lead + j) % 4 for j in range(4)) for lead in range(4))
        self.zero_state = dict.fromkeys(self.tables[self.seat_letters[0]].sides, 0)
        # `_score_plain`: partnerships, plain contracts and nothing else to score.
        self.fast_score = (
            self.plain
            and self.partnership
            and not (
                self.last_trick or self.all_tricks_bonus or self.all_tricks_wins or self.bag_limit
            )
        )
        # A plain numeric contract's outcome for each (side, bid, tricks taken), as `_contract`
        # works it out: (points, bags, note code, note text, the note's bid and points).
        self.plain_notes: dict[tuple[str, int, int], tuple[int, int, str, str, str, str]] = {}
        if self.plain:
            names = {name for table in self.tables.values() for name in table.sides}
            for name in sorted(names):
                for bid in range(self.total_tricks + 1):
                    for taken in range(self.total_tricks + 1):
                        made: list[Any] = []
                        points, bags = _contract(self, "num", bid, taken, name, made)
                        self.plain_notes[name, bid, taken] = (
                            points,
                            bags,
                            made[0].code,
                            str(made[0]),
                            made[0].params["bid"],
                            made[0].params["points"],
                        )


BOOK = RuleBook("spades", OPTIONS, PRESETS, SpadesRules)


class Bidding:
    """The outcome of the calls: each seat's nil, each side's contract."""

    __slots__ = ("nil", "kind", "bid", "numeric")

    def __init__(
        self,
        nil: list[str | None],
        kind: list[str],
        bid: list[int],
        numeric: list[tuple[int, int]],
    ) -> None:
        self.nil = nil  # "nil" / "dnil" / "dbn" per seat, or None
        self.kind = kind  # per side: "num", "blind", "moon", "bmoon", "nils"
        self.bid = bid  # per side
        self.numeric = numeric  # (seat, value) in call order, for leads


def _parse_call(entry: Any, where: int) -> tuple[Any, Any, str, int]:
    """(seat, side, kind, number) of one call, or `bad-format` / `bad-call`."""
    if not isinstance(entry, dict) or "call" not in entry:
        raise RecordError("bad-format", f"call {where + 1} must be {{seat or side, call}}")
    call = entry["call"]
    kind = (
        None if isinstance(call, bool) else CALLS.get(call if isinstance(call, str) else str(call))
    )
    if kind is None and isinstance(call, str):
        kind = CALLS.get(call.strip().lower())
    if kind is None:
        raise RecordError("bad-call", f"{call!r} is not a Spades call")
    return entry.get("seat"), entry.get("side"), *kind


def _check_call(
    rules: SpadesRules,
    table: Table,
    state: dict[str, Any],
    kind: str,
    n: int,
    side: int,
    seat: str | None,
) -> None:
    """Whether the rules allow this call, at this score, for this side."""
    o = rules.options
    if kind == "num":
        if n > rules.total_tricks:
            raise RecordError("bid-not-allowed", f"{n} is more tricks than there are", seat=seat)
        return
    if kind == "nil":
        if not o["nil"]:
            raise RecordError("bid-not-allowed", "nil is not allowed", seat=seat)
        return
    if kind == "moon":
        if not o["moon"]:
            raise RecordError("bid-not-allowed", "moon is not allowed", seat=seat)
        return
    if kind == "pass":
        raise RecordError("bid-not-allowed", "pass is only a second-round call", seat=seat)
    scores = state["score"]
    mine = scores[table.sides[side]]
    behind = max(v for name, v in scores.items() if name != table.sides[side]) - mine
    # RESOLUTIONS["behind"]: measured against the best opposing score.
    if kind == "dnil":
        if o["double_nil"] == "never":
            raise RecordError("bid-not-allowed", "double nil is not allowed", seat=seat)
        if o["double_nil"] == "when-behind" and behind < o["double_nil_behind"]:
            raise RecordError(
                "not-eligible",
                f"double nil needs the side behind by {o['double_nil_behind']}",
                seat=seat,
            )
    elif kind == "dbn":
        if not o["double_blind_nil"]:
            raise RecordError("bid-not-allowed", "double blind nil is not allowed", seat=seat)
        if o["double_blind_nil_behind"] and behind < o["double_blind_nil_behind"]:
            raise RecordError(
                "not-eligible",
                f"double blind nil needs the side behind by {o['double_blind_nil_behind']}",
                seat=seat,
            )
    else:  # blind or bmoon
        if kind == "bmoon" and not o["blind_moon"]:
            raise RecordError("bid-not-allowed", "blind moon is not allowed", seat=seat)
        if kind == "blind":
            if not o["blind_bid_min"]:
                raise RecordError("bid-not-allowed", "blind bids are not allowed", seat=seat)
            if n < o["blind_bid_min"]:
                raise RecordError(
                    "bid-too-low",
                    f"the lowest blind bid is {o['blind_bid_min']}",
                    seat=seat,
                    rule="blind-minimum",
                    minimum=o["blind_bid_min"],
                )
            if n > rules.total_tricks:
                raise RecordError(
                    "bid-not-allowed", f"blind-{n} is more tricks than there are", seat=seat
                )
        if o["blind_bid_behind"] and behind < o["blind_bid_behind"]:
            raise RecordError(
                "not-eligible",
                f"blind bids need the side behind by {o['blind_bid_behind']}",
                seat=seat,
            )


def _seat_call(calls: list[Any], pos: int, seat: str) -> tuple[str, int]:
    """The call at `pos`, which must be `seat`'s."""
    if pos >= len(calls):
        raise RecordError("call-out-of-turn", f"the calls stop before {seat}'s call", seat=seat)
    entry = calls[pos]
    if type(entry) is dict and entry.get("seat") == seat and len(entry) == 2:
        call = entry.get("call")  # the fast path: {"seat": ..., "call": "4"}
        known = CALLS.get(call) if type(call) is str else None
        if known is not None:
            return known
    who, side, kind, n = _parse_call(entry, pos)
    if who != seat or side is not None:
        raise RecordError(
            "call-out-of-turn",
            f"it is {seat}'s turn to call, not {who if who is not None else side!r}",
            seat=seat,
        )
    return kind, n


def _side_fast(rules: SpadesRules, values: tuple[int, ...]) -> tuple[str, int] | None:
    """A side's (kind, bid) from its players' calls in bidding order as `_calls_fast` reads
    them (a bid, or -1 for a nil), or None where the rules refuse it: the side part of
    `_read_calls` and `_side_bids` for numeric and nil calls, worked out once per ruleset
    (`SpadesRules.fast_side`)."""
    bids = [n for n in values if n >= 0]
    total = rules.total_tricks
    if not bids:  # RESOLUTIONS["side-tricks"]
        return "nils", 0
    if len(bids) == 1:
        side_bid = bids[0]
    elif rules.sum_bids:
        side_bid = bids[0] + bids[1]
        if side_bid > total:
            return None
    else:  # last-bidder: the second partner's bid, not below the first's
        side_bid = bids[1]
        if side_bid < bids[0]:
            return None
    if rules.thirteen_is_moon and side_bid == total:
        return "moon", side_bid
    if side_bid < rules.minimum_bid:
        return None
    return "num", side_bid


def _calls_fast(calls: Any, rules: SpadesRules, table: Table) -> Bidding | None:
    """`_read_calls` for the usual bidding, one numeric or nil call a player in turn, in one
    round and not by consultation; None for anything else (a double or blind nil, a blind or
    moon call, a call out of turn, a side's bid the rules refuse), which `_read_calls` then
    reads and judges. Each call is looked up in `rules.fast_call`, each side's contract in
    `rules.fast_side`."""
    order = table.bid_order
    if type(calls) is not list or len(calls) != len(order):
        return None
    fast_call = rules.fast_call
    values: tuple[int, ...]  # each call's value in call order: a bid, or -1 for a nil
    try:
        if len(order) == 4:  # unrolled: a quarter of the loop's cost
            e0, e1, e2, e3 = calls
            s0, s1, s2, s3 = table.bid_seats
            if (
                type(e0) is not dict
                or type(e1) is not dict
                or type(e2) is not dict
                or type(e3) is not dict
                or len(e0) != 2
                or len(e1) != 2
                or len(e2) != 2
                or len(e3) != 2
                or e0["seat"] != s0
                or e1["seat"] != s1
                or e2["seat"] != s2
                or e3["seat"] != s3
            ):
                return None
            values = (
                fast_call[e0["call"]],
                fast_call[e1["call"]],
                fast_call[e2["call"]],
                fast_call[e3["call"]],
            )
        else:
            for entry, seat in zip(calls, table.bid_seats, strict=False):  # (as long)
                if type(entry) is not dict or len(entry) != 2 or entry["seat"] != seat:
                    return None
            values = tuple([fast_call[entry["call"]] for entry in calls])
    except (KeyError, TypeError):  # a call the fast path does not take, or not a string
        return None
    side = rules.fast_side
    if rules.partnership:
        (p, q), (r, t) = table.call_sides
        first, second = side.get((values[p], values[q])), side.get((values[r], values[t]))
        if first is None or second is None:
            return None
        kinds, bids = [first[0], second[0]], [first[1], second[1]]
    else:
        kinds, bids = [], []
        for (p,) in table.call_sides:
            got = side.get((values[p],))
            if got is None:
                return None
            kinds.append(got[0])
            bids.append(got[1])
    nil: list[str | None] = [None] * len(table.seats)
    if -1 in values:
        for i, n in zip(order, values, strict=True):
            if n < 0:
                nil[i] = "nil"
    return Bidding(
        nil,
        kinds,
        bids,
        [(i, n) for i, n in zip(order, values, strict=True) if n >= 0]
        if rules.track_numeric
        else [],
    )


def _read_calls(
    record: dict[str, Any], rules: SpadesRules, table: Table, state: dict[str, Any]
) -> Bidding:
    """The calls read and judged by the general code (`Spades.check_hand` tries `_calls_fast`
    first)."""
    calls = record.get("calls")
    if type(calls) is not list:
        raise RecordError("bad-format", "a Spades hand needs its `calls` (the bidding)")
    o = rules.options
    nsides = len(table.sides)
    seats = table.seats
    total = rules.total_tricks
    out = Bidding([None] * len(seats), ["num"] * nsides, [0] * nsides, [])
    made = [False] * nsides  # a side whose bid is already set (blind, consult)
    seat_bid: list[tuple[str, int] | None] = [None] * len(seats)
    pos = 0
    # Blind side calls come first (RESOLUTIONS["blind-first"]).
    if rules.partnership and calls and type(calls[0]) is dict and "side" in calls[0]:
        while pos < len(calls):
            seat, side, kind, n = _parse_call(calls[pos], pos)
            if side is None or kind not in ("blind", "bmoon"):
                break
            k = table.side_index.get(side)
            if k is None:
                raise RecordError("bad-seat", f"{side!r} is not a side ({', '.join(table.sides)})")
            if made[k]:
                raise RecordError("call-out-of-turn", f"{side} has already bid blind")
            _check_call(rules, table, state, kind, n, k, None)
            out.kind[k], out.bid[k] = (kind, n) if kind == "blind" else ("bmoon", total)
            made[k] = True
            out.numeric.append((table.members[k][0], out.bid[k]))
            pos += 1

    if rules.consult:
        for k in table.consult_order:
            if made[k]:
                continue
            members = table.members[k]
            while pos < len(calls) and isinstance(calls[pos], dict) and "seat" in calls[pos]:
                seat, side, kind, n = _parse_call(calls[pos], pos)
                i = table.index.get(seat, -1)
                if i not in members or out.nil[i] is not None or kind not in NILS:
                    raise RecordError(
                        "call-out-of-turn",
                        f"before {table.sides[k]}'s side call only its players' nil calls "
                        f"may come, not {seat!r}: {calls[pos]['call']!r}",
                        seat=seat if isinstance(seat, str) else None,
                    )
                _check_call(rules, table, state, kind, n, k, seat)
                out.nil[i] = kind
                pos += 1
            both_nil = all(out.nil[i] for i in members)
            if pos < len(calls) and isinstance(calls[pos], dict) and "side" in calls[pos]:
                seat, side, kind, n = _parse_call(calls[pos], pos)
                if side != table.sides[k]:
                    raise RecordError(
                        "call-out-of-turn", f"it is {table.sides[k]}'s turn to call, not {side!r}"
                    )
                if kind not in ("num", "moon"):
                    raise RecordError(
                        "bid-not-allowed", "a side call by consultation is a number or moon"
                    )
                _check_call(rules, table, state, kind, n, k, None)
                out.kind[k], out.bid[k] = (kind, n) if kind == "num" else ("moon", total)
                if both_nil and not (kind == "num" and n == 0):
                    raise RecordError("bid-not-allowed", f"{side}'s players both bid nil")
                out.numeric.append(
                    (
                        next(i for i in members if not out.nil[i]) if not both_nil else members[0],
                        out.bid[k],
                    )
                )
                pos += 1
            elif not both_nil:
                raise RecordError("call-out-of-turn", f"{table.sides[k]}'s side call is missing")
            if both_nil and out.kind[k] == "num":
                out.kind[k] = "nils"
        rounds_order: tuple[int, ...] = ()
    else:
        rounds_order = (
            tuple(i for i in table.bid_order if not made[table.side_of[i]])
            if pos
            else table.bid_order
        )
        zero_is_nil = rules.zero_is_nil
        track = rules.track_numeric
        ncalls = len(calls)
        nil = out.nil
        for i in rounds_order:
            entry = calls[pos] if pos < ncalls else None
            kind_n = (
                CALLS.get(call)
                if type(entry) is dict
                and len(entry) == 2
                and entry.get("seat") == seats[i]
                and type(call := entry.get("call")) is str
                else None
            )
            kind, n = kind_n if kind_n is not None else _seat_call(calls, pos, seats[i])
            pos += 1
            if kind == "num":
                if n > total:
                    _check_call(rules, table, state, kind, n, table.side_of[i], seats[i])
                if n == 0 and zero_is_nil:
                    nil[i] = "nil"
                    continue
                seat_bid[i] = kind_n
                if track:
                    out.numeric.append((i, n))
                continue
            _check_call(rules, table, state, kind, n, table.side_of[i], seats[i])
            if kind in NILS:
                nil[i] = kind
            elif kind in ("blind", "bmoon"):
                if rules.partnership:
                    raise RecordError(
                        "call-out-of-turn",
                        "a side bids blind with one side call before every other call",
                        seat=seats[i],
                    )
                seat_bid[i] = (kind, n if kind == "blind" else total)
            else:  # moon
                seat_bid[i] = (kind, total)
                if track:
                    out.numeric.append((i, total))
        _side_bids(rules, table, out, seat_bid, made)

    if rules.two_rounds:
        if rules.consult:
            for k in table.consult_order:
                if made[k]:
                    continue
                if pos >= len(calls):
                    raise RecordError(
                        "call-out-of-turn", f"{table.sides[k]}'s second call is missing"
                    )
                seat, side, kind, n = _parse_call(calls[pos], pos)
                if side != table.sides[k]:
                    raise RecordError(
                        "call-out-of-turn", f"it is {table.sides[k]}'s turn to call, not {side!r}"
                    )
                pos += 1
                _raise_bid(out, k, kind, n, total, None)
        else:
            for i in rounds_order:
                kind, n = _seat_call(calls, pos, seats[i])
                pos += 1
                k = table.side_of[i]
                if kind != "pass" and (out.nil[i] or out.kind[k] in ("blind", "bmoon")):
                    raise RecordError(
                        "bid-not-allowed",
                        "nil bidders and blind sides only pass in the second round",
                        seat=seats[i],
                    )
                _raise_bid(out, k, kind, n, total, seats[i])
                if kind == "num":
                    out.numeric.append((i, n))

    if pos != len(calls):
        raise RecordError("call-out-of-turn", f"unexpected call after the bidding: {calls[pos]!r}")

    thirteen_is_moon, minimum = rules.thirteen_is_moon, rules.minimum_bid
    for k, kind in enumerate(out.kind):
        if kind == "num":
            if thirteen_is_moon and out.bid[k] == total:
                out.kind[k] = "moon"
            elif out.bid[k] < minimum:
                # RESOLUTIONS["both-nil-minimum"]: "nils" sides are not "num".
                raise RecordError(
                    "bid-too-low",
                    f"{table.sides[k]} bid {out.bid[k]}, below the minimum of {o['minimum_bid']}",
                    seat=table.sides[k],
                    rule="side-minimum",
                    minimum=minimum,
                )
    return out


def _raise_bid(out: Bidding, k: int, kind: str, n: int, total: int, seat: str | None) -> None:
    """A second-round call: pass, or a higher bid for the side (RESOLUTIONS["second-round"])."""
    if kind == "pass":
        return
    if kind != "num":
        raise RecordError("bid-not-allowed", "the second round takes a number or pass", seat=seat)
    if out.kind[k] not in ("num", "nils") or n <= out.bid[k]:
        raise RecordError(
            "bid-too-low",
            f"a second-round bid must raise the side's {out.bid[k]}",
            seat=seat,
            rule="raise-side",
            minimum=out.bid[k] + 1,
        )
    if n > total:
        raise RecordError("bid-not-allowed", f"{n} is more tricks than there are", seat=seat)
    out.kind[k], out.bid[k] = "num", n


def _side_bids(
    rules: SpadesRules,
    table: Table,
    out: Bidding,
    seat_bid: list[tuple[str, int] | None],
    made: list[bool],
) -> None:
    """Each side's contract from its players' calls (last-bidder, sum, or individual)."""
    sum_mode = rules.options["bidding"] == "sum"
    total = rules.total_tricks
    for k, members in enumerate(table.members):
        if made[k]:
            continue
        first = second = None
        for i in members:
            if seat_bid[i] is not None:
                if first is None:
                    first = seat_bid[i]
                else:
                    second, i2 = seat_bid[i], i
        if first is None:
            out.kind[k], out.bid[k] = "nils", 0  # RESOLUTIONS["side-tricks"]
            continue
        if second is None:
            out.kind[k], out.bid[k] = first if first[0] != "bmoon" else ("bmoon", total)
            continue
        if first[0] == "moon" or second[0] == "moon":
            out.kind[k], out.bid[k] = "moon", total
        elif sum_mode:
            out.bid[k] = first[1] + second[1]
            if out.bid[k] > total:
                raise RecordError(
                    "bid-not-allowed", f"{table.sides[k]} bid more tricks than there are"
                )
        else:  # last-bidder: the second partner's bid is the side's, and not below the first's
            if second[1] < first[1]:
                raise RecordError(
                    "bid-too-low",
                    f"{table.seats[i2]} bid {second[1]}, below the partner's {first[1]}",
                    seat=table.seats[i2],
                    rule="partner-bid",
                    minimum=first[1],
                )
            out.bid[k] = second[1]


def _read_deal(record: dict[str, Any], rules: SpadesRules, table: Table) -> list[int]:
    """Each hand's bitmask, or `bad-deal` naming the seat and card."""
    deal = record["deal"]
    seats = table.seats
    if type(deal) is not dict or len(deal) != len(seats):
        raise RecordError("bad-deal", f"the deal must give the hands of {', '.join(seats)}")
    if rules.exact_deal and FAST_PATHS:
        # The usual deal, read with fewer checks: lists of cards, each hand its size in
        # distinct cards, and the hands adding up to the pack with no carry (so disjoint).
        bit = CARD_BITS.__getitem__
        masks = []
        try:
            if table.four_even:  # unrolled for four hands of one size
                size = table.sizes[0]
                a, b, c, d = deal[seats[0]], deal[seats[1]], deal[seats[2]], deal[seats[3]]
                if (
                    type(a) is list
                    and type(b) is list
                    and type(c) is list
                    and type(d) is list
                    and len(a) == size
                    and len(b) == size
                    and len(c) == size
                    and len(d) == size
                ):
                    ma, mb, mc, md = (
                        sum(map(bit, a)),
                        sum(map(bit, b)),
                        sum(map(bit, c)),
                        sum(map(bit, d)),
                    )
                    if (
                        ma.bit_count() == size
                        and mb.bit_count() == size
                        and mc.bit_count() == size
                        and md.bit_count() == size
                        and ma + mb + mc + md == rules.pack
                    ):
                        return [ma, mb, mc, md]
                raise KeyError  # read_hands says what is wrong
            for seat, size in zip(seats, table.sizes, strict=True):
                cards = deal[seat]
                m = sum(map(bit, cards))
                if type(cards) is not list or len(cards) != size or m.bit_count() != size:
                    break
                masks.append(m)
            else:
                if sum(masks) == rules.pack:
                    return masks
        except (KeyError, TypeError):
            pass  # read_hands says what is wrong
    masks = read_hands(deal, seats, table.sizes, rules.pack)
    if rules.exact_deal and sum(masks) != rules.pack:
        raise RecordError("bad-deal", "the deal does not use the whole pack")
    return masks


def _exchange(
    record: dict[str, Any], rules: SpadesRules, table: Table, bids: Bidding, hands: list[int]
) -> None:
    """Apply the partners' card exchange the nils call for, or `bad-exchange`."""
    o = rules.options
    due: dict[tuple[int, int], int] = {}
    if rules.partnership:
        for members in table.members:
            nils = [bids.nil[i] for i in members if bids.nil[i]]
            if not nils or "dbn" in nils:
                continue
            if len(nils) == 2 and not o["exchange_when_both_nil"]:
                continue
            count = o["double_nil_exchange"] if "dnil" in nils else o["nil_exchange"]
            if count:
                a, b = members
                due[(a, b)] = due[(b, a)] = count
    given = record.get("exchange", [])
    if not isinstance(given, list):
        raise RecordError("bad-exchange", "`exchange` must be a list")
    seen = {}
    for entry in given:
        if not isinstance(entry, dict):
            raise RecordError("bad-exchange", "each exchange is {from, to, cards}")
        giver, taker = entry.get("from"), entry.get("to")
        a = table.index.get(giver, -1) if isinstance(giver, str) else -1
        b = table.index.get(taker, -1) if isinstance(taker, str) else -1
        if (a, b) not in due or (a, b) in seen:
            raise RecordError(
                "bad-exchange",
                f"no exchange from {entry.get('from')!r} to {entry.get('to')!r} is due",
                seat=entry.get("from") if isinstance(entry.get("from"), str) else None,
            )
        cards = parse_cards(entry.get("cards"), seat=table.seats[a])
        m = 0
        for c in cards:
            m |= 1 << c
        if len(cards) != due[(a, b)] or m.bit_count() != len(cards):
            raise RecordError(
                "bad-exchange",
                f"{table.seats[a]} must pass {due[(a, b)]} different cards",
                seat=table.seats[a],
            )
        for c in cards:
            if not hands[a] >> c & 1:
                raise RecordError(
                    "bad-exchange",
                    f"{table.seats[a]} passes {NAMES[c]} without holding it",
                    seat=table.seats[a],
                    card=NAMES[c],
                )
        seen[(a, b)] = m
    if len(seen) != len(due):
        missing = next(p for p in due if p not in seen)
        raise RecordError(
            "bad-exchange",
            f"{table.seats[missing[0]]} must pass {due[missing]} cards to "
            f"{table.seats[missing[1]]}",
            seat=table.seats[missing[0]],
        )
    for (giver, _), m in seen.items():  # simultaneous: each passes from the hand as dealt
        hands[giver] ^= m
    for (_, taker), m in seen.items():
        hands[taker] |= m


def _first_leader(rules: SpadesRules, table: Table, bids: Bidding, hands: list[int]) -> int:
    lead = rules.options["first_lead"]
    if lead == "left-of-dealer":
        return table.left
    if lead == "highest-bidder":  # RESOLUTIONS["highest-bidder"]
        best, leader = -1, table.left
        for seat, value in bids.numeric:
            if value > best:
                best, leader = value, seat
        return leader if leader != table.dummy else (leader + 1) % len(table.seats)
    clubs = 0
    for h in hands:
        clubs |= h & SUIT_MASKS[CLUBS] & rules.suit_masks[CLUBS]
    lowest = (clubs & -clubs).bit_length() - 1  # RESOLUTIONS["lowest-club-leader"]
    for i, h in enumerate(hands):
        if h >> lowest & 1:
            return i if i != table.dummy else (i + 1) % len(table.seats)
    return table.left  # no clubs at all in play (not possible with a legal pack)


def _replay(
    record: dict[str, Any], rules: SpadesRules, table: Table, bids: Bidding
) -> tuple[list[int], list[tuple[int, int]], bool]:
    """Replay a full record: tricks per seat, each trick's (winner, winning card), claimed?"""
    hands = _read_deal(record, rules, table)
    n = len(hands)
    o = rules.options
    seats = table.seats
    if o["dealer_discards"]:  # RESOLUTIONS["dealer-discard"]
        d = table.dealer
        discard = parse_cards(record.get("discard", []), seat=seats[d])
        dm = 0
        for c in discard:
            dm |= 1 << c
        if len(discard) != o["dealer_discards"] or dm.bit_count() != len(discard) or dm & ~hands[d]:
            raise RecordError(
                "bad-deal",
                f"the dealer must discard {o['dealer_discards']} of the cards dealt to them",
                seat=seats[d],
            )
        hands[d] ^= dm
    elif "discard" in record:
        raise RecordError("bad-format", "`discard` is only for the dealer_discards option")
    if "exchange" in record or (
        rules.partnership and (bids.nil != table.no_nils or not FAST_PATHS)
    ):
        _exchange(record, rules, table, bids, hands)  # (no nil, no exchange: nothing is due)

    # Seats that play their top card, in dealt order: the dummy and double blind nil bidders.
    top: dict[int, list[int]] = {}
    if table.dummy is not None:
        top[table.dummy] = []
    if "dbn" in bids.nil:
        for i, kind in enumerate(bids.nil):
            if kind == "dbn":
                top[i] = []
    for i in top:
        top[i] = [c for c in parse_cards(record["deal"][seats[i]]) if hands[i] >> c & 1][::-1]

    play = record.get("play")
    if type(play) is not list:
        raise RecordError("bad-format", "a full record needs `play`, the tricks in order")
    total = rules.total_tricks
    if len(play) > total:
        raise RecordError(
            "too-many-tricks", f"{len(play)} tricks played, the hand has {total}", trick=total + 1
        )
    suit, keys, masks = rules.suit, rules.keys, rules.suit_masks
    broken = not o["spades_broken"]
    if rules.fast_play and not top and FAST_PATHS:
        first = table.left if rules.lead_left else _first_leader(rules, table, bids, hands)
        fast = _tricks_fast(play, hands.copy(), first, broken, rules)
        if fast is not None:  # else a trick the fast loop does not take: replay as below
            if len(play) == total and "claim" not in record:  # what _close returns then
                return fast[0], fast[1], False
            return _close(record, rules, table, play, *fast)
    non_spade = ~masks[SPADES]
    ids = CARD_IDS
    nxt = tuple((i + 1) % n for i in range(n))
    won = [0] * n
    winners: list[tuple[int, int]] = []
    leader = _first_leader(rules, table, bids, hands)
    dummy = table.dummy
    slow_first = o["first_lead"] == "lowest-clubs"
    for t, raw in enumerate(play):
        try:
            cs = [ids[x] for x in raw] if type(raw) is list else parse_cards(raw, trick=t + 1)
        except (KeyError, TypeError):
            cs = parse_cards(raw, trick=t + 1)
        if len(cs) != n:
            raise RecordError(
                "bad-trick", f"trick {t + 1} has {len(cs)} cards, not {n}", trick=t + 1
            )
        if top or (slow_first and t == 0):
            bw, bc, best = _trick_slowly(t, cs, leader, hands, top, broken, rules, table)
        else:
            s = leader
            c = cs[0]
            h = hands[s]
            bit = 1 << c
            if not h & bit:
                _not_held(t, s, c, table)
            ls = suit[c]
            if ls == SPADES and not broken and h & non_spade:
                raise RecordError(
                    "spades-not-broken",
                    f"{seats[s]} leads {NAMES[c]} before spades are broken",
                    trick=t + 1,
                    seat=seats[s],
                    card=NAMES[c],
                )
            hands[s] = h ^ bit
            key = keys[ls]
            lmask = masks[ls]
            best, bw, bc = key[c], s, c
            for c in cs[1:]:
                s = nxt[s]
                h = hands[s]
                bit = 1 << c
                if not h & bit:
                    _not_held(t, s, c, table)
                if suit[c] != ls and h & lmask:
                    raise RecordError(
                        "must-follow-suit",
                        f"{seats[s]} plays {NAMES[c]} holding {'SHDC'[ls]}",
                        trick=t + 1,
                        seat=seats[s],
                        card=NAMES[c],
                    )
                hands[s] = h ^ bit
                if key[c] > best:
                    best, bw, bc = key[c], s, c
        if best >= 100:  # a trump won the trick, so a spade was played: spades are broken
            broken = True
        won[bw] += 1
        winners.append((bw, bc))
        leader = bw if bw != dummy else nxt[bw]  # RESOLUTIONS["dummy-seat"]
    return _close(record, rules, table, play, won, winners, leader)


def _tricks_fast(
    play: list[Any], hands: list[int], leader: int, broken: bool, rules: SpadesRules
) -> tuple[list[int], list[tuple[int, int]], int] | None:
    """The tricks of `play` as `_replay`'s loop plays them, for `rules.fast_play` tables:
    (tricks per seat, each trick's (winner, winning card), the next leader), or None as soon
    as a trick is anything but four held, legal cards (`_replay` then replays the hand card
    by card and finds the error). A card's spelling gives at once its bit, its suit and its
    key in a trick led in each suit (`rules.fast_card`): a card is held when taking its bit
    out of the hand makes the hand smaller, follows when its suit is the led one or the hand
    has none of it, and wins when its key for the led suit is the highest (trumps' keys are
    over 100). Suits and keys are small ints, so only holding costs a bitwise operation on
    the hand. `hands` is changed."""
    cards, turns, masks = rules.fast_card, rules.fast_turns, rules.suit_masks
    others = rules.pack & ~masks[SPADES]
    won = [0, 0, 0, 0]
    winners: list[tuple[int, int]] = []
    append = winners.append
    for raw in play:
        if type(raw) is not list:
            return None
        try:
            x0, x1, x2, x3 = raw
            b0, ls, k0, c0 = cards[x0]
            b1, q1, k1, c1 = cards[x1]
            b2, q2, k2, c2 = cards[x2]
            b3, q3, k3, c3 = cards[x3]
        except (ValueError, KeyError, TypeError):  # not four cards' names
            return None
        s0, s1, s2, s3 = turns[leader]
        h = hands[s0]
        g = h ^ b0
        if g > h or (ls == SPADES and not broken and h & others):
            return None
        hands[s0] = g
        best, leader, c = k0[ls], s0, c0
        h = hands[s1]
        g = h ^ b1
        if g > h or (q1 != ls and h & masks[ls]):
            return None
        hands[s1] = g
        k = k1[ls]
        if k > best:
            best, leader, c = k, s1, c1
        h = hands[s2]
        g = h ^ b2
        if g > h or (q2 != ls and h & masks[ls]):
            return None
        hands[s2] = g
        k = k2[ls]
        if k > best:
            best, leader, c = k, s2, c2
        h = hands[s3]
        g = h ^ b3
        if g > h or (q3 != ls and h & masks[ls]):
            return None
        hands[s3] = g
        k = k3[ls]
        if k > best:
            best, leader, c = k, s3, c3
        if best >= 100:  # a trump wins, so a spade was played: spades are broken
            broken = True
        won[leader] += 1
        append((leader, c))
    return won, winners, leader


def _close(
    record: dict[str, Any],
    rules: SpadesRules,
    table: Table,
    play: list[Any],
    won: list[int],
    winners: list[tuple[int, int]],
    leader: int,
) -> tuple[list[int], list[tuple[int, int]], bool]:
    """After the tricks played: the claim, or `play-incomplete` when tricks are missing."""
    total = rules.total_tricks
    claimed = False
    remaining = total - len(play)
    claim = record.get("claim")
    if claim is not None:
        _claim(record, claim, remaining, won, table, rules)
        claimed = True
    elif remaining:
        raise RecordError(
            "play-incomplete",
            f"the play stops after {len(play)} of {total} tricks",
            trick=len(play) + 1,
            trick_winners=[table.seats[s] for s, _card in winners],
            next_leader=table.seats[leader],
        )
    return won, winners, claimed


def _not_held(t: int, s: int, c: int, table: Table) -> None:
    seat = table.seats[s]
    raise RecordError(
        "card-not-held",
        f"{seat} does not hold {NAMES[c]}",
        trick=t + 1,
        seat=seat,
        card=NAMES[c],
    )


def _trick_slowly(
    t: int,
    cs: list[int],
    leader: int,
    hands: list[int],
    top: dict[int, list[int]],
    broken: bool,
    rules: SpadesRules,
    table: Table,
) -> tuple[int, int, int]:
    """A trick with a seat playing blind or under the lowest-clubs first-trick rule:
    (winner, winning card, its key)."""
    seats, suit, n = table.seats, rules.suit, len(cs)
    lowest_clubs = t == 0 and rules.options["first_lead"] == "lowest-clubs"
    s = leader
    ls = suit[cs[0]]
    best, bw, bc = -1, s, cs[0]
    for j, c in enumerate(cs):
        h = hands[s]
        if not h >> c & 1:
            _not_held(t, s, c, table)
        if s in top:
            expected = top[s].pop()
            if c != expected:
                raise RecordError(
                    "must-play-top-card",
                    f"{seats[s]} plays blind and must play its top card {NAMES[expected]}",
                    trick=t + 1,
                    seat=seats[s],
                    card=NAMES[c],
                )
        elif lowest_clubs:
            _check_first_trick(c, h, rules, seats[s])
        elif j == 0:
            if suit[c] == SPADES and not broken and h & ~rules.suit_masks[SPADES]:
                raise RecordError(
                    "spades-not-broken",
                    f"{seats[s]} leads {NAMES[c]} before spades are broken",
                    trick=t + 1,
                    seat=seats[s],
                    card=NAMES[c],
                )
        elif suit[c] != ls and h & rules.suit_masks[ls]:
            raise RecordError(
                "must-follow-suit",
                f"{seats[s]} plays {NAMES[c]} holding {'SHDC'[ls]}",
                trick=t + 1,
                seat=seats[s],
                card=NAMES[c],
            )
        hands[s] = h ^ (1 << c)
        key = rules.keys[ls][c]
        if key > best:
            best, bw, bc = key, s, c
        s = s + 1 if s + 1 < n else 0
    return bw, bc, best


def _check_first_trick(c: int, h: int, rules: SpadesRules, seat: str) -> None:
    """`lowest-clubs`: every player plays their lowest club; without one, a heart or diamond."""
    clubs = h & rules.suit_masks[CLUBS]
    if clubs:
        lowest = (clubs & -clubs).bit_length() - 1
        if c != lowest:
            raise RecordError(
                "must-play-lowest-club",
                f"{seat} must play their lowest club {NAMES[lowest]}",
                trick=1,
                seat=seat,
                card=NAMES[c],
            )
    elif rules.suit[c] == SPADES and h & ~rules.suit_masks[SPADES]:
        raise RecordError(
            "spade-on-first-trick",
            f"{seat} may not play {NAMES[c]} to the first trick",
            trick=1,
            seat=seat,
            card=NAMES[c],
        )


def _claim(
    record: dict[str, Any],
    claim: Any,
    remaining: int,
    won: list[int],
    table: Table,
    rules: SpadesRules,
) -> None:
    """Close the record with a claim (RESOLUTIONS["claim"]); updates `won` in place."""
    seat, k = read_claim(claim, "".join(table.seats[j] for j in table.players), remaining)
    i = table.index[seat]
    rest = remaining - k
    others = [j for j in table.players if table.side_of[j] != table.side_of[i]]
    stated = record.get("tricks")
    if stated is None:
        if rest and len(others) > 1:
            raise RecordError(
                "claim-ambiguous",
                f"{rest} conceded tricks must be split between "
                f"{', '.join(table.seats[j] for j in others)}: give `tricks`",
                seat=table.seats[i],
            )
        won[i] += k
        if rest:
            won[others[0]] += rest
        return
    counts = read_counts(stated, table.seats, "tricks")
    extra = [counts[s] - won[j] for j, s in enumerate(table.seats)]
    side = table.side_of[i]
    mine = sum(e for j, e in enumerate(extra) if table.side_of[j] == side)
    if min(extra) < 0 or mine != k or sum(extra) != remaining:
        raise RecordError(
            "tricks-mismatch",
            "the stated tricks do not agree with the play and the claim",
            seat=table.seats[i],
        )
    won[:] = [counts[s] for s in table.seats]


def _last_trick_bonus(
    side: int, winners: list[tuple[int, int]], table: Table, rules: SpadesRules
) -> int:
    """The last-trick bonus of `side` (RESOLUTIONS["last-trick-sequence"])."""
    closing = closing_high_trumps(side, winners, table, rules)
    if rules.options["last_trick_bonus"] == "last":
        return 10 if closing else 0
    return 10 * sequence_length([rules.trump_rank[c] for c in closing])


def closing_high_trumps(
    side: int, winners: list[tuple[int, int]], table: Table, rules: SpadesRules
) -> list[int]:
    """The trumps of 9 or higher with which `side` won the closing tricks, the last first."""
    closing: list[int] = []
    for seat, card in reversed(winners):
        if table.side_of[seat] != side or card not in rules.high_trump:
            break
        closing.append(card)
    return closing


def sequence_length(ranks: list[int]) -> int:
    """The largest k >= 2 such that the first k trump ranks (the last k tricks, the last trick
    first), taken as a set, are consecutive; 0 when there is none. The order the ranks come in
    does not matter, only which they are (RESOLUTIONS["last-trick-sequence"]): Q, A, K won
    in that order (ranks K, A, Q, the last first) is 3."""
    best = 0
    low = high = ranks[0] if ranks else 0
    for k, rank in enumerate(ranks[1:], start=2):
        low, high = min(low, rank), max(high, rank)
        if high - low == k - 1:  # k distinct cards (each trick its own) spanning k ranks
            best = k
    return best


def _score(
    rules: SpadesRules,
    table: Table,
    bids: Bidding,
    won: list[int],
    state: dict[str, Any],
    winners: list[tuple[int, int]] | None,
    claimed: bool,
    result: dict[str, Any],
) -> None:
    """Writes `score`, `after` and `notes` into `result` (no dict built and merged per hand)."""
    o = rules.options
    seats = table.seats
    sides = table.sides
    total = rules.total_tricks
    score_before, bags_before = state["score"], state["bags"]
    score: dict[str, int] = {}
    after_score: dict[str, int] = {}
    after_bags: dict[str, int] = {}
    notes: list[str] = []
    won_game = None
    nils = bids.nil != table.no_nils  # anybody bid a nil
    plain_notes = rules.plain_notes if FAST_PATHS else {}
    for k, name in enumerate(sides):
        members = table.members[k]
        points = 0
        for i in members if nils else ():
            kind = bids.nil[i]
            if kind:
                ok = won[i] == 0
                value = rules.nil_points[kind]
                delta = value[0] if ok else -value[1]
                points += delta
                verb = "made" if ok else f"took {won[i]}: failed"
                notes.append(
                    note(
                        "spades-nil-made" if ok else "spades-nil-failed",
                        f"{seats[i]} {verb} {NIL_NAMES[kind]} ({signed(delta)})",
                        {"seat": seats[i], "nil": kind, "taken": won[i], "points": signed(delta)},
                    )
                )
        taken = won[members[0]] + won[members[1]] if len(members) == 2 else won[members[0]]
        # RESOLUTIONS["side-tricks"]: all the side's tricks count for its bid.
        kind, bid = bids.kind[k], bids.bid[k]
        bags = 0
        if kind in ("moon", "bmoon"):
            moon_points = o["moon_value"] * (2 if kind == "bmoon" else 1)
            delta = moon_points if taken == total else -moon_points
            label = "blind moon" if kind == "bmoon" else "moon"
            notes.append(
                note(
                    "spades-bid-made" if taken == total else "spades-bid-set",
                    f"{name} bid {label}, took {taken} ({signed(delta)})",
                    {
                        "side": name,
                        "bid": "blind-moon" if kind == "bmoon" else "moon",
                        "taken": taken,
                        "points": signed(delta),
                    },
                )
            )
            points += delta
            if taken == total and o["moon_wins_game"]:
                won_game = name
        else:
            hit = plain_notes.get((name, bid, taken)) if kind == "num" else None
            if hit is None:
                delta, bags = _contract(rules, kind, bid, taken, name, notes)
            else:  # rules.plain: the note's text and figures worked out with the rules
                delta, bags, code, text, bid_text, points_text = hit
                notes.append(
                    note(
                        code,
                        text,
                        {"side": name, "bid": bid_text, "taken": taken, "points": points_text},
                    )
                )
            points += delta
            if (
                rules.last_trick
                and taken == bid
                and kind != "nils"  # RESOLUTIONS["exact-bonuses-numeric"]
            ):
                if winners is None:
                    raise RecordError(
                        "full-record-required",
                        "the last-trick bonus needs the play: send a full record",
                    )
                if claimed:  # RESOLUTIONS["last-trick-claim"]
                    notes.append(
                        note(
                            "spades-no-last-trick-bonus",
                            f"{name}: no last-trick bonus after a claim",
                            {"side": name},
                        )
                    )
                else:
                    bonus = _last_trick_bonus(k, winners, table, rules)
                    if bonus:
                        points += bonus
                        notes.append(
                            note(
                                "spades-last-tricks-bonus",
                                f"{name} won the last tricks with high trumps (+{bonus})",
                                {"side": name, "bonus": bonus},
                            )
                        )
        if taken == total:
            if rules.all_tricks_bonus:
                points += rules.all_tricks_bonus
                notes.append(
                    note(
                        "spades-all-tricks-bonus",
                        f"{name} took all {total} tricks (+{rules.all_tricks_bonus})",
                        {"side": name, "total": total, "bonus": rules.all_tricks_bonus},
                    )
                )
            if rules.all_tricks_wins:
                won_game = name
                notes.append(
                    note(
                        "spades-all-tricks-wins",
                        f"{name} took all {total} tricks and wins the game",
                        {"side": name, "total": total},
                    )
                )
        bag_total = bags_before[name] + bags  # RESOLUTIONS["bags-always-counted"]
        if rules.bag_limit and bag_total >= rules.bag_limit:
            limit = rules.bag_limit
            while bag_total >= limit:
                bag_total -= limit
                points -= rules.sandbag_penalty
                notes.append(
                    note(
                        "spades-bag-penalty",
                        f"{name} reached {limit} bags (-{rules.sandbag_penalty})",
                        {"side": name, "limit": limit, "penalty": rules.sandbag_penalty},
                    )
                )
        score[name] = points
        after_score[name] = score_before[name] + points
        after_bags[name] = bag_total
    after: dict[str, Any] = {"score": after_score, "bags": after_bags}
    if won_game is not None:
        after["won"] = won_game
    result["score"] = score
    result["after"] = after
    result["notes"] = notes


def _score_plain(
    rules: SpadesRules,
    table: Table,
    bids: Bidding,
    won: list[int],
    state: dict[str, Any],
    result: dict[str, Any],
) -> bool:
    """`_score` for `rules.fast_score` and two numeric contracts, no nil: each side's points,
    bags and note from `rules.plain_notes`. False (nothing written) for a bid or a number of
    tricks the table does not hold, which `_score` then scores."""
    (a, b), (c, d) = table.members
    first, second = table.sides
    one = rules.plain_notes.get((first, bids.bid[0], won[a] + won[b]))
    two = rules.plain_notes.get((second, bids.bid[1], won[c] + won[d]))
    if one is None or two is None:
        return False
    before, bags = state["score"], state["bags"]
    result["score"] = {first: one[0], second: two[0]}
    result["after"] = {
        "score": {first: before[first] + one[0], second: before[second] + two[0]},
        "bags": {first: bags[first] + one[1], second: bags[second] + two[1]},
    }
    result["notes"] = [
        note(
            one[2],
            one[3],
            {"side": first, "bid": one[4], "taken": won[a] + won[b], "points": one[5]},
        ),
        note(
            two[2],
            two[3],
            {"side": second, "bid": two[4], "taken": won[c] + won[d], "points": two[5]},
        ),
    ]
    return True


def _contract(
    rules: SpadesRules, kind: str, bid: int, taken: int, name: str, notes: list[str]
) -> tuple[int, int]:
    """Points and bags for a numeric, blind or nils (bid 0) contract."""
    o = rules.options
    if rules.plain and kind == "num":
        if taken >= bid:
            points = 10 * bid + (taken - bid) * rules.overtrick_points
            text = f"+{points}" if points > 0 else str(points)  # signed(points)
            notes.append(
                note(
                    "spades-bid-made",
                    f"{name} bid {bid}, took {taken} ({text})",
                    {"side": name, "bid": str(bid), "taken": taken, "points": text},
                )
            )
            return points, taken - bid
        points = -10 * (bid if rules.set_by_bid else bid - taken)
        text = f"+{points}" if points > 0 else str(points)
        notes.append(
            note(
                "spades-bid-set",
                f"{name} bid {bid}, took {taken}: set ({text})",
                {"side": name, "bid": str(bid), "taken": taken, "points": text},
            )
        )
        return points, 0
    blind = kind == "blind"
    made = taken == bid if (blind and o["blind_bid_exact"]) else taken >= bid
    label = f"blind {bid}" if blind else str(bid)
    if made:
        over = taken - bid
        if o["small_exact_bids"] and kind == "num" and over == 0 and bid <= 2:
            base = {0: 100, 1: 60, 2: 40}[bid]  # RESOLUTIONS["small-exact-bids"]
        else:
            base = 10 * bid * (2 if (o["ten_for_two"] and bid >= 10) else 1)
            if o["seven_plus_bonus"] and bid >= 7:
                base += 10 * (bid - 6)
            if blind:
                base = base * 2 if o["blind_made"] == "double" else base + 100
        points = base + over * o["overtrick_points"]
        if (
            bid >= 10
            and o["ten_for_200"] == "at-least"
            or (o["ten_for_200"] == "exact" and bid == 10 and taken == 10)
        ):
            points += 200
        if o["big_bid_bonus"] and bid >= 10:
            points += o["big_bid_bonus"]
        if o["exact_bid_bonus"] and over == 0 and kind != "nils":
            points += o["exact_bid_bonus"]
        notes.append(
            note(
                "spades-bid-made",
                f"{name} bid {label}, took {taken} ({signed(points)})",
                {
                    "side": name,
                    "bid": f"blind-{bid}" if blind else str(bid),
                    "taken": taken,
                    "points": signed(points),
                },
            )
        )
        return points, over
    short = abs(bid - taken)  # RESOLUTIONS["blind-exact-failure"]
    points = -10 * (bid if o["set_penalty"] == "bid" else short)
    if blind:
        if o["blind_failed"] == "double":
            points *= 2
        elif o["blind_failed"] == "penalty-100":
            points -= 100
    if bid >= 10 and o["ten_for_200"] == "at-least":
        points -= 200
    if o["big_bid_bonus"] and bid >= 10:
        points -= o["big_bid_bonus"]
    notes.append(
        note(
            "spades-bid-set",
            f"{name} bid {label}, took {taken}: set ({signed(points)})",
            {
                "side": name,
                "bid": f"blind-{bid}" if blind else str(bid),
                "taken": taken,
                "points": signed(points),
            },
        )
    )
    return points, 0


@mypyc_attr(native_class=False)  # compiled (games/accel.py): a Python class, as `Game` expects
class Spades:
    name = "spades"
    book = BOOK

    def seats(self, rules: SpadesRules) -> str:
        return rules.seat_letters

    def initial_state(self, rules: SpadesRules) -> dict[str, Any]:
        zero = rules.zero_state  # copied: callers may keep or change the state they get
        return {"score": zero.copy(), "bags": zero.copy()}

    def read_state(self, before: Any, rules: SpadesRules) -> dict[str, Any]:
        sides = rules.tables[rules.seat_letters[0]].sides
        if not isinstance(before, dict) or not set(before) <= {"score", "bags"}:
            raise RecordError("bad-state", "`before` holds `score` and `bags` per side")
        state = self.initial_state(rules)
        for key in ("score", "bags"):
            if key in before:
                value = before[key]
                if (
                    not isinstance(value, dict)
                    or set(value) != set(sides)
                    or not all(
                        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
                    )
                ):
                    raise RecordError(
                        "bad-state", f"`before.{key}` must give an integer for {', '.join(sides)}"
                    )
                if key == "bags" and min(value.values()) < 0:
                    raise RecordError("bad-state", "bags cannot be negative")
                state[key] = {s: value[s] for s in sides}
        return state

    def check_hand(
        self, record: dict[str, Any], rules: SpadesRules, state: dict[str, Any]
    ) -> dict[str, Any]:
        dealer = record.get("dealer")
        table = rules.tables.get(dealer) if type(dealer) is str else None
        if table is None:  # read_dealer says what is wrong
            table = rules.tables[read_dealer(record, rules.seat_letters)]
        bids = (
            rules.fast_calls
            and FAST_PATHS
            and _calls_fast(record.get("calls"), rules, table)
            or _read_calls(record, rules, table, state)
        )
        if "deal" in record:
            won, winners, claimed = _replay(record, rules, table, bids)
            tricks = dict(zip(table.seats, won, strict=True))
            # The stated tricks as `read_counts` reads them, if they are the play's: the same
            # seats and numbers, each an int (so neither a bool nor a float).
            if (
                "tricks" in record
                and not claimed
                and not (
                    FAST_PATHS
                    and type(stated := record["tricks"]) is dict
                    and stated == tricks
                    and list(map(type, stated.values())) == table.int_types
                )
            ):
                stated = read_counts(record["tricks"], table.seats, "tricks")
                if [stated[s] for s in table.seats] != won:
                    raise RecordError("tricks-mismatch", "the stated tricks differ from the play's")
        else:
            if "play" in record:
                raise RecordError("bad-format", "`play` needs the `deal` (a full record)")
            if "tricks" not in record:
                raise RecordError("bad-format", "a summary record needs `tricks` per seat")
            stated = record["tricks"]
            total = 0
            try:
                # Any, not int: an int-typed variable would turn a stated `true` into 1
                counts: dict[str, Any] = {s: stated[s] for s in table.seats}  # in seat order
                if len(stated) != len(counts):
                    raise TypeError
                for n in counts.values():  # a plain loop: no generator object per hand
                    if type(n) is not int or n < 0:
                        raise TypeError
                    total += n
                tricks = counts
            except (KeyError, TypeError):
                tricks = read_counts(stated, table.seats, "tricks")
                total = sum(tricks.values())
            if total != rules.total_tricks:
                raise RecordError(
                    "tricks-do-not-sum", f"the tricks add up to {total}, not {rules.total_tricks}"
                )
            won = list(tricks.values())
            winners, claimed = None, False
        result: dict[str, Any] = {"tricks": tricks}
        if not (
            rules.fast_score
            and FAST_PATHS
            and bids.nil == table.no_nils
            and bids.kind == NUMERIC_SIDES
            and _score_plain(rules, table, bids, won, state, result)
        ):
            _score(rules, table, bids, won, state, winners, claimed, result)
        if winners is not None:
            seats = table.seats
            result["trick_winners"] = [seats[seat] for seat, _card in winners]
        return result

    def next_dealer(self, rules: SpadesRules, dealer: str) -> str:
        return next_seat(rules.seat_letters, dealer)

    def match_end(self, rules: SpadesRules, state: dict[str, Any]) -> tuple[bool, str | None]:
        if "won" in state:
            return True, state["won"]
        scores = state["score"]
        top = max(scores.values())
        if top < rules.options["target"]:
            return False, None
        leaders = [s for s, v in scores.items() if v == top]
        if len(leaders) > 1:  # RESOLUTIONS["tie-at-target"]
            return False, None
        return True, leaders[0]

    def match_summary(self, rules: SpadesRules, state: dict[str, Any]) -> dict[str, Any]:
        return {}


GAME: Game = Spades()
