// Reading the entry form. A game module reads its facts through a `read` object (below, or a
// fake one in tests/js/) and throws a FormError that names the control to fix.
// No imports: see "The page's modules" in docs/scoring-offline.md.

export class FormError extends Error {
  constructor(message, selector) {
    super(message);
    this.selector = selector;
  }
}

/**
 * The form's values as the game modules ask for them:
 * - value(selector): the value of the control the selector finds ('' if none);
 * - picked(name): the checked radio's value of that name ('' if none);
 * - count(kind, key): a whole number from a stepper (tricks, revokes) or a FormError;
 * - tricks(keys): {key: count('tricks', key)} for each key.
 * badNumber(key) is the message for a count that is not a whole number.
 */
export function formReader(form, { badNumber }) {
  const read = {
    value(selector) {
      const found = form.querySelector(selector);
      return found ? found.value : '';
    },
    picked(name) {
      const found = form.querySelector(`input[name="${name}"]:checked`);
      return found ? found.value : '';
    },
    count(kind, key) {
      const input = form.querySelector(`input[data-kind="${kind}"][data-key="${key}"]`);
      const text = input ? input.value.trim() : '0';
      if (!/^\d+$/.test(text)) throw new FormError(badNumber(key), `#${input.id}`);
      return Number(text);
    },
    tricks(keys) {
      return Object.fromEntries(keys.map(key => [key, read.count('tricks', key)]));
    },
  };
  return read;
}

/** Setting a form to stored values (a director's correction): a control's value, a radio. */
export function formWriter(form) {
  return {
    value(selector, value) {
      const found = form.querySelector(selector);
      if (found && value != null) found.value = String(value);
      return Boolean(found);
    },
    pick(name, value) {
      const found = form.querySelector(`input[name="${name}"][value="${value}"]`);
      if (found) found.checked = true;
      return Boolean(found);
    },
    count(kind, key, value) {
      const found = form.querySelector(`input[data-kind="${kind}"][data-key="${key}"]`);
      if (found) found.value = String(value ?? 0);
    },
    /** Is `value` one of the choices of the select the selector finds? */
    offers(selector, value) {
      const found = form.querySelector(selector);
      return Boolean(found && [...found.options].some(option => option.value === value));
    },
  };
}
