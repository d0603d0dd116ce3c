// The scoring page's event stream: events about this match refresh the list, a stream the
// browser gave up on is opened again after a growing wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createStream } from '../../static/js/scoring/stream.js';

class FakeEventSource {
  static CLOSED = 2;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = {};
    FakeEventSource.made.push(this);
  }
  addEventListener(name, listener) { (this.listeners[name] ||= []).push(listener); }
  close() { this.readyState = FakeEventSource.CLOSED; }
  emit(name, data) { for (const listener of this.listeners[name] || []) listener({ data }); }
}

function fakeTimers() {
  const timers = { waits: [], due: [] };
  timers.setTimeout = (callback, wait) => { timers.waits.push(wait); timers.due.push(callback); return timers.due.length; };
  timers.clearTimeout = () => {};
  timers.run = () => { const due = timers.due.splice(0); for (const callback of due) callback(); };
  return timers;
}

function stream(extra = {}) {
  FakeEventSource.made = [];
  const seen = { changed: 0, opened: [], states: [] };
  const timers = fakeTimers();
  const live = createStream({
    url: '/api/v1/tournaments/club/events', events: ['hand-submitted', 'round'], match: 5,
    changed: () => { seen.changed += 1; }, opened: first => seen.opened.push(first),
    state: name => seen.states.push(name), EventSource: FakeEventSource, timers, ...extra,
  });
  return { live, seen, timers };
}

test('events about this match (or none) refresh the list; another match\'s do not', () => {
  const { live, seen } = stream();
  live.listen();
  const [source] = FakeEventSource.made;
  source.emit('hand-submitted', JSON.stringify({ match: 5, number: 2 }));
  source.emit('hand-submitted', JSON.stringify({ match: 6, number: 1 }));
  source.emit('round', JSON.stringify({ number: 2 }));
  source.emit('round', 'not json');
  assert.equal(seen.changed, 3);
});

test('a stream the browser closed is opened again after 2 s, 4 s, ... up to a minute', () => {
  const { live, seen, timers } = stream();
  live.listen();
  for (let i = 0; i < 7; i += 1) {
    const source = FakeEventSource.made.at(-1);
    source.readyState = FakeEventSource.CLOSED;
    source.emit('error');
    assert.equal(live.open, false);
    timers.run();
  }
  assert.deepEqual(timers.waits, [2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  assert.equal(FakeEventSource.made.length, 8);
  assert.equal(seen.states.at(-1), 'waiting');
  const source = FakeEventSource.made.at(-1);
  source.emit('open');
  assert.deepEqual(seen.opened, [true]);
  assert.equal(seen.states.at(-1), 'open');
  source.readyState = FakeEventSource.CLOSED;
  source.emit('error');
  assert.equal(timers.waits.at(-1), 2000);  // an open stream starts the waits over
});

test('an error the browser recovers from itself (still connecting) opens nothing new', () => {
  const { live, timers } = stream();
  live.listen();
  FakeEventSource.made[0].emit('error');
  assert.deepEqual(timers.waits, []);
  assert.equal(live.open, true);
});

test('without EventSource or an address the page polls alone', () => {
  const { live } = stream({ EventSource: undefined });
  live.listen();
  assert.equal(live.open, false);
  const none = stream({ url: '' });
  none.live.listen();
  assert.equal(FakeEventSource.made.length, 0);
});
