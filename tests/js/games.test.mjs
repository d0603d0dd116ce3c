// Each game's part of the scoring page: what its facts form sends the engine, what it asks
// the scorer to fix, which parts of the form it shows, and its lines under the checked score.
// The form is read through a fake `read` (the page's is form.js's formReader over the DOM).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FormError } from '../../static/js/scoring/form.js';
import { cardFacts, gameFor, games } from '../../static/js/scoring/games.js';
import { declaringSide, soloCalls, soloParts } from '../../static/js/scoring/games/solo_whist.js';
import { bidRowPlace } from '../../static/js/scoring/games/spades.js';
import { checkRows, scoreList } from '../../static/js/scoring/summary.js';

const T = {
  badNumber: '%(who)s: a whole number', chooseBid: 'Choose the bid of %(who)s', chooseTrump: 'trumps?',
  chooseHonours: 'honours?', choosePenalty: 'penalty?', chooseContract: 'contract?', chooseTurned: 'turned?',
  chooseDeclarer: 'declarer?', choosePartner: 'partner?', chooseOvercalled: 'overcalled?',
  score: 'Score', totals: 'Totals', games: 'Games', gamePoints: 'Game points', tricks: 'Tricks',
  contract: 'Contract', thrownIn: 'Thrown in', winner: 'Winner',
  solo: { abundance: 'Abundance', prop: 'Prop and cop' }, suits: { H: '♥ Hearts' },
};

/** The form as a scorer left it: values by selector, picked radios by name, steppers by kind:key. */
function fakeRead({ values = {}, picked = {}, counts = {} } = {}) {
  const read = {
    value: selector => values[selector] ?? '',
    picked: name => picked[name] ?? '',
    count(kind, key) {
      const text = String(counts[`${kind}:${key}`] ?? '0');
      if (!/^\d+$/.test(text)) throw new FormError(`${key}: a whole number`, `#${kind}-${key}`);
      return Number(text);
    },
    tricks: keys => Object.fromEntries(keys.map(key => [key, read.count('tricks', key)])),
  };
  return read;
}

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

const config = (game, form = {}) => ({
  game, seats: 'NESW', sides: ['NS', 'EW'], form,
  layouts: Object.fromEntries([...'NESW'].map(seat => [seat, layout(seat)])),
});

const tricks = { 'tricks:N': 3, 'tricks:E': 4, 'tricks:S': 3, 'tricks:W': 3 };

function throwsFormError(run, selector) {
  assert.throws(run, error => error instanceof FormError && error.selector === selector);
}

test('every game of the club has its module, and an unknown game has none', () => {
  assert.deepEqual(Object.keys(games).sort(), ['german-whist', 'solo-whist', 'spades', 'whist']);
  for (const game of Object.values(games)) {
    assert.equal(typeof game.facts, 'function');
    assert.equal(typeof game.arrange, 'function');
  }
  assert.equal(gameFor('bridge'), null);
  assert.equal(gameFor('toString'), null);
});

// -- Spades ---------------------------------------------------------------------------------------

test('spades: seat bids go in calling order from the dealer\'s left, with the tricks per seat', () => {
  const read = fakeRead({
    values: { '[data-bid-seat="N"]': '3', '[data-bid-seat="E"]': '4', '[data-bid-seat="S"]': 'nil', '[data-bid-seat="W"]': '2' },
    counts: tricks,
  });
  const facts = games.spades.facts({ dealer: 'W', read, config: config('spades', { partnership: true }), T });
  assert.deepEqual(facts.calls, [
    { seat: 'N', call: '3' }, { seat: 'E', call: '4' }, { seat: 'S', call: 'nil' }, { seat: 'W', call: '2' }]);
  assert.deepEqual(facts.tricks, { N: 3, E: 4, S: 3, W: 3 });
});

test('spades: a missing bid names the seat and its control', () => {
  const read = fakeRead({ values: { '[data-bid-seat="E"]': '4' }, counts: tricks });
  assert.throws(() => games.spades.facts({ dealer: 'N', read, config: config('spades', {}), T }),
    error => error instanceof FormError && error.message === 'Choose the bid of S'
      && error.selector === '[data-bid-seat="S"]');
});

test('spades: a side that bids blind nil calls first and its seats bid nothing', () => {
  const read = fakeRead({
    values: { '[data-blind-side="EW"]': 'blind-nil', '[data-bid-seat="N"]': '5', '[data-bid-seat="S"]': '4' },
    counts: tricks,
  });
  const facts = games.spades.facts({ dealer: 'W', read, config: config('spades', { partnership: true }), T });
  assert.deepEqual(facts.calls, [{ side: 'EW', call: 'blind-nil' }, { seat: 'N', call: '5' }, { seat: 'S', call: '4' }]);
});

