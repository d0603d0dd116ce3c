// Whist on the scoring page: trumps, tricks per side, honours where the rules count them,
// revokes and their penalty (templates/tournaments/scoring/_whist.html).

import { FormError, formWriter } from '../form.js';

export default {
  arrange() {},

  /** Trumps, tricks per side, honours, revokes and the penalty of a stored record. */
  fill({ record, form }) {
    const write = formWriter(form);
    const trump = record.trump || (record.turned ? record.turned.slice(-1) : '');
    if (trump) write.pick('trump', trump);
    for (const [side, count] of Object.entries(record.tricks || {})) write.count('tricks', side, count);
    if (record.honours) write.pick('honours', `${record.honours.NS ?? 0}-${record.honours.EW ?? 0}`);
    for (const { seat, count } of record.revokes || []) write.count('revokes', seat, count);
    if (record.penalty) write.pick('penalty', record.penalty);
  },

  facts({ read, config, T }) {
    const trump = read.picked('trump');
    if (!trump) throw new FormError(T.chooseTrump, 'input[name="trump"]');
    const facts = { trump, tricks: read.tricks(config.sides) };
    if (config.form.honours) {
      const held = read.picked('honours');
      if (!held) throw new FormError(T.chooseHonours, 'input[name="honours"]');
      const [ns, ew] = held.split('-').map(Number);
      facts.honours = { NS: ns, EW: ew };
    }
    const revokes = [...config.seats].map(seat => ({ seat, count: read.count('revokes', seat) }))
      .filter(revoke => revoke.count > 0);
    if (revokes.length) {
      const penalty = read.picked('penalty');
      if (!penalty) throw new FormError(T.choosePenalty, 'input[name="penalty"]');
      Object.assign(facts, { revokes, penalty });
    }
    return facts;
  },

  /** Card by card the trumps come from the turned card and the tricks from the play: the
   * record still needs the turned card and any revoke penalty. */
  cardFacts({ read }) {
    const facts = {};
    const turned = read.value('#cards-turned');
    if (turned) facts.turned = turned;
    const penalty = read.picked('penalty');
    if (penalty) facts.penalty = penalty;
    return facts;
  },

  /** A full record entered card by card cannot be scored without the turned card. */
  needsTurned: true,
};
