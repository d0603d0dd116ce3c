// The scoring page writes every score with numbers.js: the same rule and cases as the pages'
// Python formatter (tests/data/numbers.json, shared; not to be edited for one side).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { number } from '../../static/js/scoring/numbers.js';

const shared = JSON.parse(readFileSync(new URL('../data/numbers.json', import.meta.url), 'utf8'));

test('the shared file has cases to check', () => {
  assert.ok(shared.cases.length >= 20);
});

for (const { value, signed, text } of shared.cases) {
  test(`number(${JSON.stringify(value)}${signed ? ', signed' : ''}) is ${JSON.stringify(text)}`, () => {
    assert.equal(number(value, { signed: Boolean(signed) }), text);
  });
}

test('a missing value is an em dash like an empty one', () => {
  assert.equal(number(undefined), '\u2014');
});

test('signed zero and signed fractions keep the one minus sign', () => {
  assert.equal(number(-3, { signed: true }), '\u22123');
  assert.equal(number('-0', { signed: true }), '0');
  assert.equal(number('2/3', { signed: true }), '+\u2154');
});
