// The offline queue against a fake localStorage and a fake server: every hand is stored exactly
// once, with the key made for it, in the order entered, also across a reload of the page.
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { test } from 'node:test';

import { createApi } from '../../static/js/scoring/api.js';
import { LONGEST_RETRY, createQueue, createStore, newKey, outcomeOf } from '../../static/js/scoring/queue.js';

class FakeStorage {
  constructor() { this.data = new Map(); }
  getItem(name) { return this.data.has(name) ? this.data.get(name) : null; }
  setItem(name, value) { this.data.set(name, String(value)); }
  removeItem(name) { this.data.delete(name); }
}

/** The hands endpoint: stores a hand once per idempotency key, answers 201, or 200 with the
 * stored version for a key it has seen. `mode`: up, down (no answer), lost (stored, answer lost),
 * or a status to answer with. */
class FakeServer {
  constructor() {
    this.mode = 'up';
    this.tries = [];
    this.stored = new Map();
    this.refuse = new Set();  // hand numbers answered 400 bad-record
  }

  fetch = async (url, init) => {
    const key = init.headers['Idempotency-Key'];
    const body = JSON.parse(init.body);
    this.tries.push({ url, key, number: body.number, authorization: init.headers.Authorization });
    if (this.mode === 'down') throw new TypeError('Failed to fetch');
    if (this.refuse.has(body.number)) return answer(400, { code: 'bad-record', message: 'no' });
    if (typeof this.mode === 'number') {
      return answer(this.mode, { code: this.mode === 400 ? 'bad-record' : 'busy', message: 'no' });
    }
    const seen = this.stored.has(key);
    if (!seen) this.stored.set(key, body);
    if (this.mode === 'lost') throw new TypeError('the answer was lost');
    return answer(seen ? 200 : 201, { status: 'pending', number: body.number });
  };

  numbers() { return [...this.stored.values()].map(body => body.number); }
}

function answer(status, data) {
  return { status, ok: status >= 200 && status < 300, json: async () => data };
}

/** Timers that run only when told to. */
class FakeTimers {
  constructor() { this.pending = new Map(); this.next = 1; this.delays = []; }
  setTimeout = (callback, delay) => {
    const id = this.next++;
    this.pending.set(id, callback);
    this.delays.push(delay);
    return id;
  };
  clearTimeout = id => { this.pending.delete(id); };
  async runAll() {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const callback of due) await callback();
  }
}

let counter = 0;
function page({ storage = new FakeStorage(), server = new FakeServer(), timers = new FakeTimers(), match = 7,
               pin = undefined } = {}) {
  const events = { sent: [], refused: [], flushed: 0 };
  const request = createApi({ fetch: server.fetch, authorization: () => 'secret' });
  const queue = createQueue({
    store: createStore('tricktable:table:3:', () => storage),
    request, match, timers,
    connected: () => server.mode !== 'down',
    sent: item => events.sent.push(item.number),
    refused: (item, response) => events.refused.push([item.number, response.status]),
    flushed: async () => { events.flushed += 1; },
    key: () => `key-${++counter}`,
    ...(pin ? { pin } : {}),
  });
  return { storage, server, timers, queue, events, match };
}

function hand(queue, number, { match = 7, reentry = false } = {}) {
  return {
    url: '/api/v1/matches/7/hands/', match, number, record: { dealer: 'N', tricks: { N: 3 } },
    dealer: 'N', reentry, side: 'NS', key: queue.handKey({ number, reentry }), at: '2026-01-01T20:00:00Z',
  };
}

test('a hand that gets an answer is stored at once and its key is done with', async () => {
  const { queue, server, storage } = page();
  const result = await queue.submit(hand(queue, 1));
  assert.equal(result.kind, 'stored');
  assert.deepEqual(server.numbers(), [1]);
  assert.deepEqual(queue.items(), []);
  assert.equal(storage.getItem('tricktable:table:3:draft'), null);
  assert.equal(server.tries[0].authorization, 'Table secret');
});

test("the entering side's PIN goes with the hand, asked for at each try and never kept in the queue", async () => {
  const kept = { pin: '4821' };
  const { queue, server, storage, timers } = page({ pin: item => (item.match === 7 ? kept.pin : '') });
  server.mode = 'down';
  await queue.submit(hand(queue, 1));
  assert.ok(![...storage.data.values()].some(value => value.includes('4821')));
  server.mode = 'up';
  await timers.runAll();
  assert.equal(server.stored.values().next().value.pin, '4821');
  // without a PIN nothing is added to the body
  const other = page();
  await other.queue.submit(hand(other.queue, 1));
  assert.equal('pin' in other.server.stored.values().next().value, false);
});

test('a hand with no answer waits in localStorage and is sent once, with its key, when the server is back', async () => {
  const { queue, server, timers } = page();
  server.mode = 'down';
  const item = hand(queue, 1);
  const told = [];
  const result = await queue.submit(item, { queued: behind => told.push(behind) });
  assert.deepEqual(result, { kind: 'queued', behind: false });
  assert.deepEqual(told, [false]);
  assert.deepEqual(queue.items().map(queued => queued.key), [item.key]);
  assert.ok(queue.waiting);
  server.mode = 'up';
  await timers.runAll();
  assert.deepEqual(server.numbers(), [1]);
  assert.deepEqual(server.tries.map(one => one.key), [item.key, item.key]);
  assert.deepEqual(queue.items(), []);
  assert.equal(queue.waiting, false);
});

