// A duplicate board in a few taps (static/js/duplicate/pad.js): the questions of a board, what
// the phone fills in itself, and the form controls each answer sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { answer, current, keep, plan } from '../../static/js/duplicate/pad.js';

const BIDS = [{ value: 'nil', label: 'Nil' }, ...Array.from({ length: 14 }, (_, n) => ({ value: String(n), label: String(n) }))];
const seats = ['N', 'E', 'S', 'W'];
const spades = {
  game: 'spades', total: 13, order: ['E', 'S', 'W', 'N'], bids: BIDS,
  prompts: { bid: Object.fromEntries(seats.map(s => [s, `Bid of ${s}`])), tricks: Object.fromEntries(seats.map(s => [s, `Tricks of ${s}`])) },
};
const whist = (trumps, honours) => ({
  game: 'whist', total: 13, trumps, honours,
  prompts: { tricksNS: 'Tricks taken by NS', tricksEW: 'EW', trump: 'Trumps', honours: 'Honours' },
});

function tapAll(spec, values) {
  let answers = {};
  let complete = false;
  for (const value of values) {
    const shown = current(plan(spec, answers).questions);
    assert.ok(shown, `a question for ${value}`);
    ({ answers, complete } = answer(spec, answers, shown.key, value));
  }
  return { answers, complete, ...plan(spec, answers) };
}

test('Spades: four bids in bidding order, then N, E and S tricks; W is derived', () => {
  const done = tapAll(spades, ['3', '4', '3', '5', '2', '5', '3']);
  assert.equal(done.complete, true);
  assert.deepEqual(done.questions.map(q => q.key),
    ['call_E', 'call_S', 'call_W', 'call_N', 'tricks_N', 'tricks_E', 'tricks_S']);
  assert.deepEqual(done.writes, {
    call_E: '3', call_S: '4', call_W: '3', call_N: '5', tricks_N: '2', tricks_E: '5', tricks_S: '3', tricks_W: '3',
  });
});

test('Spades: a count above what is left is not offered; a larger count drops the later ones', () => {
  const answers = { tricks_N: '9', tricks_E: '3' };
  const south = plan(spades, answers).questions.find(q => q.key === 'tricks_S');
  assert.deepEqual(south.choices.filter(c => !c.disabled).map(c => c.value), ['0', '1']);
  assert.equal(plan(spades, answers).writes.tricks_W, '');  // nothing derived before the last count
  assert.deepEqual(keep(spades, { tricks_N: '12', tricks_E: '3', tricks_S: '1' }), { tricks_N: '12' });
});

test('Whist: trumps only for a board without its turned card, N/S tricks, honours where counted', () => {
  const suits = [{ value: 'S', label: '♠ Spades' }, { value: 'H', label: '♥ Hearts' }];
  const turned = tapAll(whist(null, false), ['8']);
  assert.equal(turned.complete, true);
  assert.deepEqual(turned.writes, { tricks_NS: '8' });
  assert.equal(turned.derived[0].answer, '5');
  const named = tapAll(whist(suits, true), ['H', '6', '3']);
  assert.deepEqual(named.questions.map(q => q.key), ['trump', 'tricks_NS', 'honours_NS']);
  assert.deepEqual(named.writes, { trump: 'H', tricks_NS: '6', honours_NS: '3' });
});
