// How the scoring page words an error of the API's one error shape (scoring/errors.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { errorText, waitText } from '../../static/js/scoring/errors.js';

const T = { codes: { 'bid-too-low': 'That bid is too low.', 'own-side': 'The other side confirms.' } };

test("an engine error the API translated keeps the server's sentence: the rule and the least bid", () => {
  const error = {
    code: 'bid-too-low', seat: 'N', rule: 'partner-bid', minimum: 4,
    message: "That bid is too low: the side's bid is its second bid, which is at least the partner's 4.",
    detail: "N bid 3, below the partner's 4",
  };
  assert.equal(errorText(error, T), error.message);
});

test("a refusal without the engine's detail is said in the page's word for its code", () => {
  assert.equal(errorText({ code: 'own-side', message: 'the other side confirms or rejects a hand' }, T),
    'The other side confirms.');
  assert.equal(errorText({ code: 'unknown-code', message: 'As sent.' }, T), 'As sent.');
});

test('a refusal that asks to wait says for how long, in whole seconds', () => {
  const words = { ...T, retryAfter: 'You can try again in %(seconds)s s.' };
  assert.equal(waitText({ code: 'side-pin-wait', details: { retry_after: 15 } }, words),
    'You can try again in 15 s.');
  assert.equal(waitText({ code: 'side-pin-locked', details: { retry_after: 2.2 } }, words),
    'You can try again in 3 s.');
  assert.equal(waitText({ code: 'side-pin-wrong', details: null }, words), '');
  assert.equal(waitText({ code: 'side-pin-wrong', details: { retry_after: 0 } }, words), '');
});
