// The table scoring page (templates/tournaments/scoring/table.html): an ES module, no framework.
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

const root = document.getElementById('scoring');
const config = readJSON('scoring-config');
const T = readJSON('scoring-strings');
let serverNext = readJSON('scoring-next');  // the next hand as the server last said
let next = serverNext;                       // the next hand to enter here (after any queued)

const PREFIX = `tricktable:table:${config.table}:`;
const FIRST_RETRY = 2000;
const LONGEST_RETRY = 60000;
const POLL = 30000;
const LIVE_EVENTS = ['hand-submitted', 'hand-confirmed', 'hand-rejected', 'match-finished', 'round'];

const $ = (selector, scope = document) => scope.querySelector(selector);
const $$ = (selector, scope = document) => [...scope.querySelectorAll(selector)];

function readJSON(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

/** A translated string with its %(name)s placeholders filled. */
export function fmt(text, values = {}) {
  return String(text ?? '').replace(/%\((\w+)\)s/g, (_, name) => (name in values ? String(values[name]) : ''));
}

const store = {
  get(name, fallback = null) {
    try {
      const value = localStorage.getItem(PREFIX + name);
      return value === null ? fallback : JSON.parse(value);
    } catch {
      return fallback;
    }
  },
  set(name, value) {
    try { localStorage.setItem(PREFIX + name, JSON.stringify(value)); } catch { /* private mode */ }
  },
  remove(name) {
    try { localStorage.removeItem(PREFIX + name); } catch { /* private mode */ }
  },
};

const sideLabel = side => [...String(side || '')].join('/');
const element = (tag, props = {}, children = []) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of [].concat(children)) if (child != null) node.append(child);
  return node;
};

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

// -- talking to the server ------------------------------------------------------------------------

function csrfToken() {
  const input = document.querySelector('input[name=csrfmiddlewaretoken]');
  return input ? input.value : '';
}

