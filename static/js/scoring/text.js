// Text helpers with no page behind them (importable by the unit tests in tests/js/).

/** A translated string with its %(name)s placeholders filled. */
export function fmt(text, values = {}) {
  return String(text ?? '').replace(/%\((\w+)\)s/g, (_, name) => (name in values ? String(values[name]) : ''));
}

/** A side as the page writes it: "NS" -> "N/S" (a seat stays as it is). */
export const sideLabel = side => [...String(side || '')].join('/');
