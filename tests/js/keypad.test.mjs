// The PIN keypad (static/js/scoring/keypad.js): digits in, the last one taken back, never more
// than the PIN's length.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pressKey } from '../../static/js/scoring/keypad.js';

test('digits are added up to the PIN length, and no further', () => {
  let value = '';
  for (const key of ['4', '8', '2', '1', '7']) value = pressKey(value, key, 4);
  assert.equal(value, '4821');
});

test('back takes the last digit back; anything but a digit is ignored', () => {
  assert.equal(pressKey('482', 'back', 4), '48');
  assert.equal(pressKey('', 'back', 4), '');
  assert.equal(pressKey('48', 'x', 4), '48');
  assert.equal(pressKey('48', '12', 4), '48');
});
