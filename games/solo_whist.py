"""Solo Whist (game ``solo-whist``): the auction, the contract, the replay and the settlement.

Rules: ``shared/spec/games/solo-whist.md`` (Hubert Phillips' standard game, Parlett's
variations as rule options). Four individuals at seats N E S W; each hand is settled on its own
and the match state carries each seat's cumulative settlement as exact fractions (strings such
as ``"3/2"``) and the number of deals so far (thrown-in hands count). Every decision the spec
leaves open is written down once, in ``RESOLUTIONS`` below.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from games.base import Game, read_claim, read_counts, read_dealer, read_hands
from games.cards import (
    BIG_JOKER,
    NAMES,
    PACK_52,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    SUITS,
    cards_in,
    parse_card,
    parse_cards,
    parse_suit,
)
from games.errors import RecordError
from games.notes import note
from games.rules import Option, RuleBook

SEATS = "NESW"
NEXT = {seat: SEATS[(i + 1) % 4] for i, seat in enumerate(SEATS)}  # the seat to the left

# --------------------------------------------------------------------------------------------
# RESOLUTIONS: every rule decision the seed and the spec leave to us, in one place. Each entry
# is (where it applies, what we decided). The docs (docs/solo-whist.md) repeat them for users.
# --------------------------------------------------------------------------------------------
RESOLUTIONS: dict[str, str] = {
    # --- from the spec's own [resolution] lines ---
    "auction-end": (
        "[spec] The auction ends when everyone except the holder of the standing bid has "
        "passed; with an accepted proposal, everyone except the proposer and the acceptor (the "
        "proposer need not speak again). A call after the end is `auction-over`."
    ),
    "early-stop": (
        "[spec] `play` may stop once the result is settled: a misere bidder has taken a trick, "
        "an abundance declared has lost one, or (when over/undertricks are not scored for the "
        "bid) the required tricks are won or can no longer be. Stopping earlier is "
        "`play-incomplete`."
    ),
    "all-pass": "[spec] When everyone passes the hand is thrown in (no play-out variant).",
    # --- ours ---
    "turn-order": (
        "Calls go clockwise from the dealer's left, skipping players who have passed. A player "
        "who has passed is skipped, so any call of theirs is `call-out-of-turn` - except the "
        "eldest (dealer's left): while an unaccepted proposal stands (not their own) the eldest "
        "is asked again when the turn comes round, and may cop or pass; that second pass is "
        "final. Any bid other than cop on that turn is `bid-not-allowed`."
    ),
    "eldest-must-speak": (
        "Because the eldest is entitled to cop a standing unaccepted proposal after passing, a "
        "record must contain the eldest's answer (cop or pass) before the proposer's second "
        "chance; a record whose calls stop while someone is still entitled to call is "
        "`call-out-of-turn` naming that seat."
    ),
    "second-chance": (
        "Unaccepted proposal, everyone else passed: the proposer must call again (the record "
        "holds the call). any-bid: pass or any bid above prop (not cop, not abundance in "
        "trumps); solo-only: pass or solo; eldest-only: as any-bid when the proposer is the "
        "eldest, otherwise the hand is thrown in at once with no further call. A bid on the "
        "second chance ends the auction (everyone else has passed). A pass throws the hand in."
    ),
    "bid-errors": (
        "A call that is known to solo whist but not available (prop/cop when prop_and_cop is "
        "false, abundance-declared-in-trumps unless declared_with_trumps is ranks-above, cop "
        "without a standing unaccepted prop, abundance in trumps not over abundance, a second "
        "chance outside its limits) is `bid-not-allowed`; a bid not above the standing bid is "
        "`bid-too-low` (an accepted proposal stands at the rank of cop). Unknown words are "
        "`bad-call`."
    ),
    "contract-prop": (
        'An accepted proposal is the contract bid "prop": declarer = the proposer, partner = '
        "the acceptor, trumps = the turned suit."
    ),
    "declared-with-trumps": (
        'declared_with_trumps=replaces: "abundance-declared" needs a named `trump`; '
        'ranks-above: "abundance-declared" is no-trump and "abundance-declared-in-trumps" '
        "(just above it) needs a named `trump`. Both are valued as abundance declared in every "
        "table (the seed gives no separate value) and the declarer leads."
    ),
    "abundance-first-trick": (
        "abundance_first_trick=turned-suit applies to plain abundance only: trick 1 is played "
        "with the turned suit as trumps, the named suit from trick 2. The contract's `trump` "
        "reports the named suit."
    ),
    "abundance-trumps-named": (
        "abundance_trumps_named=after-opening-lead applies to plain abundance: the eldest leads "
        "to the first trick before trumps are known, then the declarer names them and the whole "
        "first trick (the opening lead included) is played with them. The record is the same as "
        "after the auction: the named suit in `trump` (a record cannot show when it was named), "
        "so the play and the settlement are those of after-auction; the notes say when trumps "
        "were named. It contradicts abundance_first_trick=turned-suit (trick 1 with the turned "
        "suit): that combination is `bad-rules`. In abundance declared with trumps the declarer "
        "leads, so names trumps before the lead as usual."
    ),
    "trump-field": (
        "`trump` is required exactly when the declarer names a suit (abundance, and abundance "
        "declared with trumps); present anywhere else (including a thrown-in hand) it is "
        "`bad-trump`, as is a value that is not a suit. null counts as absent."
    ),
    "turned": (
        "`turned` is required in every played hand except under rotation (where, if given, it "
        "must be of the rotation's suit) and except in a full joker record (the leftover card "
        "is derived; if given it must be that card). Under dealer-card a full record's turned "
        "card must be in the dealer's 13. A joker is never a valid turned card (a turned joker "
        "means a redeal). In a thrown-in hand `turned` may be left out (it is checked if given)."
    ),
    "joker": (
        "trump_indicator=joker: the pack is the 52 cards plus BJ; the record plays the joker as "
        '"BJ" and it counts as the turned card (its suit for following, its rank for winning).'
    ),
    "rotation": "trump_indicator=rotation: the turned suit is S, H, D, C by `deals` % 4.",
    "claim": (
        "`claim` {seat, tricks}: of the tricks not in `play`, the claimer's side (declarer and "
        "partner, or the defenders) takes `tricks` and the other side the rest. Only the "
        "declaring side's total matters to the settlement. Where a side of two or three seats "
        "gains tricks by the claim, state `tricks`, per seat or the declaring side's count "
        "(checked against the play and the claim: `tricks-mismatch`), otherwise "
        "`claim-ambiguous`. A "
        "claim of more tricks than remain, or by an unknown seat, is `bad-claim`."
    ),
    "over-under-settled": (
        "When over/undertricks are scored for the bid, every further trick changes the value, "
        "so such a contract is settled only when all 13 tricks are accounted for (play, claim "
        "or a summary's counts)."
    ),
    "summary-counts": (
        "A summary's `tricks` must sum to 13, or to less only when those counts already settle "
        "the result by the early-stop rule (e.g. a misere bidder with 1 trick). The result "
        "reports the tricks as given (or as played, for an early-stopped full record)."
    ),
    "declaring-side-tricks": (
        "[spec] The summary record states the tricks taken by the declaring side: `tricks` "
        "holds one key, the declaring side, named by its seats in the order N E S W (the "
        'declarer alone: "S"; prop and cop by N and E: "NE", by E and W: "EW"), with the '
        "side's count of the hand's 13 tricks; the defenders took the rest. Nothing is said of "
        "each defender, nor of each partner. The four-seat form (each seat's own count) is "
        "still read. Any other single key is `bad-seat`; a count above 13 is "
        "`tricks-do-not-sum`. In a full record the declaring side's count must agree with the "
        "replay (`tricks-mismatch`), and with a claim it settles who took the claimed tricks."
    ),
    "thrown-in": (
        "A thrown-in hand has no play (a non-empty `play` is `too-many-tricks`), no claim "
        "(`bad-claim`), `tricks` absent or all zero; it scores 0 for everyone, counts as a deal."
    ),
    "state": (
        '`before.score` takes ints or exact fraction strings ("3/2", also exact decimals '
        '"1.5"), never JSON floats, and must sum to zero; output is canonical ("3/2", '
        '"-9/2", "0").'
    ),
    "match-winner": (
        "The rules never end a match (a tournament caps it); match_end reports the seat with the "
        "highest total as the provisional winner, or none on a tie."
    ),
    "cards-strict": "A trick must have exactly 4 cards (`bad-trick`); at most 13 tricks.",
}

# --------------------------------------------------------------------------------------------
# Bids and values
# --------------------------------------------------------------------------------------------
F = Fraction
PROP, COP, SOLO, MISERE = "prop", "cop", "solo", "misere"
ABUNDANCE, AIT = "abundance", "abundance-in-trumps"
OUVERTE, DECLARED = "misere-ouverte", "abundance-declared"
DECLARED_T = "abundance-declared-in-trumps"
BID_ORDER = (PROP, COP, SOLO, MISERE, ABUNDANCE, AIT, OUVERTE, DECLARED, DECLARED_T)
CALLS = frozenset(("pass",) + BID_ORDER)
MISERES = frozenset((MISERE, OUVERTE))
DECLAREDS = frozenset((DECLARED, DECLARED_T))
REQUIRED = {
    PROP: 8,
    SOLO: 5,
    MISERE: 0,
    ABUNDANCE: 9,
    AIT: 9,
    OUVERTE: 0,
    DECLARED: 13,
    DECLARED_T: 13,
}
BID_NAMES = {
    PROP: "prop and cop",
    SOLO: "solo",
    MISERE: "misere",
    ABUNDANCE: "abundance",
    AIT: "abundance in trumps",
    OUVERTE: "misere ouverte",
    DECLARED: "abundance declared",
    DECLARED_T: "abundance declared in trumps",
}

# (base, over/under per trick or None) per bid, per table: exactly the spec's tables.
TABLES: dict[str, dict[str, tuple[Fraction, Fraction | None]]] = {
    "phillips": {
        PROP: (F(1), F(1, 4)),
        SOLO: (F(1), F(1, 4)),
        MISERE: (F(2), None),
        ABUNDANCE: (F(3), F(1, 2)),
        AIT: (F(3), F(1, 2)),
        OUVERTE: (F(4), None),
        DECLARED: (F(6), None),
    },
    "parlett-1": {
        PROP: (F(1), F(2, 10)),
        SOLO: (F(1), F(2, 10)),
        MISERE: (F(2), None),
        ABUNDANCE: (F(3), F(3, 10)),
        AIT: (F(3), F(3, 10)),
        OUVERTE: (F(4), None),
        DECLARED: (F(6), None),
    },
    "parlett-2": {
        PROP: (F(2), None),
        SOLO: (F(2), None),
        MISERE: (F(3), None),
        ABUNDANCE: (F(4), None),
        AIT: (F(4), None),
        OUVERTE: (F(6), None),
        DECLARED: (F(8), None),
    },
    "parlett-3": {
        PROP: (F(1), None),
        SOLO: (F(2), None),
        MISERE: (F(4), None),
        ABUNDANCE: (F(6), None),
        AIT: (F(6), None),
        OUVERTE: (F(8), None),
        DECLARED: (F(12), None),
    },
}
for _table in TABLES.values():
    _table[DECLARED_T] = _table[DECLARED]  # RESOLUTIONS["declared-with-trumps"]

OPTIONS = {
    o.name: o
    for o in (
        Option("table", "phillips", choices=tuple(TABLES), help="base and over/under values"),
        Option("overtricks", True, help="over- and undertricks scored"),
        Option("prop_and_cop", True, help="proposal and acceptance allowed"),
        Option("misere_below_solo", False, help="misere ranks below solo"),
        Option(
            "after_unaccepted_prop",
            "any-bid",
            choices=("any-bid", "eldest-only", "solo-only"),
            help="what an unaccepted proposer may do",
        ),
        Option(
            "trump_indicator",
            "dealer-card",
            choices=("dealer-card", "second-pack", "rotation", "joker"),
            help="how the turned suit is chosen",
        ),
        Option(
            "abundance_first_trick",
            "declared-suit",
            choices=("declared-suit", "turned-suit"),
            help="trumps for the first trick of an abundance",
        ),
        Option(
            "abundance_trumps_named",
            "after-auction",
            choices=("after-auction", "after-opening-lead"),
            help="when the abundance declarer names trumps",
        ),
        Option(
            "declared_with_trumps",
            "off",
            choices=("off", "replaces", "ranks-above"),
            help="abundance declared with a named trump suit",
        ),
    )
}

PRESETS: dict[str, dict[str, Any]] = {
    "phillips": {},
    "parlett-1": {"table": "parlett-1"},
    "parlett-2": {"table": "parlett-2", "overtricks": False},
    "parlett-3": {"table": "parlett-3", "overtricks": False},
}


@dataclass(frozen=True, eq=False)
class SoloRules:
    """A compiled rule set: the full option dict plus what the checker looks up per hand."""

    options: dict[str, Any]
    rank: dict[str, int]  # the bids available under these rules -> their rank
    values: dict[str, tuple[Fraction, Fraction | None]]  # over None when not scored
    indicator: str
    after_prop: str
    turned_first: bool
    trumps_after_lead: bool
    declared_with_trumps: str

    def names_trump(self, bid: str) -> bool:
        """Whether the declarer names trumps after the auction in this contract."""
        if bid in (ABUNDANCE, DECLARED_T):
            return True
        return bid == DECLARED and self.declared_with_trumps == "replaces"


def compile_rules(options: dict[str, Any]) -> SoloRules:
    order = list(BID_ORDER)
    if options["misere_below_solo"]:
        i, j = order.index(SOLO), order.index(MISERE)
        order[i], order[j] = order[j], order[i]
    if options["declared_with_trumps"] != "ranks-above":
        order.remove(DECLARED_T)
    if not options["prop_and_cop"]:
        order.remove(PROP)
        order.remove(COP)
    turned_first = options["abundance_first_trick"] == "turned-suit"
    trumps_after_lead = options["abundance_trumps_named"] == "after-opening-lead"
    if turned_first and trumps_after_lead:  # RESOLUTIONS["abundance-trumps-named"]
        raise RecordError(
            "bad-rules",
            "abundance_trumps_named after-opening-lead plays the whole first trick with the "
            "named trumps; abundance_first_trick turned-suit plays it with the turned suit",
        )
    table = TABLES[options["table"]]
    values = {
        bid: (base, over if options["overtricks"] else None) for bid, (base, over) in table.items()
    }
    return SoloRules(
        options=dict(options),
        rank={bid: i for i, bid in enumerate(order)},
        values=values,
        indicator=options["trump_indicator"],
        after_prop=options["after_unaccepted_prop"],
        turned_first=turned_first,
        trumps_after_lead=trumps_after_lead,
        declared_with_trumps=options["declared_with_trumps"],
    )


# --------------------------------------------------------------------------------------------
# The auction
# --------------------------------------------------------------------------------------------
class Auction:
    """The auction as a state machine: `call` checks and applies one call; `finish` says
    whether the record may stop there. Used by the checker and by the simulator (`legal`)."""

    def __init__(self, rules: SoloRules, dealer: str) -> None:
        self.rules = rules
        self.eldest = NEXT[dealer]
        self.passed: set[str] = set()
        self.eldest_final = False  # the eldest has declined a standing proposal after passing
        self.bid: str | None = None  # the standing bid
        self.bidder: str | None = None  # its holder (the proposer for prop)
        self.acceptor: str | None = None
        self.second_chance = False  # the proposer must call again
        self.second_used = False
        self.over = False
        self.thrown_in = False
        self.turn: str | None = self.eldest

    # -- queries --
    def _eldest_may_cop(self) -> bool:
        return (
            self.bid == PROP
            and self.acceptor is None
            and self.eldest in self.passed
            and not self.eldest_final
            and self.bidder != self.eldest
        )

    def _done(self, seat: str) -> bool:
        return seat in self.passed and not (seat == self.eldest and self._eldest_may_cop())

    def legal(self) -> list[str]:
        """Every call the seat to call may make now (empty when the auction is over)."""
        turn = self.turn
        if self.over or turn is None:
            return []
        out = []
        for call in ("pass",) + BID_ORDER:
            try:
                self._check(turn, call)
            except RecordError:
                continue
            out.append(call)
        return out

    def declared(self) -> tuple[str, str]:
        """(bid, declarer) once the auction has ended with a contract (not thrown in)."""
        if self.bid is None or self.bidder is None or self.thrown_in:
            raise AssertionError("the auction ended without a contract")
        return self.bid, self.bidder

    # -- checking and applying --
    def call(self, seat: str, call: str, index: int | None = None) -> None:
        if self.over:
            raise RecordError(
                "auction-over",
                f"call {index}: the auction is over; {seat}'s {call!r} comes after its end",
                seat=seat,
            )
        if not isinstance(call, str) or call not in CALLS:
            raise RecordError("bad-call", f"{call!r} is not a solo whist call", seat=seat)
        if seat != self.turn:
            raise RecordError(
                "call-out-of-turn",
                f"call {index}: it is {self.turn}'s turn to call, not {seat}'s",
                seat=seat,
            )
        self._check(seat, call)
        self._apply(seat, call)

    def _check(self, seat: str, call: str) -> None:
        if call == "pass":
            return
        rank = self.rules.rank

        def no(why: str) -> RecordError:
            return RecordError("bid-not-allowed", f"{seat} may not call {call}: {why}", seat=seat)

        if call not in rank:
            raise no("these rules do not have that bid")
        if self.second_chance:
            if call == COP:
                raise no("a proposer cannot accept their own proposal")
            if self.rules.after_prop == "solo-only" and call != SOLO:
                raise no("after an unaccepted proposal the proposer may only bid solo or pass")
        if seat in self.passed and call != COP:
            raise no("having passed, the eldest may only accept (cop) the proposal or pass")
        if call == COP:
            if self.bid != PROP or self.acceptor is not None:
                raise no("cop only accepts a standing, unaccepted proposal")
            return
        if self.bid is not None:
            standing = COP if self.acceptor is not None else self.bid
            if rank[call] <= rank[standing]:
                raise RecordError(
                    "bid-too-low",
                    f"{seat}'s {call} does not outrank the standing {standing}",
                    seat=seat,
                    rule="outrank",
                    standing=standing,
                )
        if call == AIT and self.bid != ABUNDANCE:
            raise no("abundance in trumps may only overcall a standing abundance")

    def _apply(self, seat: str, call: str) -> None:
        if call == "pass":
            if self.second_chance:
                self._end(thrown_in=True)
                return
            if seat in self.passed:
                self.eldest_final = True
            self.passed.add(seat)
        elif call == COP:
            self.acceptor = seat
        else:
            self.bid, self.bidder, self.acceptor = call, seat, None
            if self.second_chance:
                self.second_chance, self.second_used = False, True
        self._advance(seat)

    def _end(self, *, thrown_in: bool) -> None:
        self.over, self.thrown_in, self.turn = True, thrown_in, None

    def _advance(self, last: str) -> None:
        if self.bid is None:
            if len(self.passed) == 4:
                self._end(thrown_in=True)
                return
            holders: set[str] = set()
        else:
            holders = {s for s in (self.bidder, self.acceptor) if s is not None}
            if all(self._done(s) for s in SEATS if s not in holders):
                if self.bid == PROP and self.acceptor is None:
                    if self.second_used or (
                        self.rules.after_prop == "eldest-only" and self.bidder != self.eldest
                    ):
                        self._end(thrown_in=True)
                    else:
                        self.second_chance, self.turn = True, self.bidder
                else:
                    self._end(thrown_in=False)
                return
        seat = last
        for _ in range(4):
            seat = NEXT[seat]
            if seat not in holders and not self._done(seat):
                self.turn = seat
                return
        raise AssertionError("no one to call")  # pragma: no cover

    def finish(self) -> None:
        if not self.over:
            raise RecordError(
                "call-out-of-turn",
                f"the auction is not over: {self.turn}'s call is missing",
                seat=self.turn,
            )


def _normal_call(text: Any) -> Any:
    if not isinstance(text, str) or text in CALLS:
        return text
    return text.strip().lower().replace("è", "e").replace("_", "-").replace(" ", "-")


def run_auction(rules: SoloRules, dealer: str, calls: Any) -> Auction:
    if calls is None:
        calls = []
    if not isinstance(calls, list):
        raise RecordError("bad-format", "`calls` must be a list of {seat, call}")
    auction = Auction(rules, dealer)
    for index, item in enumerate(calls, 1):
        if not isinstance(item, dict) or "seat" not in item or "call" not in item:
            raise RecordError("bad-format", f'call {index} must be {{"seat", "call"}}')
        seat = item["seat"]
        if not isinstance(seat, str) or seat not in SEATS:
            raise RecordError("bad-seat", f"call {index}: {seat!r} is not a seat (N, E, S, W)")
        auction.call(seat, _normal_call(item["call"]), index)
    auction.finish()
    return auction


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------
def _fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RecordError("bad-state", f"{where} must be an integer or a fraction string")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise RecordError("bad-state", f"{where} is not a fraction: {value!r}") from None


@lru_cache(maxsize=4096)
def _total(text: str) -> Fraction:
    """A canonical state total (cached: the same few strings recur in every match)."""
    return Fraction(text)


def _state(score: dict[str, Fraction], deals: int) -> dict[str, Any]:
    return {"score": {s: str(score[s]) for s in SEATS}, "deals": deals}


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------
@dataclass
class Contract:
    bid: str
    declarer: str
    partner: str | None
    trump: int | None  # the contract's trump suit (None: no trumps)
    first_trump: int | None  # trumps for trick 1 (differs only under turned-suit abundance)

    @property
    def side(self) -> tuple[str, ...]:
        return (self.declarer, self.partner) if self.partner else (self.declarer,)


class SoloWhist:
    name = "solo-whist"

    def __init__(self) -> None:
        self.book = RuleBook("solo-whist", OPTIONS, PRESETS, compile_rules)

    # -- protocol --
    def seats(self, rules: SoloRules) -> str:
        return SEATS

    def initial_state(self, rules: SoloRules) -> dict[str, Any]:
        return {"score": {s: "0" for s in SEATS}, "deals": 0}

    def read_state(self, before: Any, rules: SoloRules) -> dict[str, Any]:
        if not isinstance(before, dict) or set(before) != {"score", "deals"}:
            raise RecordError("bad-state", '`before` must be {"score": {N, E, S, W}, "deals"}')
        score = before["score"]
        if not isinstance(score, dict) or set(score) != set(SEATS):
            raise RecordError("bad-state", "before.score must be keyed by N, E, S, W")
        values = {s: _fraction(score[s], f"before.score[{s}]") for s in SEATS}
        if sum(values.values()) != 0:
            raise RecordError("bad-state", "before.score must sum to zero (every hand does)")
        deals = before["deals"]
        if not isinstance(deals, int) or isinstance(deals, bool) or deals < 0:
            raise RecordError("bad-state", f"before.deals must be a whole number, not {deals!r}")
        return _state(values, deals)

    def next_dealer(self, rules: SoloRules, dealer: str) -> str:
        return NEXT[dealer]

    def match_end(self, rules: SoloRules, state: dict[str, Any]) -> tuple[bool, str | None]:
        totals = {s: Fraction(state["score"][s]) for s in SEATS}
        best = max(totals.values())
        leaders = [s for s in SEATS if totals[s] == best]
        return False, leaders[0] if len(leaders) == 1 else None

    def match_summary(self, rules: SoloRules, state: dict[str, Any]) -> dict[str, Any]:
        return {}

    # -- one hand --
    def check_hand(
        self, record: dict[str, Any], rules: SoloRules, state: dict[str, Any]
    ) -> dict[str, Any]:
        dealer = read_dealer(record, SEATS)
        full = "deal" in record
        hands = _read_deal(record["deal"], rules) if full else None
        auction = run_auction(rules, dealer, record.get("calls"))
        score = {s: _total(state["score"][s]) for s in SEATS}
        after_deals = state["deals"] + 1

        if auction.thrown_in:
            _check_thrown_in(record, rules, state, hands, dealer)
            return {
                "score": {s: "0" for s in SEATS},
                "after": _state(score, after_deals),
                "notes": [note("solo-thrown-in", "thrown in")],
                "contract": None,
            }

        turned = _turned(record, rules, state, hands, dealer)
        contract = _contract(record, rules, auction, _turned_suit(state, turned))
        winners: list[str] | None = None
        if hands is not None:
            tricks, winners = _replay(record, rules, contract, hands, turned, dealer)
        else:
            for name in ("play", "claim"):
                if record.get(name):
                    raise RecordError("bad-format", f"`{name}` needs a full record (`deal`)")
            tricks = _summary_tricks(record.get("tricks"), rules, contract)
        change, notes = _settle(rules, contract, *_side_and_lost(contract, tricks))
        for s in SEATS:
            score[s] += change[s]
        result: dict[str, Any] = {
            "tricks": tricks,
            "score": {s: str(change[s]) for s in SEATS},
            "after": _state(score, after_deals),
            "notes": notes,
            "contract": {
                "bid": contract.bid,
                "declarer": contract.declarer,
                **({"partner": contract.partner} if contract.partner else {}),
                "trump": SUITS[contract.trump] if contract.trump is not None else None,
            },
        }
        if winners is not None:
            result["trick_winners"] = winners
        return result


def _read_deal(deal: Any, rules: SoloRules) -> dict[str, int]:
    if not isinstance(deal, dict):
        raise RecordError("bad-format", "`deal` must be an object keyed by N, E, S, W")
    if set(deal) != set(SEATS):
        raise RecordError("bad-seat", f"`deal` must name exactly N, E, S, W, not {', '.join(deal)}")
    pack = PACK_52 | (1 << BIG_JOKER) if rules.indicator == "joker" else PACK_52
    return dict(zip(SEATS, read_hands(deal, "".join(SEATS), (13,) * 4, pack), strict=True))


def _turned(
    record: dict[str, Any],
    rules: SoloRules,
    state: dict[str, Any],
    hands: dict[str, Any] | None,
    dealer: str,
) -> int | None:
    """The turned card (None under rotation); checks it against the rules and the deal."""
    raw = record.get("turned")
    card = None if raw is None else parse_card(raw)
    ind = rules.indicator
    if ind == "rotation":
        suit = state["deals"] % 4
        if card is not None and (card >= 52 or SUIT_OF[card] != suit):
            raise RecordError(
                "bad-turned",
                f"deal {state['deals'] + 1} turns {SUITS[suit]} by rotation, not {NAMES[card]}",
                card=NAMES[card],
            )
        return None
    if ind == "joker" and hands is not None:
        leftover = cards_in((PACK_52 | 1 << BIG_JOKER) & ~sum(hands.values()))[0]
        if leftover == BIG_JOKER:
            raise RecordError(
                "bad-turned", "the joker was left over: the hand must be redealt", card="BJ"
            )
        if card is not None and card != leftover:
            raise RecordError(
                "bad-turned",
                f"the card left over is {NAMES[leftover]}, not {NAMES[card]}",
                card=NAMES[card],
            )
        return leftover
    if card is None:
        raise RecordError("bad-turned", "the record needs the `turned` card")
    if card >= 52:
        raise RecordError(
            "bad-turned", f"{NAMES[card]} cannot be the turned card", card=NAMES[card]
        )
    if ind == "dealer-card" and hands is not None and not hands[dealer] >> card & 1:
        raise RecordError(
            "bad-turned",
            f"the turned {NAMES[card]} is not in the dealer {dealer}'s hand",
            seat=dealer,
            card=NAMES[card],
        )
    return card


def _turned_suit(state: dict[str, Any], turned: int | None) -> int:
    return state["deals"] % 4 if turned is None else SUIT_OF[turned]


def _contract(
    record: dict[str, Any], rules: SoloRules, auction: Auction, turned_suit: int
) -> Contract:
    bid, declarer = auction.declared()
    raw = record.get("trump")
    named = None
    if rules.names_trump(bid):
        if raw is None:
            raise RecordError(
                "bad-trump",
                f"{BID_NAMES[bid]}: the declarer's `trump` is missing",
                seat=declarer,
            )
        try:
            named = parse_suit(raw)
        except RecordError:
            raise RecordError("bad-trump", f"{raw!r} is not a suit (S, H, D, C)") from None
    elif raw is not None:
        raise RecordError("bad-trump", f"no trump suit is named in {BID_NAMES[bid]}")
    if bid in (PROP, SOLO, AIT):
        trump = turned_suit
    elif named is not None:
        trump = named
    else:
        trump = None
    first = turned_suit if bid == ABUNDANCE and rules.turned_first else trump
    return Contract(bid, declarer, auction.acceptor, trump, first)


def _check_thrown_in(
    record: dict[str, Any],
    rules: SoloRules,
    state: dict[str, Any],
    hands: dict[str, Any] | None,
    dealer: str,
) -> None:
    if record.get("turned") is not None:
        _turned(record, rules, state, hands, dealer)
    if record.get("trump") is not None:
        raise RecordError("bad-trump", "a thrown-in hand has no trump suit")
    if record.get("play"):
        raise RecordError("too-many-tricks", "a thrown-in hand is not played")
    if record.get("claim") is not None:
        raise RecordError("bad-claim", "a thrown-in hand has nothing to claim")
    if record.get("tricks") is not None:
        tricks = read_counts(record["tricks"], SEATS, "tricks")
        if any(tricks.values()):
            raise RecordError("tricks-mismatch", "a thrown-in hand takes no tricks")


def _settled(rules: SoloRules, c: Contract, side: int, others: int, remaining: int) -> bool:
    """Whether these trick counts settle the result whatever happens to `remaining` tricks."""
    if remaining == 0:
        return True
    if c.bid in MISERES:
        return side > 0
    if c.bid in DECLAREDS:
        return others > 0
    if rules.values[c.bid][1] is not None:  # RESOLUTIONS["over-under-settled"]
        return False
    need = REQUIRED[c.bid]
    return side >= need or side + remaining < need


def _replay(
    record: dict[str, Any],
    rules: SoloRules,
    c: Contract,
    hands: dict[str, int],
    turned: int | None,
    dealer: str,
) -> tuple[dict[str, int], list[str]]:
    """Replay a full record: the tricks per seat (a claim's included) and the seat that won
    each trick played."""
    play = record.get("play")
    if play is None:
        play = []
    if not isinstance(play, list):
        raise RecordError("bad-format", "`play` must be a list of tricks")
    if len(play) > 13:
        raise RecordError("too-many-tricks", f"{len(play)} tricks played; a hand has 13", trick=14)
    hands = dict(hands)
    eff = list(range(54))
    suit_masks = list(SUIT_MASKS)
    if rules.indicator == "joker" and turned is not None:  # the leftover card: never None
        eff[BIG_JOKER] = turned
        suit_masks[SUIT_OF[turned]] |= 1 << BIG_JOKER
    won = dict.fromkeys(SEATS, 0)
    winners: list[str] = []
    leader = c.declarer if c.bid in DECLAREDS else NEXT[dealer]
    for number, trick in enumerate(play, 1):
        cards = parse_cards(trick, trick=number)
        if len(cards) != 4:
            raise RecordError(
                "bad-trick", f"trick {number} has {len(cards)} cards, not 4", trick=number
            )
        trump = c.first_trump if number == 1 else c.trump
        seat = leader
        led, best, best_seat = -1, -1, seat  # set by the lead
        for card in cards:
            if not hands[seat] >> card & 1:
                raise RecordError(
                    "card-not-held",
                    f"trick {number}: {seat} does not hold {NAMES[card]}",
                    trick=number,
                    seat=seat,
                    card=NAMES[card],
                )
            e = eff[card]
            suit = SUIT_OF[e]
            if led < 0:
                led, best, best_seat = suit, e, seat
            else:
                if suit != led and hands[seat] & suit_masks[led]:
                    raise RecordError(
                        "must-follow-suit",
                        f"trick {number}: {seat} played {NAMES[card]} holding {SUITS[led]}",
                        trick=number,
                        seat=seat,
                        card=NAMES[card],
                    )
                bsuit = SUIT_OF[best]
                if suit == bsuit:
                    if RANK_OF[e] > RANK_OF[best]:
                        best, best_seat = e, seat
                elif suit == trump:
                    best, best_seat = e, seat
            hands[seat] &= ~(1 << card)
            seat = NEXT[seat]
        won[best_seat] += 1
        winners.append(best_seat)
        leader = best_seat

    played = len(play)
    remaining = 13 - played
    claim = record.get("claim")
    raw = record.get("tricks")
    side_count = None if raw is None else _side_form(raw, c)
    stated = None if raw is None or side_count is not None else read_counts(raw, SEATS, "tricks")
    side_seats = c.side
    if claim is not None and side_count is not None:
        seat, k = read_claim(claim, "".join(SEATS), remaining)
        gained = k if seat in side_seats else remaining - k
        if sum(won[s] for s in side_seats) + gained != side_count:
            raise RecordError(
                "tricks-mismatch",
                f"`tricks` {raw} do not agree with the play and {seat}'s claim of {k}",
            )
        return {side_key(c): side_count}, winners
    if claim is not None:
        tricks = _apply_claim(claim, remaining, side_seats, won, stated)
    else:
        side = sum(won[s] for s in side_seats)
        if not _settled(rules, c, side, played - side, remaining):
            raise RecordError(
                "play-incomplete",
                f"the play stops after {played} tricks, before the {BID_NAMES[c.bid]} is "
                "settled, and no claim closes it",
                trick=played + 1,
                trick_winners=list(winners),
                next_leader=leader,
            )
        tricks = won
        if side_count is not None and side_count != side:
            raise RecordError(
                "tricks-mismatch",
                f"`tricks` {raw} differ from the replay's {side} for {side_key(c)}",
            )
    if stated is not None and stated != tricks:
        raise RecordError(
            "tricks-mismatch",
            f"`tricks` {stated} differ from the replay's {tricks}",
        )
    return tricks, winners


def _apply_claim(
    claim: Any,
    remaining: int,
    side_seats: tuple[str, ...],
    won: dict[str, int],
    stated: dict[str, int] | None,
) -> dict[str, int]:
    """RESOLUTIONS["claim"]."""
    seat, k = read_claim(claim, "".join(SEATS), remaining)
    defenders = tuple(s for s in SEATS if s not in side_seats)
    mine, theirs = (side_seats, defenders) if seat in side_seats else (defenders, side_seats)
    gains = ((mine, k), (theirs, remaining - k))
    if stated is not None:
        ok = all(stated[s] >= won[s] for s in SEATS) and all(
            sum(stated[s] - won[s] for s in group) == n for group, n in gains
        )
        if not ok:
            raise RecordError(
                "tricks-mismatch",
                f"`tricks` {stated} do not agree with the play and {seat}'s claim of {k}",
            )
        return dict(stated)
    tricks = dict(won)
    for group, n in gains:
        if n and len(group) > 1:
            raise RecordError(
                "claim-ambiguous",
                f"the claim gives {n} tricks to {''.join(group)}: state `tricks` per seat",
                seat=seat,
            )
        if n:
            tricks[group[0]] += n
    return tricks


def side_key(c: Contract) -> str:
    """The declaring side as a `tricks` key: its seats in the order N E S W
    (RESOLUTIONS["declaring-side-tricks"])."""
    return "".join(s for s in SEATS if s in c.side)


def _side_form(value: Any, c: Contract) -> int | None:
    """The declaring side's count when `value` is the one-key form, else None (the four-seat
    form, read by read_counts)."""
    if not isinstance(value, dict) or len(value) != 1:
        return None
    key = side_key(c)
    if set(value) != {key}:
        raise RecordError(
            "bad-seat",
            f"`tricks` must name N, E, S, W, or the declaring side alone ({key}), "
            f"not {', '.join(value)}",
        )
    n = value[key]
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RecordError("bad-format", f"tricks[{key}] must be a whole number, not {n!r}")
    if n > 13:
        raise RecordError("tricks-do-not-sum", f"{key} took {n} tricks: a hand has 13")
    return n


def _summary_tricks(value: Any, rules: SoloRules, c: Contract) -> dict[str, int]:
    """A summary record's `tricks`: the declaring side's count alone, or each seat's."""
    n = _side_form(value, c)
    if n is not None:
        return {side_key(c): n}
    tricks = read_counts(value, SEATS, "tricks")
    total = sum(tricks.values())
    side = sum(tricks[s] for s in c.side)
    if total > 13 or (total < 13 and not _settled(rules, c, side, total - side, 13 - total)):
        raise RecordError(
            "tricks-do-not-sum",
            f"the tricks add up to {total}: they must make 13, or less only when they "
            "already settle the result",
        )
    return tricks


