// The hand in a few taps (issue 28, item 4): the questions a table answers for one hand, one at
// a time on a pad of big buttons (a bid, a count of tricks, a suit, a seat), and what follows
// from the answers (the other side's tricks, the last seat's). No DOM here: the page
// (scoring.js) draws the pad and writes each answer into the game's form
// (templates/tournaments/scoring/_<game>.html), which the game module reads as before; the
// engine checks and scores what is sent. Unit tests: tests/js/pad.test.mjs.
//
// plan(context, answers) -> {questions, derived, writes}
// - context: {game, form (config.form), layout (config.layouts[dealer]), seats, sides, total,
//   names ({seat: who}), choices(control) -> [{value, label}] (a select's or radios' options), T};
// - answers: {key: value} as tapped so far;
// - questions: [{key, prompt, choices: [{value, label, disabled?}], answer, kind}] in the order
//   the table answers them (short: the seat or side it is about, for the list of answers; a later question may depend on an earlier answer: a nil asks for
//   tricks seat by seat; Prop and cop asks for the partner);
// - derived: [{key, prompt, answer}] the values the page fills in itself;
// - writes: [{control, value}] the form controls to set: control is {select} (a CSS selector),
//   {radio} (a radio group's name) or {count: [kind, key]} (a stepper's input).
//
// Tricks per seat where the record needs them: the hand record (hand/1, the spec's "summary
// record: bids and tricks per player") states Spades tricks per seat, so the pad asks each seat
// but the last for its own tricks (the last is derived: the total is fixed) and never writes a
// count nobody gave. A Solo Whist hand is asked the declarer's (and partner's) tricks, the
// spec's summary record ("tricks taken by the declaring side"), and the record states that
// count alone (`tricks` {"NE": 9}: docs/scoring.md), nothing about each defender.

import { fmt } from './text.js';

const NUMBER = /^\d+$/;
const BLIND_NUMBER = /^blind-\d+$/;

/** Whole numbers from..to as pad choices, those above `most` disabled. */
export function counts(from, to, most = to) {
  const out = [];
  for (let n = from; n <= to; n += 1) out.push({ value: String(n), label: String(n), disabled: n > most });
  return out;
}

/** Is a Spades call one whose seat's own tricks matter (a nil of any kind)? */
export function isNilCall(call) {
  return Boolean(call) && !NUMBER.test(call) && !BLIND_NUMBER.test(call) && call !== 'moon'
    && call !== 'blind-moon' && call !== 'pass';
}

const seatWho = (context, seat) => (context.names && context.names[seat] ? `${seat} ${context.names[seat]}` : seat);
const sideWho = side => [...side].join('/');

/** Tricks seat by seat: every seat but the last is asked (its choices capped by what is left),
 * the last is derived (when the others leave it 0 or more). */
function seatTricks(context, seats, answers, { total }) {
  const questions = [];
  let used = 0;
  const asked = seats.slice(0, -1);
  for (const seat of asked) {
    const key = `tricks:${seat}`;
    const answer = answers[key] ?? null;
    questions.push({
      key, kind: 'tricks', answer, short: seat,
      prompt: fmt(context.T.padTricks, { who: seatWho(context, seat) }),
      choices: counts(0, total, total - used),
    });
    used += answer === null ? 0 : Number(answer);
  }
  const last = seats[seats.length - 1];
  const complete = asked.every(seat => answers[`tricks:${seat}`] != null);
  const derived = [{
    key: `tricks:${last}`, short: last, prompt: fmt(context.T.padTricks, { who: seatWho(context, last) }),
    answer: complete && used <= total ? String(total - used) : null,
  }];
  const writes = complete && used <= total
    ? seats.map(seat => ({ control: { count: ['tricks', seat] }, value: seat === last ? total - used : Number(answers[`tricks:${seat}`]) }))
    : [];
  return { questions, derived, writes };
}

/** The declaring side's tricks in Solo Whist, one count for the declarer (and partner): the
 * form's "declaring side" stepper; the defenders' count is only shown (the rest of 13). */
