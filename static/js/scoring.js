// The table scoring page (templates/tournaments/scoring/table.html): the entry module, no build
// step, no framework. It wires the page together; the parts live in static/js/scoring/:
//   api.js      one request with a time-out, the CSRF token and the scoring code
//   queue.js    the offline queue in localStorage, idempotency keys, retries with backoff
//   cards.js    card-by-card entry (the deal and every trick)
//   confirm.js  confirming and rejecting a hand (the one place)
//   numbers.js  how a score is written (the same rule as the pages, tests/data/numbers.json)
//   summary.js  the engine's answer to "Check the score", as rows
//   stream.js   the tournament's event stream, opened again with backoff
//   games/      one module per game (its facts form and summary), registered in games.js
//   form.js, errors.js, text.js, dom.js   reading the form, the API's error shape, helpers
//
// - The table token arrives in the URL fragment (#token=...) from the card's QR code. It is kept
//   in localStorage for this table only and removed from the address bar at once.
// - A hand is entered as the game's facts (or pasted as a full hand/1 record, or tapped card by
//   card: the deal, then every trick), checked by the
//   rules engine (POST /api/v1/hands/check) and then submitted with an idempotency key made once
//   per hand. The page never computes a score: every number shown comes from the engine.
// - A submission that cannot reach the server (offline, time-out, 5xx) waits in a queue in
//   localStorage (per table) and is sent again, always with the same key, when the phone is back
//   online and with backoff; a refusal (4xx with a code) is shown and not retried. The queue
//   outlives the page: reopened from the card, the page shows every queued hand and sends each
//   once. While a hand waits, the next one can be entered (its number and dealer follow from the
//   queued hand; the engine checks it when it is sent).
// - The page never needs a reload: confirm and reject call the API; after every action, every
//   event of the tournament's stream about this match (hand submitted, confirmed, rejected...)
//   and every 30 s the server-rendered hands fragment (/table/<id>/hands/) is fetched again. The
//   stream reconnects by itself, with backoff. The newest fragment is kept on the phone so that a
//   page the service worker brings back offline (HTTPS only) shows what the phone last saw.
// - Without a connection a banner says plainly that hands are kept on the phone.
// See docs/scoring-offline.md.
// Every string shown comes translated from the template (#scoring-strings).

import { createApi, pageCsrf } from './scoring/api.js';
import { createCardEntry } from './scoring/cards.js';
import { answerHand, keepAnswers, markHandOver } from './scoring/confirm.js';
import { $, $$, element, readJSON } from './scoring/dom.js';
import { errorItem, refusal } from './scoring/errors.js';
import { FormError, formReader } from './scoring/form.js';
import { cardFacts, gameFor } from './scoring/games.js';
import { wireKeypads } from './scoring/keypad.js';
import { answer as padAnswer, current as padCurrent, keepAnswers as keepPadAnswers, plan as padPlan } from './scoring/pad.js';
import { createQueue, createStore } from './scoring/queue.js';
import { createStream } from './scoring/stream.js';
import './scoring/clock.js';  // the round clock (issue 15 point 4), self-starting
import './scoring/call.js';   // "Call the director" (issue 15 point 5), self-starting
import { checkRows } from './scoring/summary.js';
import { fmt, sideLabel } from './scoring/text.js';

// What other scripts (and the browser tests) import from the page.
export { fmt } from './scoring/text.js';
export { number } from './scoring/numbers.js';
export { soloCalls } from './scoring/games/solo_whist.js';

const root = document.getElementById('scoring');
const config = readJSON('scoring-config');
const T = readJSON('scoring-strings');
let serverNext = readJSON('scoring-next');  // the next hand as the server last said
let next = serverNext;                       // the next hand to enter here (after any queued)

const POLL = 30000;
const LIVE_EVENTS = ['hand-submitted', 'hand-confirmed', 'hand-rejected', 'match-finished', 'round'];

const store = createStore(`tricktable:table:${config.table}:`);
// The entering side's PIN, asked once a match and kept for this tab only (never in localStorage).
const session = createStore(`tricktable:match:${config.match}:`, () => globalThis.sessionStorage);
const game = gameFor(config.game);

// -- the scoring code (table token) ---------------------------------------------------------------

let token = null;
let tokenUsable = false;
let canScore = false;

