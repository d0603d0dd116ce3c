// "Call the director" on the scoring page (templates/tournaments/room/_call.html, issue 15
// point 5). The call goes to POST /api/v1/tables/<id>/call with the table's scoring code (kept by
// scoring.js in localStorage for this table only): only the table calls for itself, and calling
// again while a call is open is the same call. The phone shows "call received" and then, once a
// director acknowledges it, "a director is on the way": clock.js passes on the stream's "call"
// events (a `room:call` event on document); a minute's check catches a missed one.

import { createStore } from './queue.js';

const ACK_SHOWN_MS = 15 * 60 * 1000;  // "on the way" stays this long after the acknowledgement

export function callState(body, now = Date.now()) {
  if (!body) return 'none';
  if (body.open) return 'open';
  const at = Date.parse(body.acknowledged_at);
  return now - at < ACK_SHOWN_MS ? 'acknowledged' : 'none';
}

// The call form folds away when the call's state changes (sent, acknowledged), not on every
// refresh: a stream event or the minute's check that finds the same open call must not shut the
// form a player has just opened again under their finger.
export function foldsForm(before, state) {
  return state !== 'none' && state !== before;
}

function csrf() {
  const input = document.querySelector('input[name=csrfmiddlewaretoken]');
  if (input) return input.value;
  const found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return found ? decodeURIComponent(found[1]) : '';
}

function init() {
  const root = document.getElementById('call-director');
  if (!root) return;
  const store = createStore(`tricktable:table:${root.dataset.table}:`);
  const url = root.dataset.callUrl;
  const status = root.querySelector('#call-status');
  const form = root.querySelector('#call-form');
  const details = root.querySelector('#call-details');
  const send = root.querySelector('#call-send');
  let shown = 'none';
  const say = (key) => {
    status.textContent = key ? root.dataset[key] || '' : '';
    root.dataset.callState = key || 'none';
  };

  function headers() {
    const code = store.get('token');
    const sent = { Accept: 'application/json' };
    if (code) sent.Authorization = `Table ${code}`;
    return sent;
  }

  function show(body) {
    const state = callState(body);
    root.classList.toggle('call-open', state === 'open');
    root.classList.toggle('call-acknowledged', state === 'acknowledged');
    if (state === 'open') say('textOpen');
    else if (state === 'acknowledged') say('textAcknowledged');
    else if (status.textContent && root.dataset.callState !== 'textFailed') say('');
    if (foldsForm(shown, state)) details.open = false;
    shown = state;
  }

  async function refresh() {
    if (!store.get('token')) return;
    try {
      const response = await fetch(url, { headers: headers(), cache: 'no-store',
                                           credentials: 'same-origin' });
      if (response.status === 204) show(null);
      else if (response.ok) show(await response.json());
    } catch { /* offline: the next event or check tries again */ }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!store.get('token')) { say('textNoCode'); return; }
    const chosen = form.querySelector('input[name=call-reason]:checked');
    const body = { reason: chosen ? chosen.value : '',
                   note: form.querySelector('#call-note').value.trim() };
    send.disabled = true;
    say('textSending');
    try {
      const response = await fetch(url, {
        method: 'POST', credentials: 'same-origin', cache: 'no-store',
        headers: { ...headers(), 'Content-Type': 'application/json', 'X-CSRFToken': csrf() },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        show(await response.json());
        form.reset();
      } else {
        say(response.status === 429 ? 'textBusy' : 'textFailed');
      }
    } catch {
      say('textFailed');
    } finally {
      send.disabled = false;
    }
  });

  document.addEventListener('room:call', (event) => {
    const data = event.detail;
    if (!data || String(data.table) === root.dataset.table) refresh();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
  setInterval(refresh, 60000);
  refresh();
}

// After the entry module (scoring.js) has run: it takes the scoring code from the card's link.
if (typeof document === 'undefined') {
  // imported by the tests (Node): nothing to start
} else if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', init);
} else {
  setTimeout(init, 0);
}
