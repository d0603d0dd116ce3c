// Live regions: each element with data-live-fragment="URL" reloads its server-rendered HTML when
// the tournament's event stream (the element with data-live-events="SSE URL") announces one of
// the events named in its data-live-on. Without EventSource, or when the stream keeps failing,
// the regions poll their fragment every 15 s instead. The page works without this script: it is
// rendered complete on the server and only gets fresher with it.
//
// A region whose fragment carries data-version (the standings snapshot version) ignores a
// "standings" event for a version it already shows. After a swap the region dispatches a
// bubbling "live:updated" event (the projector re-pages on it). The element with
// data-live-events gets data-live-mode="sse" or "polling", saying which one is in use.
(function () {
  'use strict';

  var POLL_MS = 15000;
  var MAX_ERRORS = 3;      // consecutive failures without a successful (re)connection
  var DEBOUNCE_MS = 200;   // a burst of events makes one fetch per region

  function Region(element) {
    this.element = element;
    this.url = element.getAttribute('data-live-fragment');
    this.events = (element.getAttribute('data-live-on') || 'standings').split(/\s+/);
    this.timer = null;
    this.busy = false;
    this.again = false;
    this.html = null;
  }

  Region.prototype.version = function () {
    var marked = this.element.querySelector('[data-version]');
    return marked ? parseInt(marked.getAttribute('data-version'), 10) || 0 : 0;
  };

  Region.prototype.hear = function (name, data) {
    if (this.events.indexOf(name) < 0) return;
    if (name === 'standings' && data && typeof data.version === 'number' &&
        data.version <= this.version()) return;
    this.soon();
  };

  Region.prototype.soon = function () {
    var self = this;
    if (this.timer) return;
    this.timer = setTimeout(function () { self.timer = null; self.load(); }, DEBOUNCE_MS);
  };

  Region.prototype.load = function () {
    var self = this;
    if (this.busy) { this.again = true; return; }
    this.busy = true;
    fetch(this.url, {credentials: 'same-origin', cache: 'no-store',
                     headers: {'Accept': 'text/html'}})
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.text();
      })
      .then(function (html) {
        var key = comparable(html);
        if (self.html === null) self.html = comparable(self.element.innerHTML);
        if (key !== self.html) {
          self.html = key;
          self.element.innerHTML = html;
          self.element.dispatchEvent(new CustomEvent('live:updated', {bubbles: true}));
        }
      })
      .catch(function () { /* the next event or poll tries again */ })
      .then(function () {
        self.busy = false;
        if (self.again) { self.again = false; self.load(); }
      });
  };

  // The fragment without the parts that change on their own (e.g. "updated 2 minutes ago",
  // marked data-live-ignore): a poll that brings nothing new swaps nothing and announces nothing.
  function comparable(html) {
    var holder = document.createElement('template');
    holder.innerHTML = html;
    Array.prototype.forEach.call(holder.content.querySelectorAll('[data-live-ignore]'),
                                 function (el) { el.remove(); });
    return holder.innerHTML.replace(/\s+/g, ' ').trim();
  }

  function start(source) {
    var regions = Array.prototype.map.call(
      document.querySelectorAll('[data-live-fragment]'), function (el) { return new Region(el); });
    if (!regions.length) return;
    var polling = null;

    function loadAll() { regions.forEach(function (r) { r.soon(); }); }

    function poll() {
      if (polling) return;
      source.setAttribute('data-live-mode', 'polling');
      polling = setInterval(loadAll, POLL_MS);
    }

    var url = source.getAttribute('data-live-events');
    if (!url || typeof window.EventSource !== 'function') { poll(); return; }

    var stream = new EventSource(url);
    var errors = 0;
    source.setAttribute('data-live-mode', 'sse');
    var names = {};
    regions.forEach(function (r) { r.events.forEach(function (n) { names[n] = true; }); });
    Object.keys(names).forEach(function (name) {
      stream.addEventListener(name, function (event) {
        var data = null;
        try { data = JSON.parse(event.data); } catch (e) { data = null; }
        regions.forEach(function (r) { r.hear(name, data); });
      });
    });
    stream.addEventListener('open', function () { errors = 0; });
    stream.addEventListener('error', function () {
      // A short response (the development server) ends each connection and the browser
      // reconnects: that is an error followed by an open. Only failures in a row count.
      errors += 1;
      if (stream.readyState === EventSource.CLOSED || errors >= MAX_ERRORS) {
        stream.close();
        poll();
      }
    });
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') loadAll();  // catch up after a sleep
    });
  }

  function init() {
    var source = document.querySelector('[data-live-events]');
    if (source) start(source);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}());
