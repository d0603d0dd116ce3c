// The hand in a few taps (static/js/scoring/pad.js): which questions each game asks, in which
// order, what the page fills in itself, and which form controls each answer sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { answer, counts, current, isNilCall, keepAnswers, plan } from '../../static/js/scoring/pad.js';

const T = {
  padBid: '%(who)s bids', padTricks: 'Tricks of %(who)s', padTrump: 'Trumps', padHonours: 'Honours',
  padContract: 'Contract', padDeclarer: 'Declarer', padPartner: 'Partner', padOvercalled: 'Overcalled',
  padNamedTrump: 'Named trumps', padTurnedRank: 'Turned rank', padTurnedSuit: 'Turned suit',
};

const BIDS = [...counts(0, 13).map(({ value }) => ({ value, label: value })), { value: 'nil', label: 'Nil' }];
const SUITS = ['S', 'H', 'D', 'C'].map(value => ({ value, label: value }));

function layout(dealer) {
  const seats = [...'NESW'];
  const at = seats.indexOf(dealer);
  const order = [...seats.slice(at + 1), ...seats.slice(0, at + 1)];
  return {
    seats, order, dummy: null, sides: ['NS', 'EW'],
    members: { NS: ['N', 'S'], EW: ['E', 'W'] },
    sideOf: { N: 'NS', S: 'NS', E: 'EW', W: 'EW' },
    consult: dealer === 'N' || dealer === 'S' ? ['EW', 'NS'] : ['NS', 'EW'],
  };
}

const spades = (form = {}) => ({
  game: 'spades', form: { partnership: true, consult: false, ...form }, layout: layout('N'),
  seats: 'NESW', sides: ['NS', 'EW'], total: 13, names: {}, T,
  choices: () => BIDS,
});

/** Tap the values in order, each on the question the pad shows next. */
function tapAll(context, values) {
  let answers = {};
  let shown = current(plan(context, answers).questions);
  for (const value of values) {
    assert.ok(shown, `a question for ${value}`);
    ({ answers } = answer(context, answers, shown.key, value));
    shown = current(plan(context, answers).questions);
  }
  return { answers, shown, ...plan(context, answers) };
}

const tricksOf = writes => Object.fromEntries(writes.filter(w => w.control.count).map(w => [w.control.count[1], w.value]));

test('partnership Spades without a nil: four bids in bidding order, then each seat\'s tricks but the last', () => {
  const done = tapAll(spades(), ['4', '3', '7', '6', '2', '3', '4']);
  assert.deepEqual(done.questions.map(q => q.key),
    ['bid:E', 'bid:S', 'bid:W', 'bid:N', 'tricks:N', 'tricks:E', 'tricks:S']);
  assert.equal(done.shown, null);  // seven taps, nothing left to ask
  assert.deepEqual(done.derived.map(d => [d.key, d.answer]), [['tricks:W', '4']]);  // 13 - 9
  assert.deepEqual(done.writes.filter(w => w.control.select).map(w => [w.control.select, w.value]), [
    ['[data-bid-seat="E"]', '4'], ['[data-bid-seat="S"]', '3'], ['[data-bid-seat="W"]', '7'], ['[data-bid-seat="N"]', '6'],
  ]);
  // every seat's own count as given (none invented): the record states tricks per seat
  assert.deepEqual(tricksOf(done.writes), { N: 2, E: 3, S: 4, W: 4 });
});

test('a nil asks the tricks seat by seat, the last seat filled in', () => {
  const done = tapAll(spades(), ['nil', '3', '7', '6', '1', '5', '4']);
  assert.deepEqual(done.questions.slice(4).map(q => q.key), ['tricks:N', 'tricks:E', 'tricks:S']);
  assert.deepEqual(done.derived, [{ key: 'tricks:W', short: 'W', prompt: 'Tricks of W', answer: '3' }]);
  assert.deepEqual(tricksOf(done.writes), { N: 1, E: 5, S: 4, W: 3 });
});

test('a count above what is left is not offered, and nothing is written before the last count', () => {
  const context = spades();
  const answers = { 'bid:E': 'nil', 'bid:S': '3', 'bid:W': '7', 'bid:N': '6', 'tricks:N': '9', 'tricks:E': '3' };
  const { questions, writes } = plan(context, answers);
  const south = questions.find(q => q.key === 'tricks:S');
  assert.deepEqual(south.choices.filter(c => !c.disabled).map(c => c.value), ['0', '1']);
  assert.equal(tricksOf(writes).N, undefined);
});

test('changing a bid from nil back to a number keeps the seats\' tricks (asked the same way)', () => {
  const context = spades();
  const answers = { 'bid:E': 'nil', 'bid:S': '3', 'bid:W': '7', 'bid:N': '6', 'tricks:N': '1', 'tricks:E': '0', 'tricks:S': '4' };
  const after = answer(context, answers, 'bid:E', '4');
  assert.deepEqual(Object.keys(after.answers).sort(),
    ['bid:E', 'bid:N', 'bid:S', 'bid:W', 'tricks:E', 'tricks:N', 'tricks:S']);
  assert.equal(after.show, null);
  assert.deepEqual(tricksOf(plan(context, after.answers).writes), { N: 1, E: 0, S: 4, W: 8 });
});

