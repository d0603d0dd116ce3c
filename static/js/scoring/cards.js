// Card by card: the deal and the play tapped on a 52-card grid (templates/tournaments/scoring/
// _cards.html). The page only records which cards each seat held and the order they were
// played; whether a card could legally be played, who won a trick and what it scores is the
// engine's to say. The state and its rules are plain functions (tested in tests/js/); the
// grid, the lists and the status lines are drawn by createCardEntry.

import { $, $$, element } from './dom.js';
import { FormError } from './form.js';
import { DRAWING, lastWasTurn, mayHold, onlyCard, playersOf, stockOf, turnCandidates, turnDue } from './stock.js';
import { fmt } from './text.js';

export const RANKS = [...'AKQJT98765432'];
export const SUITS = [...'SHDC'];
const SUIT_MARKS = { S: '♠', H: '♥', D: '♦', C: '♣' };
export const PACK = SUITS.flatMap(suit => RANKS.map(rank => rank + suit));

/** "10♥" for "TH". */
export function cardLabel(card) {
  return `${card[0] === 'T' ? '10' : card[0]}${SUIT_MARKS[card[1]]}`;
}

/** The seats from the dealer's left round to the dealer: the order of dealing and of trick 1. */
export function seatsFromDealer(seats, dealer) {
  const all = [...seats];
  const at = all.indexOf(dealer);
  return at < 0 ? all : [...all.slice(at + 1), ...all.slice(0, at + 1)];
}

/** A hand with nothing tapped yet: the first seat to deal to is the dealer's left. */
export function emptyHand(order) {
  return {
    deal: {},        // seat -> cards tapped for it, in the order tapped
    play: [],        // every card played, in order; cut into tricks of four
    seat: order[0],  // whose cards are being tapped; null once the play begins
    turned: [],      // with a stock (German Whist): the turned card of each drawing trick
  };
}

export function holderOf(hand, card) {
  return Object.keys(hand.deal).find(seat => hand.deal[seat].includes(card)) || null;
}

export function dealComplete(hand, order) {
  return order.every(seat => (hand.deal[seat] || []).length === 13);
}

/** With three seats complete, the fourth holds what is left: nobody taps 13 cards for nothing. */
export function fillLastSeat(hand, order) {
  const open = order.filter(seat => (hand.deal[seat] || []).length < 13);
  if (open.length !== 1) return;
  const [last] = open;
  hand.deal[last] = PACK.filter(card => !holderOf(hand, card) || holderOf(hand, card) === last);
}

/**
 * A tap on a card: while dealing it goes to (or comes back from) the seat being dealt to, and
 * the thirteenth card moves on to the next seat; in the play it is the next card played.
 * Answers null when the tap changes nothing, else what to say: {word, values}.
 */
export function tap(hand, card, order, { stock = false } = {}) {
  if (hand.seat) {
    const held = hand.deal[hand.seat] || (hand.deal[hand.seat] = []);
    const holder = holderOf(hand, card);
    if (holder && holder !== hand.seat) return null;
    if (held.includes(card)) held.splice(held.indexOf(card), 1);
    else if (held.length < 13) held.push(card);
    if (held.length !== 13) return { word: null };
    if (!stock) fillLastSeat(hand, order);  // two players and a stock: each hand is tapped
    const following = order.find(seat => (hand.deal[seat] || []).length < 13);
    hand.seat = following || null;
    return following ? { word: 'dealSeat', values: { seat: following, count: (hand.deal[following] || []).length } }
      : { word: 'dealDone' };
  }
  if (hand.play.includes(card) || hand.play.length >= 52) return null;
  if (stock && turnDue(hand)) {
    if (holderOf(hand, card) || hand.turned.includes(card)) return null;
    hand.turned.push(card);
    return { word: 'turned', card };
  }
  if (stock && hand.turned.includes(card) && hand.turned.indexOf(card) >= Math.floor(hand.play.length / 2)) return null;
  hand.play.push(card);
  return { word: 'played', card };
}