def _side_and_lost(c: Contract, tricks: dict[str, int]) -> tuple[int, int]:
    """The declaring side's tricks and the defenders' (the rest of 13 in the side form)."""
    key = side_key(c)
    if set(tricks) == {key}:
        return tricks[key], 13 - tricks[key]
    side = sum(tricks[s] for s in c.side)
    return side, sum(tricks.values()) - side


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _settle(
    rules: SoloRules, c: Contract, side: int, lost: int
) -> tuple[dict[str, Any], list[str]]:
    base, over = rules.values[c.bid]
    need = REQUIRED[c.bid]
    who = f"{c.declarer} and {c.partner}" if c.partner else c.declarer
    name = BID_NAMES[c.bid]
    after_lead, trumps = False, None
    if c.trump is not None and c.bid in (ABUNDANCE, DECLARED, DECLARED_T):
        trumps = SUITS[c.trump]
        if c.bid == ABUNDANCE and rules.trumps_after_lead:  # RESOLUTIONS["abundance-trumps-named"]
            after_lead = True
            name += f" ({SUITS[c.trump]} trumps, named after the opening lead)"
        else:
            name += f" ({SUITS[c.trump]} trumps)"
    params: dict[str, Any] = {
        "declarer": c.declarer,
        "partner": c.partner,
        "contract": c.bid,
        "trumps": trumps,
        "after_lead": after_lead,
        "taken": side,
        "scored": over is not None,
    }
    if c.bid in MISERES:
        made = side == 0
        code = "solo-misere"
        text = f"{who} {name}: took {_plural(side, 'trick')} ({'made' if made else 'failed'})"
        value = base
    elif c.bid in DECLAREDS:
        made = side == 13
        code = "solo-declared"
        params["lost"] = lost
        text = f"{who} {name}: " + (
            "took all 13 (made)" if made else f"lost {_plural(lost, 'trick')} (failed)"
        )
        value = base
    else:
        made = side >= need
        params["need"] = need
        if made:
            extra = side - need
            code, params["extra"] = "solo-made", extra
            value = base + (extra * over if over is not None else 0)
            text = f"{who} {name}: took {side} of {need}"
            if extra:
                text += f" (+{_plural(extra, 'overtrick')}" + (
                    ")" if over is not None else ", not scored)"
                )
        else:
            short = need - side
            under = max(0, short - 1)
            code, params["short"], params["under"] = "solo-failed", short, under
            value = base + (under * over if over is not None else 0)
            text = f"{who} {name}: took {side} of {need} ({short} short"
            if under:
                text += f", {_plural(under, 'undertrick')}" + (
                    "" if over is not None else " not scored"
                )
            text += ")"
    params["made"] = made
    sign = 1 if made else -1
    v = value * sign
    if c.partner:
        change = {s: (v if s in c.side else -v) for s in SEATS}
        how = (
            f"{value} to each of {who} from one opponent each"
            if made
            else (f"{value} from each of {who} to one opponent each")
        )
        paid = note(
            "solo-paid-pair",
            f"value {value}: {how}",
            {"value": str(value), "declarer": c.declarer, "partner": c.partner, "made": made},
        )
    else:
        change = {s: (3 * v if s == c.declarer else -v) for s in SEATS}
        how = (
            f"{c.declarer} receives {value} from each opponent"
            if made
            else f"{c.declarer} pays {value} to each opponent"
        )
        paid = note(
            "solo-paid-alone",
            f"value {value}: {how}",
            {"value": str(value), "declarer": c.declarer, "made": made},
        )
    return change, [note(code, text, params), paid]


GAME: Game = SoloWhist()
