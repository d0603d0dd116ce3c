// The engine's answer to "Check the score", as rows [term, text] under the form. Every number
// is the engine's, written with numbers.js (the page does no arithmetic on a score).

import { number } from './numbers.js';
import { sideLabel } from './text.js';

/** "N/S +60 · E/W −50": each side's or seat's points, signed for a hand's score. */
export function scoreList(values, { signed = true } = {}) {
  return Object.entries(values || {})
    .map(([who, points]) => `${sideLabel(who)} ${number(points, { signed })}`)
    .join(' · ');
}

/** The rows for a checked hand (result.ok): its score, the totals after it, the tricks, the
 * game's own rows (game.summary, e.g. Solo Whist's contract) and the winner. */
export function checkRows(result, T, game = null) {
  const rows = [[T.score, scoreList(result.score)]];
  const after = result.after || {};
  if (after.score) rows.push([T.totals, scoreList(after.score, { signed: false })]);
  if (after.games) rows.push([T.games, scoreList(after.games, { signed: false })]);
  if (after.game_points) rows.push([T.gamePoints, scoreList(after.game_points, { signed: false })]);
  if (result.tricks) rows.push([T.tricks, Object.entries(result.tricks).map(([who, n]) => `${sideLabel(who)} ${n}`).join(' · ')]);
  if (game && game.summary) rows.push(...game.summary(result, T));
  if (result.winner) rows.push([T.winner, result.winner]);
  return rows;
}