test('the key of a hand survives a reload: the reopened page sends the queue with the same keys', async () => {
  const storage = new FakeStorage();
  const server = new FakeServer();
  const first = page({ storage, server });
  const key = first.queue.handKey({ number: 1, reentry: false });
  assert.equal(first.queue.handKey({ number: 1, reentry: false }), key);  // made once per hand
  server.mode = 'down';
  await first.queue.submit(hand(first.queue, 1));

  const reopened = page({ storage, server });  // the page opened again from the card
  assert.equal(reopened.queue.handKey({ number: 1, reentry: false }), key);
  assert.deepEqual(reopened.queue.items().map(item => [item.number, item.key]), [[1, key]]);
  server.mode = 'up';
  await reopened.queue.flush();
  assert.deepEqual(server.numbers(), [1]);
  assert.deepEqual(new Set(server.tries.map(one => one.key)), new Set([key]));
  assert.deepEqual(reopened.events.sent, [1]);
  assert.notEqual(reopened.queue.handKey({ number: 1, reentry: false }), key);  // stored: a new hand gets a new key
});

test('a hand stored whose answer was lost is sent again and stored only once', async () => {
  const { queue, server } = page();
  server.mode = 'lost';
  await queue.submit(hand(queue, 1));
  assert.equal(server.stored.size, 1);
  assert.equal(queue.items().length, 1);
  server.mode = 'up';
  await queue.flush();
  assert.deepEqual(server.numbers(), [1]);
  assert.deepEqual(queue.items(), []);
});

test('hands entered while offline are sent in the order entered, behind the first', async () => {
  const { queue, server, timers } = page();
  server.mode = 'down';
  const kinds = [];
  for (const number of [1, 2, 3]) {
    kinds.push((await queue.submit(hand(queue, number))).behind);
    queue.forgetKey();  // the page moves on to the next hand
  }
  assert.deepEqual(kinds, [false, true, true]);
  assert.deepEqual(queue.items().map(item => item.number), [1, 2, 3]);
  assert.equal(server.tries.length, 1);  // the ones behind were not sent before the first
  server.mode = 'up';
  await timers.runAll();
  assert.deepEqual(server.numbers(), [1, 2, 3]);
  assert.deepEqual(server.tries.slice(1).map(one => one.number), [1, 2, 3]);
});

test('two sends at once (the retry timer and the button) send each hand once', async () => {
  const { queue, server } = page();
  server.mode = 'down';
  await queue.submit(hand(queue, 1));
  queue.forgetKey();
  await queue.submit(hand(queue, 2));
  server.mode = 'up';
  server.tries = [];
  await Promise.all([queue.flush(), queue.retryNow(), queue.flush()]);
  assert.deepEqual(server.tries.map(one => one.number), [1, 2]);
  assert.deepEqual(server.numbers(), [1, 2]);
});

test('a refusal leaves the queue, is reported, and the hands behind it still go', async () => {
  const { queue, server, events } = page();
  server.mode = 'down';
  await queue.submit(hand(queue, 1));
  queue.forgetKey();
  await queue.submit(hand(queue, 2));
  server.mode = 'up';
  server.refuse.add(1);
  await queue.flush();
  assert.deepEqual(events.refused, [[1, 400]]);
  assert.deepEqual(events.sent, [2]);
  assert.deepEqual(server.numbers(), [2]);
  assert.deepEqual(queue.items(), []);
});

test('no answer worth keeping: 5xx, 408 and 429 are tried again, other refusals are not', () => {
  const kinds = [201, 200, 500, 503, 429, 408, 400, 403, 409].map(status => outcomeOf(answer(status, {})));
  assert.deepEqual(kinds, ['stored', 'stored', 'retry', 'retry', 'retry', 'retry', 'refused', 'refused', 'refused']);
});

test('a refused PIN is not sent again, not even a 429 wait or lock: a retry would count against it', () => {
  const codes = ['side-pin-wait', 'side-pin-locked', 'side-pin-wrong', 'throttled'];
  // what api.js's request answers: {status, ok, data}
  const kinds = codes.map(code => outcomeOf({ status: code === 'side-pin-wrong' ? 403 : 429, ok: false, data: { code } }));
  assert.deepEqual(kinds, ['refused', 'refused', 'refused', 'retry']);
});

test('the retries wait 2 s, doubling up to a minute, and start over after an answer', async () => {
  const { queue, server, timers } = page();
  server.mode = 'down';
  await queue.submit(hand(queue, 1));
  for (let i = 0; i < 7; i += 1) await timers.runAll();
  assert.deepEqual(timers.delays, [2000, 4000, 8000, 16000, 32000, LONGEST_RETRY, LONGEST_RETRY, LONGEST_RETRY]);
  server.mode = 'up';
  queue.wake();
  await new Promise(resolve => setImmediate(resolve));
  assert.equal(queue.retryDelay, 0);
  assert.deepEqual(server.numbers(), [1]);
});

test('another match\'s queued hand is still sent, but the page\'s next hand counts only its own', async () => {
  const { queue, server } = page();
  server.mode = 'down';
  await queue.submit(hand(queue, 4, { match: 6 }));
  assert.deepEqual(queue.here(), []);
  assert.equal(queue.items().length, 1);
  server.mode = 'up';
  await queue.flush();
  assert.deepEqual(server.numbers(), [4]);
});

test('keys are version 4 UUIDs, also without crypto.randomUUID (plain HTTP)', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(newKey(webcrypto), uuid);  // Node 18 has no global crypto: the browser's is passed
  const plain = { getRandomValues: bytes => webcrypto.getRandomValues(bytes) };
  const keys = new Set(Array.from({ length: 50 }, () => newKey(plain)));
  assert.equal(keys.size, 50);
  for (const key of keys) assert.match(key, uuid);
});

test('a storage that refuses (private mode) loses nothing but the queue: no exception', () => {
  const store = createStore('p:', () => { throw new Error('SecurityError'); });
  store.set('queue', [1]);
  assert.deepEqual(store.get('queue', []), []);
  store.remove('queue');
});
