// A duplicate board in a few taps (issue 28, item 4): the questions the table answers for one
// board, one at a time, and what follows from the answers. No DOM here: the phone
// (duplicate/phone.js) reads the spec from the board's form (templates/tournaments/duplicate/
// _panel.html: its selects' options and labels), draws the pad and writes each answer into the
// form's own controls, which the server reads as before (views/duplicate.py, summary_record).
// Unit tests: tests/js/duplicate_pad.test.mjs.
//
// plan(spec, answers) -> {questions, derived, writes}
// - spec: {game: 'spades' | 'whist', order: seats in bidding order, bids: [{value, label}],
//   trumps: [{value, label}] or null (a board dealt by TrickTable has its turned card),
//   honours: bool (the event counts honours), total: tricks in a hand, prompts: {bid: {seat},
//   tricks: {seat}, tricksNS, tricksEW, trump, honours}};
// - answers: {control name: value} as tapped so far;
// - questions: [{key (the control's name), kind, short, prompt, choices, answer}] in order;
// - derived: [{key, short, prompt, answer}] what the phone fills in itself;
// - writes: {control name: value} for every control the pad sets (a Spades board's last
//   seat's tricks included once the others are in).
//
// Spades: the four bids in bidding order, then N's, E's and S's tricks (W's derived): the hand
// record states tricks per seat (hand/1; the spec's summary record), so each seat's own count
// is asked, never split by the phone. Whist: the trump suit where the board has no turned card,
// N/S's tricks (E/W's derived, as the server does) and the honours N/S held where they count.

const TRICK_SEATS = ['N', 'E', 'S', 'W'];

/** Whole numbers from..to as choices, those above `most` disabled. */
export function counts(from, to, most = to) {
  const out = [];
  for (let n = from; n <= to; n += 1) out.push({ value: String(n), label: String(n), disabled: n > most });
  return out;
}

function spades(spec, answers) {
  const questions = spec.order.map(seat => ({
    key: `call_${seat}`, kind: 'bid', short: seat, prompt: spec.prompts.bid[seat],
    choices: spec.bids, answer: answers[`call_${seat}`] ?? null,
  }));
  const total = spec.total;
  let used = 0;
  for (const seat of TRICK_SEATS.slice(0, -1)) {
    const key = `tricks_${seat}`;
    const answer = answers[key] ?? null;
    questions.push({ key, kind: 'tricks', short: seat, prompt: spec.prompts.tricks[seat],
                     choices: counts(0, total, total - used), answer });
    used += answer === null ? 0 : Number(answer);
  }
  const last = TRICK_SEATS[TRICK_SEATS.length - 1];
  const complete = TRICK_SEATS.slice(0, -1).every(seat => answers[`tricks_${seat}`] != null) && used <= total;
  const derived = [{ key: `tricks_${last}`, short: last, prompt: spec.prompts.tricks[last],
                     answer: complete ? String(total - used) : null }];
  const writes = {};
  for (const question of questions) writes[question.key] = question.answer ?? '';
  writes[`tricks_${last}`] = complete ? String(total - used) : '';
  return { questions, derived, writes };
}

function whist(spec, answers) {
  const questions = [];
  if (spec.trumps) {
    questions.push({ key: 'trump', kind: 'suit', short: '', prompt: spec.prompts.trump,
                     choices: spec.trumps, answer: answers.trump ?? null });
  }
  const tricks = answers.tricks_NS ?? null;
  questions.push({ key: 'tricks_NS', kind: 'tricks', short: 'NS', prompt: spec.prompts.tricksNS,
                   choices: counts(0, spec.total), answer: tricks });
  if (spec.honours) {
    questions.push({ key: 'honours_NS', kind: 'honours', short: 'NS', prompt: spec.prompts.honours,
                     choices: counts(0, 4), answer: answers.honours_NS ?? null });
  }
  const derived = [{ key: 'tricks_EW', short: 'EW', prompt: spec.prompts.tricksEW,
                     answer: tricks === null ? null : String(spec.total - Number(tricks)) }];
  const writes = {};
  for (const question of questions) writes[question.key] = question.answer ?? '';
  return { questions, derived, writes };
}

/** The questions of one board, what follows from the answers, and the controls to set. */
export function plan(spec, answers = {}) {
  return spec.game === 'spades' ? spades(spec, answers) : whist(spec, answers);
}

/** The answers that still fit (a count no longer offered is dropped, and so are the later
 * counts, which were chosen from what it left). */
export function keep(spec, answers) {
  const kept = {};
  let dropping = false;
  for (const question of plan(spec, answers).questions) {
    const value = answers[question.key];
    if (value == null) continue;
    const choice = question.choices.find(c => c.value === String(value));
    if (question.kind === 'tricks' && (dropping || !choice || choice.disabled)) { dropping = true; continue; }
    if (choice && !choice.disabled) kept[question.key] = String(value);
  }
  return kept;
}

/** The question to show: the one chosen (tapped to change), else the first unanswered. */
export function current(questions, chosen = null) {
  return questions.find(question => question.key === chosen)
    || questions.find(question => question.answer === null) || null;
}

/** After tapping `value` for `key`: the answers (what no longer fits dropped) and whether
 * every question is answered now. */
export function answer(spec, answers, key, value) {
  const next = keep(spec, { ...answers, [key]: String(value) });
  const { questions } = plan(spec, next);
  return { answers: next, complete: questions.every(question => question.answer !== null) };
}
