// What the page sends when a side confirms or rejects a hand (scoring/confirm.js), and what the
// API client adds to every request (scoring/api.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createApi } from '../../static/js/scoring/api.js';
import { answerBody, answerHand } from '../../static/js/scoring/confirm.js';

const decision = (fields, version = '3') => ({ elements: fields, dataset: { version, number: '2' } });

test('a confirmation carries the answering side and the version answered', () => {
  assert.deepEqual(answerBody(decision({ side: { value: 'EW' }, reason: { value: 'no' } }), 'confirm'),
    { side: 'EW', version: 3 });
});

test('a rejection also carries the reason; a form without a side sends an empty one', () => {
  assert.deepEqual(answerBody(decision({ reason: { value: 'E had 5 tricks' } }, '7'), 'reject'),
    { side: '', version: 7, reason: 'E had 5 tricks' });
});

test('requests send JSON with the CSRF token and the scoring code, and say whether the server answered', async () => {
  const calls = [];
  const reached = [];
  let down = false;
  const request = createApi({
    fetch: async (url, init) => {
      calls.push({ url, ...init });
      if (down) throw new TypeError('Failed to fetch');
      return { status: 409, ok: false, json: async () => ({ code: 'hand-changed' }) };
    },
    csrf: () => 'csrf-1', authorization: () => 'code-1', reachable: value => reached.push(value),
  });
  const answer = await request('/api/v1/x', { method: 'POST', body: { a: 1 } });
  assert.deepEqual(answer, { status: 409, ok: false, data: { code: 'hand-changed' } });
  assert.deepEqual(calls[0].headers, {
    Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRFToken': 'csrf-1',
    Authorization: 'Table code-1' });
  assert.equal(calls[0].body, '{"a":1}');
  await request('/api/v1/hands/check', { method: 'POST', body: {}, auth: false });
  assert.equal(calls[1].headers.Authorization, undefined);  // the check needs no scoring code
  down = true;
  await assert.rejects(request('/api/v1/x'));
  assert.deepEqual(reached, [true, true, false]);
});

test('a request with no answer in time is given up', async () => {
  const request = createApi({
    fetch: (url, init) => new Promise((resolve, reject) => {
      init.signal.addEventListener('abort', () => reject(new Error('aborted')));
    }),
  });
  await assert.rejects(request('/slow', { timeout: 20 }), /aborted/);
});


/** A decision form as answerHand sees it: fields, a message box and two buttons. */
function pinForm(pin) {
  const message = { className: '', textContent: '', replaceChildren(...nodes) { this.children = nodes; } };
  const buttons = [{ disabled: false }, { disabled: false }];
  const entry = { hidden: true };
  const field = { value: pin, focused: 0, focus() { this.focused += 1; }, closest: () => entry };
  return {
    elements: { side: { value: 'EW' }, pin: field },
    dataset: { version: '1', number: '4' },
    querySelector: selector => (selector === '.decide-message' ? message : null),
    querySelectorAll: selector => (selector === 'button' ? buttons : []),
    message, field, buttons, entry,
  };
}

const T = { pinPrompt: '%(side)s: PIN for hand %(number)s', decideFailed: 'Hand %(number)s:',
  confirmed: 'Hand %(number)s is confirmed.', rejected: 'r', noConnection: 'offline' };

test("the answering side's PIN goes with the answer, trimmed", () => {
  const body = answerBody(decision({ side: { value: 'EW' }, pin: { value: ' 4821 ' } }), 'confirm');
  assert.deepEqual(body, { side: 'EW', version: 3, pin: '4821' });
});

test('an answer without the PIN the form asks for is not sent: the scorer is asked for it', async () => {
  const form = pinForm('  ');
  const sent = [];
  await answerHand(form, 'confirm', { request: async (...args) => { sent.push(args); },
    handUrl: '/h/', T, answered: async () => {}, refresh: async () => {}, refusal: () => 'x' });
  assert.equal(sent.length, 0);
  assert.equal(form.message.textContent, 'E/W: PIN for hand 4');
  assert.equal(form.field.focused, 1);
  // the keypad opens, and remembers which answer its last digit sends
  assert.equal(form.entry.hidden, false);
  assert.equal(form.dataset.pending, 'confirm');
});

test('the keypad asks in the words of the answer chosen: confirm or reject', async () => {
  const words = { ...T, confirmPin: '%(side)s confirms %(number)s', rejectPin: '%(side)s rejects %(number)s' };
  const options = { request: async () => assert.fail('not sent'), handUrl: '/h/', T: words,
    answered: async () => {}, refresh: async () => {}, refusal: () => 'x' };
  const form = pinForm('');
  await answerHand(form, 'reject', options);
  assert.equal(form.message.textContent, 'E/W rejects 4');
  assert.equal(form.dataset.pending, 'reject');
  await answerHand(form, 'confirm', options);
  assert.equal(form.message.textContent, 'E/W confirms 4');
});

test('a wrong PIN leaves the hand as it was and clears the PIN for another try', async () => {
  const form = pinForm('1111');
  const sent = [];
  let refreshed = 0;
  await answerHand(form, 'confirm', {
    request: async (url, init) => { sent.push([url, init.body]);
      return { ok: false, status: 403, data: { code: 'side-pin-wrong' } }; },
    handUrl: '/h/', T, answered: async () => assert.fail('not answered'),
    refresh: async () => { refreshed += 1; }, refusal: () => 'refused',
  });
  assert.deepEqual(sent, [['/h/4/confirm', { side: 'EW', version: 1, pin: '1111' }]]);
  assert.equal(form.field.value, '');
  assert.equal(form.field.focused, 1);
  assert.equal(refreshed, 0);
  assert.ok(form.buttons.every(button => !button.disabled));
});

test('after "wait a moment" or a lock the PIN is cleared too: the keypad can type the right one', async () => {
  for (const code of ['side-pin-wait', 'side-pin-locked']) {
    const form = pinForm('1111');
    await answerHand(form, 'confirm', {
      request: async () => ({ ok: false, status: 429, data: { code } }),
      handUrl: '/h/', T, answered: async () => assert.fail('not answered'),
      refresh: async () => {}, refusal: () => 'refused',
    });
    assert.equal(form.field.value, '', code);
    assert.ok(form.buttons.every(button => !button.disabled));
  }
});
