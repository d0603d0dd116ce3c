// A director's correction of a hand (templates/tournaments/director/hand.html) in the game's
// terms: the same form as the table's scoring page (bids and tricks, calls, or card by card),
// from the same modules (static/js/scoring/), filled with the current version. On saving, the
// record the form describes goes into the page's JSON field and the page posts as it does
// without a script; the server (the rules engine) checks and scores it. "Advanced: the record
// as JSON" shows that field itself. Without JavaScript the page offers the JSON field alone.

import { createCardEntry } from './scoring/cards.js';
import { $, $$, readJSON } from './scoring/dom.js';
import { FormError, formReader } from './scoring/form.js';
import { cardFacts, gameFor } from './scoring/games.js';
import { fmt, sideLabel } from './scoring/text.js';

function start(form) {
  const config = readJSON('scoring-config');
  const T = readJSON('scoring-strings');
  const record = readJSON('correction-record') || {};
  const contract = readJSON('correction-contract');
  const game = gameFor(config.game);
  const panel = $('#game-correction');
  const field = $('#full-mode textarea');
  if (!game || !panel || !field) return;
  const dealer = record.dealer;
  const read = formReader(form, { badNumber: key => fmt(T.badNumber, { who: sideLabel(key) }) });
  const context = () => ({ dealer, form, read, config, T });
  const cards = createCardEntry({ words: $('#card-words'), form, seats: config.seats, dealer: () => dealer });
  const mode = () => read.picked('mode') || 'facts';

  function show() {
    const chosen = mode();
    $('#facts-mode').hidden = chosen === 'full';
    $('#full-mode').hidden = chosen !== 'full';
    const cardsPanel = $('#cards-mode');
    if (cardsPanel) cardsPanel.hidden = chosen !== 'cards';
    game.arrange(context());
    if (cards.enabled && chosen === 'cards') cards.render();
  }

  /** The record the form describes: the facts, or the deal and play with the facts they need;
   * what the form does not ask (an exchange, a claim) is kept from the stored version. */
  function described() {
    const built = mode() === 'cards'
      ? cards.record({ facts: cardFacts(game, context()), needsTurned: Boolean(game.needsTurned) })
      : { dealer, ...game.facts(context()) };
    for (const kept of ['exchange', 'claim']) {
      if (mode() === 'cards' && record[kept] !== undefined) built[kept] = record[kept];
    }
    return built;
  }

  panel.hidden = false;
  const played = Boolean(record.deal && record.play);
  const start = played && cards.enabled ? 'cards' : 'facts';
  const radio = $(`input[name="mode"][value="${start}"]`, form);
  if (radio) radio.checked = true;
  if (game.fill) game.fill({ record, contract, form, config });
  if (cards.enabled) {
    cards.wire();
    if (played) cards.load(record);
    const turned = $('#cards-turned');
    if (turned && record.turned) turned.value = record.turned;
  }
  show();

  form.addEventListener('change', show);
  form.addEventListener('click', event => {
    const button = event.target.closest('button.step');
    if (!button) return;
    const input = document.getElementById(button.getAttribute('aria-controls'));
    input.value = String(Math.min(Number(input.max), Math.max(0, (Number(input.value) || 0) + Number(button.dataset.step))));
  });
  form.addEventListener('submit', event => {
    const error = $('#form-error');
    error.textContent = '';
    if (mode() === 'full') return;
    try {
      field.value = JSON.stringify(described(), null, 2);
    } catch (problem) {
      if (!(problem instanceof FormError)) throw problem;
      event.preventDefault();
      error.textContent = problem.message;
      const control = problem.selector && $(problem.selector, form);
      if (control) control.focus();
    }
  });
  for (const details of $$('details', panel)) {
    if ($$('input[data-kind="revokes"]', details).some(input => Number(input.value) > 0)) details.open = true;
  }
}

const form = document.querySelector('[data-correction]');
if (form) start(form);
