// The PIN keypad (templates/tournaments/scoring/_keypad.html): a tap on a digit key adds it to
// the input the keypad is for, ⌫ takes the last one back; the input hears an `input` event, and
// once it holds `digits` digits, `full(input)` is told (the page sends the PIN then: no "OK" tap).

/** The new value of a PIN after tapping `key` (a digit or "back"), never longer than `digits`. */
export function pressKey(value, key, digits) {
  if (key === 'back') return value.slice(0, -1);
  if (!/^\d$/.test(key) || value.length >= digits) return value;
  return value + key;
}

/** Wire every keypad under `root` (now and later: the hands list is swapped in again). */
export function wireKeypads(root, { digits, full = () => {} }) {
  root.addEventListener('click', event => {
    const key = event.target.closest('button[data-key]');
    const pad = key && key.closest('[data-keypad]');
    if (!pad) return;
    const input = document.getElementById(pad.dataset.keypad);
    if (!input) return;
    const before = input.value;
    input.value = pressKey(before, key.dataset.key, digits);
    if (input.value === before) return;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    if (input.value.length === digits && key.dataset.key !== 'back') full(input);
  });
}
