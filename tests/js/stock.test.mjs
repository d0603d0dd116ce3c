// German Whist card by card: the turned cards, who may hold what, and the stock the record
// needs (static/js/scoring/stock.js); the taps through cards.js with a stock.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { dealComplete, emptyHand, seatsFromDealer, tap, tricksOf } from '../../static/js/scoring/cards.js';
import { DRAWING, lastWasTurn, mayHold, onlyCard, playersOf, stockOf, turnCandidates, turnDue }
  from '../../static/js/scoring/stock.js';

const RANKS = [...'AKQJT98765432'];
const suit = letter => RANKS.map(rank => rank + letter);

/** N holds the spades, S the hearts; the stock the diamonds and clubs. */
function dealt() {
  const order = seatsFromDealer('NS', 'N');
  const hand = emptyHand(order);
  for (const card of [...suit('H'), ...suit('S')]) tap(hand, card, order, { stock: true });
  return { hand, order };
}

test('two players: the non-dealer is dealt to first, each hand is tapped whole (no seat filled in)', () => {
  const order = seatsFromDealer('NS', 'N');
  assert.deepEqual(order, ['S', 'N']);
  const hand = emptyHand(order);
  const said = suit('H').map(card => tap(hand, card, order, { stock: true }));
  assert.deepEqual(said.at(-1), { word: 'dealSeat', values: { seat: 'N', count: 0 } });
  assert.equal(hand.deal.N, undefined);  // not the 39 cards left
  for (const card of suit('S')) tap(hand, card, order, { stock: true });
  assert.ok(dealComplete(hand, order));
  assert.equal(hand.seat, null);
});

test('each drawing trick starts with its turned card; a dealt card cannot be turned', () => {
  const { hand, order } = dealt();
  assert.ok(turnDue(hand));
  assert.equal(tap(hand, 'AS', order, { stock: true }), null);
  assert.deepEqual(tap(hand, '2D', order, { stock: true }), { word: 'turned', card: '2D' });
  assert.ok(!turnDue(hand));
  assert.ok(lastWasTurn(hand));
  assert.equal(tap(hand, '2D', order, { stock: true }), null);  // face up: nobody plays it yet
  tap(hand, 'AH', order, { stock: true });
  assert.ok(!lastWasTurn(hand));
  tap(hand, 'AS', order, { stock: true });
  assert.ok(turnDue(hand));
  assert.ok(!turnCandidates(hand).includes('2D') && !turnCandidates(hand).includes('AH'));
  assert.equal(turnCandidates(hand).length, 26 - 1);
  assert.deepEqual(tricksOf(hand.play, 2), [['AH', 'AS']]);
});

test('who played each card follows from the winners; unknown winners stop it', () => {
  const hand = { deal: {}, play: ['AH', 'AS', '2S', '3H'], turned: [] };
  assert.deepEqual(playersOf(hand, 'NS', 'N', ['S', 'N']), ['S', 'N', 'S', 'N']);
  assert.deepEqual(playersOf(hand, 'NS', 'N', ['N']), ['S', 'N', 'N', 'S']);
  assert.deepEqual(playersOf(hand, 'NS', 'N', []), ['S', 'N']);
});

test('a player may hold its dealt cards, the turned cards it won, and unseen cards while it owes a draw', () => {
  const { hand } = dealt();
  hand.turned = ['2D'];
  hand.play = ['AH', 'AS'];  // S leads (N deals); trick 1 won by N (trumps: diamonds, neither)
  const north = mayHold(hand, 'NS', 'N', ['N'], 'N');
  assert.ok(north.cards.has('2D') && !north.cards.has('AS') && north.exact);
  assert.ok(!north.cards.has('KH'));  // S's
  const south = mayHold(hand, 'NS', 'N', ['N'], 'S');
  assert.ok(!south.exact && !south.cards.has('2D') && south.cards.has('3C') && south.cards.has('KH'));
  assert.equal(mayHold(hand, 'NS', 'N', [], 'S'), null);  // the winner not known yet
  assert.equal(onlyCard({ cards: new Set(['2D', 'KS']), exact: true }, 'D'), '2D');
  assert.equal(onlyCard({ cards: new Set(['2D', 'KS']), exact: false }, 'D'), null);
  assert.equal(onlyCard({ cards: new Set(['KS']), exact: true }, null), 'KS');
});

test('the stock: turned cards at 1st, 3rd...; a played face-down card where its player drew it before playing it', () => {
  const { hand } = dealt();
  hand.turned = ['2D', '3D'];
  // trick 1: S AH, N AS -> N wins (the ranks alone say nothing: the engine names the winner);
  // trick 2: N leads KS, S plays 5C (a face-down card S drew after trick 1)
  hand.play = ['AH', 'AS', 'KS', '5C'];
  const stock = stockOf(hand, 'NS', 'N', ['N', 'N']);
  assert.equal(stock.length, 2 * DRAWING);
  assert.equal(stock[0], '2D');
  assert.equal(stock[2], '3D');
  assert.equal(stock[1], '5C');  // S lost trick 1
  assert.equal(new Set(stock).size, 26);
  assert.ok(stock.every(card => !suit('S').includes(card) && !suit('H').includes(card)));
});

test('the stock: a face-down card is not held where its player showed void in its suit', () => {
  const { hand } = dealt();
  hand.turned = ['2D', '3D', '4D'];
  // N wins every trick (S draws after each); in trick 3 N leads 2D, the turned card it won,
  // and S plays a heart: void in diamonds then, so the diamond S plays in trick 4 was drawn
  // after trick 3, not after trick 1 (drawn earlier, S would have revoked in trick 3)
  hand.play = ['AH', 'AS', 'KS', 'KH', '2D', 'QH', 'QS', '7D'];
  const stock = stockOf(hand, 'NS', 'N', ['N', 'N', 'N', 'N']);
  assert.equal(stock.indexOf('7D'), 5, stock.join(' '));  // S's draw after trick 3
  assert.ok(!stock.slice(0, 5).filter((card, at) => at % 2).some(card => card[1] === 'D'));
});