function takeToken() {
  const hash = location.hash.replace(/^#/, '');
  if (hash) {
    const params = new URLSearchParams(hash);
    const given = params.get('token');
    if (given) {
      store.set('token', given);
      params.delete('token');
      const rest = params.toString();
      history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    }
  }
  token = store.get('token');
  tokenUsable = Boolean(token);
}

function setCanScore(value) {
  canScore = value;
  root.classList.toggle('can-score', value);
  updateEntry();
}

async function checkToken() {
  const status = $('#access-status');
  const access = $('#access');
  const forget = $('#forget-token');
  access.classList.remove('bad');
  forget.hidden = !token;
  if (!token) {
    tokenUsable = false;
    status.textContent = config.director ? T.directorScoring : T.tokenMissing;
    setCanScore(Boolean(config.director));
    return;
  }
  tokenUsable = true;
  setCanScore(true);
  status.textContent = T.tokenChecking;
  let state;
  try {
    const response = await request(config.api.token);
    if (response.status >= 500) throw new Error(`token probe: ${response.status}`);
    state = response.data && response.data.state;
  } catch {
    status.textContent = T.tokenOffline;  // keep scoring: submissions queue while offline
    return;
  }
  if (state === 'active') {
    status.textContent = T.tokenOk;
    return;
  }
  tokenUsable = false;
  access.classList.add('bad');
  status.textContent = { expired: T.tokenExpired, revoked: T.tokenRevoked,
                         'other-table': T.tokenOtherTable }[state] || T.tokenUnknown;
  setCanScore(Boolean(config.director));
}

function forgetToken() {
  store.remove('token');
  token = null;
  tokenUsable = false;
  checkToken();
  say(T.forgotten);
}

// -- talking to the server, and the connection ----------------------------------------------------

const request = createApi({
  csrf: pageCsrf,
  authorization: () => (token && tokenUsable ? token : null),
  reachable: value => reachable(value),
});

let connected = navigator.onLine !== false;

/** What the last request found: the server answered, or nothing did. */
function reachable(value) {
  if (connected === value) return;
  connected = value;
  showConnection();
  if (value) queue.wake();
}

function showConnection() {
  const offline = !connected || navigator.onLine === false;
  $('#offline-banner').hidden = !offline;
  root.classList.toggle('offline', offline);
}

function say(text) {
  const live = $('#live-status');
  if (live) {
    live.textContent = '';
    setTimeout(() => { live.textContent = text; }, 50);
  }
}

// -- the offline queue ----------------------------------------------------------------------------

const queue = createQueue({
  store,
  request,
  match: config.match,
  connected: () => connected,
  pin: item => {
    const kept = item.match === config.match ? session.get('credential') : null;
    return kept && kept.pin ? kept.pin : '';
  },
  changed: () => renderQueue(),
  sent(item, response) {
    if (item.match === config.match) learnSide(response);
    const text = fmt(T.queueSent, { number: item.number });
    setOutcome('ok', text);
    say(text);
  },
  refused(item, response) {
    setOutcome('bad', refusal(response, fmt(T.queueRefused, { number: item.number }), T));
  },
  async flushed(changed) {
    if (changed) await refresh();
    updateEntry();
  },
});

/** Each queued hand with its state (kept on this phone, or being sent), then when the next try is. */
function renderQueue() {
  const items = queue.items();
  const panel = $('#queue');
  panel.hidden = !items.length;
  $('#queued-hands').replaceChildren(...items.map(item => {
    const sending = item.key === queue.sendingKey;
    const dealer = item.dealer || (item.record && item.record.dealer) || '—';
    const row = element('li', { className: `queued-hand${sending ? ' sending' : ''}` }, [
      element('span', { className: 'queued-what' }, [
        element('strong', { textContent: fmt(T.queuedHand, { number: item.number, dealer }) }),
        element('span', {
          className: 'queued-when',
          textContent: fmt(T.queuedAt, {
            time: new Date(item.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
          }),
        }),
      ]),
      element('span', { className: `badge ${sending ? 'badge-sending' : 'badge-queued'}`, textContent: sending ? T.sending : T.keptHere }),
    ]);
    row.dataset.queuedHand = String(item.number);
    return row;
  }));
  const lines = [];
  if (items.length && queue.waiting && connected) lines.push(element('p', { textContent: fmt(T.queueRetry, { seconds: Math.round(queue.retryDelay / 1000) }) }));
  if (items.length && next && next.blocked === 'queued') lines.push(element('p', { textContent: T.queueBlocks }));
  $('#queue-status').replaceChildren(...lines);
}

// -- the next hand --------------------------------------------------------------------------------

const form = $('#entry-form');
const preview = $('#preview');
const outcome = $('#submit-status');
const submitButton = $('#submit-button');
const read = formReader(form, { badNumber: key => fmt(T.badNumber, { who: sideLabel(key) }) });
let checked = null;  // {record, fingerprint} once the engine (or, offline, nobody) has seen it
let shownNumber = null;

function currentDealer() {
  if (!next || !next.number) return null;
  return next.dealerFixed ? next.dealer : $('#dealer-choice').value || next.dealer;
}

function dealerLabel(seat) {
  const name = config.names[seat];
  return name ? `${seat} — ${name}` : seat;
}

/** The hand to enter next: the server's, or, while hands wait in the queue, the one after the
 * last queued hand (dealt by the next dealer; the engine checks it when it is sent). After a
 * queued hand entered again (a rejected one) the page waits: what follows is the server's to say. */
function upcoming() {
  const queued = queue.here();
  if (!queued.length) return serverNext;
  const last = queued[queued.length - 1];
  if (serverNext && serverNext.number && serverNext.number > last.number) return serverNext;
  const dealer = last.dealer && config.nextDealer ? config.nextDealer[last.dealer] : null;
  if (last.reentry || !dealer) return { number: null, dealer: null, blocked: 'queued' };
  return { number: last.number + 1, dealer, dealerFixed: true, before: null, blocked: '',
           reentry: false, predicted: true };
}

function updateEntry() {
  const entry = $('#entry');
  next = upcoming();
  const open = canScore && next && next.number;
  const line = $('#next-line');  // the server's "next" is behind while hands wait on the phone
  if (line) line.hidden = Boolean(next && (next.predicted || next.blocked === 'queued'));
  entry.hidden = !open;
  // A new hand's dealer choice is set before the diagram reads it (else the diagram marks the
  // choice's first option, North, while the form says the round's first dealer).
  if (open && shownNumber !== `${next.number}:${next.reentry}`) {
    if (shownNumber !== null) resetForm();
    shownNumber = `${next.number}:${next.reentry}`;
    if (!next.dealerFixed) $('#dealer-choice').value = next.dealer;
    loadPad();
  }
  const dealer = open ? currentDealer() : (next && next.dealer);
  for (const seat of $$('.compass [data-seat]')) {
    const deals = Boolean(dealer) && seat.dataset.seat === dealer;
    seat.classList.toggle('dealer', deals);
    $('.dealer-mark', seat).hidden = !deals;
  }
  if (!open) return;
  $('#entry-heading').textContent = fmt(next.reentry ? T.enterAgain : T.enterHand, { number: next.number });
  $('#dealer-field').hidden = next.dealerFixed;
  $('#entry-dealer').textContent = fmt(T.dealerIs, { dealer: dealerLabel(currentDealer()) });
  submitButton.textContent = fmt(T.send, { number: next.number });
  arrange();
  renderPad();
  scheduleCheck();
}

function resetForm() {
  form.reset();
  checked = null;
  submitButton.disabled = true;
  preview.replaceChildren();
  preview.className = 'preview';
  $('#form-error').textContent = '';
  $('#send-why').textContent = '';
  answers = {};
  chosen = null;
  hideCredential();
  showMode();
  if (cardEntry.enabled) cardEntry.reset();
}

// -- the game's facts, the pasted record, or card by card -----------------------------------------

/** What a game module is given to read the form (scoring/games.js). */
const gameContext = dealer => ({ dealer, form, read, config, T });

function mode() {
  return read.picked('mode') || 'facts';
}

function showMode() {
  const picked = mode();
  form.dataset.mode = picked;
  $('#every-detail').hidden = picked === 'full';
  if (picked === 'cards') $('#every-detail').open = true;
  $('#pad').hidden = picked !== 'facts';
  $('#full-mode').hidden = picked !== 'full';
  const panel = $('#cards-mode');
  if (panel) panel.hidden = picked !== 'cards';
  // the pad leaves counts it was not given empty; card by card the form's own defaults stand
  if (picked !== 'facts') {
    for (const input of $$('input[data-kind="tricks"]', form)) if (input.value === '') input.value = input.defaultValue;
  }
}

function arrange() {
  const dealer = currentDealer();
  if (dealer && game) game.arrange(gameContext(dealer));
  updateSums();
}

function updateSums() {
  for (const group of $$('.tricks-group', form)) {
    const total = Number(group.dataset.total);
    let sum = 0;
    for (const input of $$('input[data-kind="tricks"]', group)) {
      if (!input.closest('.stepper').hidden) sum += Number(input.value) || 0;
    }
    const line = $('[data-sum]', group);
    line.textContent = fmt(T.total, { sum, total });
    line.classList.toggle('off', sum !== total);
  }
}

const cardEntry = createCardEntry({
  words: $('#card-words'),
  form,
  seats: config.seats,
  dealer: currentDealer,
  say,
  changed: () => invalidate(),
  shown: () => showCardsRecord(),
  ask: askTricks,
});

/**
 * Card by card, at the start of each trick: the engine's word on the play so far (the record
 * cut after `length` cards): who won each trick and who leads the next ({winners, leader}), or
 * why it cannot say yet ({problem}: a bid missing...), or null without an answer (offline).
 */
async function askTricks(length) {
  if (!next || !next.number || next.predicted) return null;
  let record;
  try {
    record = cardsRecord({ partial: true });
  } catch (error) {
    if (error instanceof FormError) return { problem: error.message };
    throw error;
  }
  const cards = record.play.flat().slice(0, length);
  record.play = [];
  const size = [...config.seats].length;  // a trick: one card a seat
  for (let at = 0; at < cards.length; at += size) record.play.push(cards.slice(at, at + size));
  let response;
  try {
    response = await request(config.api.check, { method: 'POST', body: checkBody(record), auth: false });
  } catch {
    return null;
  }
  const result = response.status === 200 ? response.data : null;
  if (!result) return null;
  if (result.ok) return { winners: result.trick_winners || [], leader: null };
  if (result.next_leader) return { winners: result.trick_winners || [], leader: result.next_leader };
  const first = (result.errors || [])[0];
  return { problem: first ? first.message : T.checkBad };
}

function cardsRecord({ partial = false } = {}) {
  const dealer = currentDealer();
  return cardEntry.record({ facts: cardFacts(game, gameContext(dealer)), partial, needsTurned: Boolean(game.needsTurned) });
}

/** The record being entered card by card, as it will be checked (updated on every tap). */
function showCardsRecord() {
  const shown = $('#cards-record');
  if (!shown || !next || !next.number) return;
  let text;
  try { text = JSON.stringify(checkBody(cardsRecord({ partial: true })), null, 1); } catch (error) {
    text = error instanceof FormError ? error.message : '';
  }
  shown.textContent = text;
}

/** The record as the table submits it: the dealer and the facts, the pasted record, or the facts
 * with the deal and play tapped card by card. */
function buildRecord() {
  if (mode() === 'cards') return cardsRecord();
  if (mode() === 'full') {
    const text = $('#full-record').value.trim();
    if (!text) throw new FormError(T.pasteRecord, '#full-record');
    let parsed;
    try { parsed = JSON.parse(text); } catch (error) {
      throw new FormError(fmt(T.notJson, { error: error.message }), '#full-record');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || (parsed.format && parsed.format !== 'hand/1')) {
      throw new FormError(T.notHand, '#full-record');
    }
    if (next.dealerFixed && parsed.dealer !== next.dealer) {
      throw new FormError(fmt(T.wrongDealer, { number: next.number, dealer: next.dealer, given: parsed.dealer ?? '—' }), '#full-record');
    }
    return parsed;
  }
  const dealer = currentDealer();
  return { dealer, ...game.facts(gameContext(dealer)) };
}

/** What the check endpoint needs besides the table's facts: the match's game, rules and state. */
function checkBody(record) {
  return { format: 'hand/1', game: config.game, rules: config.rules, ...record, before: next.before };
}

function showFormError(error) {
  const box = $('#form-error');
  box.textContent = error.message;
  const control = error.selector && $(error.selector, form);
  if (control) {
    const details = control.closest('details');
    if (details) details.open = true;
    control.focus();
  }
}

function invalidate() {
  $('#form-error').textContent = '';
  scheduleCheck();
}

// -- the hand in a few taps (scoring/pad.js) ------------------------------------------------------

let answers = {};    // {question key: value} as tapped, kept on the phone per hand
let chosen = null;   // the question tapped to change, shown on the pad instead of the next one

const padKey = () => `pad:${config.match}:${next.number}:${next.reentry ? 'again' : 'first'}`;

/** The choices of a form control the pad stands in for: a select's options or a radio group's. */
function choicesOf(control) {
  if (control.startsWith('[')) {
    const select = $(control, form);
    return select ? [...select.options].filter(option => option.value)
      .map(option => ({ value: option.value, label: option.textContent.trim() })) : [];
  }
  return $$(`input[name="${control}"]`, form)
    .map(input => ({ value: input.value, label: input.closest('label').textContent.trim() }));
}

function padContext() {
  const dealer = currentDealer();
  const rules = config.form || {};
  return {
    game: config.game, form: rules, layout: config.layouts && config.layouts[dealer], seats: config.seats,
    sides: config.sides, total: rules.total || 13, names: config.names, T, choices: choicesOf,
  };
}

/** The answers kept on the phone for this hand (bids entered when made, tricks after the play). */
function loadPad() {
  const kept = store.get(padKey());
  answers = kept && kept.dealer === currentDealer() ? kept.answers : {};
  writePad();
  renderPad();
}

function savePad() {
  if (next && next.number) store.set(padKey(), { dealer: currentDealer(), answers });
}

/** Set the form's controls to the pad's answers: every control the pad owns is cleared first,
 * so an answer taken back (a nil changed to a number) leaves nothing behind. */
function writePad() {
  if (!game || mode() !== 'facts') return;
  const { questions, writes } = padPlan(padContext(), answers);
  for (const input of $$('input[data-kind="tricks"]', form)) input.value = '';
  for (const question of questions) {
    const select = $(`[data-bid-seat="${question.key.slice(4)}"]`, form);
    if (question.kind === 'bid' && select) select.value = '';
  }
  for (const { control, value } of writes) {
    if (control.select) {
      const select = $(control.select, form);
      if (select) select.value = value;
    } else if (control.radio) {
      const radio = $(`input[name="${control.radio}"][value="${value}"]`, form);
      if (radio) radio.checked = true;
    } else if (control.count) {
      const input = $(`input[data-kind="${control.count[0]}"][data-key="${control.count[1]}"]`, form);
      if (input) input.value = String(value);
    }
  }
  arrange();
}

/** An answer as its chip shows it: short (a seat's letter, a suit's sign), the key's words else. */
function choiceLabel(question) {
  if (question.kind === 'seat') return question.answer;
  if (question.key === 'honours') return question.answer.replace('-', '–');  // N/S–E/W: 3–1
  const choice = question.choices && question.choices.find(c => c.value === question.answer);
  const label = choice ? choice.label : question.answer;
  return question.kind === 'suit' ? label.split(' ')[0] : label;
}

function renderPad() {
  if (!game) return;
  const { questions, derived } = padPlan(padContext(), answers);
  const shown = padCurrent(questions, chosen);
  // each answer as "E 4" on screen, read out whole ("E Chika & Dan bids: 4")
  const said = (prompt, who, what) => [
    element('span', { className: 'visually-hidden', textContent: `${prompt}: ` }),
    who ? element('span', { className: 'who', textContent: who, ariaHidden: 'true' }) : null,
    element('span', { className: 'what', textContent: what })];
  $('#pad-answers').replaceChildren(
    ...questions.map(question => {
      const text = question.answer === null ? '·' : choiceLabel(question);
      const chip = element('button', {
        type: 'button', className: `pad-answer${question === shown ? ' now' : ''}${question.answer === null ? ' empty' : ''}`,
      }, said(question.prompt, question.short, text));
      chip.dataset.question = question.key;
      if (question === shown) chip.setAttribute('aria-current', 'step');
      return element('li', {}, chip);
    }),
    ...derived.map(item => {
      const chip = element('span', { className: `pad-answer derived${item.answer === null ? ' empty' : ''}` },
        said(item.prompt, item.short, item.answer ?? '·'));
      chip.dataset.derived = item.key;
      return element('li', {}, chip);
    }),
  );
  $('#pad-prompt').textContent = shown ? shown.prompt : T.padDone;
  const keys = $('#pad-keys');
  keys.dataset.kind = shown ? shown.kind : 'done';
  keys.replaceChildren(...(shown ? shown.choices : []).map(choice => {
    const key = element('button', {
      type: 'button', className: `pad-key${choice.label.length > 3 ? ' wide' : ''}${choice.value === shown.answer ? ' picked' : ''}`,
      textContent: choice.label, disabled: Boolean(choice.disabled),
    });
    key.dataset.value = choice.value;
    if (choice.value === shown.answer) key.setAttribute('aria-pressed', 'true');
    return key;
  }));
}

function tapPad(event) {
  const chip = event.target.closest('[data-question]');
  if (chip) {
    chosen = chip.dataset.question;
    renderPad();
    focusPad();
    return;
  }
  const key = event.target.closest('#pad-keys button[data-value]');
  if (!key) return;
  const shown = padCurrent(padPlan(padContext(), answers).questions, chosen);
  if (!shown) return;
  ({ answers } = padAnswer(padContext(), answers, shown.key, key.dataset.value));
  chosen = null;
  savePad();
  writePad();
  renderPad();
  updateSums();
  invalidate();
  focusPad();
  // The last answer sends the hand, as the PIN's last digit does: nothing is left to tap but
  // Send, the other side checks the score when it confirms (or rejects), and a hand the engine
  // refuses is not sent (submitHand waits for the check; the refusal shows under the pad). With
  // "Every detail" open the table is adding more (a revoke, a blind bid): Send is tapped.
  if (!$('#every-detail').open && !padCurrent(padPlan(padContext(), answers).questions, null)
      && completeRecord()) submitHand();
}

/** The keys are drawn again after each answer: the focus goes on to the next question's first
 * key (or to Send once every answer is in), so a keyboard keeps its place. */
function focusPad() {
  const first = $('#pad-keys button:not([disabled])');
  (first || submitButton).focus({ preventScroll: true });
}

// -- the score as the numbers go in (POST /api/v1/hands/check, debounced) -------------------------

const CHECK_DELAY = 250;
let checkTimer = null;
let checking = null;  // the promise of the check under way
let asked = 0;        // which check is the latest (an older answer is dropped)

/** After any change: Send is ready as soon as the hand is complete (a tap on it waits for the
 * check), and the engine's score follows a moment later. */
function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => { checkTimer = null; checking = checkHand(); }, CHECK_DELAY);
  submitButton.disabled = !completeRecord();
}

