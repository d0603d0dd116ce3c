// Duplicate pages.
// - The table's phone ([data-table-panel]): the table's code arrives in the address' fragment
//   (#token=...), is kept on this phone (localStorage, per event and table) and removed from
//   the address; the panel (the table's boards, the next board, the score form, what awaits the
//   other side) is fetched with `Authorization: Table <code>`, and its forms are sent the same
//   way, the answer being the new panel. Without a code a signed-in director's session works.
//   The round clock above the panel (the room's, scoring/clock.js) is the round's of the page's
//   load: a panel of a later round reloads the page.
// - Live rankings ([data-live-url]): the section reloads itself every data-live-every seconds.
(() => {
  "use strict";

  function tablePanel(holder) {
    const key = `tricktable:duplicate:${holder.dataset.slug}:${holder.dataset.table}`;
    const match = /token=([^&]+)/.exec(window.location.hash);
    if (match) {
      try { localStorage.setItem(key, decodeURIComponent(match[1])); } catch (e) { /* private */ }
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    let token = null;
    try { token = localStorage.getItem(key); } catch (e) { token = null; }
    const headers = () => (token ? { Authorization: `Table ${token}` } : {});

    function show(html) {
      holder.innerHTML = html;
      // A new round at this table: the page again, for that round's clock (the code stays).
      const round = holder.querySelector("[data-round]");
      if (round && round.dataset.round !== (holder.dataset.round || "")) {
        window.location.reload();
        return;
      }
      holder.querySelectorAll("form[data-act]").forEach((form) => {
        form.addEventListener("submit", async (event) => {
          event.preventDefault();
          const data = new FormData(form);
          if (event.submitter && event.submitter.name) {
            data.set(event.submitter.name, event.submitter.value);
          }
          holder.setAttribute("aria-busy", "true");
          try {
            const response = await fetch(holder.dataset.actUrl, {
              method: "POST", body: data, headers: headers(), credentials: "same-origin",
            });
            show(await response.text());
            const alert = holder.querySelector("[role=alert]");
            if (alert) alert.scrollIntoView({ block: "center" });
          } finally {
            holder.removeAttribute("aria-busy");
          }
        });
      });
    }

    async function load() {
      const response = await fetch(holder.dataset.panelUrl, {
        headers: headers(), credentials: "same-origin",
      });
      show(await response.text());
    }
    load();
  }

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

  document.querySelectorAll("[data-table-panel]").forEach(tablePanel);
  document.querySelectorAll("[data-live-url]").forEach(live);
})();
