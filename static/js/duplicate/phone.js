// The duplicate table's phone (templates/tournaments/duplicate/table.html and _panel.html;
// issue 28). The table's code arrives in the address' fragment (#token=...), is kept on this
// phone (localStorage, per event and table) and removed from the address; the panel (the
// table's boards, what awaits this table's answer, the next board) is fetched with
// `Authorization: Table <code>`, and its forms are sent the same way, the answer being the new
// panel. Without a code a signed-in director's session works.
//
// - The next board is entered on a pad of big keys (duplicate/pad.js): the bids and each seat's
//   tricks (Spades) or N/S's tricks, trumps and honours (Whist); the answers are written into
//   the form's own controls (kept under "Every detail of the board"), and the last answer sends
//   the board. Answers are kept on the phone per round and board until the board is stored, so
//   a live update of the panel (or a reload) keeps them.
// - PINs on a keypad (scoring/keypad.js; the phone's keyboard stays closed): the entering
//   pair's PIN is asked at its first board of the round and kept for the round (this tab only,
//   sessionStorage) as on the scoring page; a PIN refused as wrong is forgotten and asked again.
//   Confirming or rejecting asks the other pair's PIN every time, never kept; its fourth digit
//   sends the answer chosen.
// - Live: the event stream's "board" (a result entered, confirmed or rejected at a table) and
//   "round" events fetch the panel again (every 15 s without a stream), so the other pair's
//   answer and the next round reach the phone by themselves. A panel of a later round reloads
//   the page (the round clock above the panel is the round's); the code stays on the phone.

import { wireKeypads } from '../scoring/keypad.js';
import { answer as padAnswer, current, keep, plan } from './pad.js';

const holder = document.querySelector('[data-table-panel]');
const DIGITS = Number(holder.dataset.pinDigits) || 4;
const POLL_MS = 15000;
const DEBOUNCE_MS = 200;
const PIN_FORGOTTEN = new Set(['side-pin-wrong', 'side-pin-required', 'side-pin-mismatch']);
const base = `tricktable:duplicate:${holder.dataset.slug}:${holder.dataset.table}`;

function storage(kind) {
  try { return window[kind]; } catch { return null; }
}
const local = storage('localStorage');
const session = storage('sessionStorage');
const get = (store, key) => { try { return store ? store.getItem(key) : null; } catch { return null; } };
const put = (store, key, value) => { try { if (store) store.setItem(key, value); } catch { /* full or private */ } };
const drop = (store, key) => { try { if (store) store.removeItem(key); } catch { /* private */ } };

function takeToken() {
  const found = /token=([^&]+)/.exec(window.location.hash);
  if (found) {
    put(local, base, decodeURIComponent(found[1]));
    history.replaceState(null, '', window.location.pathname + window.location.search);
    if (!local) return decodeURIComponent(found[1]);
  }
  return get(local, base);
}

const token = takeToken();
const headers = () => (token ? { Authorization: `Table ${token}` } : {});

const roundNow = () => {
  const marked = holder.querySelector('[data-round]');
  return marked ? marked.dataset.round : '';
};
const pinKey = () => `${base}:round:${roundNow()}:pin`;
const padKey = board => `${base}:round:${roundNow()}:board:${board}:pad`;

function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of [].concat(children)) if (child) node.append(child);
  return node;
}

// -- the board's pad ------------------------------------------------------------------------------

function optionsOf(select) {
  return select ? [...select.options].filter(option => option.value)
    .map(option => ({ value: option.value, label: option.textContent.trim() })) : [];
}

function labelOf(form, control) {
  if (!control) return '';
  if (control.getAttribute('aria-label')) return control.getAttribute('aria-label');
  const label = control.id && form.querySelector(`label[for="${control.id}"]`);
  return label ? label.textContent.trim() : control.name;
}

/** What the board's form asks, read from its own controls (their options and labels). */
function specOf(form) {
  const game = form.dataset.padGame;
  const named = name => form.querySelector(`[name="${name}"]`);
  if (game === 'spades') {
    const seats = ['N', 'E', 'S', 'W'];
    return {
      game, total: 13, order: form.dataset.order.split(''),
      bids: optionsOf(named('call_N')),
      prompts: {
        bid: Object.fromEntries(seats.map(seat => [seat, labelOf(form, named(`call_${seat}`))])),
        tricks: Object.fromEntries(seats.map(seat => [seat, labelOf(form, named(`tricks_${seat}`))])),
      },
    };
  }
  const tricks = named('tricks_NS');
  return {
    game: 'whist', total: 13,
    trumps: named('trump') ? optionsOf(named('trump')) : null,
    honours: Boolean(named('honours_NS')),
    prompts: {
      tricksNS: labelOf(form, tricks), tricksEW: 'EW', trump: labelOf(form, named('trump')),
      honours: labelOf(form, named('honours_NS')),
    },
  };
}

