// The referee's report (shown only once the round is scored: no spoilers) and the
// game's standings. Words are buttons: tap one to draw its path on the board.
import { h, plural, listNames } from "./dom.js";

export const MISSED_SHOWN = 40;

/** Words that score nothing for a reason of their own: collapsed to a count that opens. */
export const INVALID = new Set(["not_on_board", "not_in_dictionary", "too_short", "repeated", "not_a_word"]);

const STATUS_TEXT = {
  scored: "", crossed_off: "crossed off", not_on_board: "not on the board",
  not_in_dictionary: "not in the dictionary", too_short: "too short", repeated: "repeated",
  not_a_word: "not a word",
};

export function statusText(w) {
  if (w.status === "crossed_off" && w.crossed_off_by && w.crossed_off_by.length) {
    return `crossed off: ${listNames(w.crossed_off_by)} had it too`;
  }
  return STATUS_TEXT[w.status] || w.status.replaceAll("_", " ");
}

/** The winner line: "Ann wins with 1 point!", "Tie: Ann and Bob with 4 points each". */
export function winnerLine(report) {
  const winners = report.winners || [];
  if (!report.players.length) return "Nobody played this round.";
  const best = Math.max(...report.players.map((p) => p.score));
  if (!winners.length || best <= 0) return "Nobody scored this round.";
  if (winners.length === 1) return `${winners[0]} wins with ${plural(best, "point")}!`;
  return `Tie: ${listNames(winners)} with ${plural(best, "point")} each.`;
}

function chip(w, onWord, extra) {
  const why = w.status ? statusText(w) : "";
  const points = w.status === undefined || w.status === "scored" ? w.points : 0;
  const label = `${w.word}, ${plural(points, "point")}` + (why ? `, ${why}` : "") + (w.common ? ", a common word" : "");
  return h("li", {},
    h("button", {
      type: "button", class: `chip ${w.status || "missed"} ${w.common ? "common" : ""}`.trim(),
      dataset: { word: w.word, status: w.status || "missed" }, "aria-label": label, "aria-pressed": "false",
      onclick: (e) => onWord(w, e.currentTarget),
    }, h("span", { class: "w" }, w.word),
       points ? h("span", { class: "pts" }, `+${points}`) : null,
       why ? h("span", { class: "why" }, why) : null, extra || null));
}

/** "12 words that do not count: 7 not in the dictionary, 5 not on the board". */
function invalidSummary(bad) {
  const by = new Map();
  for (const w of bad) by.set(w.status, (by.get(w.status) || 0) + 1);
  const parts = [...by].sort((a, b) => b[1] - a[1]).map(([status, n]) => `${n} ${STATUS_TEXT[status] || status.replaceAll("_", " ")}`);
  return `${plural(bad.length, "word")} that ${bad.length === 1 ? "does" : "do"} not count: ${parts.join(", ")}`;
}

/** One player's words: those that score or were crossed off, then the others behind a count. */
function playerWords(p, onWord, open) {
  const good = p.words.filter((w) => !INVALID.has(w.status)), bad = p.words.filter((w) => INVALID.has(w.status));
  return h("div", { class: "pw", dataset: { player: p.name } },
    h("h4", {}, `${p.name} · ${plural(p.score, "point")}`),
    good.length ? h("ul", { class: "words" }, good.map((w) => chip(w, onWord)))
                : bad.length ? null : h("p", { class: "help" }, "No words."),
    bad.length ? h("details", {
      class: "invalid", dataset: { player: p.name }, open: open.has(p.name),
      ontoggle: (e) => { if (e.currentTarget.open) open.add(p.name); else open.delete(p.name); },
    }, h("summary", {}, invalidSummary(bad)), h("ul", { class: "words" }, bad.map((w) => chip(w, onWord)))) : null);
}

/**
 * Fill `box` with the report: the winner and the score table first, then each
 * player's words (those that do not count collapsed to a count that opens), then the
 * words everyone missed.
 * opts: {onWord(word doc, button): a word was tapped; showAll: every missed word (else
 * the best MISSED_SHOWN); onShowAll(): that button; open: Set of player names whose
 * words that do not count are open (kept across redraws)}.
 */
export function renderReport(box, report, opts) {
  const { onWord, showAll, onShowAll } = opts, open = opts.open || new Set();
  const won = (p) => p.score > 0 && report.winners.includes(p.name);
  const rows = report.players.map((p) => h("tr", { dataset: { player: p.name }, class: won(p) ? "won" : "" },
    h("td", { class: "name" }, p.name), h("td", { class: "score" }, String(p.score)),
    h("td", {}, String(p.words.length))));
  const table = h("table", { class: "scores", id: "scores" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"),
                          h("th", { scope: "col" }, "Words"))),
    h("tbody", {}, rows));
  const lists = report.players.map((p) => playerWords(p, onWord, open));
  const missed = report.missed || [];
  const shown = showAll ? missed : missed.slice(0, MISSED_SHOWN);
  const missedPoints = missed.reduce((s, w) => s + w.points, 0);
  const parts = [
    h("p", { class: "winner", id: "winner" }, winnerLine(report)),
    table,
    report.game ? h("p", { class: "help", id: "stored" },
                    `Stored as round ${report.game.round} of “${report.game.name}”.`) : null,
    ...lists,
    h("h3", {}, "Words everyone missed"),
    h("p", { class: "help", id: "missed-summary" }, missed.length
      ? `${plural(missed.length, "word")} worth ${plural(missedPoints, "point")} (best first, ★ common words). Tap a word to see it on the board.`
      : "None: the table found every word."),
    h("ul", { class: "words", id: "missed" }, shown.map((w) => chip(w, onWord))),
    missed.length > shown.length
      ? h("button", { type: "button", class: "link", id: "more-missed", onclick: onShowAll },
          `Show all ${missed.length}`) : null,
  ];
  if (report.notes && report.notes.length) parts.splice(3, 0, h("ul", { class: "notes help" }, report.notes.map((n) => h("li", {}, n))));
  box.replaceChildren(...parts.filter(Boolean));
}

/** Fill `box` with the game's standings (GET /api/rooms/CODE/standings). */
export function renderStandings(box, s) {
  if (!s || !s.rounds) {
    box.replaceChildren(h("p", { class: "help" }, "No round scored yet."));
    return;
  }
  const first = s.first_to_target || [];
  const line = first.length
    ? `${listNames(first)} reached ${plural(s.target, "point")} first.`
    : `First to ${plural(s.target, "point")} wins; nobody has reached it yet.`;
  const rows = s.players.map((p) => h("tr", { dataset: { player: p.player }, class: first.includes(p.player) ? "won" : "" },
    h("td", { class: "name" }, p.player), h("td", { class: "score" }, String(p.total)),
    h("td", {}, p.reached_target_in_round ? `round ${p.reached_target_in_round}` : "–")));
  box.replaceChildren(
    h("p", { class: "target", id: "target-line" }, line),
    h("p", { class: "help" }, `${s.game}: ${plural(s.rounds, "round")} scored.`),
    h("table", { class: "scores", id: "standings-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Total"),
                            h("th", { scope: "col" }, `Reached ${s.target}`))),
      h("tbody", {}, rows)));
}
