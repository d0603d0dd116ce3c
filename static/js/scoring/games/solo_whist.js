// Solo Whist on the scoring page: the contract the auction ended in (entered as its outcome;
// soloCalls writes the shortest legal auction for it), the declarer and partner or overcalled
// seat, a named trump, the turned card, and the tricks as the table counted them: the
// declaring side's (the spec's summary record: `tricks` {"NE": 9}, the side named by its seats
// in the order N E S W), or each player's own
// (templates/tournaments/scoring/_solo-whist.html).

import { $ } from '../dom.js';
import { FormError, formWriter } from '../form.js';

/**
 * The shortest legal auction that ends in the contract the table reports, in calling order from
 * the dealer's left (`order`). The rules engine checks it like any other auction.
 */
export function soloCalls(order, { bid, declarer, partner, overcalled }) {
  const calls = [];
  const call = (seat, what) => calls.push({ seat, call: what });
  if (bid === 'pass') {
    for (const seat of order) call(seat, 'pass');
  } else if (bid === 'prop') {
    // whichever of the two speaks first proposes, the other accepts: the same partnership
    const [first, second] = order.filter(seat => seat === declarer || seat === partner);
    for (const seat of order) call(seat, seat === first ? 'prop' : seat === second ? 'cop' : 'pass');
  } else if (bid === 'abundance-in-trumps') {
    // it only overcalls a standing abundance: a declarer who speaks first opens with solo
    const declarerFirst = order.indexOf(declarer) < order.indexOf(overcalled);
    for (const seat of order) {
      if (seat === overcalled) call(seat, 'abundance');
      else if (seat === declarer) call(seat, declarerFirst ? 'solo' : bid);
      else call(seat, 'pass');
    }
    if (declarerFirst) call(declarer, bid);
    call(overcalled, 'pass');
  } else {
    for (const seat of order) call(seat, seat === declarer ? bid : 'pass');
  }
  return calls;
}

/** The declaring side as the record names it: its seats in the order of `seats` (N E S W). */
export function declaringSide(seats, declarer, partner) {
  return [...seats].filter(seat => seat === declarer || (partner && seat === partner)).join('');
}

/** Which parts of the form a contract needs (rules: config.form); `by`: how the tricks were
 * counted ('side', the default, or 'seats'). */
export function soloParts(bid, rules, by = 'side') {
  const played = Boolean(bid) && bid !== 'pass';
  return {
    declarer: played,
    partner: bid === 'prop',
    overcalled: bid === 'abundance-in-trumps',
    'named-trump': played && rules.names_trump.includes(bid),
    turned: bid !== 'pass',
    tricks: played,
    'tricks-side': played && by !== 'seats',
    'tricks-seats': played && by === 'seats',
  };
}

export default {
  /** The contract the engine read from the stored auction (none: thrown in), its declarer,
   * partner or overcalled seat, named trumps, the turned card and the tricks as stored: the
   * declaring side's count, or each seat's (a record stored in the four-seat form). */
  fill({ record, contract, form }) {
    const write = formWriter(form);
    write.value('[data-solo-bid]', contract ? contract.bid : 'pass');
    if (contract) {
      write.pick('declarer', contract.declarer);
      if (contract.partner) write.pick('partner', contract.partner);
      if (contract.bid === 'abundance-in-trumps') {
        const over = (record.calls || []).find(call => call.call === 'abundance' && call.seat !== contract.declarer);
        if (over) write.pick('overcalled', over.seat);
      }
      if (contract.trump) write.pick('solo-trump', contract.trump);
    }
    if (record.turned) {
      write.value('[data-turned-rank]', record.turned[0]);
      write.pick('turned-suit', record.turned.slice(-1));
    }
    const stored = Object.entries(record.tricks || {});
    if (stored.length === 1) {
      write.pick('solo-tricks', 'side');
      write.count('tricks', 'declaring', stored[0][1]);
    } else if (stored.length) {
      write.pick('solo-tricks', 'seats');
      for (const [seat, count] of stored) write.count('tricks', seat, count);
    }
  },

  arrange({ form, read, config }) {
    const by = read.picked('solo-tricks') || 'side';
    for (const [name, visible] of Object.entries(soloParts(read.value('[data-solo-bid]'), config.form, by))) {
      const found = $(`[data-part="${name}"]`, form);
      if (found) found.hidden = !visible;
    }
  },

  facts({ dealer, read, config, T }) {
    const { value, picked } = read;
    const order = config.layouts[dealer].order;
    const bid = value('[data-solo-bid]');
    if (!bid) throw new FormError(T.chooseContract, '[data-solo-bid]');
    const turned = () => {
      if (!config.form.turned) return {};
      const rank = value('[data-turned-rank]');
      const suit = picked('turned-suit');
      if (rank && suit) return { turned: rank + suit };
      if (bid === 'pass') return {};
      throw new FormError(T.chooseTurned, '[data-turned-rank]');
    };
    if (bid === 'pass') return { calls: soloCalls(order, { bid }), ...turned() };
    const declarer = picked('declarer');
    if (!declarer) throw new FormError(T.chooseDeclarer, 'input[name="declarer"]');
    const partner = picked('partner');
    if (bid === 'prop' && (!partner || partner === declarer)) throw new FormError(T.choosePartner, 'input[name="partner"]');
    const overcalled = picked('overcalled');
    if (bid === 'abundance-in-trumps' && (!overcalled || overcalled === declarer)) {
      throw new FormError(T.chooseOvercalled, 'input[name="overcalled"]');
    }
    const facts = { calls: soloCalls(order, { bid, declarer, partner, overcalled }), ...turned() };
    if (config.form.names_trump.includes(bid)) {
      const trump = picked('solo-trump');
      if (!trump) throw new FormError(T.chooseTrump, 'input[name="solo-trump"]');
      facts.trump = trump;
    }
    // what the table counted: the declaring side's tricks (the rest are the defenders'), or
    // each player's own
    if (read.picked('solo-tricks') === 'seats') facts.tricks = read.tricks([...config.seats]);
    else facts.tricks = { [declaringSide(config.seats, declarer, bid === 'prop' ? partner : null)]: read.count('tricks', 'declaring') };
    return facts;
  },

  /** The engine's contract under the score: "E+W: Prop and cop", "E: Abundance ♥ Hearts", or
   * thrown in. */
  summary(result, T) {
    if (!('contract' in result)) return [];
    const contract = result.contract;
    return [[T.contract, contract
      ? `${contract.declarer}${contract.partner ? `+${contract.partner}` : ''}: ${T.solo[contract.bid] || contract.bid}${contract.trump ? ` ${T.suits[contract.trump]}` : ''}`
      : T.thrownIn]];
  },
};
