// Talking to the server: one fetch with a time-out that answers {status, ok, data} for any
// answer and throws when there is none. Whether the server answered is reported to
// `reachable` (the page's offline banner and the queue's wake-up hang on it).

/**
 * A `request(url, options)` bound to the page:
 * - fetch: the fetch to use (a fake one in tests/js/);
 * - csrf(): the CSRF token for the X-CSRFToken header ('' for none);
 * - authorization(): the scoring code to send as `Authorization: Table <code>`, or null;
 * - reachable(answered): called after every request, true when the server answered.
 */
export function createApi({ fetch = (...args) => globalThis.fetch(...args), csrf = () => '',
                            authorization = () => null, reachable = () => {} } = {}) {
  return async function request(url, { method = 'GET', body, headers = {}, auth = true, timeout = 12000 } = {}) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    const sent = { Accept: 'application/json', ...headers };
    if (body !== undefined) sent['Content-Type'] = 'application/json';
    const token = csrf();
    if (token) sent['X-CSRFToken'] = token;
    const code = auth ? authorization() : null;
    if (code) sent.Authorization = `Table ${code}`;
    try {
      let response;
      try {
        response = await fetch(url, {
          method, headers: sent, credentials: 'same-origin', cache: 'no-store', signal: controller.signal,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        reachable(false);
        throw error;
      }
      reachable(true);
      let data = null;
      try { data = await response.json(); } catch { data = null; }
      return { status: response.status, ok: response.ok, data };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The CSRF token Django wrote into the page (a hidden input), or ''. */
export function pageCsrf() {
  const input = document.querySelector('input[name=csrfmiddlewaretoken]');
  return input ? input.value : '';
}