test('individual (cutthroat) Spades asks each seat but the last for its tricks', () => {
  const context = { ...spades({ partnership: false }) };
  const done = tapAll(context, ['4', '3', '2', '1', '4', '3', '2']);
  assert.deepEqual(tricksOf(done.writes), { N: 4, E: 3, S: 2, W: 4 });
});

test('consulting partners: one bid a side, then the seats\' tricks', () => {
  const context = spades({ consult: true });
  const done = tapAll(context, ['5', '7', '3', '2', '4']);
  assert.deepEqual(done.questions.map(q => q.key), ['call:EW', 'call:NS', 'tricks:N', 'tricks:E', 'tricks:S']);
  assert.equal(done.shown, null);
  assert.deepEqual(tricksOf(done.writes), { N: 3, E: 2, S: 4, W: 4 });
});

test('a tap on an answered question shows it again; otherwise the first unanswered', () => {
  const { questions } = plan(spades(), { 'bid:E': '4' });
  assert.equal(current(questions).key, 'bid:S');
  assert.equal(current(questions, 'bid:E').key, 'bid:E');
  assert.equal(current(questions, 'nonsense').key, 'bid:S');
});

test('Whist: trumps, one side\'s tricks (the other derived), honours where they count', () => {
  const context = { game: 'whist', form: { honours: true }, seats: 'NESW', sides: ['NS', 'EW'], T,
                    choices: name => (name === 'trump' ? SUITS : [{ value: '2-2', label: '2-2' }]) };
  const done = tapAll(context, ['H', '8', '2-2']);
  assert.deepEqual(done.questions.map(q => q.key), ['trump', 'tricks:NS', 'honours']);
  assert.equal(done.derived[0].answer, '5');
  assert.deepEqual(done.writes.map(w => [Object.values(w.control)[0], w.value]), [
    ['trump', 'H'], [['tricks', 'NS'], 8], [['tricks', 'EW'], 5], ['honours', '2-2'],
  ]);
});

test('German Whist: one count, the other player\'s derived', () => {
  const context = { game: 'german-whist', form: {}, seats: 'NS', sides: ['N', 'S'], total: 13, T, choices: () => [] };
  const done = tapAll(context, ['8']);
  assert.equal(done.shown, null);
  assert.deepEqual(tricksOf(done.writes), { N: 8, S: 5 });
});

const solo = (form = {}) => ({
  game: 'solo-whist', form: { turned: true, names_trump: ['abundance'], ...form }, seats: 'NESW',
  sides: [], T, names: {},
  choices: name => ({
    '[data-solo-bid]': ['prop', 'solo', 'misere', 'abundance', 'pass'].map(value => ({ value, label: value })),
    '[data-turned-rank]': [...'AKQJT98765432'].map(value => ({ value, label: value })),
  }[name] || SUITS),
});

test('Solo Whist: contract, declarer, the turned card and the declarer\'s tricks', () => {
  const done = tapAll(solo(), ['solo', 'E', '7', 'H', '5']);
  assert.deepEqual(done.questions.map(q => q.key), ['contract', 'declarer', 'turned-rank', 'turned-suit', 'tricks:declarer']);
  assert.equal(done.shown, null);
  // the declaring side's count alone (the spec's summary record): nothing written for a defender
  assert.deepEqual(tricksOf(done.writes), { declaring: 5 });
  assert.ok(done.writes.some(w => w.control.radio === 'solo-tricks' && w.value === 'side'));
  assert.deepEqual(done.derived.map(d => [d.short, d.answer]), [['N+S+W', '8']]);
});

test('Solo Whist: Prop and cop asks the partner (never the declarer) and the pair\'s tricks', () => {
  const context = solo();
  const { questions } = plan(context, { contract: 'prop', declarer: 'E' });
  const partner = questions.find(q => q.key === 'partner');
  assert.equal(partner.choices.find(c => c.value === 'E').disabled, true);
  const done = tapAll(context, ['prop', 'E', 'W', 'A', 'S', '9']);
  // one count for the pair, never split between the partners
  assert.deepEqual(tricksOf(done.writes), { declaring: 9 });
  assert.equal(done.questions.find(q => q.key === 'tricks:declarer').short, 'E+W');
});

test('Solo Whist: an abundance names its trumps; all passing asks nothing more', () => {
  assert.ok(plan(solo(), { contract: 'abundance', declarer: 'S' }).questions.some(q => q.key === 'named-trump'));
  const passed = tapAll(solo(), ['pass']);
  assert.equal(passed.shown, null);
  assert.deepEqual(passed.questions.map(q => q.key), ['contract']);
});

test('keepAnswers drops an answer the new plan does not offer', () => {
  const context = solo();
  const kept = keepAnswers(context, { contract: 'solo', declarer: 'E', partner: 'W' });
  assert.deepEqual(kept, { contract: 'solo', declarer: 'E' });
});

test('what counts as a nil', () => {
  assert.deepEqual(['nil', 'double-nil', 'double-blind-nil', '4', 'blind-6', 'moon', ''].map(isNilCall),
    [true, true, true, false, false, false, false]);
});