test('spades: partners who consult bid as a side, nils by seat first, and a side with no bid is asked for one', () => {
  const rules = { partnership: true, consult: true };
  const read = fakeRead({
    values: { '[data-nil-seat="E"]': 'nil', '[data-side-call="EW"]': '4', '[data-side-call="NS"]': '6' },
    counts: tricks,
  });
  const facts = games.spades.facts({ dealer: 'N', read, config: config('spades', rules), T });
  assert.deepEqual(facts.calls, [{ seat: 'E', call: 'nil' }, { side: 'EW', call: '4' }, { side: 'NS', call: '6' }]);
  const missing = fakeRead({ values: { '[data-side-call="EW"]': '4' }, counts: tricks });
  assert.throws(() => games.spades.facts({ dealer: 'N', read: missing, config: config('spades', rules), T }),
    error => error.message === 'Choose the bid of N/S' && error.selector === '[data-side-call="NS"]');
});

test('spades: a second round adds each seat\'s raise, or a pass', () => {
  const read = fakeRead({
    values: { '[data-bid-seat="N"]': '3', '[data-bid-seat="E"]': '4', '[data-bid-seat="S"]': '3',
              '[data-bid-seat="W"]': '2', '[data-second-seat="S"]': '1' },
    counts: tricks,
  });
  const facts = games.spades.facts({ dealer: 'W', read, config: config('spades', { second_round: true }), T });
  assert.deepEqual(facts.calls.slice(4), [
    { seat: 'N', call: 'pass' }, { seat: 'E', call: 'pass' }, { seat: 'S', call: '1' }, { seat: 'W', call: 'pass' }]);
});

test('spades: bid rows follow the calling order, and a blind side\'s rows are hidden', () => {
  const north = layout('N');
  assert.deepEqual(bidRowPlace(north, new Set(), 'E'), { hidden: false, order: 0, badge: '1.' });
  assert.deepEqual(bidRowPlace(north, new Set(), 'N'), { hidden: false, order: 3, badge: '4.' });
  assert.deepEqual(bidRowPlace(north, new Set(['EW']), 'W'), { hidden: true, order: 2, badge: '3.' });
  const three = { ...north, order: ['E', 'S', 'N'] };  // a dummy seat does not call
  assert.deepEqual(bidRowPlace(three, new Set(), 'W'), { hidden: true, order: 99, badge: '' });
});

test('spades: a trick count that is not a whole number is the scorer\'s to fix', () => {
  const read = fakeRead({
    values: { '[data-bid-seat="N"]': '3', '[data-bid-seat="E"]': '4', '[data-bid-seat="S"]': '3', '[data-bid-seat="W"]': '2' },
    counts: { ...tricks, 'tricks:S': '3.5' },
  });
  throwsFormError(() => games.spades.facts({ dealer: 'W', read, config: config('spades', {}), T }), '#tricks-S');
});

// -- Whist ----------------------------------------------------------------------------------------

test('whist: trumps and tricks per side; honours where the rules count them', () => {
  const read = fakeRead({ picked: { trump: 'H', honours: '4-0' }, counts: { 'tricks:NS': 8, 'tricks:EW': 5 } });
  const facts = games.whist.facts({ read, config: config('whist', { honours: true }), T });
  assert.deepEqual(facts, { trump: 'H', tricks: { NS: 8, EW: 5 }, honours: { NS: 4, EW: 0 } });
  throwsFormError(() => games.whist.facts({ read: fakeRead({ picked: { trump: 'H' } }),
    config: config('whist', { honours: true }), T }), 'input[name="honours"]');
  throwsFormError(() => games.whist.facts({ read: fakeRead(), config: config('whist', {}), T }), 'input[name="trump"]');
});

test('whist: a revoke needs its penalty, and goes with it', () => {
  const counts = { 'tricks:NS': 7, 'tricks:EW': 6, 'revokes:E': 1 };
  throwsFormError(() => games.whist.facts({ read: fakeRead({ picked: { trump: 'S' }, counts }),
    config: config('whist', {}), T }), 'input[name="penalty"]');
  const facts = games.whist.facts({ read: fakeRead({ picked: { trump: 'S', penalty: 'transfer' }, counts }),
    config: config('whist', {}), T });
  assert.deepEqual(facts.revokes, [{ seat: 'E', count: 1 }]);
  assert.equal(facts.penalty, 'transfer');
});

