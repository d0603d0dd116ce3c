// Card by card: what the page keeps of the deal and the play (the engine says what is legal).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RANKS, SUITS, cardLabel, dealComplete, emptyHand, holderOf, seatsFromDealer, tap, tricksOf }
  from '../../static/js/scoring/cards.js';

const suit = letter => RANKS.map(rank => rank + letter);

test('the deal and trick 1 start at the dealer\'s left', () => {
  assert.deepEqual(seatsFromDealer('NESW', 'N'), ['E', 'S', 'W', 'N']);
  assert.deepEqual(seatsFromDealer('NESW', 'W'), ['N', 'E', 'S', 'W']);
  assert.deepEqual(seatsFromDealer('NESW', null), ['N', 'E', 'S', 'W']);
});

test('thirteen cards move the deal to the next seat, and the fourth seat gets what is left', () => {
  const order = seatsFromDealer('NESW', 'N');
  const hand = emptyHand(order);
  assert.equal(hand.seat, 'E');
  const said = suit('S').map(card => tap(hand, card, order));
  assert.deepEqual(said.at(-1), { word: 'dealSeat', values: { seat: 'S', count: 0 } });
  assert.equal(hand.seat, 'S');
  assert.equal(tap(hand, 'AS', order), null);  // E holds it: nothing changes
  for (const card of suit('H')) tap(hand, card, order);
  const last = suit('D').map(card => tap(hand, card, order)).at(-1);
  assert.deepEqual(last, { word: 'dealDone' });
  assert.deepEqual(hand.deal.N, suit('C'));
  assert.ok(dealComplete(hand, order));
  assert.equal(hand.seat, null);
  assert.equal(holderOf(hand, 'TC'), 'N');
});

test('a card tapped twice while dealing goes back', () => {
  const order = seatsFromDealer('NESW', 'S');
  const hand = emptyHand(order);
  tap(hand, '2C', order);
  tap(hand, '2C', order);
  assert.deepEqual(hand.deal.W, []);
});

test('the play is every card in the order tapped, once each, cut into tricks of four', () => {
  const hand = { deal: {}, play: [], seat: null };
  for (const card of ['AS', 'KS', 'QS', 'JS', '2H']) assert.deepEqual(tap(hand, card, []), { word: 'played', card });
  assert.equal(tap(hand, 'AS', []), null);
  assert.deepEqual(tricksOf(hand.play), [['AS', 'KS', 'QS', 'JS'], ['2H']]);
});

test('cards are labelled as on the table: a ten is 10', () => {
  assert.equal(cardLabel('TH'), '10♥');
  assert.equal(cardLabel('AS'), 'A♠');
  assert.equal(SUITS.length * RANKS.length, 52);
});