/** The record as it stands, or null while something is missing (said next to Send). */
function completeRecord() {
  if (!next || !next.number) return null;
  try {
    const record = buildRecord();
    sendWhy('');
    return record;
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    const waiting = mode() === 'facts' && game ? padCurrent(padPlan(padContext(), answers).questions, null) : null;
    sendWhy(waiting ? waiting.prompt : error.message);
    return null;
  }
}

/** What the Send button waits for, in words (never a grey button with nothing saying why). */
function sendWhy(text) {
  $('#send-why').textContent = text ? fmt(T.sendWhy, { what: text }) : '';
}

// -- checking the score ---------------------------------------------------------------------------

function renderCheck(result) {
  preview.replaceChildren();
  if (!result.ok) {
    preview.className = 'preview bad';
    preview.append(element('h3', { textContent: T.checkBad }),
      element('ul', {}, (result.errors || []).map(error => errorItem(error, 'li', T))));
    return;
  }
  preview.className = 'preview ok';
  // the score and the totals first, on a line each; the rest (tricks, how it scored) folded
  const rows = checkRows(result, T, game).filter(([term]) => term !== T.tricks);
  preview.append(element('h3', { className: 'visually-hidden', textContent: T.checkOk }));
  preview.append(element('dl', { className: 'live-score' }, rows.flatMap(([term, text]) => [
    element('dt', { textContent: term }), element('dd', { textContent: text })])));
  if (result.notes && result.notes.length) {
    preview.append(element('details', { className: 'how' }, [
      element('summary', { textContent: T.notes }),
      element('ul', {}, result.notes.map(note => element('li', { textContent: note })))]));
  }
}

