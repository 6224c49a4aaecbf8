// The referee's report (shown only once the round is scored: no spoilers) and the
// game's standings. Words are buttons: tap one to draw its path on the board.
import { h, listNames } from "./dom.js";
import { t, tn, N_, currentLanguage } from "./i18n.js";

export const MISSED_SHOWN = 40;

/** A room's own game name, as the server gives it ("room KQ7M2XP", then "room KQ7M2XP · 2"). */
const DEFAULT_GAME = /^room [A-Z0-9]{7}( · \d+)?$/;

/** The editions' names (as in room.js's EDITIONS; the report says which one scored the round). */
const EDITION_NAMES = {
  en: N_("English"), fr: N_("French"), de: N_("German"), es: N_("Spanish"), it: N_("Italian"), nl: N_("Dutch"),
};

/** Words that score nothing for a reason of their own: collapsed to a count that opens. */
export const INVALID = new Set(["not_on_board", "not_in_dictionary", "too_short", "repeated", "not_a_word"]);

const STATUS_TEXT = {
  scored: N_("scored"), crossed_off: N_("crossed off"), not_on_board: N_("not on the board"),
  not_in_dictionary: N_("not in the dictionary"), too_short: N_("too short"), repeated: N_("repeated"),
  not_a_word: N_("not a word"),
};

export function statusText(w) {
  if (w.status === "crossed_off" && w.crossed_off_by && w.crossed_off_by.length) {
    return tn("crossed off: {names} had it too", "crossed off: {names} had it too", w.crossed_off_by.length,
              { names: listNames(w.crossed_off_by) });
  }
  return STATUS_TEXT[w.status] ? t(STATUS_TEXT[w.status]) : w.status.replaceAll("_", " ");
}

/**
 * Rows in rank order, best `key` first, each with rank (equal scores share it: 1, 1, 3)
 * and tied; the server sends them so, this keeps an older stored answer right too.
 */
export function ranked(rows, key) {
  const out = [...rows].sort((a, b) => b[key] - a[key]);
  return out.map((r) => ({ ...r, rank: 1 + out.filter((o) => o[key] > r[key]).length,
                           tied: out.filter((o) => o[key] === r[key]).length > 1 }));
}

/** "You are 2nd of 4: 7 points" (or, holding several players, "Ann: 2nd of 4, 7 points"). */
function myRank(p, of, named) {
  const place = p.tied ? t("tied for {n}", { n: p.rank }) : t("#{n}", { n: p.rank });
  return named ? t("{name}: {place} of {of}, {points}", { name: p.name, place, of, points: tn("{n} point", "{n} points", p.score) })
               : t("You: {place} of {of}, {points}", { place, of, points: tn("{n} point", "{n} points", p.score) });
}

/** `el` with its width set to `share` (0..1) of its bar (through the CSSOM: the page's CSP forbids style attributes). */
export function widthOf(el, share) {
  el.style.width = `${Math.round(Math.max(0, Math.min(1, share)) * 100)}%`;
  return el;
}

/** A rank as the table shows it: "1", or "=1" where it is shared (a tie). */
function rankCell(p) {
  return h("td", { class: "rank", "aria-label": p.tied ? t("tied for {n}", { n: p.rank }) : String(p.rank) },
           p.tied ? `=${p.rank}` : String(p.rank));
}

/** The winner line: "Ann wins with 1 point!", "Tie: Ann and Bob with 4 points each". */
export function winnerLine(report) {
  const winners = report.winners || [];
  if (!report.players.length) return t("Nobody played this round.");
  const best = Math.max(...report.players.map((p) => p.score));
  if (!winners.length || best <= 0) return t("Nobody scored this round.");
  if (winners.length === 1) return tn("{name} wins with {n} point!", "{name} wins with {n} points!", best, { name: winners[0] });
  return tn("Tie: {names} with {n} point each.", "Tie: {names} with {n} points each.", best, { names: listNames(winners) });
}

/**
 * One word as a button; ink (sheet.js inkOf: the player's handwriting, or null): a word
 * that came from a sheet shows its handwriting beside it while it is tapped.
 */
