// German Whist on the scoring page: two players, the tricks each took
// (templates/tournaments/scoring/_german-whist.html). Card by card (cards.js with stock.js) the
// record is the deal, the stock and the play alone: the engine finds the tricks.

import { formWriter } from '../form.js';

export default {
  arrange() {},
  fill({ record, form }) {
    const write = formWriter(form);
    for (const [seat, count] of Object.entries(record.tricks || {})) write.count('tricks', seat, count);
  },
  facts({ read, config }) {
    return { tricks: read.tricks([...config.seats]) };
  },
  /** Card by card nothing comes from the form: the turned cards are tapped on the grid. */
  cardFacts() {
    return {};
  },
};