function declaringTricks(context, { who, otherWho, short, otherShort, answers }) {
  const key = 'tricks:declarer';
  const answer = answers[key] ?? null;
  const questions = [{
    key, kind: 'tricks', answer, short, prompt: fmt(context.T.padTricks, { who }), choices: counts(0, 13),
  }];
  const derived = [{ key: `${key}:others`, short: otherShort, prompt: fmt(context.T.padTricks, { who: otherWho }),
                     answer: answer === null ? null : String(13 - Number(answer)) }];
  const writes = answer === null ? [] : [
    { control: { radio: 'solo-tricks' }, value: 'side' },
    { control: { count: ['tricks', 'declaring'] }, value: Number(answer) },
  ];
  return { questions, derived, writes };
}

function spades(context, answers) {
  const { layout, form, T, total } = context;
  const questions = [];
  const writes = [];
  if (form.consult) {
    for (const side of layout.consult) {
      const control = `[data-side-call="${side}"]`;
      const key = `call:${side}`;
      const answer = answers[key] ?? null;
      questions.push({ key, kind: 'bid', answer, short: sideWho(side), prompt: fmt(T.padBid, { who: sideWho(side) }),
                       choices: context.choices(control) });
      if (answer !== null) writes.push({ control: { select: control }, value: answer });
    }
  } else {
    for (const seat of layout.order) {
      const control = `[data-bid-seat="${seat}"]`;
      const key = `bid:${seat}`;
      const answer = answers[key] ?? null;
      questions.push({ key, kind: 'bid', answer, short: seat, prompt: fmt(T.padBid, { who: seatWho(context, seat) }),
                       choices: context.choices(control) });
      if (answer !== null) writes.push({ control: { select: control }, value: answer });
    }
  }
  // Every seat's own tricks (the last derived): the record states them per seat, and a count
  // per side would have to be split between partners by guessing.
  const tricks = seatTricks(context, layout.seats, answers, { total });
  return { questions: [...questions, ...tricks.questions], derived: tricks.derived,
           writes: [...writes, ...tricks.writes] };
}

function whist(context, answers) {
  const { T, form } = context;
  const questions = [];
  const writes = [];
  const trump = answers.trump ?? null;
  questions.push({ key: 'trump', kind: 'suit', answer: trump, prompt: T.padTrump, choices: context.choices('trump') });
  if (trump !== null) writes.push({ control: { radio: 'trump' }, value: trump });
  const [first, second] = context.sides;
  const tricks = answers[`tricks:${first}`] ?? null;
  questions.push({ key: `tricks:${first}`, kind: 'tricks', answer: tricks, short: sideWho(first),
                   prompt: fmt(T.padTricks, { who: sideWho(first) }), choices: counts(0, 13) });
  const derived = [{ key: `tricks:${second}`, short: sideWho(second), prompt: fmt(T.padTricks, { who: sideWho(second) }),
                     answer: tricks === null ? null : String(13 - Number(tricks)) }];
  if (tricks !== null) {
    writes.push({ control: { count: ['tricks', first] }, value: Number(tricks) },
                { control: { count: ['tricks', second] }, value: 13 - Number(tricks) });
  }
  if (form.honours) {
    const held = answers.honours ?? null;
    questions.push({ key: 'honours', kind: 'choice', answer: held, prompt: T.padHonours, choices: context.choices('honours') });
    if (held !== null) writes.push({ control: { radio: 'honours' }, value: held });
  }
  return { questions, derived, writes };
}

function germanWhist(context, answers) {
  const seats = [...context.seats];
  return seatTricks(context, seats, answers, { total: context.total });
}

/** Solo Whist: the contract, its declarer (and partner, or the abundance overcalled), the
 * named trumps, the turned card, and the declarer's tricks. */
