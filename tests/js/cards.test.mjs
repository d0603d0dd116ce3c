// Card by card: what the page keeps of the deal and the play (the engine says what is legal).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RANKS, SUITS, cardLabel, cardsLeft, dealComplete, emptyHand, fromLeader, holderOf, seatsFromDealer, tap, tricksOf, turn }
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

/** A hand dealt suit by suit: N all spades, E hearts, S diamonds, W clubs, except that N and E
 * swap their twos (N holds 2H, E holds 2S). */
function dealtBySuit() {
  const hand = emptyHand(['E', 'S', 'W', 'N']);
  hand.deal = { N: [...suit('S').slice(0, 12), '2H'], E: [...suit('H').slice(0, 12), '2S'],
                S: suit('D'), W: suit('C') };
  hand.seat = null;
  return hand;
}

test('the seat to play follows the leader the engine named, clockwise', () => {
  const hand = dealtBySuit();
  assert.deepEqual(fromLeader('NESW', 'W'), ['W', 'N', 'E', 'S']);
  assert.equal(turn(hand, 'NESW', 'W').seat, 'W');
  hand.play.push('AC');
  assert.deepEqual({ ...turn(hand, 'NESW', 'W'), only: undefined }, { seat: 'N', position: 2, only: undefined });
  assert.equal(turn(hand, 'NESW', null), null);  // no leader known: the page says nothing
});

test('a seat with one card of the suit led is offered that card, and not otherwise', () => {
  const hand = dealtBySuit();
  hand.play.push('AH');  // E leads a heart: N holds one heart (2H), S none
  assert.equal(turn(hand, 'NESW', 'E').seat, 'S');
  assert.equal(turn(hand, 'NESW', 'E').only, null);  // S has no heart: any of 13 cards
  hand.play.push('AD', 'AC');
  assert.deepEqual(turn(hand, 'NESW', 'E'), { seat: 'N', position: 4, only: '2H' });
  assert.deepEqual(cardsLeft(hand, 'N').length, 13);
});

test('the last card left is the only card', () => {
  const hand = dealtBySuit();
  hand.play = [...suit('C').slice(0, 12)];  // a pretend play: W has one club left
  assert.equal(turn(hand, 'NESW', 'W').only, '2C');
});
