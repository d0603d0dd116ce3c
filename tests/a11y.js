// Accessibility basics, evaluated in the page by the `accessibility` fixture (conftest.py).
() => {
  const problems = [];
  const visible = el => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length)
    && getComputedStyle(el).visibility !== 'hidden';
  const name = el => {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return true;
    if (el.labels && el.labels.length) return true;
    if (el.title) return true;
    if (['button', 'submit', 'reset'].includes(el.type) && (el.value || el.textContent.trim()))
      return true;
    if (el.tagName === 'BUTTON' && el.textContent.trim()) return true;
    return false;
  };
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, button')) {
    if (visible(el) && !name(el)) problems.push(`no accessible name: ${el.outerHTML.slice(0, 120)}`);
  }
  for (const img of document.querySelectorAll('img')) {
    if (!img.hasAttribute('alt')) problems.push(`image without alt: ${img.outerHTML.slice(0, 120)}`);
  }
  const first = document.querySelector('h1, h2, h3, h4, h5, h6');
  if (!first || first.tagName !== 'H1') problems.push('the first heading is not an h1');
  if (!document.documentElement.lang) problems.push('no lang on <html>');
  const rgb = s => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
    }
    return [255, 255, 255];
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || seen.has(el) || !walker.currentNode.textContent.trim() || !visible(el)) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const fg = rgb(style.color), bg = background(el);
    const [a, b] = [lum(fg) + 0.05, lum(bg) + 0.05];
    const ratio = Math.max(a, b) / Math.min(a, b);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5))
      problems.push(`contrast ${ratio.toFixed(2)} for "${walker.currentNode.textContent.trim().slice(0, 40)}"`);
  }
  return problems;
}
