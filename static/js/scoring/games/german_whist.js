// German Whist on the scoring page: two players, the tricks each took
// (templates/tournaments/scoring/_german-whist.html). No card-by-card entry (it needs four seats).

export default {
  arrange() {},
  facts({ read, config }) {
    return { tricks: read.tricks([...config.seats]) };
  },
};