function chip(w, onWord, extra, ink = null) {
  const why = w.status ? statusText(w) : "";
  const points = w.status === undefined || w.status === "scored" ? w.points : 0;
  const label = `${w.word}, ${tn("{n} point", "{n} points", points)}` + (why ? `, ${why}` : "") + (w.common ? t(", a common word") : "") +
                (w.written ? t(", written “{written}”", { written: w.written }) : "");
  const written = ink && ink.has(w.written || w.word) ? w.written || w.word : null;
  const button = h("button", {
      type: "button", class: `chip ${w.status || "missed"} ${w.common ? "common" : ""}`.trim(),
      dataset: { word: w.word, status: w.status || "missed", ink: written ? "1" : null }, "aria-label": label,
      "aria-pressed": "false", onclick: (e) => onWord(w, e.currentTarget),
    }, h("span", { class: "w" }, w.word),
       w.written ? h("span", { class: "written", title: t("as written") }, ` (${w.written})`) : null,
       points ? h("span", { class: "pts" }, `+${points}`) : null,
       why ? h("span", { class: "why" }, why) : null, extra || null);
  // the name a screen reader speaks starts with the text on the button (then says it in words)
  button.setAttribute("aria-label", `${button.textContent.replace(/\s+/g, " ").trim()}: ${label}`);
  if (!written) return h("li", {}, button);
  const box = h("span", { class: "ink-box", hidden: true });
  button.addEventListener("click", () => {  // after onWord, which sets aria-pressed
    for (const other of document.querySelectorAll("#report .ink-box")) if (other !== box) other.hidden = true;
    const on = button.getAttribute("aria-pressed") === "true";
    if (on && !box.firstChild) box.append(ink(written));
    box.hidden = !on;
  });
  return h("li", { class: "with-ink" }, button, box);
}

/** "12 words that do not count: 7 not in the dictionary, 5 not on the board". */
function invalidSummary(bad) {
  const by = new Map();
  for (const w of bad) by.set(w.status, (by.get(w.status) || 0) + 1);
  const parts = [...by].sort((a, b) => b[1] - a[1]).map(([status, n]) => `${n} ${STATUS_TEXT[status] ? t(STATUS_TEXT[status]) : status.replaceAll("_", " ")}`);
  return tn("{n} word that does not count: {reasons}", "{n} words that do not count: {reasons}", bad.length, { reasons: parts.join(", ") });
}

/** One player's words: those that score or were crossed off, then the others behind a count. */
function playerWords(p, onWord, open, ink) {
  const good = p.words.filter((w) => !INVALID.has(w.status)), bad = p.words.filter((w) => INVALID.has(w.status));
  return h("div", { class: "pw", dataset: { player: p.name } },
    h("h3", {}, `${p.name} · ${tn("{n} point", "{n} points", p.score)}`),
    good.length ? h("ul", { class: "words" }, good.map((w) => chip(w, onWord, null, ink)))
                : bad.length ? null : h("p", { class: "help" }, t("No words.")),
    bad.length ? h("details", {
      class: "invalid", dataset: { player: p.name }, open: open.has(p.name),
      ontoggle: (e) => { if (e.currentTarget.open) open.add(p.name); else open.delete(p.name); },
    }, h("summary", {}, invalidSummary(bad)), h("ul", { class: "words" }, bad.map((w) => chip(w, onWord, null, ink)))) : null);
}

/**
 * Fill `box` with the report: the winner and the score table first, then each
 * player's words (those that do not count collapsed to a count that opens), then the
 * words everyone missed.
 * opts: {onWord(word doc, button): a word was tapped; showAll: every missed word (else
 * the best MISSED_SHOWN); onShowAll(): that button; open: Set of player names whose
 * words that do not count are open (kept across redraws); inkOf(player name): that
 * player's handwriting (sheet.js inkOf) or null}.
 */
