// The table screen's steps, each drawn from the room's view (GET /api/rooms/CODE, as
// the screen's pass or the host reads it) as plain elements, one step at a time:
//   lobby    the join code huge beside its QR code, the players arriving;
//   waiting  the next round: shake the tray, the game so far;
//   playing  the clock, readable across the room, and each player's word count;
//   board    the board read, large, with its doubtful cells;
//   scored   the round's story: the podium, the best word with its path drawn on the
//            board and who found it, a few of the words everyone missed with their
//            points (view.round.highlights), and the game's standings;
//   over     the game won: the winner, the final standings, the next game's code.
// Headings start at `level` (1 on the screen's own page, 2 beside the host's controls).
// Names are never cut or wrapped a letter at a time: fitNames shrinks one that does
// not fit its place (down to FIT_MIN of its size), and only then lets it wrap at a space.
import { h, listNames } from "./dom.js";
import { t, tn } from "./i18n.js";
import { renderBoard } from "./board.js";
import { cellStates, keyOf } from "./cellstate.js";
import { ranked, widthOf } from "./report.js";

const PODIUM = 3;     // the podium's places (every player tied on them stands there)
const FIT_MIN = 0.6;  // a name shrinks to fit down to this share of its size, then wraps at spaces

/** The step the screen shows for `view`; story: the game's last round is still being told. */
export function stepOf(view, story = false) {
  const r = view.round;
  if (r.phase === "playing") return "playing";
  if (r.phase === "locked") return "board";
  if (r.phase === "scored") return view.game_state.over && !story ? "over" : "scored";
  const started = r.number > 1 || view.game_state.standings.some((s) => s.total);
  return started ? "waiting" : "lobby";
}