/** The seats in playing order from `leader` (clockwise, as `seats` is written). */
export function fromLeader(seats, leader) {
  const all = [...seats];
  const at = all.indexOf(leader);
  return at < 0 ? all : [...all.slice(at), ...all.slice(0, at)];
}

/** The cards `seat` still holds: as dealt, less those played. */
export function cardsLeft(hand, seat) {
  return (hand.deal[seat] || []).filter(card => !hand.play.includes(card));
}

/**
 * Whose turn it is in the trick being entered, once the engine has said who leads it
 * (`leader`, null while unknown): {seat, position (1-4), only} where `only` is the card that
 * seat must play when it has just one legal card (the one card of the suit led it holds, or its
 * last card), else null. Following suit is the one rule of play every game here shares; whether
 * the other cards were legal stays the engine's to say.
 */
export function turn(hand, seats, leader) {
  if (!leader || hand.play.length >= 52) return null;
  const done = hand.play.length % seats.length;
  const seat = fromLeader(seats, leader)[done];
  const left = cardsLeft(hand, seat);
  let only = left.length === 1 ? left[0] : null;
  if (done > 0) {
    const led = hand.play[hand.play.length - done][1];
    const follow = left.filter(card => card[1] === led);
    if (follow.length === 1) only = follow[0];
  }
  return { seat, position: done + 1, only };
}

/** The play cut into tricks of four, or of `size` (the last one may be short). */
export function tricksOf(play, size = 4) {
  const tricks = [];
  for (let at = 0; at < play.length; at += size) tricks.push(play.slice(at, at + size));
  return tricks;
}

/**
 * The card entry of one page. `words` is #card-words (the translated phrases in data-*), null
 * where this game or table has no card entry. Hooks: dealer() the current dealer, say(text)
 * for the screen reader, changed() after a tap (the check is out of date), shown() after each
 * redraw (the record preview).
 */
