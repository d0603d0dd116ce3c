// Duplicate pages.
// - Live rankings ([data-live-url]): the section reloads itself every data-live-every seconds.
// (The table's phone is static/js/duplicate/phone.js.)
(() => {
  "use strict";

  function live(section) {
    const every = Math.max(5, Number(section.dataset.liveEvery) || 15) * 1000;
    setInterval(async () => {
      if (document.hidden) return;
      try {
        const response = await fetch(section.dataset.liveUrl, { credentials: "same-origin" });
        if (response.ok) section.innerHTML = await response.text();
      } catch (e) { /* offline: try again later */ }
    }, every);
  }

  document.querySelectorAll("[data-live-url]").forEach(live);
})();