test('whist card by card: the record takes the turned card and a penalty, not the trumps or tricks', () => {
  const read = fakeRead({ values: { '#cards-turned': '7C' }, picked: { trump: 'H', penalty: 'transfer' } });
  assert.deepEqual(cardFacts(games.whist, { read, config: config('whist', {}), T }), { turned: '7C', penalty: 'transfer' });
  assert.equal(games.whist.needsTurned, true);
});

test('spades card by card: the calls from the form, the tricks from the play', () => {
  const read = fakeRead({
    values: { '[data-bid-seat="N"]': '3', '[data-bid-seat="E"]': '4', '[data-bid-seat="S"]': '3', '[data-bid-seat="W"]': '2' },
  });
  const facts = cardFacts(games.spades, { dealer: 'W', read, config: config('spades', {}), T });
  assert.deepEqual(Object.keys(facts), ['calls']);
  assert.ok(!games.spades.needsTurned);
});

// -- Solo Whist -----------------------------------------------------------------------------------

test('solo whist: the contract becomes the shortest legal auction from the dealer\'s left', () => {
  const order = ['E', 'S', 'W', 'N'];
  assert.deepEqual(soloCalls(order, { bid: 'pass' }).map(c => c.call), ['pass', 'pass', 'pass', 'pass']);
  assert.deepEqual(soloCalls(order, { bid: 'prop', declarer: 'N', partner: 'S' }),
    [{ seat: 'E', call: 'pass' }, { seat: 'S', call: 'prop' }, { seat: 'W', call: 'pass' }, { seat: 'N', call: 'cop' }]);
  assert.deepEqual(soloCalls(order, { bid: 'abundance-in-trumps', declarer: 'E', overcalled: 'W' }), [
    { seat: 'E', call: 'solo' }, { seat: 'S', call: 'pass' }, { seat: 'W', call: 'abundance' }, { seat: 'N', call: 'pass' },
    { seat: 'E', call: 'abundance-in-trumps' }, { seat: 'W', call: 'pass' }]);
  assert.deepEqual(soloCalls(order, { bid: 'misere', declarer: 'W' }).map(c => c.call), ['pass', 'pass', 'misere', 'pass']);
});

test('solo whist: facts with the declarer, a named trump and the turned card', () => {
  const rules = { names_trump: ['abundance', 'abundance-in-trumps'], turned: true };
  const read = fakeRead({
    values: { '[data-solo-bid]': 'abundance', '[data-turned-rank]': '7' },
    picked: { declarer: 'E', 'turned-suit': 'C', 'solo-trump': 'H' },
    counts: { 'tricks:declaring': 10, 'tricks:N': 1, 'tricks:E': 10, 'tricks:S': 1, 'tricks:W': 1 },
  });
  const facts = games['solo-whist'].facts({ dealer: 'W', read, config: config('solo-whist', rules), T });
  assert.deepEqual(facts, {
    calls: [{ seat: 'N', call: 'pass' }, { seat: 'E', call: 'abundance' }, { seat: 'S', call: 'pass' }, { seat: 'W', call: 'pass' }],
    turned: '7C', trump: 'H', tricks: { E: 10 },
  });
  // a table that counted each player's tricks says so, and the record keeps each seat's count
  const bySeat = fakeRead({
    values: { '[data-solo-bid]': 'abundance', '[data-turned-rank]': '7' },
    picked: { declarer: 'E', 'turned-suit': 'C', 'solo-trump': 'H', 'solo-tricks': 'seats' },
    counts: { 'tricks:N': 1, 'tricks:E': 10, 'tricks:S': 1, 'tricks:W': 1 },
  });
  assert.deepEqual(games['solo-whist'].facts({ dealer: 'W', read: bySeat, config: config('solo-whist', rules), T }).tricks,
    { N: 1, E: 10, S: 1, W: 1 });
});

test('solo whist: prop and cop states the partners\' tricks as one count, the side named N E S W', () => {
  const rules = { names_trump: [], turned: true };
  const read = fakeRead({
    values: { '[data-solo-bid]': 'prop', '[data-turned-rank]': '2' },
    picked: { declarer: 'W', partner: 'N', 'turned-suit': 'H' },
    counts: { 'tricks:declaring': 9 },
  });
  const facts = games['solo-whist'].facts({ dealer: 'N', read, config: config('solo-whist', rules), T });
  assert.deepEqual(facts.tricks, { NW: 9 });
  assert.equal(declaringSide('NESW', 'S', 'E'), 'ES');
  assert.equal(declaringSide('NESW', 'S', null), 'S');
});