async function checkHand() {
  const mine = ++asked;
  const record = completeRecord();
  if (!record) {
    checked = null;
    submitButton.disabled = true;
    preview.className = 'preview';
    preview.replaceChildren();
    return;
  }
  const fingerprint = JSON.stringify(record);
  if (checked && checked.fingerprint === fingerprint) {
    submitButton.disabled = false;
    return;
  }
  checked = null;
  if (next.predicted) {  // the score before it is not known until the queued hands are stored
    checkedOffline(record, fingerprint, T.checkLater);
    submitButton.disabled = false;
    return;
  }
  preview.classList.add('asking');
  let response = null;
  try {
    response = await request(config.api.check, { method: 'POST', body: checkBody(record), auth: false });
  } catch {
    response = null;
  }
  if (mine !== asked) return;  // the hand changed meanwhile: a newer check answers
  preview.classList.remove('asking');
  if (!response || response.status >= 500 || response.status === 429) {
    checkedOffline(record, fingerprint);
  } else if (response.status === 200 && response.data) {
    renderCheck(response.data);
    if (response.data.ok) checked = { record, fingerprint };
    else sendWhy('');
    if (!response.data.ok) $('#send-why').textContent = T.sendRefused;
  } else {
    preview.className = 'preview bad';
    preview.replaceChildren(refusal(response, T.checkBad, T));
    $('#send-why').textContent = T.sendRefused;
  }
  submitButton.disabled = !checked;
}