export function createCardEntry({ words, form, seats, dealer, say = () => {}, changed = () => {}, shown = () => {}, ask = null }) {
  const order = () => seatsFromDealer(seats, dealer());
  let hand = emptyHand(order());
  const word = name => (words ? words.dataset[name] || '' : '');
  // two players drawing from a stock (German Whist): tricks of two, turned cards to tap
  const stock = Boolean(words && words.dataset.stock);
  const size = [...seats].length;
  // What the engine said about the play so far, by the number of cards played at a trick's end:
  // {winners, leader} (or {problem}); `asking` holds the questions on their way.
  let answers = new Map();
  const asking = new Set();
  let loaded = null;  // the stored stock a correction starts from: {stock, turned}

  /** The engine's word on the trick being entered: who won the earlier ones, who leads it. */
  function known() {
    return answers.get(hand.play.length - hand.play.length % size) || null;
  }

  /** At the start of each trick (the deal complete), ask the engine who won the last trick
   * and who leads this one. The answer is kept for that point of the play. */
  async function askLeader() {
    if (!ask || hand.seat || !dealComplete(hand, order())) return;
    const length = hand.play.length - hand.play.length % size;
    if (answers.has(length) || asking.has(length)) return;
    asking.add(length);
    const asked = hand;
    const prefix = hand.play.slice(0, length).join();
    let answer = null;
    try {
      answer = await ask(length);
    } finally {
      asking.delete(length);
    }
    // a new hand meanwhile, or a card of that play taken back
    if (asked !== hand || hand.play.slice(0, length).join() !== prefix) return;
    // no answer (offline): with a stock, the cards stop waiting for it (every card is offered)
    if (!answer && stock) answers.set(length, { winners: [], leader: null });
    if (!answer) return;
    answers.set(length, answer);
    render();
  }

  /** Who won each trick, as far as the engine has said. */
  function winnersKnown() {
    let best = [];
    for (const answer of answers.values()) {
      if (answer.winners && answer.winners.length > best.length) best = answer.winners;
    }
    return best;
  }

  /** With a stock: the cards that may be tapped now (the turned card, or the cards the player
   * to play may hold), and the one card that player must play when sure. */
  function stockOffer(said, now) {
    if (turnDue(hand)) return { cards: new Set(turnCandidates(hand)), only: null };
    const unplayed = PACK.filter(card => !hand.play.includes(card)
      && !(hand.turned.includes(card) && hand.turned.indexOf(card) >= Math.floor(hand.play.length / 2)));
    if (!now) return { cards: new Set(ask && !said ? [] : unplayed), only: null };
    const held = mayHold(hand, seats, dealer(), winnersKnown(), now.seat);
    if (!held) return { cards: new Set(unplayed), only: null };
    const done = hand.play.length % size;
    const led = done ? hand.play[hand.play.length - done][1] : null;
    return { cards: held.cards, only: onlyCard(held, led) };
  }

  function cardName(card) {
    const rank = $(`[data-rank="${card[0]}"]`, words);
    const suit = $(`[data-suit="${card[1]}"]`, words);
    return fmt(word('card'), { rank: rank ? rank.textContent : card[0], suit: suit ? suit.textContent : card[1] });
  }

  function cardButton(card) {
    const button = element('button', { type: 'button', className: `playing-card suit-${card[1]}` });
    button.dataset.card = card;
    // The face (A♠, and the holder's seat once dealt) is for the eye; the name is the card in
    // words, as content rather than aria-label, so the name never contradicts what is shown.
    const face = element('span', { textContent: cardLabel(card) });
    face.setAttribute('aria-hidden', 'true');
    const name = element('span', { className: 'visually-hidden', textContent: cardName(card) });
    button.append(face, name);
    return button;
  }

  function buildGrid() {
    const grid = $('#card-grid');
    if (!grid || grid.childElementCount) return;
    for (const suit of SUITS) {
      const row = element('div', { className: 'card-row' });
      row.setAttribute('role', 'group');
      row.setAttribute('aria-label', $(`[data-suit="${suit}"]`, words).textContent);
      row.append(...RANKS.map(rank => cardButton(rank + suit)));
      grid.append(row);
    }
  }

  function render() {
    if (!words) return;
    buildGrid();
    const dealing = Boolean(hand.seat);
    $('#cards-mode').dataset.phase = dealing ? 'deal' : 'play';
    // with a stock, a turned card shows who took it (its trick's winner) once the engine says
    const takers = stock ? winnersKnown() : [];
    for (const button of $$('#card-grid .playing-card')) {
      const card = button.dataset.card;
      const holder = holderOf(hand, card) || (stock ? takers[hand.turned.indexOf(card)] : null);
      const badge = holder && !dealing ? ` ${holder}` : '';
      $('span', button).textContent = cardLabel(card) + badge;
      if (dealing) {
        const mine = holder === hand.seat;
        button.setAttribute('aria-pressed', String(mine));
        button.disabled = Boolean(holder) && !mine;
        button.classList.toggle('taken', Boolean(holder) && !mine);
        button.classList.remove('played');
      } else {
        const played = hand.play.includes(card);
        button.removeAttribute('aria-pressed');
        button.disabled = played;
        button.classList.toggle('played', played);
        button.classList.remove('taken');
      }
    }
    for (const button of $$('[data-seat-cards]', form)) {
      const seat = button.dataset.seatCards;
      $('[data-deal-count]', button).textContent = String((hand.deal[seat] || []).length);
      if (seat === hand.seat) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
    }
    const complete = dealComplete(hand, order());
    const dealStatus = $('#deal-status');
    if (dealing) {
      dealStatus.textContent = fmt(word('dealSeat'), { seat: hand.seat, count: (hand.deal[hand.seat] || []).length });
    } else {
      dealStatus.textContent = complete ? word('dealDone') : word('needDeal');
    }
    const number = Math.floor(hand.play.length / size) + 1;
    const position = hand.play.length % size + 1;
    const playStatus = $('#play-status');
    const said = dealing ? null : known();
    const now = said && said.leader ? turn(hand, seats, said.leader) : null;
    const turning = stock && !dealing && turnDue(hand);
    if (stock && !dealing) {
      // the turned card, or the cards the player to play may still hold (none while the
      // engine's word on who plays is on its way)
      const offer = stockOffer(said, now);
      if (now) now.only = turning ? null : offer.only;
      for (const button of $$('#card-grid .playing-card')) {
        const card = button.dataset.card;
        const out = !hand.play.includes(card) && !offer.cards.has(card);
        button.disabled = hand.play.includes(card) || out;
        button.classList.toggle('other-seat', out);
        button.classList.toggle('turned-card', hand.turned.includes(card) && !hand.play.includes(card));
      }
    } else if (now && !dealing) {
      // the engine named who leads: only the cards that seat still holds can be played now
      for (const button of $$('#card-grid .playing-card')) {
        const card = button.dataset.card;
        if (!hand.play.includes(card) && holderOf(hand, card) !== now.seat) {
          button.disabled = true;
          button.classList.add('other-seat');
        } else button.classList.remove('other-seat');
      }
    } else {
      for (const button of $$('#card-grid .playing-card.other-seat')) button.classList.remove('other-seat');
    }
    const lastWinner = said && said.winners && number > 1 ? said.winners[number - 2] : null;
    if (dealing) playStatus.textContent = word('needDeal');
    else if (hand.play.length >= 52) playStatus.textContent = word('playDone');
    else if (turning) playStatus.textContent = number === 1 ? word('turnFirst') : fmt(word('turnCard'), { number });
    else if (now && position === 1) {
      playStatus.textContent = lastWinner
        ? fmt(word('trickLeadsWon'), { number, seat: now.seat, last: number - 1 })
        : fmt(word('trickLeads'), { number, seat: now.seat });
    } else if (now) playStatus.textContent = fmt(word('toPlay'), { number, card: position, seat: now.seat });
    else if (hand.play.length === 0) playStatus.textContent = fmt(word('trickLead'), { number, seat: order()[0] });
    else playStatus.textContent = fmt(word('trickNext'), { number, card: position });
    const problem = $('#play-problem');
    if (problem) {
      problem.textContent = said && said.problem ? fmt(word('needFacts'), { error: said.problem }) : '';
      problem.hidden = !problem.textContent;
    }
    const only = $('#only-card');
    if (only) {
      only.hidden = !(now && now.only) || turning;
      if (now && now.only) {
        only.dataset.card = now.only;
        only.textContent = fmt(word('onlyCard'), { card: cardLabel(now.only), seat: now.seat });
      }
    }
    $('#undo-card').disabled = dealing || !(hand.play.length || hand.turned.length);
    $('#to-play').hidden = !dealing || !complete;
    const tricks = tricksOf(hand.play, size);
    const winners = stock ? winnersKnown()
      : (answers.get(tricks.length * size) || answers.get((tricks.length - 1) * size) || {}).winners || [];
    // who played each card: the deal says (four seats), or the winners so far (with a stock)
    const by = stock ? playersOf(hand, seats, dealer(), winners) : [];
    const player = (card, at) => (stock ? by[at] : holderOf(hand, card)) || '?';
    const lines = tricks.map((trick, index) => element('li', {},
      [element('span', { className: 'trick-number', textContent: `${fmt(word('trick'), { number: index + 1 })}: ` }),
        [...(stock && hand.turned[index] ? [fmt(word('turnedShort'), { card: cardLabel(hand.turned[index]) })] : []),
          ...trick.map((card, at) => `${player(card, index * size + at)} ${cardLabel(card)}`)].join(' · '),
        ...(winners[index] ? [element('span', { className: 'won-by', textContent: ` — ${fmt(word('wonBy'), { seat: winners[index] })}` })] : [])]));
    if (stock && hand.turned.length > tricks.length) {
      // the turned card of a trick not begun yet
      lines.push(element('li', {}, [element('span', { className: 'trick-number', textContent: `${fmt(word('trick'), { number: tricks.length + 1 })}: ` }),
        fmt(word('turnedShort'), { card: cardLabel(hand.turned[tricks.length]) })]));
    }
    $('#played-list').replaceChildren(...(lines.length ? lines
      : [element('li', { className: 'muted', textContent: word('noPlay') })]));
    const turned = $('#cards-turned');
    if (turned) {
      const dealt = hand.deal[dealer()] || [];
      const keep = turned.value;
      const options = dealt.map(card => element('option', { value: card, textContent: cardName(card) }));
      turned.replaceChildren(turned.options[0], ...options);
      turned.value = dealt.includes(keep) ? keep : '';
    }
    shown();
    if (!dealing) askLeader();
  }

  function tapCard(card) {
    const said = tap(hand, card, order(), { stock });
    if (!said) return;
    if (said.word === 'played' || said.word === 'turned') say(fmt(word(said.word), { card: cardName(said.card) }));
    else if (said.word) say(fmt(word(said.word), said.values));
    render();
    changed();
  }

  function undo() {
    const card = stock && lastWasTurn(hand) ? hand.turned.pop() : hand.play.pop();
    // the engine's word on a play that no longer stands is forgotten
    for (const length of [...answers.keys()]) if (length > hand.play.length) answers.delete(length);
    if (card) say(fmt(word('undone'), { card: cardName(card) }));
    render();
    changed();
  }

  return {
    enabled: Boolean(words),
    render,

    reset() {
      hand = emptyHand(order());
      answers = new Map();
      render();
    },

    /** A recorded deal and play (a director's correction starts from the stored version). */
    load({ deal, play, stock: drawn }) {
      hand = emptyHand(order());
      // the turned cards are the stock's 1st, 3rd, 5th...
      if (stock) hand.turned = (drawn || []).filter((card, at) => at % 2 === 0).slice(0, DRAWING);
      loaded = stock && drawn ? { stock: [...drawn], turned: [...hand.turned] } : null;
      hand.deal = Object.fromEntries(Object.entries(deal || {}).map(([seat, cards]) => [seat, [...cards]]));
      hand.play = (play || []).flatMap(trick => (Array.isArray(trick) ? trick : String(trick).split(/\s+/)));
      hand.seat = dealComplete(hand, order()) ? null : order().find(seat => (hand.deal[seat] || []).length < 13);
      answers = new Map();
      render();
    },

    /** The facts outside the grid changed (bids, the turned card): ask the engine again. */
    refresh() {
      answers = new Map();
      render();
    },

    wire() {
      if (!words) return;
      $('#card-grid').addEventListener('click', event => {
        const button = event.target.closest('.playing-card');
        if (button && !button.disabled) tapCard(button.dataset.card);
      });
      $('#undo-card').addEventListener('click', undo);
      const only = $('#only-card');
      if (only) only.addEventListener('click', () => { if (only.dataset.card) tapCard(only.dataset.card); });
      $('#to-play').addEventListener('click', () => { hand.seat = null; render(); say(word('dealDone')); });
      for (const button of $$('[data-seat-cards]', form)) {
        button.addEventListener('click', () => {
          const seat = button.dataset.seatCards;
          hand.seat = seat;
          if (!hand.deal[seat]) hand.deal[seat] = [];
          render();
        });
      }
      this.reset();
    },

    /** The record: the dealer, the facts (what the form adds: calls, the turned card), the deal
     * and the play. Unless partial (the preview), a FormError when the deal or play is missing. */
    record({ facts, partial = false, needsTurned = false }) {
      const record = { dealer: dealer(), ...facts };
      if (!partial) {
        const open = '#card-grid .playing-card:not([disabled])';
        if (!dealComplete(hand, order())) throw new FormError(word('needDeal'), open);
        if (!hand.play.length) throw new FormError(word('needPlay'), open);
        if (needsTurned && !record.turned) throw new FormError(word('needTurned'), '#cards-turned');
        if (stock && !hand.turned.length) throw new FormError(word('needTurned'), open);
      }
      record.deal = Object.fromEntries([...seats].map(seat => [seat, [...(hand.deal[seat] || [])]]));
      if (stock) {
        // without the engine's winners (the director's correction asks nothing), a stored
        // stock whose turned cards are unchanged stays as it was
        const same = loaded && loaded.turned.join() === hand.turned.join();
        record.stock = same && !ask ? [...loaded.stock] : stockOf(hand, seats, dealer(), winnersKnown());
      }
      record.play = tricksOf(hand.play, size);
      return record;
    },
  };
}
