// The director's pages, progressively enhanced (everything works without this file):
// - the setup form reloads the preset list and the house options when the game or preset
//   changes (without JavaScript, the "show the options" button posts the form back);
// - sections marked data-refresh="<seconds>" (table progress, the result queue) refresh
//   themselves from the same page while a round is in play; they are aria-live regions.
(() => {
  "use strict";
  document.documentElement.classList.add("js");

  function rulesForm(form) {
    const holder = form.querySelector("#rules-fields");
    const game = form.querySelector("select[name=game]");
    const status = form.querySelector("#rules-status");
    if (!holder || !game || game.disabled) return;
    let pending = null;

    async function reload(keepPreset) {
      const preset = form.querySelector("select[name=preset]");
      const params = new URLSearchParams({ game: game.value });
      if (keepPreset && preset) params.set("preset", preset.value);
      const focused = document.activeElement && document.activeElement.name;
      if (pending) pending.abort();
      pending = new AbortController();
      holder.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(`${holder.dataset.optionsUrl}?${params}`, {
          signal: pending.signal, headers: { "X-Requested-With": "fetch" },
          credentials: "same-origin",
        });
        if (!response.ok) throw new Error(response.statusText);
        holder.innerHTML = await response.text();
        const chosen = holder.querySelector("select[name=preset]");
        if (focused === "preset" && chosen) chosen.focus();
        if (status && chosen) status.textContent = status.dataset.done || "";
      } catch (error) {
        if (error.name === "AbortError") return;
        if (status) status.textContent = status.dataset.failed || "";
        const button = form.querySelector(".reload");
        if (button) button.style.display = "block";
      } finally {
        holder.removeAttribute("aria-busy");
      }
    }

    game.addEventListener("change", () => reload(false));
    holder.addEventListener("change", (event) => {
      if (event.target.name === "preset") reload(true);
    });
  }

  function refresher(section) {
    const seconds = Math.max(10, parseInt(section.dataset.refresh, 10) || 30);
    const id = section.id;
    async function tick() {
      if (document.hidden) return;
      try {
        const response = await fetch(window.location.href, { credentials: "same-origin" });
        if (!response.ok) return;
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.getElementById(id);
        if (fresh && fresh.innerHTML !== section.innerHTML) section.innerHTML = fresh.innerHTML;
      } catch (error) {
        // offline for a moment: try again at the next tick
      }
    }
    window.setInterval(tick, seconds * 1000);
  }

  document.querySelectorAll("form[data-rules-form]").forEach(rulesForm);
  document.querySelectorAll("[data-refresh][id]").forEach(refresher);
})();