/** The check of the hand as it stands now (a Send tapped before the debounce ran). */
async function checkNow() {
  if (checkTimer) {
    clearTimeout(checkTimer);
    checkTimer = null;
    checking = checkHand();
  }
  if (checking) await checking;
}

function checkedOffline(record, fingerprint, text = T.checkOffline) {
  preview.className = 'preview offline';
  preview.replaceChildren(element('p', { textContent: text }));
  checked = { record, fingerprint, unchecked: true };
}

// -- submitting -----------------------------------------------------------------------------------

function setOutcome(kind, content) {
  outcome.className = `submit-status ${kind || ''}`;
  outcome.replaceChildren();
  if (content) outcome.append(typeof content === 'string' ? element('p', { textContent: content }) : content);
}

function storedText(item, response) {
  const status = response.data && response.data.status;
  const text = response.status === 200 ? T.retried : status === 'confirmed' ? T.storedConfirmed : T.stored;
  return fmt(text, { number: item.number });
}

/** Who sends this hand: asked once a match and kept in sessionStorage for this match. In PIN
 * mode the entering entry's PIN, from which the server derives the side (the phone says no
 * side); in same-phone mode the side, said with one tap. A director needs neither. */
function credential() {
  return session.get('credential');
}

function needsCredential() {
  if (config.director) return false;
  const kept = credential();
  return config.pinNeeded ? !kept || !kept.pin : !kept || !kept.side;
}