/** fetch with a time-out; resolves {status, ok, data} for any answer, throws when there is none. */
async function request(url, { method = 'GET', body, headers = {}, auth = true, timeout = 12000 } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  const sent = { Accept: 'application/json', ...headers };
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  const csrf = csrfToken();
  if (csrf) sent['X-CSRFToken'] = csrf;
  if (auth && token && tokenUsable) sent.Authorization = `Table ${token}`;
  try {
    let response;
    try {
      response = await fetch(url, {
        method, headers: sent, credentials: 'same-origin', cache: 'no-store', signal: controller.signal,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      reachable(false);
      throw error;
    }
    reachable(true);
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { status: response.status, ok: response.ok, data };
  } finally {
    clearTimeout(timer);
  }
}

// -- the connection -------------------------------------------------------------------------------

let connected = navigator.onLine !== false;

/** What the last request found: the server answered, or nothing did. */
function reachable(value) {
  if (connected === value) return;
  connected = value;
  showConnection();
  if (value) {
    retryDelay = 0;
    if (loadQueue().length) flushQueue();
  }
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

/** The API's one error shape as a list: the translated code, the message, the engine's errors. */
function refusal(response, lead) {
  const data = response && response.data ? response.data : {};
  const box = element('div');
  if (lead) box.append(element('p', { textContent: lead }));
  box.append(errorItem(data.code ? data : { code: `http-${response ? response.status : 0}`, message: '' }, 'p'));
  if (Array.isArray(data.details) && data.details.length) {
    box.append(element('ul', {}, data.details.map(error => errorItem(error, 'li'))));
  } else if (data.details && data.details.errors) {
    box.append(element('ul', {}, data.details.errors.map(error => errorItem(error, 'li'))));
  }
  return box;
}

function errorItem(error, tag) {
  const item = element(tag);
  const label = T.codes[error.code];
  if (label) item.append(element('strong', { textContent: label }), ' ');
  const where = [error.trick && `#${error.trick}`, error.seat, error.card].filter(Boolean).join(' ');
  if (error.message) item.append(`${error.message}${where ? ` (${where})` : ''} `);
  if (error.code) item.append(element('span', { className: 'error-code', textContent: `[${error.code}]` }));
  return item;
}

// -- the next hand --------------------------------------------------------------------------------

const form = $('#entry-form');
const preview = $('#preview');
const outcome = $('#submit-status');
const submitButton = $('#submit-button');
const checkButton = $('#check-button');
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

function queuedHere() {
  return loadQueue().filter(item => item.match === config.match);
}

/** The hand to enter next: the server's, or, while hands wait in the queue, the one after the
 * last queued hand (dealt by the next dealer; the engine checks it when it is sent). After a
 * queued hand entered again (a rejected one) the page waits: what follows is the server's to say. */
function upcoming() {
  const queued = queuedHere();
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
  const dealer = open ? currentDealer() : (next && next.dealer);
  for (const seat of $$('.compass [data-seat]')) {
    const deals = Boolean(dealer) && seat.dataset.seat === dealer;
    seat.classList.toggle('dealer', deals);
    $('.dealer-mark', seat).hidden = !deals;
  }
  if (!open) return;
  if (shownNumber !== `${next.number}:${next.reentry}`) {
    if (shownNumber !== null) resetForm();
    shownNumber = `${next.number}:${next.reentry}`;
    if (!next.dealerFixed) $('#dealer-choice').value = next.dealer;
  }
  $('#entry-heading').textContent = fmt(next.reentry ? T.enterAgain : T.enterHand, { number: next.number });
  $('#dealer-field').hidden = next.dealerFixed;
  $('#entry-dealer').textContent = fmt(T.dealerIs, { dealer: dealerLabel(currentDealer()) });
  const side = store.get('side');
  const radio = side && $(`input[name=entering-side][value="${side}"]`);
  if (radio && !$('input[name=entering-side]:checked')) radio.checked = true;
  arrange();
}

function resetForm() {
  const side = $('input[name=entering-side]:checked');
  form.reset();
  if (side) side.checked = true;
  checked = null;
  submitButton.disabled = true;
  preview.replaceChildren();
  preview.className = 'preview';
  $('#form-error').textContent = '';
  showMode();
  if (words) resetCards();
}

// -- the game's facts -----------------------------------------------------------------------------

class FormError extends Error {
  constructor(message, selector) {
    super(message);
    this.selector = selector;
  }
}

const value = selector => { const found = $(selector, form); return found ? found.value : ''; };
const picked = name => { const found = $(`input[name="${name}"]:checked`, form); return found ? found.value : ''; };

function count(kind, key) {
  const input = $(`input[data-kind="${kind}"][data-key="${key}"]`, form);
  const text = input ? input.value.trim() : '0';
  if (!/^\d+$/.test(text)) throw new FormError(fmt(T.badNumber, { who: sideLabel(key) }), `#${input.id}`);
  return Number(text);
}

const tricksOf = keys => Object.fromEntries(keys.map(key => [key, count('tricks', key)]));

const games = {
  spades: {
    arrange(dealer) {
      const layout = config.layouts[dealer];
      const blind = new Set(layout.sides.filter(side => value(`[data-blind-side="${side}"]`)));
      for (const [attribute, datum] of [['data-bid-row', 'bidRow'], ['data-second-row', 'secondRow']]) {
        for (const row of $$(`[${attribute}]`, form)) {
          const seat = row.dataset[datum];
          const position = layout.order.indexOf(seat);
          row.hidden = position < 0 || blind.has(layout.sideOf[seat]);
          row.style.order = position < 0 ? 99 : position;
          const badge = $('.order', row);
          if (badge) badge.textContent = position < 0 ? '' : `${position + 1}.`;
        }
      }
      for (const row of $$('[data-consult-side], [data-second-side]', form)) {
        const side = row.dataset.consultSide || row.dataset.secondSide;
        row.style.order = layout.consult.indexOf(side);
        row.hidden = blind.has(side);
      }
      for (const row of $$('.stepper[data-row-kind="tricks"]', form)) {
        row.hidden = !layout.seats.includes(row.dataset.rowKey);
      }
    },
    facts(dealer) {
      const layout = config.layouts[dealer];
      const rules = config.form;
      const calls = [];
      const blind = new Set();
      if (rules.partnership) {
        for (const side of layout.consult) {
          const call = value(`[data-blind-side="${side}"]`);
          if (call) { calls.push({ side, call }); blind.add(side); }
        }
      }
      if (rules.consult) {
        for (const side of layout.consult) {
          if (blind.has(side)) continue;
          const members = layout.members[side];
          const nils = members.map(seat => [seat, value(`[data-nil-seat="${seat}"]`)]).filter(([, call]) => call);
          for (const [seat, call] of nils) calls.push({ seat, call });
          const call = value(`[data-side-call="${side}"]`);
          if (call) calls.push({ side, call });
          else if (nils.length < members.length) {
            throw new FormError(fmt(T.chooseBid, { who: sideLabel(side) }), `[data-side-call="${side}"]`);
          }
        }
      } else {
        for (const seat of layout.order) {
          if (blind.has(layout.sideOf[seat])) continue;
          const call = value(`[data-bid-seat="${seat}"]`);
          if (!call) throw new FormError(fmt(T.chooseBid, { who: seat }), `[data-bid-seat="${seat}"]`);
          calls.push({ seat, call });
        }
      }
      if (rules.second_round) {
        if (rules.consult) {
          for (const side of layout.consult) {
            if (!blind.has(side)) calls.push({ side, call: value(`[data-second-call="${side}"]`) || 'pass' });
          }
        } else {
          for (const seat of layout.order) {
            if (!blind.has(layout.sideOf[seat])) calls.push({ seat, call: value(`[data-second-seat="${seat}"]`) || 'pass' });
          }
        }
      }
      return { calls, tricks: tricksOf(layout.seats) };
    },
  },

  whist: {
    arrange() {},
    facts() {
      const trump = picked('trump');
      if (!trump) throw new FormError(T.chooseTrump, 'input[name="trump"]');
      const facts = { trump, tricks: tricksOf(config.sides) };
      if (config.form.honours) {
        const held = picked('honours');
        if (!held) throw new FormError(T.chooseHonours, 'input[name="honours"]');
        const [ns, ew] = held.split('-').map(Number);
        facts.honours = { NS: ns, EW: ew };
      }
      const revokes = [...config.seats].map(seat => ({ seat, count: count('revokes', seat) }))
        .filter(revoke => revoke.count > 0);
      if (revokes.length) {
        const penalty = picked('penalty');
        if (!penalty) throw new FormError(T.choosePenalty, 'input[name="penalty"]');
        Object.assign(facts, { revokes, penalty });
      }
      return facts;
    },
  },

  'solo-whist': {
    arrange() {
      const bid = value('[data-solo-bid]');
      const played = bid && bid !== 'pass';
      const part = name => $(`[data-part="${name}"]`, form);
      const show = (name, visible) => { const found = part(name); if (found) found.hidden = !visible; };
      show('declarer', played);
      show('partner', bid === 'prop');
      show('overcalled', bid === 'abundance-in-trumps');
      show('named-trump', played && config.form.names_trump.includes(bid));
      show('turned', bid !== 'pass');
      show('tricks', bid !== 'pass');
    },
    facts(dealer) {
      const order = config.layouts[dealer].order;
      const bid = value('[data-solo-bid]');
      if (!bid) throw new FormError(T.chooseContract, '[data-solo-bid]');
      const turned = () => {
        if (!config.form.turned) return {};
        const rank = value('[data-turned-rank]');
        const suit = picked('turned-suit');
        if (rank && suit) return { turned: rank + suit };
        if (bid === 'pass') return {};
        throw new FormError(T.chooseTurned, '[data-turned-rank]');
      };
      if (bid === 'pass') return { calls: soloCalls(order, { bid }), ...turned() };
      const declarer = picked('declarer');
      if (!declarer) throw new FormError(T.chooseDeclarer, 'input[name="declarer"]');
      const partner = picked('partner');
      if (bid === 'prop' && (!partner || partner === declarer)) throw new FormError(T.choosePartner, 'input[name="partner"]');
      const overcalled = picked('overcalled');
      if (bid === 'abundance-in-trumps' && (!overcalled || overcalled === declarer)) {
        throw new FormError(T.chooseOvercalled, 'input[name="overcalled"]');
      }
      const facts = { calls: soloCalls(order, { bid, declarer, partner, overcalled }), ...turned() };
      if (config.form.names_trump.includes(bid)) {
        const trump = picked('solo-trump');
        if (!trump) throw new FormError(T.chooseTrump, 'input[name="solo-trump"]');
        facts.trump = trump;
      }
      facts.tricks = tricksOf([...config.seats]);
      return facts;
    },
  },

  'german-whist': {
    arrange() {},
    facts() { return { tricks: tricksOf([...config.seats]) }; },
  },
};

/**
 * The shortest legal auction that ends in the contract the table reports, in calling order from
 * the dealer's left (`order`). The rules engine checks it like any other auction.
 */
export function soloCalls(order, { bid, declarer, partner, overcalled }) {
  const calls = [];
  const call = (seat, what) => calls.push({ seat, call: what });
  if (bid === 'pass') {
    for (const seat of order) call(seat, 'pass');
  } else if (bid === 'prop') {
    // whichever of the two speaks first proposes, the other accepts: the same partnership
    const [first, second] = order.filter(seat => seat === declarer || seat === partner);
    for (const seat of order) call(seat, seat === first ? 'prop' : seat === second ? 'cop' : 'pass');
  } else if (bid === 'abundance-in-trumps') {
    // it only overcalls a standing abundance: a declarer who speaks first opens with solo
    const declarerFirst = order.indexOf(declarer) < order.indexOf(overcalled);
    for (const seat of order) {
      if (seat === overcalled) call(seat, 'abundance');
      else if (seat === declarer) call(seat, declarerFirst ? 'solo' : bid);
      else call(seat, 'pass');
    }
    if (declarerFirst) call(declarer, bid);
    call(overcalled, 'pass');
  } else {
    for (const seat of order) call(seat, seat === declarer ? bid : 'pass');
  }
  return calls;
}

function mode() {
  return picked('mode') || 'facts';
}

function showMode() {
  const chosen = mode();
  form.dataset.mode = chosen;
  $('#facts-mode').hidden = chosen === 'full';
  $('#full-mode').hidden = chosen !== 'full';
  const panel = $('#cards-mode');
  if (panel) panel.hidden = chosen !== 'cards';
}

function arrange() {
  const dealer = currentDealer();
  if (dealer && games[config.game]) games[config.game].arrange(dealer);
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

/** The record as the table submits it: the dealer and the facts, the pasted record, or the facts
 * with the deal and play tapped card by card. */
function buildRecord({ partial = false } = {}) {
  if (mode() === 'cards') return cardsRecord({ partial });
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
  return { dealer, ...games[config.game].facts(dealer) };
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
  if (checked || preview.childElementCount) {
    checked = null;
    submitButton.disabled = true;
    preview.className = 'preview';
    preview.replaceChildren(element('p', { textContent: T.changed }));
  }
}

/** The engine's number as the hands list writes it: −3 1/2 for "-7/2" (no arithmetic on scores). */
export function numberText(points) {
  const match = /^(-?)(\d+)(?:\/(\d+))?$/.exec(String(points));
  if (!match || !match[3]) return String(points).replace(/^-/, '−');
  const [, minus, top, bottom] = match;
  const whole = Math.floor(Number(top) / Number(bottom));
  const part = Number(top) % Number(bottom);
  const sign = minus ? '−' : '';
  if (!part) return `${sign}${whole}`;
  return whole ? `${sign}${whole} ${part}/${bottom}` : `${sign}${part}/${bottom}`;
}

const signedText = points => {
  const text = numberText(points);
  return /^[−0]/.test(text) ? text : `+${text}`;
};

function scoreList(values, sign = true) {
  return Object.entries(values || {})
    .map(([who, points]) => `${sideLabel(who)} ${sign ? signedText(points) : numberText(points)}`)
    .join(' · ');
}

function renderCheck(result) {
  preview.replaceChildren();
  if (!result.ok) {
    preview.className = 'preview bad';
    preview.append(element('h3', { textContent: T.checkBad }),
      element('ul', {}, (result.errors || []).map(error => errorItem(error, 'li'))));
    return;
  }
  preview.className = 'preview ok';
  const rows = [[T.score, scoreList(result.score)]];
  const after = result.after || {};
  if (after.score) rows.push([T.totals, scoreList(after.score, false)]);
  if (after.games) rows.push([T.games, scoreList(after.games, false)]);
  if (after.game_points) rows.push([T.gamePoints, scoreList(after.game_points, false)]);
  if (result.tricks) rows.push([T.tricks, Object.entries(result.tricks).map(([who, n]) => `${sideLabel(who)} ${n}`).join(' · ')]);
  if ('contract' in result) {
    const contract = result.contract;
    rows.push([T.contract, contract
      ? `${contract.declarer}${contract.partner ? `+${contract.partner}` : ''}: ${T.solo[contract.bid] || contract.bid}${contract.trump ? ` ${T.suits[contract.trump]}` : ''}`
      : T.thrownIn]);
  }
  if (result.winner) rows.push([T.winner, result.winner]);
  preview.append(element('h3', { textContent: T.checkOk }),
    element('dl', {}, rows.flatMap(([term, text]) => [element('dt', { textContent: term }), element('dd', { textContent: text })])));
  if (result.notes && result.notes.length) {
    preview.append(element('p', { textContent: T.notes }),
      element('ul', {}, result.notes.map(note => element('li', { textContent: note }))));
  }
}

async function checkHand() {
  $('#form-error').textContent = '';
  let record;
  try {
    record = buildRecord();
  } catch (error) {
    if (error instanceof FormError) { showFormError(error); return; }
    throw error;
  }
  const fingerprint = JSON.stringify(record);
  checked = null;
  submitButton.disabled = true;
  if (next.predicted) {  // the score before it is not known until the queued hands are stored
    checkedOffline(record, fingerprint, T.checkLater);
    submitButton.disabled = false;
    return;
  }
  preview.className = 'preview';
  preview.replaceChildren(element('p', { textContent: T.checking }));
  try {
    const response = await request(config.api.check, { method: 'POST', body: checkBody(record), auth: false });
    if (response.status === 200 && response.data) {
      renderCheck(response.data);
      if (response.data.ok) checked = { record, fingerprint };
    } else if (response.status >= 500 || response.status === 429) {
      checkedOffline(record, fingerprint);
    } else {
      preview.className = 'preview bad';
      preview.replaceChildren(refusal(response, T.checkBad));
    }
  } catch {
    checkedOffline(record, fingerprint);
  }
  submitButton.disabled = !checked;
}

function checkedOffline(record, fingerprint, text = T.checkOffline) {
  preview.className = 'preview offline';
  preview.replaceChildren(element('p', { textContent: text }));
  checked = { record, fingerprint, unchecked: true };
}

// -- card by card: the deal and the play tapped on a 52-card grid ---------------------------------
//
// The page only records which cards each seat held and the order they were played; whether a
// card could legally be played, who won a trick and what it scores is the engine's to say.

const RANKS = [...'AKQJT98765432'];
const SUITS = [...'SHDC'];
const SUIT_MARKS = { S: '♠', H: '♥', D: '♦', C: '♣' };
const words = $('#card-words');
const cards = {
  deal: {},      // seat -> cards tapped for it, in the order tapped
  play: [],      // every card played, in order; cut into tricks of four
  seat: null,    // whose cards are being tapped; null once the play begins
};

function cardWord(name) { return words ? words.dataset[name] || '' : ''; }

function cardName(card) {
  const rank = $(`[data-rank="${card[0]}"]`, words);
  const suit = $(`[data-suit="${card[1]}"]`, words);
  return fmt(cardWord('card'), { rank: rank ? rank.textContent : card[0], suit: suit ? suit.textContent : card[1] });
}

function cardLabel(card) {
  return `${card[0] === 'T' ? '10' : card[0]}${SUIT_MARKS[card[1]]}`;
}

/** The seats from the dealer's left round to the dealer: the order of dealing and of trick 1. */
function seatsFromDealer() {
  const seats = [...config.seats];
  const at = seats.indexOf(currentDealer());
  return at < 0 ? seats : [...seats.slice(at + 1), ...seats.slice(0, at + 1)];
}

function holderOf(card) {
  return Object.keys(cards.deal).find(seat => cards.deal[seat].includes(card)) || null;
}

const dealtCount = () => Object.values(cards.deal).reduce((sum, held) => sum + held.length, 0);

/** With three seats complete, the fourth holds what is left: nobody taps 13 cards for nothing. */
function fillLastSeat() {
  const order = seatsFromDealer();
  const open = order.filter(seat => (cards.deal[seat] || []).length < 13);
  if (open.length !== 1) return;
  const [last] = open;
  cards.deal[last] = SUITS.flatMap(suit => RANKS.map(rank => rank + suit))
    .filter(card => !holderOf(card) || holderOf(card) === last);
}

function dealComplete() {
  return seatsFromDealer().every(seat => (cards.deal[seat] || []).length === 13);
}

function tapCard(card) {
  if (cards.seat) {
    const held = cards.deal[cards.seat] || (cards.deal[cards.seat] = []);
    const holder = holderOf(card);
    if (holder && holder !== cards.seat) return;
    if (held.includes(card)) held.splice(held.indexOf(card), 1);
    else if (held.length < 13) held.push(card);
    if (held.length === 13) {
      fillLastSeat();
      const following = seatsFromDealer().find(seat => (cards.deal[seat] || []).length < 13);
      cards.seat = following || null;
      say(following ? fmt(cardWord('dealSeat'), { seat: following, count: (cards.deal[following] || []).length })
        : cardWord('dealDone'));
    }
  } else {
    if (cards.play.includes(card) || cards.play.length >= 52) return;
    cards.play.push(card);
    say(fmt(cardWord('played'), { card: cardName(card) }));
  }
  renderCards();
  invalidate();
}

function undoCard() {
  const card = cards.play.pop();
  if (card) say(fmt(cardWord('undone'), { card: cardName(card) }));
  renderCards();
  invalidate();
}

function chooseDealSeat(seat) {
  cards.seat = seat;
  if (!cards.deal[seat]) cards.deal[seat] = [];
  renderCards();
}

function cardButton(card) {
  const button = element('button', { type: 'button', className: `playing-card suit-${card[1]}` });
  button.dataset.card = card;
  button.setAttribute('aria-label', cardName(card));
  const face = element('span', { textContent: cardLabel(card) });
  face.setAttribute('aria-hidden', 'true');
  button.append(face);
  return button;
}

function buildGrid() {
  const grid = $('#card-grid');
  if (!grid || grid.childElementCount) return;
  for (const suit of SUITS) {
    const row = element('div', { className: 'card-row' });
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', $(`[data-suit="${suit}"]`, words).textContent);
    row.append(...RANKS.map(rank => cardButton(rank + suit)));
    grid.append(row);
  }
}

function renderCards() {
  if (!words) return;
  buildGrid();
  const dealing = Boolean(cards.seat);
  $('#cards-mode').dataset.phase = dealing ? 'deal' : 'play';
  for (const button of $$('#card-grid .playing-card')) {
    const card = button.dataset.card;
    const holder = holderOf(card);
    const badge = holder && !dealing ? ` ${holder}` : '';
    $('span', button).textContent = cardLabel(card) + badge;
    if (dealing) {
      const mine = holder === cards.seat;
      button.setAttribute('aria-pressed', String(mine));
      button.disabled = Boolean(holder) && !mine;
      button.classList.toggle('taken', Boolean(holder) && !mine);
      button.classList.remove('played');
    } else {
      const played = cards.play.includes(card);
      button.removeAttribute('aria-pressed');
      button.disabled = played;
      button.classList.toggle('played', played);
      button.classList.remove('taken');
    }
  }
  for (const button of $$('[data-seat-cards]', form)) {
    const seat = button.dataset.seatCards;
    $('[data-deal-count]', button).textContent = String((cards.deal[seat] || []).length);
    if (seat === cards.seat) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  }
  const dealStatus = $('#deal-status');
  if (dealing) {
    dealStatus.textContent = fmt(cardWord('dealSeat'), { seat: cards.seat, count: (cards.deal[cards.seat] || []).length });
  } else {
    dealStatus.textContent = dealComplete() ? cardWord('dealDone') : cardWord('needDeal');
  }
  const number = Math.floor(cards.play.length / 4) + 1;
  const position = cards.play.length % 4 + 1;
  const playStatus = $('#play-status');
  if (dealing) playStatus.textContent = cardWord('needDeal');
  else if (cards.play.length >= 52) playStatus.textContent = cardWord('playDone');
  else if (cards.play.length === 0) playStatus.textContent = fmt(cardWord('trickLead'), { number, seat: seatsFromDealer()[0] });
  else playStatus.textContent = fmt(cardWord('trickNext'), { number, card: position });
  $('#undo-card').disabled = dealing || !cards.play.length;
  $('#to-play').hidden = !dealing || !dealComplete();
  const list = $('#played-list');
  const tricks = [];
  for (let at = 0; at < cards.play.length; at += 4) tricks.push(cards.play.slice(at, at + 4));
  list.replaceChildren(...(tricks.length ? tricks.map((trick, index) => element('li', {},
    [element('span', { className: 'trick-number', textContent: `${fmt(cardWord('trick'), { number: index + 1 })}: ` }),
      trick.map(card => `${holderOf(card) || '?'} ${cardLabel(card)}`).join(' · ')]))
    : [element('li', { className: 'muted', textContent: cardWord('noPlay') })]));
  const turned = $('#cards-turned');
  if (turned) {
    const dealer = cards.deal[currentDealer()] || [];
    const keep = turned.value;
    const options = dealer.map(card => element('option', { value: card, textContent: cardName(card) }));
    turned.replaceChildren(turned.options[0], ...options);
    turned.value = dealer.includes(keep) ? keep : '';
  }
  showCardsRecord();
}

function showCardsRecord() {
  const shown = $('#cards-record');
  if (!shown || !next || !next.number) return;
  let text;
  try { text = JSON.stringify(checkBody(cardsRecord({ partial: true })), null, 1); } catch (error) {
    text = error instanceof FormError ? error.message : '';
  }
  shown.textContent = text;
}

function resetCards() {
  cards.deal = {};
  cards.play = [];
  cards.seat = seatsFromDealer()[0];
  renderCards();
}

/** The facts the summary form collects that a full record still needs (calls, the turned card). */
function cardFacts(dealer) {
  if (config.game === 'whist') {
    const facts = {};
    const turned = value('#cards-turned');
    if (turned) facts.turned = turned;
    const penalty = picked('penalty');
    if (penalty) facts.penalty = penalty;
    return facts;
  }
  const facts = games[config.game].facts(dealer);
  delete facts.tricks;
  return facts;
}

function cardsRecord({ partial = false } = {}) {
  const dealer = currentDealer();
  const record = { dealer, ...cardFacts(dealer) };
  if (!partial) {
    if (!dealComplete()) throw new FormError(cardWord('needDeal'), '#card-grid .playing-card:not([disabled])');
    if (!cards.play.length) throw new FormError(cardWord('needPlay'), '#card-grid .playing-card:not([disabled])');
    if (config.game === 'whist' && !record.turned) throw new FormError(cardWord('needTurned'), '#cards-turned');
  }
  record.deal = Object.fromEntries([...config.seats].map(seat => [seat, [...(cards.deal[seat] || [])]]));
  const play = [];
  for (let at = 0; at < cards.play.length; at += 4) play.push(cards.play.slice(at, at + 4));
  record.play = play;
  return record;
}

function wireCards() {
  if (!words) return;
  $('#card-grid').addEventListener('click', event => {
    const button = event.target.closest('.playing-card');
    if (button && !button.disabled) tapCard(button.dataset.card);
  });
  $('#undo-card').addEventListener('click', undoCard);
  $('#to-play').addEventListener('click', () => { cards.seat = null; renderCards(); say(cardWord('dealDone')); });
  for (const button of $$('[data-seat-cards]', form)) {
    button.addEventListener('click', () => chooseDealSeat(button.dataset.seatCards));
  }
  resetCards();
}

// -- submitting, and the offline queue ------------------------------------------------------------

function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));  // plain http on a club LAN
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map(byte => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The idempotency key of the hand being entered: made once, kept until the hand is stored. */
function handKey() {
  const draft = store.get('draft');
  if (draft && draft.match === config.match && draft.number === next.number && draft.reentry === next.reentry) {
    return draft.key;
  }
  const key = newKey();
  store.set('draft', { match: config.match, number: next.number, reentry: next.reentry, key });
  return key;
}

function forgetKey(key) {
  const draft = store.get('draft');
  if (!key || (draft && draft.key === key)) store.remove('draft');
}

const loadQueue = () => store.get('queue', []);
const saveQueue = queue => store.set('queue', queue);

function enqueue(item) {
  saveQueue([...loadQueue().filter(queued => queued.key !== item.key), item]);
}

async function send(item) {
  try {
    const response = await request(item.url, {
      method: 'POST', headers: { 'Idempotency-Key': item.key }, timeout: 15000,
      body: { record: item.record, number: item.number, side: item.side || '' },
    });
    if (response.ok) return { kind: 'stored', response };
    if (response.status >= 500 || response.status === 429 || response.status === 408) return { kind: 'retry', response };
    return { kind: 'refused', response };
  } catch (error) {
    return { kind: 'retry', error };
  }
}

function setOutcome(kind, content) {
  outcome.className = `submit-status ${kind || ''}`;
  outcome.replaceChildren();
  if (content) outcome.append(typeof content === 'string' ? element('p', { textContent: content }) : content);
}

function stored(item, response) {
  forgetKey(item.key);
  const status = response.data && response.data.status;
  const text = response.status === 200 ? T.retried : status === 'confirmed' ? T.storedConfirmed : T.stored;
  return fmt(text, { number: item.number });
}

function refused(item, response, lead) {
  const code = response.data && response.data.code;
  if (code === 'idempotency-key-reused') forgetKey(item.key);
  setOutcome('bad', refusal(response, fmt(lead, { number: item.number })));
}

async function submitHand() {
  if (!checked) return;
  const side = picked('entering-side');
  if (!side && !config.director) {
    showFormError(new FormError(T.chooseSide, 'input[name="entering-side"]'));
    return;
  }
  const item = {
    url: config.api.hands, match: config.match, number: next.number, record: checked.record,
    dealer: checked.record.dealer || currentDealer(), reentry: Boolean(next.reentry),
    side, key: handKey(), at: new Date().toISOString(),
  };
  submitButton.disabled = true;
  checkButton.disabled = true;
  const behind = queuedHere().length > 0;  // hands queued before it go first, in order
  if (!behind) setOutcome('', fmt(T.submitting, { number: item.number }));
  const result = behind ? { kind: 'retry' } : await send(item);
  checkButton.disabled = false;
  if (result.kind === 'retry') {
    enqueue(item);
    resetForm();  // the hand is safe in the queue: the form moves on to the next one
    const text = fmt(behind ? T.queuedBehind : T.queued, { number: item.number });
    setOutcome('queued', text);
    say(text);
    if (behind && connected) flushQueue();
    else scheduleRetry();
    updateEntry();
    return;
  }
  if (result.kind === 'stored') {
    const text = stored(item, result.response);
    resetForm();
    setOutcome('ok', text);
    say(text);
    await refresh();
    return;
  }
  submitButton.disabled = false;
  refused(item, result.response, T.refused);
  if (result.response.status === 409) await refresh();
}

let flushing = false;
let sendingKey = null;
let retryTimer = null;
let retryDelay = 0;

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryDelay = retryDelay ? Math.min(retryDelay * 2, LONGEST_RETRY) : FIRST_RETRY;
  retryTimer = setTimeout(flushQueue, retryDelay);
  renderQueue();
}

async function flushQueue() {
  if (flushing) return;
  flushing = true;
  clearTimeout(retryTimer);
  retryTimer = null;
  let changed = false;
  try {
    for (;;) {
      const [item] = loadQueue();
      if (!item) { retryDelay = 0; break; }
      sendingKey = item.key;
      renderQueue();
      const result = await send(item);
      sendingKey = null;
      if (result.kind === 'retry') { scheduleRetry(); break; }
      saveQueue(loadQueue().filter(queued => queued.key !== item.key));
      changed = true;
      retryDelay = 0;
      if (result.kind === 'stored') {
        stored(item, result.response);
        const text = fmt(T.queueSent, { number: item.number });
        setOutcome('ok', text);
        say(text);
      } else {
        refused(item, result.response, T.queueRefused);
      }
    }
  } finally {
    flushing = false;
    sendingKey = null;
    renderQueue();
    if (changed) await refresh();
    updateEntry();
  }
}

/** Each queued hand with its state (kept on this phone, or being sent), then when the next try is. */
function renderQueue() {
  const queue = loadQueue();
  const panel = $('#queue');
  panel.hidden = !queue.length;
  $('#queued-hands').replaceChildren(...queue.map(item => {
    const sending = item.key === sendingKey;
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
  if (queue.length && retryTimer && connected) lines.push(element('p', { textContent: fmt(T.queueRetry, { seconds: Math.round(retryDelay / 1000) }) }));
  if (queue.length && next && next.blocked === 'queued') lines.push(element('p', { textContent: T.queueBlocks }));
  $('#queue-status').replaceChildren(...lines);
}

// -- confirming and rejecting ---------------------------------------------------------------------

async function decide(decision, action) {
  const number = decision.dataset.number;
  const message = $('.decide-message', decision);
  const body = { side: decision.elements.side ? decision.elements.side.value : '', version: Number(decision.dataset.version) };
  if (action === 'reject') body.reason = decision.elements.reason ? decision.elements.reason.value : '';
  const buttons = $$('button', decision);
  buttons.forEach(button => { button.disabled = true; });
  message.className = 'decide-message';
  message.replaceChildren();
  let response;
  try {
    response = await request(`${config.api.hand}${number}/${action}`, { method: 'POST', body });
  } catch {
    message.className = 'decide-message error';
    message.textContent = T.noConnection;
    buttons.forEach(button => { button.disabled = false; });
    return;
  }
  if (response.ok) {
    const text = fmt(action === 'confirm' ? T.confirmed : T.rejected, { number });
    setOutcome('ok', text);
    say(text);
    await refresh();
    return;
  }
  message.className = 'decide-message error';
  message.replaceChildren(refusal(response, fmt(T.decideFailed, { number })));
  buttons.forEach(button => { button.disabled = false; });
  if (response.status === 409) await refresh();
}

function decorateFragment() {
  const side = picked('entering-side') || store.get('side');
  for (const decision of $$('form.decide')) {
    const hint = $('.hand-over', decision);
    if (hint) hint.hidden = !side || side !== decision.dataset.submitted;
  }
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
  if (quiet && region.contains(document.activeElement) && document.activeElement !== region) return false;
  region.innerHTML = html;
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

let stream = null;
let streamTimer = null;
let streamDelay = 0;
let refreshTimer = null;

function refreshSoon() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => { refreshTimer = null; refresh({ quiet: true }); }, 200);
}

/** Listen to the tournament's events. The browser reconnects a dropped stream by itself (with
 * Last-Event-ID); a stream it gives up on is opened again here, waiting longer each time.
 * #scoring's data-stream says "open" or "waiting" (to be opened again). */
function listen() {
  clearTimeout(streamTimer);
  streamTimer = null;
  if (!config.api.events || typeof window.EventSource !== 'function') return;
  if (stream) stream.close();
  const source = new EventSource(config.api.events);
  stream = source;
  let first = true;
  for (const name of LIVE_EVENTS) {
    source.addEventListener(name, event => {
      let data = null;
      try { data = JSON.parse(event.data); } catch { data = null; }
      if (data && data.match && data.match !== config.match) return;
      refreshSoon();
    });
  }
  source.addEventListener('open', () => {
    streamDelay = 0;
    root.dataset.stream = 'open';
    reachable(true);
    // a new stream may have missed events while none was open: catch up once
    if (first && Date.now() - lastRefresh > 2000) refreshSoon();
    first = false;
  });
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED || stream !== source) return;
    source.close();
    stream = null;
    streamDelay = streamDelay ? Math.min(streamDelay * 2, LONGEST_RETRY) : FIRST_RETRY;
    streamTimer = setTimeout(listen, streamDelay);
    root.dataset.stream = 'waiting';
  });
}

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
  form.addEventListener('input', event => { linkPair(event); updateSums(); invalidate(); });
  form.addEventListener('change', event => {
    if (event.target.name === 'entering-side') { store.set('side', event.target.value); decorateFragment(); return; }
    if (event.target.name === 'mode') showMode();
    if (event.target.id === 'dealer-choice') {
      $('#entry-dealer').textContent = fmt(T.dealerIs, { dealer: dealerLabel(currentDealer()) });
      updateEntry();
    }
    arrange();
    invalidate();
    if (words && mode() === 'cards') renderCards();
  });
  checkButton.addEventListener('click', checkHand);
  submitButton.addEventListener('click', submitHand);
  $('#forget-token').addEventListener('click', forgetToken);
  $('#queue-retry').addEventListener('click', () => { retryDelay = 0; flushQueue(); });
  region.addEventListener('click', event => {
    const button = event.target.closest('button[data-action]');
    if (button) decide(button.closest('form.decide'), button.dataset.action);
  });
  region.addEventListener('submit', event => event.preventDefault());
  window.addEventListener('online', () => {
    showConnection();
    retryDelay = 0;
    flushQueue();
    if (token && !$('#access').classList.contains('bad')) checkToken();
    refresh({ quiet: true });
    if (!stream) listen();
  });
  window.addEventListener('offline', () => {
    connected = false;
    showConnection();
    renderQueue();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      refresh({ quiet: true });
      if (!stream) listen();
    }
  });
  setInterval(() => {
    if (document.visibilityState === 'visible' && navigator.onLine) refresh({ quiet: true });
  }, POLL);
  showMode();
  wireCards();
  restoreFragment();
  decorateFragment();
  showConnection();
  updateEntry();
  renderQueue();
  checkToken();
  if (loadQueue().length) flushQueue();
  listen();
  offlineApp();
  root.dataset.ready = 'true';
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