test('solo whist: what the contract still needs is asked for, control by control', () => {
  const rules = { names_trump: ['abundance'], turned: true };
  const solo = (values, picked = {}) => () => games['solo-whist'].facts({
    dealer: 'N', read: fakeRead({ values, picked }), config: config('solo-whist', rules), T });
  throwsFormError(solo({}), '[data-solo-bid]');
  throwsFormError(solo({ '[data-solo-bid]': 'solo' }), 'input[name="declarer"]');
  throwsFormError(solo({ '[data-solo-bid]': 'solo' }, { declarer: 'E' }), '[data-turned-rank]');
  const turned = { '[data-turned-rank]': '2' };
  throwsFormError(solo({ '[data-solo-bid]': 'prop', ...turned }, { 'turned-suit': 'H', declarer: 'E', partner: 'E' }),
    'input[name="partner"]');
  throwsFormError(solo({ '[data-solo-bid]': 'abundance-in-trumps', ...turned }, { 'turned-suit': 'H', declarer: 'E' }),
    'input[name="overcalled"]');
  // all pass: no turned card needed, no tricks
  assert.deepEqual(Object.keys(games['solo-whist'].facts({ dealer: 'N', read: fakeRead({ values: { '[data-solo-bid]': 'pass' } }),
    config: config('solo-whist', rules), T })), ['calls']);
});

test('solo whist: the form shows what the contract needs', () => {
  const rules = { names_trump: ['abundance'] };
  const side = { 'tricks-side': true, 'tricks-seats': false };
  assert.deepEqual(soloParts('prop', rules),
    { declarer: true, partner: true, overcalled: false, 'named-trump': false, turned: true, tricks: true, ...side });
  assert.deepEqual(soloParts('abundance', rules),
    { declarer: true, partner: false, overcalled: false, 'named-trump': true, turned: true, tricks: true, ...side });
  assert.deepEqual(soloParts('abundance', rules, 'seats'),
    { declarer: true, partner: false, overcalled: false, 'named-trump': true, turned: true, tricks: true,
      'tricks-side': false, 'tricks-seats': true });
  assert.deepEqual(soloParts('pass', rules),
    { declarer: false, partner: false, overcalled: false, 'named-trump': false, turned: false, tricks: false,
      'tricks-side': false, 'tricks-seats': false });
  assert.equal(soloParts('', rules).declarer, false);
});

// -- German Whist ---------------------------------------------------------------------------------

test('german whist: the tricks each of the two took', () => {
  const facts = games['german-whist'].facts({ read: fakeRead({ counts: { 'tricks:N': 8, 'tricks:S': 5 } }),
    config: { ...config('german-whist'), seats: 'NS' }, T });
  assert.deepEqual(facts, { tricks: { N: 8, S: 5 } });
});

// -- the checked score ----------------------------------------------------------------------------

test('the checked score is written with the one number rule: signed for the hand, plain for totals', () => {
  assert.equal(scoreList({ NS: '60', EW: '-50' }), 'N/S +60 · E/W \u221250');
  assert.equal(scoreList({ E: '21/2', N: '-7/2' }), 'E +10\u00bd · N \u22123\u00bd');
  assert.equal(scoreList({ NS: '129/4' }, { signed: false }), 'N/S 32\u00bc');
  assert.equal(scoreList({ NS: '0' }), 'N/S 0');
});

test('a solo whist check shows the contract under the score, other games do not', () => {
  const result = {
    ok: true, score: { N: '-7/2', E: '21/2', S: '-7/2', W: '-7/2' }, after: { score: { E: '21/2' } },
    tricks: { E: 10 }, contract: { bid: 'abundance', declarer: 'E', trump: 'H' },
  };
  assert.deepEqual(checkRows(result, T, games['solo-whist']), [
    ['Score', 'N \u22123\u00bd · E +10\u00bd · S \u22123\u00bd · W \u22123\u00bd'],
    ['Totals', 'E 10\u00bd'],
    ['Tricks', 'E 10'],
    ['Contract', 'E: Abundance ♥ Hearts'],
  ]);
  assert.deepEqual(checkRows({ ok: true, score: {}, contract: null }, T, games['solo-whist']).at(-1),
    ['Contract', 'Thrown in']);
  assert.deepEqual(checkRows({ ok: true, score: { NS: '3' }, winner: 'NS' }, T, games.spades),
    [['Score', 'N/S +3'], ['Winner', 'NS']]);
});