/** Refusals of the entering PIN itself: it is forgotten and asked again (a wait or a lock is
 * not about the PIN typed: it is kept). */
const PIN_FORGOTTEN = new Set(['side-pin-wrong', 'side-pin-required', 'side-pin-mismatch']);

function askCredential(message = '') {
  const sheet = $('#credential');
  sheet.hidden = false;
  $('#pad').hidden = true;
  const pinBox = $('#credential-pin');
  $('#side-keys').hidden = Boolean(config.pinNeeded);
  if (pinBox) pinBox.hidden = !config.pinNeeded;
  if (!config.pinNeeded) {
    $('#credential-prompt').textContent = message || T.whoSends;
    $('#side-keys button').focus({ preventScroll: true });
  } else {
    $('#credential-prompt').textContent = message || T.pinOnce;
    $('#entry-pin').value = '';
    $('#credential-pin .key').focus({ preventScroll: true });
  }
}

function hideCredential() {
  const sheet = $('#credential');
  if (!sheet) return;
  sheet.hidden = true;
  $('#pad').hidden = mode() !== 'facts';
}

function pickSide(side) {
  store.set('side', side);
  session.set('credential', { side });
  decorateFragment();
  hideCredential();
  submitHand();
}

function pinTyped(input) {
  if (input.id !== 'entry-pin') return;
  session.set('credential', { pin: input.value });
  input.value = '';
  hideCredential();
  submitHand();
}

