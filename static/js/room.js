// The room panel on the director's pages (templates/tournaments/room/_panel.html, issue 15
// point 5): a new call for the director beeps (Web Audio) and is announced to screen readers.
// Browsers play sound only after the page was tapped or clicked, so the panel offers "Turn on the
// call sound" (the choice is kept on this device); until then a new call still shows and is
// announced. live.js swaps the panel's fragment in; this script compares the open calls
// (data-open-calls) before and after each swap, and fetches the panel again every minute.
(function () {
  'use strict';

  var KEY = 'tricktable:call-sound';
  var MINUTE = 60000;
  var audio = null;

  function calls(root) {
    var holder = root.querySelector('[data-open-calls]');
    var ids = holder ? holder.getAttribute('data-open-calls').trim() : '';
    return ids ? ids.split(/\s+/) : [];
  }

  function beep() {
    if (!audio) return false;
    try {
      if (audio.state === 'suspended') audio.resume();
      [0, 0.35].forEach(function (at) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.type = 'sine';
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, audio.currentTime + at);
        gain.gain.exponentialRampToValueAtTime(0.3, audio.currentTime + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + at + 0.25);
        osc.connect(gain).connect(audio.destination);
        osc.start(audio.currentTime + at);
        osc.stop(audio.currentTime + at + 0.3);
      });
      return true;
    } catch (e) { return false; }
  }

  function init() {
    var root = document.querySelector('[data-room]');
    if (!root) return;
    var known = calls(root);
    var button = root.querySelector('[data-enable-sound]');
    var announce = root.querySelector('[data-call-announce]');
    var Context = window.AudioContext || window.webkitAudioContext;

    function showButton() {
      if (!button) return;
      var on = Boolean(audio) && audio.state === 'running';
      button.hidden = !Context;
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
      button.textContent = button.getAttribute(on ? 'data-text-on' : 'data-text-off');
    }

    function enable() {
      if (!Context) return;
      if (!audio) audio = new Context();
      audio.resume().then(showButton, showButton);
      try { localStorage.setItem(KEY, '1'); } catch (e) { /* private mode */ }
    }

    if (button) {
      button.addEventListener('click', function () {
        if (audio && audio.state === 'running') {
          audio.suspend().then(showButton);
          try { localStorage.removeItem(KEY); } catch (e) { /* private mode */ }
        } else {
          enable();
          beep();
        }
      });
    }
    // Chosen before on this device: the first tap anywhere on the page turns the sound on.
    var wanted = false;
    try { wanted = localStorage.getItem(KEY) === '1'; } catch (e) { wanted = false; }
    if (wanted) document.addEventListener('pointerdown', enable, {once: true});
    showButton();

    // "Since last hand" grows without any event: the panel is fetched again every minute
    // (not while the director is typing in one of its forms).
    var region = root.querySelector('[data-live-fragment]');
    if (region) {
      setInterval(function () {
        if (document.hidden || region.contains(document.activeElement)) return;
        fetch(region.getAttribute('data-live-fragment'), {credentials: 'same-origin',
                                                          cache: 'no-store'})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (html === null || region.contains(document.activeElement)) return;
            region.innerHTML = html;
            region.dispatchEvent(new CustomEvent('live:updated', {bubbles: true}));
          })
          .catch(function () { /* the next minute tries again */ });
      }, MINUTE);
    }

    root.addEventListener('live:updated', function () {
      var now = calls(root);
      var fresh = now.filter(function (id) { return known.indexOf(id) < 0; });
      known = now;
      if (!fresh.length) return;
      root.classList.add('room-alert');
      setTimeout(function () { root.classList.remove('room-alert'); }, 4000);
      if (announce) {
        announce.textContent = '';
        announce.textContent = announce.getAttribute('data-text');
      }
      document.body.setAttribute('data-last-beep', beep() ? 'played' : 'silent');
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}());
