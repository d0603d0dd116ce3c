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

/** The tricks (0-based) in which `seat`, following, showed it held no card of the suit led. */
function voids(hand, seat, by) {
  const out = [];
  for (let at = 1; at < hand.play.length; at += 2) {
    if (by[at] === seat && hand.play[at][1] !== hand.play[at - 1][1]) out.push([(at - 1) / 2, hand.play[at - 1][1]]);
  }
  return out;
}

/**
 * The stock in order, as the record needs it: the turned cards at their places (1st, 3rd...),
 * and in the others the face-down card the loser of each trick drew. Those are never shown, so
 * they are placed so that the replay holds each only when the play allows it: a card a player
 * played that was neither dealt nor turned was drawn by that player before it was played and
 * after the last trick where it showed no card of its suit; a draw not played yet gets a card
 * nobody has seen, of a suit its player has not shown void in since (a matching of the draws
 * to the cards, the played ones first). Any placement the play allows replays alike; where none
 * does, the engine names the card. The places no trick has reached yet take the rest.
 */
export function stockOf(hand, seats, dealer, winners) {
  const dealt = dealtSet(hand);
  const stock = new Array(2 * DRAWING).fill(null);
  hand.turned.forEach((card, trick) => { if (trick < DRAWING) stock[2 * trick] = card; });
  const by = playersOf(hand, seats, dealer, winners);
  const shown = Object.fromEntries([...seats].map(seat => [seat, voids(hand, seat, by)]));
  const draws = [];  // {seat, trick}: each face-down draw whose loser the engine has named
  for (let trick = 0; trick < Math.min(winners.length, DRAWING); trick += 1) {
    if (winners[trick]) draws.push({ seat: otherOf(seats, winners[trick]), trick });
  }
  const played = [];  // {card, seat, played, after}
  hand.play.forEach((card, at) => {
    if (!by[at] || dealt.has(card) || hand.turned.includes(card)) return;
    const trick = Math.floor(at / 2);
    const after = Math.max(-1, ...shown[by[at]].filter(([t, suit]) => t < trick && suit === card[1]).map(([t]) => t));
    played.push({ card, seat: by[at], played: trick, after });
  });
  const unseen = PACK.filter(card => !dealt.has(card) && !hand.turned.includes(card) && !hand.play.includes(card))
    .map(card => ({ card }));
  const fits = (draw, item) => {
    if (item.seat) return item.seat === draw.seat && item.after <= draw.trick && draw.trick < item.played;
    return !shown[draw.seat].some(([t, suit]) => t > draw.trick && suit === item.card[1]);
  };
  const holder = new Map();  // draw -> item
  const drawOf = new Map();  // item -> draw
  function augment(item, seen) {
    for (const draw of draws) {
      if (seen.has(draw) || !fits(draw, item)) continue;
      seen.add(draw);
      const other = holder.get(draw);
      if (!other || augment(other, seen)) {
        holder.set(draw, item);
        drawOf.set(item, draw);
        return true;
      }
    }
    return false;
  }
  for (const item of played) augment(item, new Set());
  for (const item of unseen) {
    if (drawOf.size >= draws.length) break;
    augment(item, new Set());
  }
  for (const [draw, item] of holder) stock[2 * draw.trick + 1] = item.card;
  const left = PACK.filter(card => !dealt.has(card) && !stock.includes(card));
  return stock.map(card => card || left.shift());
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
