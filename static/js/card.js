// A table card's page (templates/tournaments/scoring/card.html): what the card's QR code opens,
// for the whole event. The card's code arrives in the URL fragment (#token=...); it is kept on
// this phone for this card only and removed from the address bar at once. The round's match is
// its scoring page in a frame, handed the code in the frame's own fragment (never sent to the
// server). static/js/live.js refreshes #card-now when the event's stream announces a round or
// results (or every 15 s without a stream); when the table's match changes (the director
// published the next round), the frame moves to it: no reload of this page, no second scan.
// Between rounds #card-now says what comes next; after the event, where the results are.

const page = document.getElementById('table-card');
const now = document.getElementById('card-now');
const frame = document.getElementById('card-match');
const missing = document.getElementById('card-token-missing');
const key = `tricktable:card:${page.dataset.card}:token`;

function storage() {
  try { return window.localStorage; } catch { return null; }
}

function takeToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const given = params.get('token');
  const store = storage();
  if (given) {
    if (store) store.setItem(key, given);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    if (!store) return given;
  }
  return store ? store.getItem(key) : null;
}

const token = takeToken();
let shown = null;

// The frame is as tall as the round page's body (not its <html>, which is never shorter than
// the frame itself), so the phone scrolls one page, never a page inside a page.
function fitFrame() {
  const body = frame.contentDocument && frame.contentDocument.body;
  if (!body) return;
  const style = frame.contentWindow.getComputedStyle(body);
  const height = body.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  frame.style.height = `${Math.ceil(height)}px`;
}

let observer = null;
frame.addEventListener('load', () => {
  if (observer) observer.disconnect();
  const body = frame.contentDocument && frame.contentDocument.body;
  if (!body) return;
  fitFrame();
  if (typeof ResizeObserver === 'function') {
    observer = new ResizeObserver(fitFrame);
    observer.observe(body);
  }
});

function follow() {
  const marked = now.querySelector('[data-frame]');
  const target = marked ? marked.dataset.frame : '';
  missing.hidden = Boolean(token) || !target || marked.dataset.state !== 'playing';
  page.dataset.state = marked ? marked.dataset.state : '';
  if (target === shown) return;
  shown = target;
  frame.hidden = !target;
  if (!target) {
    frame.removeAttribute('src');
    return;
  }
  // The round's page takes the code from its fragment and keeps it for its own table.
  frame.src = target + (token ? `#token=${encodeURIComponent(token)}` : '');
}

now.addEventListener('live:updated', follow);
follow();
