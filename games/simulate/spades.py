"""Random legal Spades hands and matches: a random deal, plausible bids, random legal play."""

from __future__ import annotations

import random
from typing import Any

from games.cards import CLUBS, NAMES, SPADES, cards_in, names
from games.errors import RecordError
from games.simulate import play_match
from games.spades import BOOK, GAME, SpadesRules, Table, _first_leader, _read_calls


def random_hand(
    rng: random.Random,
    rules: Any = "standard",
    *,
    dealer: str | None = None,
    before: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A full `hand/1` record, dealt at random and played at random but legally."""
    compiled, canonical = BOOK.resolve(rules)
    state = GAME.read_state(before, compiled) if before else GAME.initial_state(compiled)
    dealer = dealer or rng.choice(compiled.seat_letters)
    table = compiled.tables[dealer]
    pack = cards_in(compiled.pack)
    rng.shuffle(pack)
    orders, start = [], 0
    for size in table.sizes:
        orders.append(pack[start : start + size])
        start += size
    record: dict[str, Any] = {
        "format": "hand/1",
        "game": "spades",
        "rules": canonical,
        "dealer": dealer,
    }
    if before:
        record["before"] = before
    record["deal"] = {s: [NAMES[c] for c in orders[i]] for i, s in enumerate(table.seats)}
    hands = [sum(1 << c for c in cards) for cards in orders]
    o = compiled.options
    if o["dealer_discards"]:
        d = table.dealer
        discard = rng.sample(orders[d], o["dealer_discards"])
        record["discard"] = [NAMES[c] for c in discard]
        for c in discard:
            hands[d] ^= 1 << c
        orders[d] = [c for c in orders[d] if c not in discard]
    record["calls"] = _calls(rng, compiled, table, state, hands)
    bids = _read_calls(record, compiled, table, state)
    exchange = _exchange(rng, compiled, table, bids, hands)
    if exchange:
        record["exchange"] = exchange
    record["play"], won = _play(rng, compiled, table, bids, hands, orders)
    record["tricks"] = dict(zip(table.seats, won, strict=True))
    return record


def random_match(
    rng: random.Random, rules: Any = "standard", *, max_hands: int = 60
) -> dict[str, Any]:
    """A `match/1` record played until the rules end it (or `max_hands`)."""
    return play_match(GAME, random_hand, rng, rules, max_hands=max_hands)


def to_summary(record: dict[str, Any]) -> dict[str, Any]:
    """The summary record (calls and tricks) of a full record."""
    drop = {"deal", "play", "exchange", "discard", "claim"}
    return {k: v for k, v in record.items() if k not in drop}


def _estimate(hand: int, rules: SpadesRules) -> int:
    """A rough trick count: aces, kings with company, long spades."""
    tricks = 0.0
    for suit in range(4):
        cards = [c for c in cards_in(hand & rules.suit_masks[suit])]
        ranks = sorted((rules.trump_rank.get(c, c % 13) for c in cards), reverse=True)
        if suit == SPADES:
            tricks += sum(1 for r in ranks if r >= 10) + max(0, len(ranks) - 3) * 0.7
        else:
            tricks += (12 in ranks) + 0.6 * (11 in ranks and len(ranks) > 1)
    return int(round(tricks))


def _calls(
    rng: random.Random, rules: SpadesRules, table: Table, state: dict[str, Any], hands: list[int]
) -> list[dict[str, Any]]:
    """Plausible calls, now and then daring ones (nils, blind bids, moons, raises); each try is
    checked by the engine's own bidding rules, and plain numbers are the last resort."""
    o = rules.options
    total = rules.total_tricks
    for attempt in range(40):
        daring = attempt < 30
        calls: list[dict[str, Any]] = []
        est = {i: _estimate(hands[i], rules) for i in table.players}
        blind_sides: set[int] = set()
        if rules.partnership and daring:
            for k, side in enumerate(table.sides):
                roll = rng.random()
                if roll < 0.06 and o["blind_bid_min"]:
                    n = rng.randint(o["blind_bid_min"], min(total, o["blind_bid_min"] + 2))
                    calls.append({"side": side, "call": f"blind-{n}"})
                    blind_sides.add(k)
                elif roll < 0.08 and o["blind_moon"]:
                    calls.append({"side": side, "call": "blind-moon"})
                    blind_sides.add(k)
        special: dict[int, str] = {}
        for i in table.bid_order:
            roll = rng.random() if daring else 1.0
            if roll < 0.10 and o["nil"] and est[i] <= 2:
                special[i] = "nil"
            elif roll < 0.13:
                special[i] = rng.choice(["double-nil", "double-blind-nil"])
            elif roll < 0.15 and o["moon"]:
                special[i] = "moon"
            elif roll < 0.17 and not rules.partnership and o["blind_bid_min"]:
                special[i] = f"blind-{rng.randint(o['blind_bid_min'], o['blind_bid_min'] + 1)}"
        if o["bidding"] == "consult" and rules.partnership:
            for k in table.consult_order:
                if k in blind_sides:
                    continue
                members = table.members[k]
                nils = [i for i in members if special.get(i, "").endswith("nil")]
                for i in nils:
                    calls.append({"seat": table.seats[i], "call": special[i]})
                if len(nils) == 2:
                    continue
                n = sum(est[i] for i in members if i not in nils)
                n = min(max(n, o["minimum_bid"]), total)
                calls.append({"side": table.sides[k], "call": str(n)})
        else:
            side_bid: dict[int, int] = {}
            for i in table.bid_order:
                k = table.side_of[i]
                if k in blind_sides:
                    continue
                if i in special:
                    calls.append({"seat": table.seats[i], "call": special[i]})
                    continue
                n = est[i]
                if rules.partnership and o["bidding"] == "last-bidder":
                    n += side_bid.get(k, 0)
                    side_bid[k] = n
                    if i == table.members[k][-1] or any(
                        j in special for j in table.members[k] if j != i
                    ):
                        n = max(n, o["minimum_bid"])
                else:
                    n = max(n, o["minimum_bid"] if not rules.partnership else 0)
                    if rules.partnership and i == table.members[k][-1]:
                        n = max(n, o["minimum_bid"] - side_bid.get(k, 0))
                    side_bid[k] = side_bid.get(k, 0) + n
                n = min(n, total)
                if n == 0 and o["zero_bid_is_nil"]:
                    n = 1
                calls.append({"seat": table.seats[i], "call": str(n)})
        if o["bidding_rounds"] == 2:
            calls += _second_round(rng, rules, table, state, calls, daring)
        try:
            _read_calls({"calls": calls}, rules, table, state)
            return calls
        except RecordError:
            continue
    raise RuntimeError(f"no legal bidding found for rules {o}")  # pragma: no cover


def _second_round(
    rng: random.Random,
    rules: SpadesRules,
    table: Table,
    state: dict[str, Any],
    calls: list[Any],
    daring: bool,
) -> list[dict[str, Any]]:
    """Second-round calls: mostly passes, sometimes a raise of the side's bid by one."""
    if rules.options["bidding"] == "consult" and rules.partnership:
        return [
            {"side": table.sides[k], "call": "pass"}
            for k in table.consult_order
            if not any(
                c.get("side") == table.sides[k] and c["call"].startswith("blind") for c in calls
            )
        ]
    try:
        first = _read_calls(
            {
                "calls": calls
                + [
                    {"seat": table.seats[i], "call": "pass"}
                    for i in table.bid_order
                    if not any(c.get("side") == table.sides[table.side_of[i]] for c in calls)
                ]
            },
            rules,
            table,
            state,
        )
    except RecordError:
        return []
    out = []
    for i in table.bid_order:
        k = table.side_of[i]
        if any(c.get("side") == table.sides[k] for c in calls):
            continue
        bid = first.bid[k]
        if (
            daring
            and rng.random() < 0.2
            and first.nil[i] is None
            and first.kind[k] in ("num", "nils")
            and bid < rules.total_tricks
        ):
            first.bid[k] = bid + 1
            out.append({"seat": table.seats[i], "call": str(bid + 1)})
        else:
            out.append({"seat": table.seats[i], "call": "pass"})
    return out


def _exchange(
    rng: random.Random, rules: SpadesRules, table: Table, bids: Any, hands: list[int]
) -> list[dict[str, Any]]:
    o = rules.options
    if not rules.partnership:
        return []
    out = []
    for members in table.members:
        nils = [bids.nil[i] for i in members if bids.nil[i]]
        if not nils or "dbn" in nils or (len(nils) == 2 and not o["exchange_when_both_nil"]):
            continue
        count = o["double_nil_exchange"] if "dnil" in nils else o["nil_exchange"]
        if not count:
            continue
        a, b = members
        give_a = rng.sample(cards_in(hands[a]), count)
        give_b = rng.sample(cards_in(hands[b]), count)
        for c in give_a:
            hands[a] ^= 1 << c
        for c in give_b:
            hands[b] ^= 1 << c
        for c in give_a:
            hands[b] |= 1 << c
        for c in give_b:
            hands[a] |= 1 << c
        for giver, taker, cards in ((a, b, give_a), (b, a, give_b)):
            out.append(
                {"from": table.seats[giver], "to": table.seats[taker], "cards": names(cards)}
            )
    return out


def _play(
    rng: random.Random,
    rules: SpadesRules,
    table: Table,
    bids: Any,
    hands: list[int],
    orders: list[list[int]],
) -> tuple[list[list[str]], list[int]]:
    n = len(hands)
    o = rules.options
    masks = rules.suit_masks
    blind = [i == table.dummy or bids.nil[i] == "dbn" for i in range(n)]
    top = [list(cards) for cards in orders]
    broken = not o["spades_broken"]
    lowest_clubs = o["first_lead"] == "lowest-clubs"
    leader = _first_leader(rules, table, bids, hands)
    won = [0] * n
    play = []
    for t in range(rules.total_tricks):
        trick: list[int] = []
        s = leader
        led = None
        for _ in range(n):
            h = hands[s]
            if blind[s]:
                c = top[s].pop(0)
            else:
                if lowest_clubs and t == 0:
                    clubs = h & masks[CLUBS]
                    options = (
                        [(clubs & -clubs).bit_length() - 1]
                        if clubs
                        else cards_in(h & ~masks[SPADES]) or cards_in(h)
                    )
                elif led is None:
                    options = cards_in(h & ~masks[SPADES]) if not broken else []
                    options = options or cards_in(h)
                else:
                    options = cards_in(h & masks[led]) or cards_in(h)
                c = rng.choice(options)
            if led is None:
                led = rules.suit[c]
            hands[s] ^= 1 << c
            trick.append(c)
            s = (s + 1) % n
        key = rules.keys[rules.suit[trick[0]]]  # the suit led
        best = max(range(n), key=lambda j: key[trick[j]])
        winner = (leader + best) % n
        if any(rules.suit[c] == SPADES for c in trick):
            broken = True
        won[winner] += 1
        leader = winner if winner != table.dummy else (winner + 1) % n
        play.append([NAMES[c] for c in trick])
    return play, won