const qrs = new Map();  // code -> the QR image (one fetch, the same node at every redraw)
function qr(code, cls = "ts-qr") {
  const key = `${code} ${cls}`;
  if (!qrs.has(key)) {
    qrs.set(key, h("img", { class: cls, src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`,
                            alt: t("QR code of the join link"), width: 320, height: 320 }));
  }
  return qrs.get(key);
}

const seen = new Set();  // players already shown: only a newcomer arrives with a bounce

function heading(level, text, attrs = {}) {
  return h(`h${Math.min(6, level)}`, attrs, text);
}

/**
 * `text` (a translated sentence naming `names`) as nodes, each name in a span that never
 * breaks: a sentence may wrap at its spaces, a name never ("Annabelle-" / "Marguerite").
 */
function withNames(text, names) {
  const sorted = [...names].sort((a, b) => b.length - a.length).filter(Boolean);
  if (!sorted.length) return [text];
  const escaped = sorted.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return text.split(new RegExp(`(${escaped.join("|")})`)).filter((part) => part !== "")
    .map((part) => (sorted.includes(part) ? h("span", { class: "ts-nobr" }, part) : part));
}

/** A player's name: whole, on one line where it fits (fitNames). */
function nameOf(name) {
  return h("span", { class: "ts-name ts-fit" }, name);
}

/** The players as chips, a newcomer arriving with a small bounce (the CSS's). */
function playerChips(view, extra) {
  if (!view.players.length) return h("p", { class: "ts-wait" }, t("Waiting for the players to join…"));
  return h("ul", { class: "ts-players", "aria-label": t("Players") },
    view.players.map((p) => h("li", { dataset: { player: p.id }, class: seen.has(p.id) ? "" : (seen.add(p.id), "new") },
                              nameOf(p.name), extra ? h("span", { class: "ts-extra" }, extra(p)) : null)));
}

const bare = (url) => url.replace(/^https?:\/\//, "");

function lobby(view, joinUrl, level) {
  return h("div", { class: "ts-lobby" },
    h("div", { class: "ts-join" },
      heading(level, t("Join on your phone: scan the code, or open"), { class: "ts-label" }),
      h("p", { class: "ts-url" }, bare(joinUrl)),
      h("p", { class: "ts-label" }, t("Room code")),
      h("p", { class: "ts-code", id: "ts-code", "aria-label": t("Room code {code}", { code: view.code.split("").join(" ") }) }, view.code)),
    qr(view.code),
    h("div", { class: "ts-lobby-players" },
      heading(level + 1, tn("{n} player", "{n} players", view.players.length)), playerChips(view)));
}

function waiting(view, joinUrl, level) {
  const r = view.round;
  return h("div", { class: "ts-between" },
    h("div", { class: "ts-center" }, heading(level, t("Round {n}", { n: r.number }), { class: "ts-big" }),
      h("p", { class: "ts-say" }, t("Shake the tray! The clock starts when the host taps Start.")),
      h("p", { class: "ts-small-join" }, t("Join: {url} · code {code}", { url: bare(joinUrl), code: view.code }))),
    standings(view.game_state, level));
}

function playing(view, clockEl, level) {
  return h("div", { class: "ts-playing" },
    heading(level, t("Find words!"), { class: "visually-hidden" }),
    clockEl,
    playerChips(view, (p) => tn("{n} word", "{n} words", p.word_count)));
}

/**
 * The round's board as a picture for the room (no cell to tap), `path` drawn on it:
 * each cell as the phones show it (cellstate.js: ? while a question is open about it,
 * ✓ confirmed, ✎ corrected).
 */
function boardPicture(r, path = null, label = "") {
  const b = r.board;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "ts-board");
  svg.setAttribute("role", "img");
  renderBoard(svg, { faces: b.faces, geometry: null, photo: null, ...cellStates(b, r.questions),
                     bonus: new Set((b.bonus || []).map(keyOf)), challenge: b.challenge ? keyOf(b.challenge) : null },
              { path });
  svg.setAttribute("aria-label", label || t("The board: {rows}", { rows: b.faces.map((row) => row.join(" ")).join(" / ") }));
  for (const cell of svg.querySelectorAll(".cell")) for (const a of ["tabindex", "role", "aria-label"]) cell.removeAttribute(a);
  return h("div", { class: "ts-boardbox" }, svg);
}

function boardStep(view, level) {
  const r = view.round, b = r.board;
  if (!b.faces) {
    return h("div", { class: "ts-center" }, heading(level, t("Time's up!"), { class: "ts-big" }),
      h("p", { class: "ts-say" }, t("Now a photo of the tray, from any phone.")));
  }
  const n = cellStates(b, r.questions).doubtful.size;  // doubtful: a question is open about the cell
  return h("div", { class: "ts-boardstep" }, boardPicture(r),
    h("div", { class: "ts-side" },
      heading(level, n ? tn("{n} doubtful cell", "{n} doubtful cells", n) : t("The board is read"), { class: "ts-big" }),
      h("p", { class: "ts-say" }, n ? t("Check the cells marked ? against the tray, on any phone.")
                                    : t("Check it against the tray; then the host scores the round."))));
}

/** The round's podium: the top places, ties standing side by side on the same step. */
function podium(view, level) {
  const r = view.round;
  const players = ranked(r.report.players, "score");
  const top = players.filter((p) => p.rank <= PODIUM && p.score > 0);
  const title = heading(level, t("This round"));
  if (!top.length) return h("section", { class: "ts-podium", id: "ts-podium" }, title, h("p", { class: "ts-say" }, t("Nobody scored this round.")));
  return h("section", { class: "ts-podium", id: "ts-podium" }, title,
    h("ol", { class: "ts-steps" }, top.map((p) => h("li", { class: `ts-step place-${p.rank}`, dataset: { player: p.name, rank: p.rank } },
      h("span", { class: "ts-medal", "aria-hidden": "true" }, String(p.rank)),
      nameOf(p.name),
      h("span", { class: "ts-detail" }, h("span", { class: "ts-points" }, tn("{n} point", "{n} points", p.score)),
        p.tied ? h("span", { class: "ts-rank" }, t("tied for {n}", { n: p.rank }))
               : h("span", { class: "visually-hidden" }, t("#{n}", { n: p.rank })))))));
}

/** The game's standings, each player's bar filled towards the target. */
function standings(game, level, title = t("The game")) {
  const target = game.target;
  const best = Math.max(1, ...game.standings.map((s) => s.total));
  const over = game.over;
  const line = over ? tn("{names} wins the game!", "{names} win the game!", over.winners.length, { names: listNames(over.winners) })
    : target ? tn("First to {n} point wins.", "First to {n} points wins.", target) : t("No target: play as long as you like.");
  return h("section", { class: "ts-standings", id: "ts-standings", dataset: { count: game.standings.length } },
    heading(level, title),
    over ? null : h("p", { class: "ts-target" }, line),
    h("ol", { class: "ts-bars" }, ranked(game.standings, "total").map((s) => {
      const share = Math.min(1, s.total / (target || best));
      return h("li", { dataset: { player: s.name, rank: s.rank } },
        h("span", { class: "ts-rank" }, s.tied ? `=${s.rank}` : String(s.rank)),
        nameOf(s.name),
        h("span", { class: "ts-bar", role: "progressbar", "aria-label": t("{name}: {n} of {target}", { name: s.name, n: s.total, target: target || best }),
                    "aria-valuemin": "0", "aria-valuemax": String(target || best), "aria-valuenow": String(Math.min(s.total, target || best)) },
          widthOf(h("span", { class: "ts-fill" }), share)),
        h("span", { class: "ts-total" }, String(s.total)));
    })));
}

/** The best word that scored: the word, its points and who found it, its path on the board. */
function bestWord(view, best, level) {
  const r = view.round, b = r.board;
  if (!best) {
    return h("section", { class: "ts-best", id: "ts-best" }, heading(level, t("Best word")),
      h("p", { class: "ts-say" }, t("No word scored this round.")), b.faces ? boardPicture(r) : null);
  }
  const word = best.word.toUpperCase();
  return h("section", { class: "ts-best", id: "ts-best", dataset: { word: best.word } },
    heading(level, t("Best word")),
    h("p", { class: "ts-word ts-fit" }, word, best.written ? h("span", { class: "ts-written" }, ` (${best.written})`) : null),
    h("p", { class: "ts-by ts-fit" }, h("span", { class: "ts-pts" }, tn("{n} point", "{n} points", best.points)), " · ",
      withNames(t("found by {names}", { names: listNames(best.by) }), best.by)),
    b.faces ? boardPicture(r, best.path, t("The board, the path of {word} drawn on it: {rows}",
                                            { word, rows: b.faces.map((row) => row.join(" ")).join(" / ") })) : null);
}

/** A few of the words everyone missed, with their points: the ones a family knows first. */
function missedWords(hl, level) {
  const words = hl.missed || [];
  return h("section", { class: "ts-missed", id: "ts-missed" },
    heading(level, t("Words everyone missed")),
    words.length ? h("ol", { class: "ts-mlist" }, words.map((w) => h("li", { dataset: { word: w.word, points: w.points } },
      h("span", { class: `ts-mword ts-fit${w.common ? " common" : ""}` }, w.word),
      h("span", { class: "ts-mpts" }, tn("{n} point", "{n} points", w.points)))))
      : h("p", { class: "ts-say" }, t("None: the table found every word.")),
    hl.missed_total > words.length ? h("p", { class: "ts-more" },
      tn("{n} word missed in all: every phone lists them.", "{n} words missed in all: every phone lists them.", hl.missed_total)) : null);
}

function scored(view, level) {
  const hl = view.round.highlights || { best: null, missed: [], missed_total: 0 };
  return h("div", { class: "ts-scored" },
    h("div", { class: "ts-results" }, podium(view, level), standings(view.game_state, level)),
    bestWord(view, hl.best, level),
    missedWords(hl, level));
}

/** The game won: the winner, the final standings, and how to join the next game. */
function gameOver(view, joinUrl, level) {
  const over = view.game_state.over;
  return h("div", { class: "ts-over" },
    h("div", { class: "ts-winner" },
      h("p", { class: "ts-trophy", "aria-hidden": "true" }, "🏆"),
      heading(level, withNames(tn("{names} wins the game!", "{names} win the game!", over.winners.length,
                                  { names: listNames(over.winners) }), over.winners),
              { class: "ts-champion ts-fit", id: "ts-champion" }),
      h("p", { class: "ts-say" }, tn("{n} point", "{n} points", over.total) + " · " +
        tn("first to {n} point", "first to {n} points", over.target))),
    standings(view.game_state, level, t("Final standings")),
    h("section", { class: "ts-next", id: "ts-next" },
      heading(level, t("Next game")),
      h("p", { class: "ts-say" }, t("Same room, same code: the host starts it with New game.")),
      h("p", { class: "ts-code", id: "ts-next-code", "aria-label": t("Room code {code}", { code: view.code.split("").join(" ") }) }, view.code),
      h("p", { class: "ts-url" }, bare(joinUrl)),
      qr(view.code, "ts-qr ts-qr-small")));
}

/**
 * Draw the screen for `view` into `box`: clockEl, the element the Timer keeps (the same
 * node at every redraw); opts {level: the first heading's level, story: the game's last
 * round is still being told (scored, not yet game over)}. The step shown: stepOf.
 */
export function drawScreen(box, view, joinUrl, clockEl, opts = {}) {
  const level = opts.level || 1, r = view.round;
  const step = stepOf(view, opts.story);
  box.dataset.step = step;
  const head = h("div", { class: "ts-head" },
    h("span", { class: "ts-game" }, view.game_state.number > 1 ? t("Game {n}", { n: view.game_state.number }) : ""),
    h("span", { class: "ts-round" }, t("Round {n}", { n: r.number })),
    h("span", { class: "ts-code-small" }, step === "lobby" || step === "over" ? "" : t("Join: {code}", { code: view.code })));
  const body = step === "lobby" ? lobby(view, joinUrl, level) : step === "waiting" ? waiting(view, joinUrl, level)
    : step === "playing" ? playing(view, clockEl, level) : step === "board" ? boardStep(view, level)
    : step === "scored" ? scored(view, level) : gameOver(view, joinUrl, level);
  const banner = box.querySelector(":scope > .ts-conn");
  box.replaceChildren(...[head, body, banner].filter(Boolean));
  fitNames(box);
  return step;
}

/** Every name (and word) marked ts-fit in `box` on one line: shrunk to fit its place, else wrapped at a space. */
export function fitNames(box) {
  for (const el of box.querySelectorAll(".ts-fit")) {
    el.style.fontSize = "";
    el.classList.remove("ts-wrap");
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const scale = Math.max(FIT_MIN, el.clientWidth / el.scrollWidth);
    el.style.fontSize = `${(size * scale).toFixed(1)}px`;
    if (el.scrollWidth > el.clientWidth + 1) el.classList.add("ts-wrap");
  }
}