function loadAnswers(form) {
  try { return JSON.parse(get(session, padKey(form.dataset.board)) || '{}'); } catch { return {}; }
}

function wirePad(form) {
  const pad = form.querySelector('[data-pad]');
  if (!pad) return;
  const spec = specOf(form);
  let answers = keep(spec, loadAnswers(form));
  let chosen = null;

  function write() {
    const { writes } = plan(spec, answers);
    for (const [name, value] of Object.entries(writes)) {
      const control = form.querySelector(`[name="${name}"]`);
      if (control) control.value = value;
    }
  }

  function render() {
    const { questions, derived } = plan(spec, answers);
    const shown = current(questions, chosen);
    const said = (prompt, who, what) => [
      element('span', { className: 'visually-hidden', textContent: `${prompt}: ` }),
      who ? element('span', { className: 'who', textContent: who, ariaHidden: 'true' }) : null,
      element('span', { className: 'what', textContent: what })];
    const labelFor = question => {
      const choice = question.choices.find(c => c.value === question.answer);
      const text = choice ? choice.label : question.answer;
      return question.kind === 'suit' ? text.split(' ')[0] : text;
    };
    pad.querySelector('[data-pad-answers]').replaceChildren(
      ...questions.map(question => {
        const chip = element('button', {
          type: 'button',
          className: `pad-answer${question === shown ? ' now' : ''}${question.answer === null ? ' empty' : ''}`,
        }, said(question.prompt, question.short, question.answer === null ? '·' : labelFor(question)));
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
    const prompt = pad.querySelector('[data-pad-prompt]');
    prompt.textContent = shown ? shown.prompt : prompt.dataset.done;
    const keys = pad.querySelector('[data-pad-keys]');
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

  pad.addEventListener('click', event => {
    const chip = event.target.closest('[data-question]');
    if (chip) {
      chosen = chip.dataset.question;
      render();
      return;
    }
    const key = event.target.closest('[data-pad-keys] button[data-value]');
    if (!key) return;
    const shown = current(plan(spec, answers).questions, chosen);
    if (!shown) return;
    const after = padAnswer(spec, answers, shown.key, key.dataset.value);
    answers = after.answers;
    chosen = null;
    put(session, padKey(form.dataset.board), JSON.stringify(answers));
    write();
    render();
    const first = pad.querySelector('[data-pad-keys] button:not([disabled])');
    if (first) first.focus({ preventScroll: true });
    // the last answer sends the board (as the PIN's last digit does); with "Every detail" open
    // the table is checking or changing the full form: Enter is tapped
    const details = form.querySelector('[data-every-detail]');
    if (after.complete && !(details && details.open)) enter(form);
  });
  // the full form's own changes are the table's answers too
  form.addEventListener('change', event => {
    if (!event.target.name || !(event.target.name in plan(spec, answers).writes)) return;
    answers = keep(spec, { ...answers, [event.target.name]: event.target.value });
    put(session, padKey(form.dataset.board), JSON.stringify(answers));
    render();
  });
  pad.hidden = false;
  write();
  render();
}

// -- PINs -----------------------------------------------------------------------------------------

function openSheet(form, action = '') {
  const sheet = form.querySelector('[data-pin-sheet]');
  if (!sheet) return false;
  sheet.hidden = false;
  form.dataset.pending = action;
  const input = sheet.querySelector('input');
  input.value = '';
  const pad = form.querySelector('[data-pad]');
  if (pad) pad.hidden = true;
  const key = sheet.querySelector('.key');
  if (key) key.focus({ preventScroll: true });
  return true;
}

/** Send the board: with the round's PIN kept, or after asking for it (PIN mode). */
function enter(form) {
  if (!form.hasAttribute('data-pin-mode')) { post(form, 'submit'); return; }
  const kept = get(session, pinKey());
  if (!kept) { openSheet(form, 'submit'); return; }
  form.querySelector('#entry-pin').value = kept;
  post(form, 'submit');
}

// -- sending and showing --------------------------------------------------------------------------

let busy = false;     // a form being sent: live updates wait
let stale = false;    // an update came meanwhile
let lastHtml = null;
let sent = 0;         // forms sent so far: a live update fetched before the last one is older
                      // than its answer (the refusal it shows) and is dropped
let refusal = null;   // the last answer's refusal (its alert): kept on screen through live
                      // updates until the table sends its next form

/** The panel without its CSRF tokens (masked afresh each time): an update that brings nothing
 * new swaps nothing, and the table's answers and focus stay as they are. */
const comparable = html => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');

async function post(form, action) {
  const data = new FormData(form);
  if (action) data.set('action', action);
  const board = form.dataset.board;
  busy = true;
  sent += 1;
  refusal = null;
  holder.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(holder.dataset.actUrl, {
      method: 'POST', body: data, headers: headers(), credentials: 'same-origin',
    });
    const html = await response.text();
    const refused = /data-code="([^"]+)"/.exec(html);
    if (action === 'submit' && form.hasAttribute('data-pin-mode')) {
      if (refused && PIN_FORGOTTEN.has(refused[1])) drop(session, pinKey());
      else if (!refused) put(session, pinKey(), data.get('pin'));
    }
    if (action === 'submit' && !refused && board) drop(session, padKey(board));
    show(html);
    const shown = refused ? holder.querySelector('[role=alert]') : null;
    refusal = shown ? shown.outerHTML : null;
    if (refused && PIN_FORGOTTEN.has(refused[1]) && action === 'submit') {
      const again = holder.querySelector('form[data-pad-game]');
      if (again) openSheet(again, 'submit');
    }
    const alert = holder.querySelector('[role=alert]');
    if (alert) {
      const box = alert.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) alert.scrollIntoView({ block: 'nearest' });
    }
  } catch {
    // no connection: the panel stays as it is (the answers are kept on the phone)
  } finally {
    busy = false;
    holder.removeAttribute('aria-busy');
    if (stale) { stale = false; refresh(); }
  }
}

