// The round clock (templates/tournaments/room/_clock.html, issue 15 point 4) on the scoring page,
// the director's pages, the round page and the projector. The server says how much time was left
// at its own time (data-remaining at data-server-time); the page keeps the offset between the
// server's clock and this device's, so a phone whose clock is wrong still counts the same time
// as the projector. "Last hand" shows at data-last-hand seconds left, "Time" at zero.
//
// Where a live region (live.js) swaps the clock in, the new element is picked up by itself.
// Where none does (the scoring page), an element with data-clock-url and data-clock-events
// follows the event stream: on a "clock" event it asks the API for the clock again. It also
// announces "call" events to the page (a `room:call` event on document) for call.js, so the
// phone opens one extra stream, not two.

const TICK = 1000;
const seen = new WeakMap();   // element -> {offset, remaining, serverTime}

/** "45:00", "0:09", "-2:30" (over time), "1:05:00". */
export function clockText(seconds) {
  const whole = seconds >= 0 ? Math.floor(seconds) : -Math.ceil(-seconds);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${sign}${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** The seconds left now: what the server said, less the time gone since on the server's clock
 * (this device's clock plus the offset measured when the element arrived). */
export function secondsLeft({ state, remaining, serverTime, offset }, now = Date.now()) {
  if (state !== 'running' && state !== 'over') return remaining;
  return remaining - ((now + offset) - serverTime) / 1000;
}

function read(element, now) {
  let known = seen.get(element);
  if (!known) {
    const serverTime = Number(element.dataset.serverTime) || now;
    known = { serverTime, offset: serverTime - now };
    seen.set(element, known);
  }
  known.state = element.dataset.clockState;
  known.remaining = Number(element.dataset.remaining) || 0;
  known.lastHand = Number(element.dataset.lastHand) || 0;
  return known;
}

export function render(element, now = Date.now()) {
  const clock = read(element, now);
  const left = secondsLeft(clock, now);
  let state = clock.state;
  if (state === 'running' && left <= 0) state = 'over';
  const lastHand = (state === 'running' || state === 'paused') && left <= clock.lastHand;
  const time = element.querySelector('[data-clock-time]');
  const shown = clockText(Math.max(left, state === 'over' ? -359999 : 0));
  if (time && time.textContent !== shown) time.textContent = shown;
  const note = element.querySelector('[data-clock-note]');
  const key = lastHand ? 'textLastHand'
    : { over: 'textOver', paused: 'textPaused', ready: 'textReady' }[state] || 'textRunning';
  const text = element.dataset[key] || '';
  if (note && note.textContent !== text) note.textContent = text;
  element.classList.toggle('clock-last-hand', lastHand);
  element.classList.toggle('clock-over', state === 'over');
  return { left, state, lastHand };
}

/** Take a fresh answer of the API (GET /api/v1/rounds/<id>/clock) into the element. */
export function update(element, body, now = Date.now()) {
  const serverTime = Date.parse(body.server_time);
  seen.set(element, { serverTime, offset: serverTime - now });
  element.dataset.clockState = body.state;
  element.dataset.remaining = String(body.remaining_seconds);
  element.dataset.lastHand = String(body.last_hand_seconds);
  element.dataset.serverTime = String(serverTime);
  element.hidden = body.state === 'unset';
  for (const name of ['unset', 'ready', 'running', 'paused', 'over']) {
    element.classList.toggle(`clock-${name}`, body.state === name);
  }
  render(element, now);
}

function follow(element) {
  const url = element.dataset.clockUrl;
  const events = element.dataset.clockEvents;
  if (!url || !events || typeof globalThis.EventSource !== 'function') return;
  const refresh = async () => {
    try {
      const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store',
                                           headers: { Accept: 'application/json' } });
      if (response.ok) update(element, await response.json());
    } catch { /* the next event or the minute's check tries again */ }
  };
  const stream = new EventSource(events);
  stream.addEventListener('clock', refresh);
  stream.addEventListener('call', event => {
    let data = null;
    try { data = JSON.parse(event.data); } catch { data = null; }
    document.dispatchEvent(new CustomEvent('room:call', { detail: data }));
  });
  stream.addEventListener('open', refresh);  // caught up after a reconnection
  setInterval(refresh, 60000);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
}

function tick() {
  const now = Date.now();
  document.querySelectorAll('[data-clock]').forEach(element => render(element, now));
}

function init() {
  document.querySelectorAll('[data-clock]').forEach(follow);
  tick();
  setInterval(tick, TICK);
  document.addEventListener('live:updated', tick);
}

if (typeof document !== 'undefined' && !globalThis.__clockStarted) {
  globalThis.__clockStarted = true;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}