/** The side the server says entered a hand (PIN mode: derived from the PIN), kept with the PIN
 * for the "pass the phone" hint. */
function learnSide(response) {
  const side = response && response.data && response.data.submitted_side;
  if (!side) return;
  store.set('side', side);
  const kept = credential();
  if (kept && kept.pin) session.set('credential', { ...kept, side });
}

let sending = false;  // a hand being sent: a second Send (or the pad's last answer) waits

async function submitHand() {
  if (sending) return;
  sending = true;
  try {
    await sendHand();
  } finally {
    sending = false;
  }
}

async function sendHand() {
  await checkNow();
  if (!checked) return;
  if (needsCredential()) {
    askCredential();
    return;
  }
  const side = config.director || config.pinNeeded ? '' : credential().side;
  const item = {
    url: config.api.hands, match: config.match, number: next.number, record: checked.record,
    dealer: checked.record.dealer || currentDealer(), reentry: Boolean(next.reentry),
    side, key: queue.handKey(next), at: new Date().toISOString(),
  };
  submitButton.disabled = true;
  if (!queue.here().length) setOutcome('', fmt(T.submitting, { number: item.number }));
  const result = await queue.submit(item, {
    queued(behind) {
      store.remove(padKey());
      resetForm();  // the hand is safe in the queue: the form moves on to the next one
      const text = fmt(behind ? T.queuedBehind : T.queued, { number: item.number });
      setOutcome('queued', text);
      say(text);
    },
  });
  if (result.kind === 'queued') {
    updateEntry();
    return;
  }
  if (result.kind === 'stored') {
    const text = storedText(item, result.response);
    learnSide(result.response);
    store.remove(padKey());
    resetForm();
    setOutcome('ok', text);
    say(text);
    await refresh();
    return;
  }
  submitButton.disabled = false;
  setOutcome('bad', refusal(result.response, fmt(T.refused, { number: item.number }), T));
  const code = result.response.data && result.response.data.code;
  if (PIN_FORGOTTEN.has(code)) {  // ask again, keep nothing wrong
    session.remove('credential');
    askCredential(T.pinForgotten);
  } else {
    // the refusal is written under Send, below the fold on a phone: bring it into view (a
    // wait after wrong PINs closed the PIN sheet, and nothing on the screen said why)
    outcome.scrollIntoView({ block: 'nearest' });
  }
  if (result.response.status === 409) await refresh();
}

// -- confirming and rejecting (scoring/confirm.js) ------------------------------------------------

function decide(decision, action) {
  return answerHand(decision, action, {
    digits: config.pinDigits || 4,
    request, handUrl: config.api.hand, T, refresh,
    refusal: (response, lead) => refusal(response, lead, T),
    async answered(text) {
      setOutcome('ok', text);
      say(text);
      await refresh();
    },
  });
}

function decorateFragment() {
  const kept = session.get('credential');
  markHandOver((kept && kept.side) || store.get('side'));
}

// -- the hands list, fetched again after every action ---------------------------------------------

const region = $('#hands-region');
let lastRefresh = 0;

async function refresh({ quiet = false } = {}) {
  let response;
  try {
    response = await fetch(config.api.fragment, { cache: 'no-store', credentials: 'same-origin' });
  } catch {
    reachable(false);
    return false;
  }
  reachable(true);
  lastRefresh = Date.now();
  if (!response.ok) return false;
  const html = await response.text();
  const at = Date.parse(response.headers.get('Date') || '') || Date.now();
  store.set('fragment', { match: config.match, at, html });
  return show(html, { quiet });
}

/** Swap a hands fragment in (unless it shows what is shown, or a quiet update would take the
 * focus from someone answering a hand). */
function show(html, { quiet = false } = {}) {
  const signature = (/data-signature="([^"]*)"/.exec(html) || [])[1];
  const shown = $('[data-signature]', region);
  if (signature && shown && shown.dataset.signature === signature) return false;
  // What is being typed (a PIN, a reason) and the focus are kept across the swap: the list
  // never stops following the table, not even after a refused PIN.
  keepAnswers(region, () => { region.innerHTML = html; });
  serverNext = readJSON('scoring-next');
  decorateFragment();
  updateEntry();
  renderQueue();
  if (quiet) say(T.updated);
  return true;
}

/** A page older than what the phone last saw (the service worker's copy, offline) shows that. */
function restoreFragment() {
  const kept = store.get('fragment');
  if (kept && kept.match === config.match && kept.at > config.renderedAt && kept.html) show(kept.html);
}

// -- the tournament's event stream: the list follows the other phones without a reload ------------

let refreshTimer = null;

function refreshSoon() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => { refreshTimer = null; refresh({ quiet: true }); }, 200);
}