function show(html) {
  lastHtml = comparable(html);
  holder.innerHTML = html;
  // A new round at this table: the page again, for that round's clock (the code stays).
  const round = roundNow();
  if (round && round !== (holder.dataset.round || '')) {
    window.location.reload();
    return;
  }
  for (const form of holder.querySelectorAll('form[data-pad-game]')) wirePad(form);
}

function sheetOpen() {
  return [...holder.querySelectorAll('[data-pin-sheet]')].some(sheet => !sheet.hidden);
}

async function refresh() {
  if (busy || sheetOpen()) { stale = true; return; }
  const before = sent;
  try {
    const response = await fetch(holder.dataset.panelUrl, {
      headers: headers(), credentials: 'same-origin', cache: 'no-store',
    });
    const html = await response.text();
    // a form sent while this was fetched: its answer is newer (and may hold a refusal)
    if (sent !== before) return;
    if (comparable(html) !== lastHtml && !busy && !sheetOpen()) {
      show(html);
      // the panel of the moment has no refusal of its own: the table's last one stays
      if (refusal && !holder.querySelector('[role=alert]')) {
        holder.insertAdjacentHTML('afterbegin', refusal);
      }
    }
  } catch { /* offline: the next event or poll tries again */ }
}

let timer = null;
function soon() {
  if (timer) return;
  timer = setTimeout(() => { timer = null; refresh(); }, DEBOUNCE_MS);
}

function listen() {
  let polling = null;
  const poll = () => {
    holder.dataset.liveMode = 'polling';
    if (!polling) polling = setInterval(soon, POLL_MS);
  };
  const url = holder.dataset.eventsUrl;
  if (!url || typeof window.EventSource !== 'function') { poll(); return; }
  const stream = new EventSource(url);
  let errors = 0;
  const table = Number(holder.dataset.table);
  stream.addEventListener('board', event => {
    let data = null;
    try { data = JSON.parse(event.data); } catch { data = null; }
    if (!data || data.table === table) soon();
  });
  stream.addEventListener('round', soon);
  let opened = false;
  stream.addEventListener('open', () => {
    errors = 0;
    holder.dataset.liveMode = 'sse';
    // the panel again once the stream is there: what happened between the first fetch and
    // the stream's resume point is not missed
    if (!opened) { opened = true; soon(); }
  });
  stream.addEventListener('error', () => {
    errors += 1;
    if (stream.readyState === EventSource.CLOSED || errors >= 3) { stream.close(); poll(); }
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') soon();
  });
}

// -- wiring ---------------------------------------------------------------------------------------

holder.addEventListener('submit', event => {
  const form = event.target.closest('form[data-act]');
  if (!form) return;
  event.preventDefault();
  const action = event.submitter && event.submitter.name === 'action' ? event.submitter.value : '';
  if (form.hasAttribute('data-pad-game')) { enter(form); return; }
  if (form.hasAttribute('data-decide') && form.querySelector('[data-pin-sheet]')) {
    // the other pair's PIN for this answer: typed on the keypad, the fourth digit sends
    openSheet(form, action);
    return;
  }
  post(form, action || (form.querySelector('[name=action]') || {}).value || '');
});

wireKeypads(holder, {
  digits: DIGITS,
  full(input) {
    const form = input.closest('form');
    if (!form) return;
    if (form.hasAttribute('data-pad-game')) post(form, 'submit');
    else if (form.dataset.pending) post(form, form.dataset.pending);
  },
});

refresh().then(() => { holder.dataset.ready = 'true'; });
listen();
