// The offline queue (docs/scoring-offline.md): a hand that gets no answer waits in localStorage,
// per table, and is sent again in order, always with the idempotency key made once for it, until
// the server stores it (or refuses it: a 4xx with a code, shown and dropped). The queue outlives
// the page: a page opened again finds it and sends each hand once. Nothing here touches the DOM:
// the page hears about what happened through the hooks of createQueue.

const FIRST_RETRY = 2000;
export const LONGEST_RETRY = 60000;

/** localStorage under one prefix (`tricktable:table:<id>:`), JSON values; never throws (a
 * browser in private mode may refuse it). */
export function createStore(prefix, storage = () => globalThis.localStorage) {
  return {
    get(name, fallback = null) {
      try {
        const value = storage().getItem(prefix + name);
        return value === null ? fallback : JSON.parse(value);
      } catch {
        return fallback;
      }
    },
    set(name, value) {
      try { storage().setItem(prefix + name, JSON.stringify(value)); } catch { /* private mode */ }
    },
    remove(name) {
      try { storage().removeItem(prefix + name); } catch { /* private mode */ }
    },
  };
}

/** A new idempotency key (a version 4 UUID), also over plain HTTP on a club LAN where
 * crypto.randomUUID is missing. */
export function newKey(random = globalThis.crypto) {
  if (random && typeof random.randomUUID === 'function') return random.randomUUID();
  const bytes = random.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map(byte => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What an answer to a submission means: stored, refused (not to be sent again), or no answer
 * worth keeping (send it again later with the same key). */
export function outcomeOf(response) {
  if (response.ok) return 'stored';
  // a PIN refused (even "wait" or "locked", 429): sending it again would only count against it
  const code = response.data && response.data.code;
  if (typeof code === 'string' && code.startsWith('side-pin')) return 'refused';
  if (response.status >= 500 || response.status === 429 || response.status === 408) return 'retry';
  return 'refused';
}

/**
 * The queue of one table's page.
 * - store: createStore(...) for the table; request: api.js's request;
 * - match: the match the page scores (the queue may hold another match's hands: sent all the same);
 * - connected(): whether the page thinks the server answers (a hand behind others is sent at once
 *   then, else on the next retry);
 * - changed(): the queue or its state changed (redraw it);
 * - sent(item, response) / refused(item, response): a queued hand was stored or refused;
 * - flushed(changed): a run of sending ended (changed: some hand left the queue);
 * - timers: {setTimeout, clearTimeout} (fake ones in tests);
 * - key: makes an idempotency key;
 * - pin(item): the entering side's PIN for the item's match ('' for none). The PIN is kept in
 *   sessionStorage by the page, never in the queue (localStorage), and sent as `pin`.
 */
export function createQueue({ store, request, match, connected = () => true, changed = () => {},
                              sent = () => {}, refused = () => {}, flushed = async () => {},
                              timers = globalThis, key = newKey, pin = () => '' }) {
  let flushing = false;
  let sendingKey = null;
  let retryTimer = null;
  let retryDelay = 0;

  const items = () => store.get('queue', []);
  const save = queue => store.set('queue', queue);

  const queue = {
    items,
    /** The queued hands of this page's match, in order. */
    here: () => items().filter(item => item.match === match),
    get sendingKey() { return sendingKey; },
    get retryDelay() { return retryDelay; },
    get waiting() { return retryTimer !== null; },

    enqueue(item) {
      save([...items().filter(queued => queued.key !== item.key), item]);
    },

    /** The idempotency key of the hand being entered (next: {number, reentry}): made once,
     * kept in localStorage until that hand is stored, so a reload sends it with the same key. */
    handKey(next) {
      const draft = store.get('draft');
      if (draft && draft.match === match && draft.number === next.number && draft.reentry === next.reentry) {
        return draft.key;
      }
      const made = key();
      store.set('draft', { match, number: next.number, reentry: next.reentry, key: made });
      return made;
    },

    forgetKey(done) {
      const draft = store.get('draft');
      if (!done || (draft && draft.key === done)) store.remove('draft');
    },

    /** One try: {kind: 'stored' | 'retry' | 'refused', response?, error?}. */
    async send(item) {
      try {
        const response = await request(item.url, {
          method: 'POST', headers: { 'Idempotency-Key': item.key }, timeout: 15000,
          body: { record: item.record, number: item.number, side: item.side || '', ...sentPin(item) },
        });
        return { kind: outcomeOf(response), response };
      } catch (error) {
        return { kind: 'retry', error };
      }
    },

    /** A new hand: sent at once when nothing waits before it, else (or without an answer) queued
     * behind the others; `queued(behind)` is told before the queue moves on. Answers the result
     * of the try, or {kind: 'queued', behind}. */
    async submit(item, { queued = () => {} } = {}) {
      const behind = queue.here().length > 0;  // hands queued before it go first, in order
      const result = behind ? { kind: 'retry' } : await queue.send(item);
      if (result.kind === 'retry') {
        queue.enqueue(item);
        queued(behind);
        if (behind && connected()) queue.flush();
        else queue.scheduleRetry();
        return { kind: 'queued', behind };
      }
      settle(item, result);
      return result;
    },

    /** The next try after a wait: 2 s, doubling up to a minute. */
    scheduleRetry() {
      timers.clearTimeout(retryTimer);
      retryDelay = retryDelay ? Math.min(retryDelay * 2, LONGEST_RETRY) : FIRST_RETRY;
      retryTimer = timers.setTimeout(() => queue.flush(), retryDelay);
      changed();
    },

    /** Try now, from a short wait again (the button, the browser back online). */
    retryNow() {
      retryDelay = 0;
      return queue.flush();
    },

    /** The server answered something: the queued hands go at once. */
    wake() {
      retryDelay = 0;
      if (items().length) queue.flush();
    },

    /** Send the queued hands in order, one at a time, until the queue is empty or a hand gets no
     * answer (then wait and try again). Only one run at a time. */
    async flush() {
      if (flushing) return;
      flushing = true;
      timers.clearTimeout(retryTimer);
      retryTimer = null;
      let left = false;
      try {
        for (;;) {
          const [item] = items();
          if (!item) { retryDelay = 0; break; }
          sendingKey = item.key;
          changed();
          const result = await queue.send(item);
          sendingKey = null;
          if (result.kind === 'retry') { queue.scheduleRetry(); break; }
          save(items().filter(queued => queued.key !== item.key));
          left = true;
          retryDelay = 0;
          settle(item, result);
          if (result.kind === 'stored') sent(item, result.response);
          else refused(item, result.response);
        }
      } finally {
        flushing = false;
        sendingKey = null;
        changed();
        await flushed(left);
      }
    },
  };

  function sentPin(item) {
    const given = pin(item);
    return given ? { pin: given } : {};
  }

  /** A stored hand's key is done with; so is one the server says was used for another hand. */
  function settle(item, result) {
    const code = result.response && result.response.data && result.response.data.code;
    if (result.kind === 'stored' || code === 'idempotency-key-reused') queue.forgetKey(item.key);
  }

  return queue;
}