export function renderReport(box, report, opts) {
  const { onWord, showAll, onShowAll } = opts, open = opts.open || new Set();
  const won = (p) => p.score > 0 && report.winners.includes(p.name);
  const players = ranked(report.players, "score");
  const rows = players.map((p) => h("tr", { dataset: { player: p.name, rank: p.rank }, class: `${won(p) ? "won" : ""} ${p.tied ? "tied" : ""}`.trim() },
    rankCell(p), h("td", { class: "name" }, p.name), h("td", { class: "score" }, String(p.score)),
    h("td", {}, String(p.words.length))));
  const table = h("table", { class: "scores", id: "scores" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
                          h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, t("Words")))),
    h("tbody", {}, rows));
  const lists = players.map((p) => playerWords(p, onWord, open, opts.inkOf ? opts.inkOf(p.name) : null));
  // the words a player would know lead (the common ones, best first); the rest are folded
  const all = report.missed || [];
  const missed = [...all.filter((w) => w.common), ...all.filter((w) => !w.common)];
  const common = all.filter((w) => w.common).length;
  const shown = showAll ? missed : missed.slice(0, common ? Math.min(common, MISSED_SHOWN) : MISSED_SHOWN);
  const missedPoints = missed.reduce((s, w) => s + w.points, 0);
  const mine = players.filter((p) => (opts.mine || []).includes(p.name));
  const parts = [
    mine.length ? h("p", { class: "my-rank", id: "my-rank" }, mine.map((p) => myRank(p, players.length, mine.length > 1)).join(" · ")) : null,
    h("p", { class: "winner", id: "winner" }, winnerLine(report)),
    table,
    // where it is stored, for a game the host named (not a room's own "room KQ7M2XP": no codes in sentences)
    report.game && !DEFAULT_GAME.test(report.game.name) ? h("p", { class: "help", id: "stored" },
                    t("Stored as round {n} of “{game}”.", { n: report.game.round, game: report.game.name })) : null,
    h("p", { class: "help", id: "report-edition", dataset: { lang: (report.rules && report.rules.lang) || "en" },
             hidden: ((report.rules && report.rules.lang) || "en") === currentLanguage() },
      t("Edition: {edition}", { edition: t(EDITION_NAMES[(report.rules && report.rules.lang) || "en"] || report.rules.lang) })),
    ...lists,
    h("h3", {}, t("Words everyone missed")),
    h("p", { class: "help", id: "missed-summary" }, missed.length
      ? tn("{words} worth {n} point: the common ones (★) first, best first. Tap a word to see its path.",
           "{words} worth {n} points: the common ones (★) first, best first. Tap a word to see its path.",
           missedPoints, { words: tn("{n} word", "{n} words", missed.length) })
      : t("None: the table found every word.")),
    h("ul", { class: "words", id: "missed" }, shown.map((w) => chip(w, onWord))),
    missed.length > shown.length
      ? h("button", { type: "button", class: "link", id: "more-missed", onclick: onShowAll },
          t("Show all {n}", { n: missed.length })) : null,
  ];
  if (report.notes && report.notes.length) parts.splice(5, 0, h("ul", { class: "notes help" }, report.notes.map((n) => h("li", {}, n))));
  box.replaceChildren(...parts.filter(Boolean));
}

/**
 * Fill `box` with the game's standings from the room's view (`game_state`): who won
 * or the target, then every player in rank order with a bar towards the target.
 * rounds: how many rounds of this game are scored.
 */
export function renderStandings(box, game, rounds) {
  if (!rounds) {
    box.replaceChildren(h("p", { class: "help" }, t("No round scored yet.")),
      h("p", { class: "help", id: "target-line" }, game.target
        ? tn("First to {n} point wins.", "First to {n} points wins.", game.target) : t("No target: play as long as you like.")));
    return;
  }
  const over = game.over, target = game.target;
  const line = over
    ? tn("{names} reached {n} point first.", "{names} reached {n} points first.", over.target, { names: listNames(over.winners) })
    : target ? tn("First to {n} point wins; nobody has reached it yet.", "First to {n} points wins; nobody has reached it yet.", target)
    : t("No target: play as long as you like.");
  const best = Math.max(1, ...game.standings.map((s) => s.total));
  const rows = ranked(game.standings, "total").map((p) => h("tr", {
      dataset: { player: p.name, rank: p.rank },
      class: `${over && over.winners.includes(p.name) ? "won" : ""} ${p.tied ? "tied" : ""}`.trim() },
    rankCell(p), h("td", { class: "name" }, p.name), h("td", { class: "score" }, String(p.total)),
    h("td", { class: "to-target" }, h("span", { class: "bar", role: "progressbar", "aria-label": t("{name}: {n} of {target}", { name: p.name, n: p.total, target: target || best }),
                                                "aria-valuemin": "0", "aria-valuemax": String(target || best), "aria-valuenow": String(Math.min(p.total, target || best)) },
      widthOf(h("span", { class: "fill" }), p.total / (target || best))))));
  box.replaceChildren(
    h("p", { class: over ? "target game-over" : "target", id: "target-line" }, line),
    h("p", { class: "help" }, tn("{game}: {n} round scored.", "{game}: {n} rounds scored.", rounds, { game: game.name })),
    h("table", { class: "scores", id: "standings-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
                            h("th", { scope: "col" }, t("Total")),
                            h("th", { scope: "col" }, target ? t("To {n}", { n: target }) : t("Progress")))),
      h("tbody", {}, rows)));
}
