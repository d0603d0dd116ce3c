// The round clock and the call's state on the scoring page (issue 15 points 4 and 5): the time
// left counts from the server's clock whatever this device's clock says.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callState, foldsForm } from '../../static/js/scoring/call.js';
import { clockText, secondsLeft } from '../../static/js/scoring/clock.js';

test('the clock is written as minutes and seconds, hours when long, minus when over', () => {
  assert.equal(clockText(45 * 60), '45:00');
  assert.equal(clockText(9.4), '0:09');
  assert.equal(clockText(3900), '1:05:00');
  assert.equal(clockText(-150), '-2:30');
});

test('a running clock counts down from the server time, not the device time', () => {
  const serverTime = Date.parse('2026-11-24T12:00:00Z');
  const deviceAtArrival = serverTime + 90 * 60 * 1000;  // this phone is 90 minutes fast
  const clock = { state: 'running', remaining: 600, serverTime,
                  offset: serverTime - deviceAtArrival };
  assert.equal(secondsLeft(clock, deviceAtArrival), 600);
  assert.equal(secondsLeft(clock, deviceAtArrival + 30_000), 570);
});

test('a paused or unstarted clock does not count', () => {
  const clock = { state: 'paused', remaining: 300, serverTime: 0, offset: 0 };
  assert.equal(secondsLeft(clock, 10_000_000), 300);
  assert.equal(secondsLeft({ ...clock, state: 'ready' }, 10_000_000), 300);
});

test('the phone says received while open and on the way for a while after the answer', () => {
  const now = Date.parse('2026-11-24T12:30:00Z');
  assert.equal(callState(null, now), 'none');
  assert.equal(callState({ open: true }, now), 'open');
  assert.equal(callState({ open: false, acknowledged_at: '2026-11-24T12:25:00Z' }, now),
               'acknowledged');
  assert.equal(callState({ open: false, acknowledged_at: '2026-11-24T12:00:00Z' }, now), 'none');
});

test('the call form folds away when a call is sent or acknowledged, not when a refresh finds it unchanged', () => {
  assert.equal(foldsForm('none', 'open'), true);
  assert.equal(foldsForm('open', 'acknowledged'), true);
  assert.equal(foldsForm('open', 'open'), false);
  assert.equal(foldsForm('acknowledged', 'acknowledged'), false);
  assert.equal(foldsForm('open', 'none'), false);
});
