// The API's one error shape ({code, message, details}) written out for the scorer.

import { element } from './dom.js';
import { fmt } from './text.js';

/** The sentence of one error. An engine error the API translated (it keeps the engine's English
 * as `detail`) is said in the server's own sentence, which names the rule and the number broken
 * ("That bid is too low: ... the partner's 4."); otherwise the page's word for the code, or the
 * message as sent. */
export function errorText(error, T) {
  if (error.detail && error.message) return error.message;
  return T.codes[error.code] || error.message || '';
}

/** One error as a sentence: the translated code (or the message as sent when the code has no
 * translation) and where it is (trick, seat, card). Players never see a bracketed code: it stays
 * in the item's title and data-code, and is shown only to a director (T.showCodes). */
export function errorItem(error, tag, T) {
  const item = element(tag);
  const label = T.codes[error.code];
  const where = [error.trick && `#${error.trick}`, error.seat, error.card].filter(Boolean).join(' ');
  const text = errorText(error, T);
  item.append(`${text}${where ? ` (${where})` : ''}`);
  if (error.code) {
    item.dataset.code = error.code;
    item.title = error.code;
    if (T.showCodes) {
      item.append(' ', element('span', { className: 'error-code', textContent: `[${error.code}]` }));
      // The engine's own English is `detail` (the API says the code's sentence in `message`).
      if (error.detail) item.append(' ', element('span', { className: 'error-detail', lang: 'en', textContent: error.detail }));
      else if (label && error.message && error.message !== label) item.append(' ', element('span', { className: 'error-detail', textContent: error.message }));
    }
  }
  return item;
}

/** How long a refusal asks to wait (`details.retry_after`, seconds: a phone after wrong PINs, a
 * locked PIN), in words; empty when it asks for no wait. "Try again in a moment" alone left a
 * table guessing, from 5 s to several minutes. */
export function waitText(data, T) {
  const seconds = data && data.details && Number(data.details.retry_after);
  return seconds > 0 && T.retryAfter ? fmt(T.retryAfter, { seconds: Math.ceil(seconds) }) : '';
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
  const wait = waitText(data, T);
  if (wait) box.append(element('p', { className: 'retry-after', textContent: wait }));
  return box;
}
