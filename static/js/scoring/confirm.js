// Confirming and rejecting a hand: the one place the page answers a hand the other side
// submitted (the forms form.decide in templates/tournaments/scoring/_hands.html). Anything the
// answer must carry (the answering side, the version answered, a reason, a side's PIN) is
// gathered in answerBody; answerHand sends it and reports back. In PIN mode a tap on Confirm (or
// Reject) opens the form's keypad (scoring/keypad.js) and the PIN's last digit sends the answer
// chosen: four digits and one tap. The PIN is typed for each answer and never kept.

import { $, $$ } from './dom.js';
import { fmt } from './text.js';

/** What the API needs with a confirm or reject (POST /api/v1/.../hands/<n>/<action>). */
export function answerBody(decision, action) {
  const fields = decision.elements;
  const body = { side: fields.side ? fields.side.value : '', version: Number(decision.dataset.version) };
  if (action === 'reject') body.reason = fields.reason ? fields.reason.value : '';
  // The answering side's PIN (the tournament's default mode): only that side has it, so the
  // phone that entered the hand cannot answer for the other side with the table's token alone.
  if (fields.pin) body.pin = fields.pin.value.trim();
  return body;
}

/** Refusals that are about the PIN typed: the form stays, the PIN is cleared for another try.
 * A wait or a lock clears it too: the keypad takes no fifth digit, so a PIN left in the field
 * would keep the right PIN from being typed once the wait is over. */
export const PIN_REFUSALS = new Set([
  'side-pin-required', 'side-pin-wrong', 'side-pin-mismatch', 'own-side', 'declarer-side',
  'side-pin-wait', 'side-pin-locked',
]);

/**
 * Swap the hands list (`swap()`) keeping what someone is typing in it: each answer form's
 * fields (a PIN, a reason) and the focus go into the same hand's form of the new list when it
 * is still there at the same version. So an update never waits for the phone to be put down:
 * after a refused PIN the focus stays in its field, and the list still follows the other
 * phones and the director (issue 28: it used to stop updating).
 */
export function keepAnswers(region, swap) {
  const typed = new Map();
  const focused = region.contains(document.activeElement) ? document.activeElement : null;
  let focusKey = null;
  for (const decision of $$('form.decide', region)) {
    const at = `${decision.dataset.number}:${decision.dataset.version}`;
    for (const field of decision.elements) {
      if (!field.name) continue;
      const key = `${at}:${field.name}`;
      if (field.type !== 'hidden' && field.value) typed.set(key, field.value);
      if (field === focused) focusKey = key;
    }
    const details = $('details', decision);
    if (details && details.open) typed.set(`${at}:details`, 'open');
    if (decision.dataset.pending) typed.set(`${at}:pending`, decision.dataset.pending);
  }
  const focusId = focused && !focusKey ? focused.id : '';
  swap();
  for (const decision of $$('form.decide', region)) {
    const at = `${decision.dataset.number}:${decision.dataset.version}`;
    for (const field of decision.elements) {
      const key = `${at}:${field.name}`;
      if (field.name && typed.has(key) && field.type !== 'hidden') field.value = typed.get(key);
      if (key === focusKey) field.focus();
    }
    const details = $('details', decision);
    if (details && typed.has(`${at}:details`)) details.open = true;
    if (typed.has(`${at}:pending`)) {  // the keypad opened for an answer stays open for it
      decision.dataset.pending = typed.get(`${at}:pending`);
      const entry = $('.pin-entry', decision);
      if (entry) entry.hidden = false;
    }
  }
  if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus();
}

/**
 * Send the answer (action 'confirm' or 'reject') of one decision form. The form's buttons are
 * off while it travels; a refusal or no answer is shown in the form, and a conflict (409: the
 * hand changed meanwhile) fetches the list again. `answered(text)` is told on success;
 * `refusal(response, lead)` writes a refusal (errors.js).
 */
export async function answerHand(decision, action, { request, handUrl, T, answered, refresh, refusal }) {
  const number = decision.dataset.number;
  const message = $('.decide-message', decision);
  const body = answerBody(decision, action);
  const pin = decision.elements.pin;
  if (pin && !body.pin) {  // nothing to send yet: the keypad opens; the PIN's last digit sends
    const entry = pin.closest ? pin.closest('.pin-entry') : null;
    if (entry) entry.hidden = false;
    decision.dataset.pending = action;
    message.className = 'decide-message';
    // in PIN mode the form says no side: the PIN does (data-answerers: who may answer)
    const side = body.side ? [...body.side].join('/') : (decision.dataset.answerers || '');
    message.textContent = fmt((action === 'reject' ? T.rejectPin : T.confirmPin) || T.pinPrompt, { side, number });
    pin.focus();
    return;
  }
  const buttons = $$('button', decision);
  buttons.forEach(button => { button.disabled = true; });
  message.className = 'decide-message';
  message.replaceChildren();
  let response;
  try {
    response = await request(`${handUrl}${number}/${action}`, { method: 'POST', body });
  } catch {
    message.className = 'decide-message error';
    message.textContent = T.noConnection;
    buttons.forEach(button => { button.disabled = false; });
    return;
  }
  if (response.ok) {
    await answered(fmt(action === 'confirm' ? T.confirmed : T.rejected, { number }));
    return;
  }
  message.className = 'decide-message error';
  message.replaceChildren(refusal(response, fmt(T.decideFailed, { number })));
  buttons.forEach(button => { button.disabled = false; });
  const code = response.data && response.data.code;
  if (pin && PIN_REFUSALS.has(code)) {
    pin.value = '';
    pin.focus();
  }
  if (response.status === 409) await refresh();
}

/** "Hand the phone over" shows on a hand this phone's side submitted: the other side answers. */
export function markHandOver(side) {
  for (const decision of $$('form.decide')) {
    const hint = $('.hand-over', decision);
    const mine = Boolean(side) && side === decision.dataset.submitted;
    if (hint) hint.hidden = !mine;
    // on the phone that entered it the hand is folded to a line and its Confirm button, so the
    // next hand's entry stays on the screen; Confirm unfolds it with its keypad
    decision.classList.toggle('handed-over', mine);
  }
}
