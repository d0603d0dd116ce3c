// The tournament's event stream (GET /api/v1/tournaments/<slug>/events, docs/live.md): the hands
// list follows the other phones without a reload. The browser reconnects a dropped stream by
// itself (with Last-Event-ID); a stream it gives up on (closed after an error answer) is opened
// again here after 2 s, 4 s, ... up to a minute, and at once when the page asks (back online).

const FIRST_WAIT = 2000;
const LONGEST_WAIT = 60000;

/**
 * - url: the stream's address; events: the event names to follow; match: this page's match (an
 *   event about another match is ignored);
 * - changed(): an event about this match (or one without a match) arrived;
 * - opened(first): the stream is open (first: for the first time since listen());
 * - state(name): 'open' or 'waiting' (to be opened again);
 * - EventSource, timers: the browser's (fakes in tests).
 */
export function createStream({ url, events, match, changed, opened = () => {}, state = () => {},
                               EventSource = globalThis.EventSource, timers = globalThis }) {
  let source = null;
  let timer = null;
  let wait = 0;

  function listen() {
    timers.clearTimeout(timer);
    timer = null;
    if (!url || typeof EventSource !== 'function') return;
    if (source) source.close();
    const current = new EventSource(url);
    source = current;
    let first = true;
    for (const name of events) {
      current.addEventListener(name, event => {
        let data = null;
        try { data = JSON.parse(event.data); } catch { data = null; }
        if (data && data.match && data.match !== match) return;
        changed();
      });
    }
    current.addEventListener('open', () => {
      wait = 0;
      state('open');
      opened(first);
      first = false;
    });
    current.addEventListener('error', () => {
      if (current.readyState !== EventSource.CLOSED || source !== current) return;
      current.close();
      source = null;
      wait = wait ? Math.min(wait * 2, LONGEST_WAIT) : FIRST_WAIT;
      timer = timers.setTimeout(listen, wait);
      state('waiting');
    });
  }

  return {
    listen,
    /** Whether a stream is open or opening (none while waiting to open one again). */
    get open() { return source !== null; },
  };
}
