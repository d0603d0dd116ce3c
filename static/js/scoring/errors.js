// The API's one error shape ({code, message, details}) written out for the scorer.

import { element } from './dom.js';

/** One error: the translated code, the message and where (trick, seat, card), then [code]. */
export function errorItem(error, tag, T) {
  const item = element(tag);
  const label = T.codes[error.code];
  if (label) item.append(element('strong', { textContent: label }), ' ');
  const where = [error.trick && `#${error.trick}`, error.seat, error.card].filter(Boolean).join(' ');
  if (error.message) item.append(`${error.message}${where ? ` (${where})` : ''} `);
  if (error.code) item.append(element('span', { className: 'error-code', textContent: `[${error.code}]` }));
  return item;
}

/** A refused request as a list: the lead line, the code and message, the engine's errors. */
export function refusal(response, lead, T) {
  const data = response && response.data ? response.data : {};
  const box = element('div');
  if (lead) box.append(element('p', { textContent: lead }));
  box.append(errorItem(data.code ? data : { code: `http-${response ? response.status : 0}`, message: '' }, 'p', T));
  if (Array.isArray(data.details) && data.details.length) {
    box.append(element('ul', {}, data.details.map(error => errorItem(error, 'li', T))));
  } else if (data.details && data.details.errors) {
    box.append(element('ul', {}, data.details.errors.map(error => errorItem(error, 'li', T))));
  }
  return box;
}
