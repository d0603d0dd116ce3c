// German Whist on the scoring page: two players, the tricks each took
// (templates/tournaments/scoring/_german-whist.html). No card-by-card entry (it needs four seats).

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
};
