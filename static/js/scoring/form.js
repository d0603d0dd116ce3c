// Reading the entry form. A game module reads its facts through a `read` object (below, or a
// fake one in tests/js/) and throws a FormError that names the control to fix.

import { $ } from './dom.js';
import { fmt, sideLabel } from './text.js';

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
 */
export function formReader(form, T) {
  const read = {
    value(selector) {
      const found = $(selector, form);
      return found ? found.value : '';
    },
    picked(name) {
      const found = $(`input[name="${name}"]:checked`, form);
      return found ? found.value : '';
    },
    count(kind, key) {
      const input = $(`input[data-kind="${kind}"][data-key="${key}"]`, form);
      const text = input ? input.value.trim() : '0';
      if (!/^\d+$/.test(text)) throw new FormError(fmt(T.badNumber, { who: sideLabel(key) }), `#${input.id}`);
      return Number(text);
    },
    tricks(keys) {
      return Object.fromEntries(keys.map(key => [key, read.count('tricks', key)]));
    },
  };
  return read;
}