/** #scoring's data-stream says "open" or "waiting" (to be opened again). */
const stream = createStream({
  url: config.api.events,
  events: LIVE_EVENTS,
  match: config.match,
  changed: refreshSoon,
  opened(first) {
    reachable(true);
    // a new stream may have missed events while none was open: catch up once
    if (first && Date.now() - lastRefresh > 2000) refreshSoon();
  },
  state(name) { root.dataset.stream = name; },
});

// -- wiring ---------------------------------------------------------------------------------------

function stepper(event) {
  const button = event.target.closest('button.step');
  if (!button) return;
  const input = document.getElementById(button.getAttribute('aria-controls'));
  const max = Number(input.max);
  input.value = String(Math.min(max, Math.max(0, (Number(input.value) || 0) + Number(button.dataset.step))));
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function linkPair(event) {
  const input = event.target;
  const group = input.closest && input.closest('[data-pair]');
  if (!group || input.dataset.kind !== 'tricks') return;
  const total = Number(group.dataset.total);
  const mine = Number(input.value);
  const other = $$('input[data-kind="tricks"]', group).find(candidate => candidate !== input);
  if (other && Number.isInteger(mine) && mine >= 0 && mine <= total) other.value = String(total - mine);
}

function start() {
  takeToken();
  form.addEventListener('submit', event => event.preventDefault());
  form.addEventListener('click', stepper);
  $('#pad').addEventListener('click', tapPad);
  $('#side-keys').addEventListener('click', event => {
    const key = event.target.closest('[data-send-side]');
    if (key) pickSide(key.dataset.sendSide);
  });
  $('#credential-cancel').addEventListener('click', hideCredential);
  wireKeypads(root, {
    digits: config.pinDigits || 4,
    full(input) {
      if (input.id === 'entry-pin') { pinTyped(input); return; }
      const decision = input.closest('form.decide');
      if (decision && decision.dataset.pending) decide(decision, decision.dataset.pending);
    },
  });
  form.addEventListener('input', event => {
    if (event.target.id === 'entry-pin') return;
    linkPair(event); updateSums(); invalidate();
  });
  form.addEventListener('change', event => {
    if (event.target.id === 'entry-pin') return;
    if (event.target.name === 'mode') { showMode(); writePad(); }
    if (event.target.id === 'dealer-choice') {
      $('#entry-dealer').textContent = fmt(T.dealerIs, { dealer: dealerLabel(currentDealer()) });
      // another first dealer: another bidding order (the bids by seat stay; a count asked of
      // the side that bids first may no longer be asked)
      answers = keepPadAnswers(padContext(), answers);
      savePad();
      writePad();
      updateEntry();
    }
    arrange();
    if (event.target.matches('[data-nil-seat]')) { writePad(); renderPad(); }
    invalidate();
    if (cardEntry.enabled && mode() === 'cards') cardEntry.refresh();
  });
  submitButton.addEventListener('click', submitHand);
  $('#forget-token').addEventListener('click', forgetToken);
  $('#queue-retry').addEventListener('click', () => { queue.retryNow(); });
  region.addEventListener('click', event => {
    const button = event.target.closest('button[data-action]');
    if (button) decide(button.closest('form.decide'), button.dataset.action);
  });
  region.addEventListener('submit', event => event.preventDefault());
  window.addEventListener('online', () => {
    showConnection();
    queue.retryNow();
    if (token && !$('#access').classList.contains('bad')) checkToken();
    refresh({ quiet: true });
    if (!stream.open) stream.listen();
  });
  window.addEventListener('offline', () => {
    connected = false;
    showConnection();
    renderQueue();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      refresh({ quiet: true });
      if (!stream.open) stream.listen();
    }
  });
  setInterval(() => {
    if (document.visibilityState === 'visible' && navigator.onLine) refresh({ quiet: true });
  }, POLL);
  showMode();
  cardEntry.wire();
  restoreFragment();
  decorateFragment();
  showConnection();
  updateEntry();
  renderQueue();
  checkToken();
  if (queue.items().length) queue.flush();
  stream.listen();
  offlineApp();
  root.dataset.ready = 'true';
  performance.mark('scoring-ready');  // bench: how soon the page takes a hand (docs/benchmarks.md)
}

/** HTTPS only: the worker that lets this page reload without a connection. The server offers it
 * (config.offlineApp) only where the site runs over HTTPS, and browsers allow a service worker
 * only in a secure context: never over the club's plain HTTP. */
function offlineApp() {
  const app = config.offlineApp;
  if (!app || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const controlled = Boolean(navigator.serviceWorker.controller);  // this load went through it
  navigator.serviceWorker.register(app.worker, { scope: app.scope })
    .then(() => navigator.serviceWorker.ready)
    // the worker keeps this page at once, not only from its next load (the address only: the
    // scoring code left it when the page opened)
    .then(registration => {
      if (registration.active && !controlled) registration.active.postMessage({ keep: location.pathname + location.search });
    })
    .catch(() => { /* the page works without it */ });
}

start();
