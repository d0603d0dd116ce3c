// Card by card for a game of two players with a stock (German Whist): after each of the first
// 13 tricks the winner takes the stock's turned card and the loser the face-down card beneath
// it. The scorer taps each turned card before its trick; the face-down cards are never shown,
// so they are placed in the stock from the play: a card a player plays that was neither dealt
// to anyone nor turned is one of its face-down draws. Who won each trick is the engine's to
// say (`winners`, as far as it has answered); these plain functions only follow the cards
// (tested in tests/js/stock.test.mjs). Used by cards.js when #card-words has data-stock.

const PACK = [...'SHDC'].flatMap(suit => [...'AKQJT98765432'].map(rank => rank + suit));

/** The tricks that draw from the stock: the stock's 26 cards, two a trick. */
export const DRAWING = 13;

const otherOf = (seats, seat) => (seat === seats[0] ? seats[1] : seats[0]);

/** A hand with nothing tapped: the deal, the turned card of each drawing trick, the play. */
export function emptyStockHand(order) {
  return { deal: {}, play: [], turned: [], seat: order[0] };
}

/** The next tap names the stock's turned card: a drawing trick that has not begun yet. */
export function turnDue(hand) {
  return hand.play.length % 2 === 0 && hand.turned.length === hand.play.length / 2
    && hand.turned.length < DRAWING;
}

/** The last tap was a turned card (undo takes it back rather than a played card). */
export function lastWasTurn(hand) {
  return hand.play.length % 2 === 0 && hand.turned.length > hand.play.length / 2;
}

function dealtSet(hand) {
  return new Set(Object.values(hand.deal).flat());
}

/** The cards that may be turned up next: neither dealt, nor turned before, nor played. */
export function turnCandidates(hand) {
  const dealt = dealtSet(hand);
  return PACK.filter(card => !dealt.has(card) && !hand.turned.includes(card) && !hand.play.includes(card));
}

/**
 * Who played each card of the play (N or S), as far as the winners are known: the non-dealer
 * leads trick 1, each trick's winner the next. Shorter than the play where a winner is unknown.
 */
export function playersOf(hand, seats, dealer, winners) {
  const out = [];
  let leader = otherOf(seats, dealer);
  for (let at = 0; at < hand.play.length; at += 1) {
    const trick = Math.floor(at / 2);
    if (at % 2 === 0 && trick > 0) leader = winners[trick - 1] || null;
    if (!leader) break;
    out.push(at % 2 === 0 ? leader : otherOf(seats, leader));
  }
  return out;
}

/** A card played by `seat` that was neither dealt nor turned: one of its face-down draws. */
function faceDownPlayed(hand, seat, by) {
  const dealt = dealtSet(hand);
  return hand.play.filter((card, at) => by[at] === seat && !dealt.has(card) && !hand.turned.includes(card));
}

/**
 * The stock in order, as the record needs it: the turned cards at their places (1st, 3rd...),
 * each face-down card where the loser of its trick drew it, and what nobody has seen yet in
 * pack order. A player's face-down cards are taken as drawn in the order it played them (the
 * earliest played, the earliest drawn): any order that lets each be held when played replays
 * alike, and a card played before its player can have drawn it is left for the engine to refuse.
 */
export function stockOf(hand, seats, dealer, winners) {
  const dealt = dealtSet(hand);
  const stock = new Array(2 * DRAWING).fill(null);
  hand.turned.forEach((card, trick) => { if (trick < DRAWING) stock[2 * trick] = card; });
  const by = playersOf(hand, seats, dealer, winners);
  for (const seat of seats) {
    const draws = [];
    for (let trick = 0; trick < Math.min(winners.length, DRAWING); trick += 1) {
      if (winners[trick] && winners[trick] !== seat) draws.push(2 * trick + 1);
    }
    faceDownPlayed(hand, seat, by).forEach((card, index) => {
      if (index < draws.length) stock[draws[index]] = card;
    });
  }
  const placed = new Set(stock.filter(Boolean));
  const rest = PACK.filter(card => !dealt.has(card) && !placed.has(card));
  return stock.map(card => card || rest.shift());
}

/**
 * What `seat` may hold now: its dealt cards and the turned cards it won, less those played,
 * and, while it has drawn more face-down cards than it has played, any card nobody has seen
 * yet. {cards: Set, exact} (exact: no unseen card among them); null while a winner of an
 * earlier drawing trick is unknown.
 */
export function mayHold(hand, seats, dealer, winners, seat) {
  const played = new Set(hand.play);
  const done = Math.min(Math.floor(hand.play.length / 2), DRAWING);
  const known = [...(hand.deal[seat] || [])];
  let draws = 0;
  for (let trick = 0; trick < done; trick += 1) {
    if (!winners[trick]) return null;
    if (winners[trick] === seat) known.push(hand.turned[trick]);
    else draws += 1;
  }
  const cards = new Set(known.filter(card => card && !played.has(card)));
  const by = playersOf(hand, seats, dealer, winners);
  const unseen = draws > faceDownPlayed(hand, seat, by).length;
  if (unseen) {
    const dealt = dealtSet(hand);
    for (const card of PACK) {
      if (!dealt.has(card) && !hand.turned.includes(card) && !played.has(card)) cards.add(card);
    }
  }
  return { cards, exact: !unseen };
}

/** The one card `seat` may play, when it is sure: its last card, or its one card of the suit
 * led (`led`: that suit, null when it leads). */
export function onlyCard(held, led) {
  if (!held || !held.exact) return null;
  const cards = [...held.cards];
  if (cards.length === 1) return cards[0];
  if (led) {
    const follow = cards.filter(card => card[1] === led);
    if (follow.length === 1) return follow[0];
  }
  return null;
}