function soloWhist(context, answers) {
  const { T, form } = context;
  const seats = [...context.seats];
  const questions = [];
  const writes = [];
  const ask = (key, kind, prompt, choices, control, short = '') => {
    const answer = answers[key] ?? null;
    questions.push({ key, kind, answer, prompt, choices, short });
    if (answer !== null) writes.push({ control, value: answer });
    return answer;
  };
  const seatChoices = (except = []) => seats.map(seat => ({ value: seat, label: seatWho(context, seat), disabled: except.includes(seat) }));
  const bid = ask('contract', 'choice', T.padContract, context.choices('[data-solo-bid]'), { select: '[data-solo-bid]' });
  const played = bid !== null && bid !== 'pass';
  let declarer = null;
  let partner = null;
  if (played) {
    declarer = ask('declarer', 'seat', T.padDeclarer, seatChoices(), { radio: 'declarer' });
    if (bid === 'prop') partner = ask('partner', 'seat', T.padPartner, seatChoices([declarer]), { radio: 'partner' });
    if (bid === 'abundance-in-trumps') ask('overcalled', 'seat', T.padOvercalled, seatChoices([declarer]), { radio: 'overcalled' });
    if ((form.names_trump || []).includes(bid)) ask('named-trump', 'suit', T.padNamedTrump, context.choices('solo-trump'), { radio: 'solo-trump' });
  }
  if (form.turned && bid !== 'pass') {
    ask('turned-rank', 'rank', T.padTurnedRank, context.choices('[data-turned-rank]'), { select: '[data-turned-rank]' });
    ask('turned-suit', 'suit', T.padTurnedSuit, context.choices('turned-suit'), { radio: 'turned-suit' });
  }
  let derived = [];
  if (played && declarer !== null && (bid !== 'prop' || partner !== null)) {
    const group = bid === 'prop' ? seats.filter(seat => seat === declarer || seat === partner) : [declarer];
    const others = seats.filter(seat => !group.includes(seat));
    const tricks = declaringTricks(context, {
      who: group.map(seat => seatWho(context, seat)).join(' + '),
      otherWho: others.join(' + '), short: group.join('+'), otherShort: others.join('+'), answers,
    });
    questions.push(...tricks.questions);
    writes.push(...tricks.writes);
    derived = tricks.derived;
  }
  return { questions, derived, writes };
}

const PLANS = { spades, whist, 'german-whist': germanWhist, 'solo-whist': soloWhist };

/** The questions of one hand, what follows from the answers, and the form controls to set. */
export function plan(context, answers = {}) {
  const make = PLANS[context.game];
  if (!make) return { questions: [], derived: [], writes: [] };
  return make(context, answers);
}

/** The answers that still mean something after a change (an answer to a question no longer
 * asked is dropped, and so is a choice no longer offered: a count above what is left). */
export function keepAnswers(context, answers) {
  let kept = { ...answers };
  for (let round = 0; round < 4; round += 1) {
    const { questions } = plan(context, kept);
    const next = {};
    for (const question of questions) {
      const value = kept[question.key];
      if (value == null) continue;
      const choice = question.choices.find(c => c.value === String(value));
      if (choice && !choice.disabled) next[question.key] = String(value);
    }
    if (Object.keys(next).length === Object.keys(kept).length) return next;
    kept = next;
  }
  return kept;
}

/** The question to show on the pad: the one chosen (tapped to change), else the first one
 * unanswered, else null (all answered). */
export function current(questions, chosen = null) {
  if (chosen && questions.some(question => question.key === chosen)) return questions.find(question => question.key === chosen);
  return questions.find(question => question.answer === null) || null;
}

/** After tapping `value` for question `key`: the new answers (later answers that no longer fit
 * are dropped by keepAnswers) and the question to show next (the next unanswered one). */
export function answer(context, answers, key, value) {
  const next = keepAnswers(context, { ...answers, [key]: String(value) });
  const { questions } = plan(context, next);
  const at = questions.findIndex(question => question.key === key);
  const after = questions.slice(at + 1).find(question => question.answer === null)
    || questions.find(question => question.answer === null) || null;
  return { answers: next, show: after ? after.key : null };
}
