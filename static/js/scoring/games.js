// The games the scoring page knows, by the tournament's game name (data-game on #scoring).
// One module per game; each has:
// - arrange({dealer, form, read, config}): show, hide and order the parts of its facts form;
// - facts({dealer, read, config, T}): the hand's facts as the engine reads them (calls,
//   trumps, tricks...) or a FormError naming the control to fix;
// - cardFacts({dealer, read, config, T}) (optional): what a record entered card by card still
//   needs from the form (default: the facts without the tricks, which the play gives);
// - needsTurned (optional): card by card, the record needs the turned card;
// - summary(result, T) (optional): rows [term, text] of its own under the engine's score;
// - fill({record, contract, form, config}) (optional): set the form to a stored record (the
//   director's correction starts from the current version; contract: the engine's, if any).
// Adding a game: a module in games/, a line here, and its form template
// (templates/tournaments/scoring/_<game>.html).

import germanWhist from './games/german_whist.js';
import soloWhist from './games/solo_whist.js';
import spades from './games/spades.js';
import whist from './games/whist.js';

export const games = {
  spades,
  whist,
  'solo-whist': soloWhist,
  'german-whist': germanWhist,
};

/** The game's module, or null for a game this page does not know. */
export function gameFor(name) {
  return Object.hasOwn(games, name) ? games[name] : null;
}

/** What a card-by-card record needs from the form besides the deal and the play. */
export function cardFacts(game, context) {
  if (game.cardFacts) return game.cardFacts(context);
  const facts = game.facts(context);
  delete facts.tricks;
  return facts;
}
