// One way to write a score (tests/data/numbers.json holds the rule and its cases; the pages use
// the same rule in Python, tournaments/words/formatting.py): whole numbers plain, the minus sign
// U+2212, exact halves, thirds and quarters as a mixed number with the vulgar-fraction sign
// (32¼, −3½, ⅔), any other fraction as a decimal with at most two places (4.29), `signed` adds
// + to positive values, an empty value is an em dash, anything that is not a number as given.
// The engine sends scores as text ("129/4", "-12"): the page never does arithmetic on a score
// beyond writing it.

const MINUS = '\u2212';
const EMPTY = '\u2014';
const GLYPHS = { '1/2': '½', '1/3': '⅓', '2/3': '⅔', '1/4': '¼', '3/4': '¾' };

const gcd = (a, b) => (b ? gcd(b, a % b) : a);

/** The value as an exact fraction {negative, top, bottom} (top, bottom >= 0), or null. */
function exact(value) {
  let text;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  let found = /^(-?)(\d+)\/(\d+)$/.exec(text);
  if (found) {
    const bottom = Number(found[3]);
    return bottom ? { negative: found[1] === '-', top: Number(found[2]), bottom } : null;
  }
  found = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!found) return null;
  const places = (found[3] || '').length;
  const bottom = 10 ** places;
  return { negative: found[1] === '-', top: Number(found[2]) * bottom + Number(found[3] || 0), bottom };
}

/** A score as the club writes it: number('129/4') is '32¼', number('60', {signed: true}) '+60'. */
export function number(value, { signed = false } = {}) {
  if (value === null || value === undefined || value === '') return EMPTY;
  const fraction = exact(value);
  if (!fraction) return String(value);
  const { top, bottom } = fraction;
  const whole = Math.floor(top / bottom);
  let rest = top % bottom;
  let text;
  if (!rest) {
    text = String(whole);
  } else {
    const common = gcd(rest, bottom);
    const glyph = GLYPHS[`${rest / common}/${bottom / common}`];
    if (glyph) {
      text = `${whole || ''}${glyph}`;
    } else {
      // two places at most, rounded half up, without trailing zeros
      const hundredths = Math.round((top * 100) / bottom);
      rest = hundredths % 100;
      text = String(Math.floor(hundredths / 100));
      if (rest) text += `.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
    }
  }
  if (text === '0') return '0';
  if (fraction.negative) return MINUS + text;
  return signed ? `+${text}` : text;
}
