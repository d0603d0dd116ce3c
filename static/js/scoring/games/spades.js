// Spades on the scoring page: the bids in calling order (by seat, or by side when partners
// consult), blind nil for a side, an optional second round, and the tricks per seat.
// The form is templates/tournaments/scoring/_spades.html; config.layouts[dealer] (written by the
// server from the engine) gives the calling order, the sides and who sits where.

import { $, $$ } from '../dom.js';
import { FormError, formWriter } from '../form.js';
import { fmt, sideLabel } from '../text.js';

/** Where a seat's bid row goes: hidden when the seat does not call or its side bid blind,
 * else at its place in the calling order with that place as its badge ("1."). */
export function bidRowPlace(layout, blind, seat) {
  const position = layout.order.indexOf(seat);
  return {
    hidden: position < 0 || blind.has(layout.sideOf[seat]),
    order: position < 0 ? 99 : position,
    badge: position < 0 ? '' : `${position + 1}.`,
  };
}

function blindSides(read, layout) {
  return new Set(layout.sides.filter(side => read.value(`[data-blind-side="${side}"]`)));
}

export default {
  /** The stored calls back in their controls (the first call of a seat or side is its bid, a
   * second one its second-round call; a side's blind bid goes to its blind choice), and the
   * tricks. */
  fill({ record, form }) {
    const write = formWriter(form);
    const spoken = new Set();
    for (const { seat, side, call } of record.calls || []) {
      const who = seat || side;
      const again = spoken.has(who);
      spoken.add(who);
      if (side) {
        if (!again && write.offers(`[data-blind-side="${side}"]`, call)) write.value(`[data-blind-side="${side}"]`, call);
        else if (!again) write.value(`[data-side-call="${side}"]`, call);
        else write.value(`[data-second-call="${side}"]`, call);
      } else if (again) {
        write.value(`[data-second-seat="${seat}"]`, call);
      } else if (!write.value(`[data-bid-seat="${seat}"]`, call)) {
        write.value(`[data-nil-seat="${seat}"]`, call);
      }
    }
    for (const [seat, count] of Object.entries(record.tricks || {})) write.count('tricks', seat, count);
  },

  arrange({ dealer, form, read, config }) {
    const layout = config.layouts[dealer];
    const blind = blindSides(read, layout);
    for (const [attribute, datum] of [['data-bid-row', 'bidRow'], ['data-second-row', 'secondRow']]) {
      for (const row of $$(`[${attribute}]`, form)) {
        const place = bidRowPlace(layout, blind, row.dataset[datum]);
        row.hidden = place.hidden;
        row.style.order = place.order;
        const badge = $('.order', row);
        if (badge) badge.textContent = place.badge;
      }
    }
    for (const row of $$('[data-consult-side], [data-second-side]', form)) {
      const side = row.dataset.consultSide || row.dataset.secondSide;
      row.style.order = layout.consult.indexOf(side);
      row.hidden = blind.has(side);
    }
    for (const row of $$('.stepper[data-row-kind="tricks"]', form)) {
      row.hidden = !layout.seats.includes(row.dataset.rowKey);
    }
  },

  /** The calls in order (blind nils first, then each seat's or side's bid, then the second
   * round) and the tricks per seat. */
  facts({ dealer, read, config, T }) {
    const { value } = read;
    const layout = config.layouts[dealer];
    const rules = config.form;
    const calls = [];
    const blind = new Set();
    if (rules.partnership) {
      for (const side of layout.consult) {
        const call = value(`[data-blind-side="${side}"]`);
        if (call) { calls.push({ side, call }); blind.add(side); }
      }
    }
    if (rules.consult) {
      for (const side of layout.consult) {
        if (blind.has(side)) continue;
        const members = layout.members[side];
        const nils = members.map(seat => [seat, value(`[data-nil-seat="${seat}"]`)]).filter(([, call]) => call);
        for (const [seat, call] of nils) calls.push({ seat, call });
        const call = value(`[data-side-call="${side}"]`);
        if (call) calls.push({ side, call });
        else if (nils.length < members.length) {
          throw new FormError(fmt(T.chooseBid, { who: sideLabel(side) }), `[data-side-call="${side}"]`);
        }
      }
    } else {
      for (const seat of layout.order) {
        if (blind.has(layout.sideOf[seat])) continue;
        const call = value(`[data-bid-seat="${seat}"]`);
        if (!call) throw new FormError(fmt(T.chooseBid, { who: seat }), `[data-bid-seat="${seat}"]`);
        calls.push({ seat, call });
      }
    }
    if (rules.second_round) {
      if (rules.consult) {
        for (const side of layout.consult) {
          if (!blind.has(side)) calls.push({ side, call: value(`[data-second-call="${side}"]`) || 'pass' });
        }
      } else {
        for (const seat of layout.order) {
          if (!blind.has(layout.sideOf[seat])) calls.push({ seat, call: value(`[data-second-seat="${seat}"]`) || 'pass' });
        }
      }
    }
    return { calls, tricks: read.tricks(layout.seats) };
  },
};
