// The director's pages, progressively enhanced (everything works without this file):
// - the setup form reloads the preset list and the house options when the game or preset
//   changes (without JavaScript, the "show the options" button posts the form back);
// - the setup form shows what the chosen format uses: parts marked data-show-for="swiss
//   knockout" (or data-hide-for="knockout") are hidden, and their controls disabled so they are
//   not sent, for other formats (the knockout settings; the rounds of a knockout). Without
//   JavaScript everything is shown and the server ignores what the format does not use;
// - sections marked data-refresh="<seconds>" (table progress, the result queue) refresh
//   themselves from the same page while a round is in play; they are aria-live regions;
// - the registration desk (the entries page, [data-desk]) finds entries as you type, selects
//   every entry shown for "check in the selected", and sends its forms (check in, undo, seed,
//   table, withdraw) without leaving the page: the answer is the entries page itself, whose
//   desk and messages replace the current ones.
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

  function formatParts(form) {
    const format = form.querySelector("select[name=format]");
    const parts = form.querySelectorAll("[data-show-for], [data-hide-for]");
    if (!format || !parts.length) return;
    const controls = [...form.querySelectorAll("input, select, textarea")];
    const fixed = new Set(controls.filter((c) => c.disabled)); // locked by the server
    function apply() {
      const chosen = format.value;
      const hidden = new Set();
      parts.forEach((part) => {
        const listed = (part.dataset.showFor || part.dataset.hideFor).split(/\s+/);
        const show = part.dataset.showFor ? listed.includes(chosen) : !listed.includes(chosen);
        part.hidden = !show;
        if (!show) part.querySelectorAll("input, select, textarea").forEach((c) => hidden.add(c));
      });
      controls.forEach((c) => {
        if (!fixed.has(c) && form.contains(c)) c.disabled = hidden.has(c);
      });
    }
    format.addEventListener("change", apply);
    apply();
  }

  // The tiebreak fields hold the default chain of the format they were shown for (the hidden
  // chain_for): choosing another format puts that format's own default chain in them, unless
  // the director has changed the chain (then it is theirs and stays).
  function formatChains(form) {
    const format = form.querySelector("select[name=format]");
    const list = form.querySelector("[data-default-chains]");
    const shownFor = form.querySelector("input[name=chain_for]");
    if (!format || !list || !shownFor) return;
    const chains = JSON.parse(list.dataset.defaultChains);
    const selects = [...list.querySelectorAll("select")];
    const current = () => selects.map((select) => select.value).filter(Boolean);
    format.addEventListener("change", () => {
      const shown = chains[shownFor.value];
      const wanted = chains[format.value];
      if (!shown || !wanted || JSON.stringify(current()) !== JSON.stringify(shown)) return;
      selects.forEach((select, i) => {
        select.value = wanted[i] || "";
      });
      shownFor.value = format.value;
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

  function desk(holder) {
    let query = "";

    function filter() {
      const search = holder.querySelector("[data-desk-search]");
      const shown = holder.querySelector("[data-desk-shown]");
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      let count = 0;
      const rows = holder.querySelectorAll("tr[data-search]");
      rows.forEach((row) => {
        const hit = words.every((word) => row.dataset.search.includes(word));
        row.hidden = !hit;
        if (hit) count += 1;
      });
      if (search && search.value !== query) search.value = query;
      if (shown) shown.textContent = words.length ? `${count} / ${rows.length}` : "";
    }

    function wire() {
      const search = holder.querySelector("[data-desk-search]");
      if (search) {
        search.addEventListener("input", () => { query = search.value; filter(); });
      }
      const all = holder.querySelector("[data-desk-all]");
      if (all) {
        all.addEventListener("change", () => {
          holder.querySelectorAll("tr[data-search]:not([hidden]) input[name=entry]")
            .forEach((box) => { box.checked = all.checked; });
        });
      }
      filter();
    }

    async function send(form, submitter) {
      // A form's own controls include those that name it with form="…" (the desk's boxes).
      const body = new FormData(form, submitter);
      holder.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(form.action, {
          method: "POST", body, credentials: "same-origin",
          headers: { "X-Requested-With": "fetch" },
        });
        if (!response.ok) throw new Error(response.statusText);
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.querySelector("[data-desk]");
        if (!fresh) throw new Error("no desk in the answer");
        holder.innerHTML = fresh.innerHTML;
        const notes = page.querySelector(".messages-region");
        const old = document.querySelector(".messages-region");
        if (old) old.remove();
        if (notes) holder.parentNode.insertBefore(notes, holder);
        wire();
        const search = holder.querySelector("[data-desk-search]");
        if (search && query) search.focus();
      } catch (error) {
        form.submit();  // the page's own way: a full post and reload
      } finally {
        holder.removeAttribute("aria-busy");
      }
    }

    holder.addEventListener("submit", (event) => {
      const form = event.target.closest("form[data-desk-form]");
      if (!form) return;
      event.preventDefault();
      send(form, event.submitter);
    });
    wire();
  }

  document.querySelectorAll("form[data-rules-form]").forEach(rulesForm);
  document.querySelectorAll("form[data-rules-form]").forEach(formatParts);
  document.querySelectorAll("form[data-rules-form]").forEach(formatChains);
  document.querySelectorAll("[data-desk]").forEach(desk);
  document.querySelectorAll("[data-refresh][id]").forEach(refresher);
})();
