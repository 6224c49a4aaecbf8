// What the page says about a board cell, from the room's view (room/view.py): a cell is
// doubtful while the referee has a question open about it (round.questions: the
// doubts whose answer changes a score, known once the lists are locked), whatever the
// reader's percentage; who did something is a player's name, or the host (the server
// names the host's own actions "host"), each in a sentence of its own.
import { t, N_ } from "./i18n.js";

/** The cells ("r,c" from 0) the referee's open questions are about (questions: the view's round.questions, or null). */
export function askedCells(questions) {
  return new Set((questions || []).filter((q) => q.kind === "cell" && Array.isArray(q.cell))
    .map((q) => `${q.cell[0]},${q.cell[1]}`));
}

/** "r2c3" (the view's cell label, from 1) -> "1,2" (the board's key, from 0). */
export function keyOf(label) {
  const m = /^r(\d+)c(\d+)$/.exec(label);
  return m ? `${Number(m[1]) - 1},${Number(m[2]) - 1}` : label;
}

/**
 * Each cell's state on a board (the view's round.board and round.questions), as
 * board.js's renderBoard draws it: {doubtful: Set of "r,c" (a question is open about
 * it), fixed: Map "r,c" -> who corrected it (✎), confirmed: Map "r,c" -> who said it
 * reads right (✓)}. Every screen that draws a board (the phone's, the table screen's)
 * says the same of a cell.
 */
export function cellStates(board, questions) {
  const by = (confirmed) => new Map(Object.entries(board.corrections || {})
    .filter(([, c]) => !!c.confirmed === confirmed).map(([label, c]) => [keyOf(label), c.by]));
  return { doubtful: askedCells(questions), fixed: by(false), confirmed: by(true) };
}

/** The open question about cell (r, c), or null. */
export function cellQuestion(questions, r, c) {
  return (questions || []).find((q) => q.kind === "cell" && Array.isArray(q.cell) && q.cell[0] === r && q.cell[1] === c) || null;
}

/** kind -> [the sentence naming a player, the sentence naming the host]. */
const BY = {
  photo: [N_("from a photo by {name}"), N_("from a photo by the host")],
  typed: [N_("typed by {name}"), N_("typed by the host")],
  fixed: [N_("✎ by {name}"), N_("✎ by the host")],
  confirmed: [N_("✓ confirmed by {name}"), N_("✓ confirmed by the host")],
  corrected: [N_("✎ corrected by {name}"), N_("✎ corrected by the host")],
  cellFixed: [N_(", corrected by {name}"), N_(", corrected by the host")],
  cellConfirmed: [N_(", confirmed by {name}"), N_(", confirmed by the host")],
};

/**
 * Who did it (`by`: a player's name, or "host" for the host's own action), in the words
 * of `kind` (a key of BY): "✎ by Marie", "✓ confirmed by the host".
 */
export function byText(kind, by) {
  const [named, host] = BY[kind];
  return by === "host" ? t(host) : t(named, { name: String(by || "") });
}
