// The table screen: what the whole table looks at together (a laptop or a TV), drawn
// from the room's view, one step at a time: the join code huge beside its QR code and
// the players arriving; the clock, readable across the room; the board read, large,
// with its doubtful cells; between rounds the round's podium (ties as ties) and the
// game's standings, each player's way to the target. It fits the screen: no scrolling.
// `TableScreen` is the screen's own page (/?screen=CODE#PASS, a pass that only reads);
// `drawScreen` also draws the host's wide screen beside the controls (room.js).
import { request } from "./api.js";
import { $, h, listNames } from "./dom.js";
import { t, tn } from "./i18n.js";
import { Live } from "./live.js";
import { Timer } from "./timer.js";
import { renderBoard } from "./board.js";
import { ranked, widthOf } from "./report.js";

const PODIUM = 3;  // the podium's places (every player tied on them stands there)

const qrs = new Map();  // code -> the QR image (one fetch, the same node at every redraw)
function qr(code) {
  if (!qrs.has(code)) {
    qrs.set(code, h("img", { class: "ts-qr", src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`,
                             alt: t("QR code of the join link"), width: 320, height: 320 }));
  }
  return qrs.get(code);
}

const seen = new Set();  // players already shown: only a newcomer arrives with a bounce

/** The players as chips, a newcomer arriving with a small bounce (the CSS's). */
function playerChips(view, extra) {
  if (!view.players.length) return h("p", { class: "ts-wait" }, t("Waiting for the players to join…"));
  return h("ul", { class: "ts-players", "aria-label": t("Players") },
    view.players.map((p) => h("li", { dataset: { player: p.id }, class: seen.has(p.id) ? "" : (seen.add(p.id), "new") },
                              h("span", { class: "ts-name" }, p.name),
                              extra ? h("span", { class: "ts-extra" }, extra(p)) : null)));
}

function lobby(view, joinUrl) {
  return h("div", { class: "ts-lobby" },
    h("div", { class: "ts-join" },
      h("p", { class: "ts-label" }, t("Join on your phone: scan the code, or open")),
      h("p", { class: "ts-url" }, joinUrl.replace(/^https?:\/\//, "")),
      h("p", { class: "ts-label" }, t("Room code")),
      h("p", { class: "ts-code", id: "ts-code", "aria-label": t("Room code {code}", { code: view.code.split("").join(" ") }) }, view.code)),
    qr(view.code),
    h("div", { class: "ts-lobby-players" },
      h("h2", {}, tn("{n} player", "{n} players", view.players.length)), playerChips(view)));
}

function playing(view, clockEl) {
  return h("div", { class: "ts-playing" },
    clockEl,
    playerChips(view, (p) => tn("{n} word", "{n} words", p.word_count)));
}

function boardStep(view) {
  const b = view.round.board;
  if (!b.faces) {
    return h("div", { class: "ts-center" }, h("p", { class: "ts-big" }, t("Time's up!")),
      h("p", { class: "ts-say" }, t("Now a photo of the tray, from any phone.")));
  }
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "ts-board");
  svg.setAttribute("role", "img");
  const doubtful = new Set(b.doubtful.map(([r, c]) => `${r},${c}`));
  const key = (label) => { const m = /^r(\d+)c(\d+)$/.exec(label); return `${m[1] - 1},${m[2] - 1}`; };
  renderBoard(svg, { faces: b.faces, geometry: null, photo: null, doubtful,
                     fixed: new Map(Object.entries(b.corrections).map(([label, c]) => [key(label), c.by])),
                     bonus: new Set((b.bonus || []).map(key)), challenge: b.challenge ? key(b.challenge) : null });
  svg.setAttribute("aria-label", t("The board: {rows}", { rows: b.faces.map((row) => row.join(" ")).join(" / ") }));
  for (const cell of svg.querySelectorAll(".cell")) for (const a of ["tabindex", "role", "aria-label"]) cell.removeAttribute(a);
  const n = b.doubtful.length;
  return h("div", { class: "ts-boardstep" }, svg,
    h("div", { class: "ts-side" },
      h("p", { class: "ts-big" }, n ? tn("{n} doubtful cell", "{n} doubtful cells", n) : t("The board is read")),
      h("p", { class: "ts-say" }, n ? t("Check the cells marked ? against the tray, on any phone.")
                                    : t("Check it against the tray; then the host scores the round."))));
}

/** The round's podium: the top places, ties standing side by side on the same step. */
function podium(report) {
  const players = ranked(report.players, "score");
  const top = players.filter((p) => p.rank <= PODIUM && p.score > 0);
  if (!top.length) return h("div", { class: "ts-podium" }, h("p", { class: "ts-say" }, t("Nobody scored this round.")));
  return h("div", { class: "ts-podium" },
    h("h2", {}, t("This round")),
    h("ol", { class: "ts-steps" }, top.map((p) => h("li", { class: `ts-step place-${p.rank}`, dataset: { player: p.name, rank: p.rank } },
      h("span", { class: "ts-medal", "aria-hidden": "true" }, String(p.rank)),
      h("span", { class: "ts-name" }, p.name),
      h("span", { class: "ts-points" }, tn("{n} point", "{n} points", p.score)),
      p.tied ? h("span", { class: "ts-rank" }, t("tied for {n}", { n: p.rank })) : h("span", { class: "visually-hidden" }, t("#{n}", { n: p.rank }))))));
}

/** The game's standings, each player's bar filled towards the target. */
function standings(game) {
  const target = game.target;
  const best = Math.max(1, ...game.standings.map((s) => s.total));
  const over = game.over;
  const line = over ? tn("{names} wins the game!", "{names} win the game!", over.winners.length, { names: listNames(over.winners) })
    : target ? tn("First to {n} point wins.", "First to {n} points wins.", target) : t("No target: play as long as you like.");
  return h("div", { class: "ts-standings", id: "ts-standings" },
    h("h2", {}, t("The game")),
    h("p", { class: over ? "ts-over" : "ts-target" }, line),
    h("ol", { class: "ts-bars" }, game.standings.map((s) => {
      const share = Math.min(1, s.total / (target || best));
      return h("li", { dataset: { player: s.name, rank: s.rank } },
        h("span", { class: "ts-rank" }, s.tied ? `=${s.rank}` : String(s.rank)),
        h("span", { class: "ts-name" }, s.name),
        h("span", { class: "ts-bar", role: "progressbar", "aria-label": t("{name}: {n} of {target}", { name: s.name, n: s.total, target: target || best }),
                    "aria-valuemin": "0", "aria-valuemax": String(target || best), "aria-valuenow": String(Math.min(s.total, target || best)) },
          widthOf(h("span", { class: "ts-fill" }), share)),
        h("span", { class: "ts-total" }, String(s.total)));
    })));
}

function betweenRounds(view, joinUrl) {
  const r = view.round;
  const report = r.phase === "scored" ? r.report : null;
  const left = report ? podium(report)
    : h("div", { class: "ts-center" }, h("p", { class: "ts-big" }, t("Round {n}", { n: r.number })),
        h("p", { class: "ts-say" }, t("Shake the tray! The clock starts when the host taps Start.")),
        h("p", { class: "ts-small-join" }, t("Join: {url} · code {code}", { url: joinUrl.replace(/^https?:\/\//, ""), code: view.code })));
  return h("div", { class: "ts-between" }, left, standings(view.game_state));
}

/**
 * Draw the screen for `view` into `box`; clockEl: the element the Timer keeps (the
 * same node at every redraw). The step shown follows the round's phase.
 */
export function drawScreen(box, view, joinUrl, clockEl) {
  const r = view.round;
  const step = r.phase === "playing" ? "playing" : r.phase === "locked" ? "board"
    : r.phase === "scored" || r.number > 1 || view.game_state.standings.some((s) => s.total) ? "between" : "lobby";
  box.dataset.step = step;
  const title = h("div", { class: "ts-head" },
    h("span", { class: "ts-game" }, view.game_state.number > 1 ? t("Game {n}", { n: view.game_state.number }) : ""),
    h("span", { class: "ts-round" }, t("Round {n}", { n: r.number })),
    h("span", { class: "ts-code-small" }, step === "lobby" ? "" : t("Join: {code}", { code: view.code })));
  const body = step === "lobby" ? lobby(view, joinUrl) : step === "playing" ? playing(view, clockEl)
    : step === "board" ? boardStep(view) : betweenRounds(view, joinUrl);
  box.replaceChildren(title, body);
}

/** The screen's own page: the room read with the screen's pass, kept fresh by the live stream. */
export class TableScreen {
  constructor(code, pass, onLost) {
    this.code = code;
    this.pass = pass;
    this.onLost = onLost;
    this.view = null;
    this.joinUrl = "";
    this.clock = h("p", { class: "ts-clock", role: "timer", id: "ts-clock" });
    this.timer = new Timer(this.clock, () => {});
    this.live = new Live(code, (v) => { if (!this.view || v === null || v > this.view.version) this.refresh(); }, () => {});
  }

  start() {
    this.live.start();
    this.refresh();
  }

  close() {
    this.live.stop();
    clearInterval(this.timer.handle);
  }

  async refresh() {
    const t0 = Date.now();
    try {
      const doc = await request("GET", `/api/rooms/${this.code}`, { token: this.pass });
      this.live.reached(true);
      this.timer.sync(doc.room.server_time, t0, Date.now());
      if (this.view && doc.room.version < this.view.version) return;
      this.view = doc.room;
      this.joinUrl = doc.join_url;
      const r = doc.room.round;
      this.timer.set(`${r.number}:${r.started_at}`, r.deadline, r.phase, r.locked_by);
      drawScreen($("#screen"), doc.room, doc.join_url, this.clock);
    } catch (err) {
      this.live.reached(err.status !== 0);
      if (err.status === 401 || err.status === 404) { this.close(); this.onLost(err.message); }
    }
  }
}

/**
 * The host's page on a wide display (a laptop the table sees): the table screen on the
 * left, the host's column (controls, players, settings) on the right. Below WIDE_PX
 * the host's page is the phone column alone.
 */
const WIDE_PX = 1100;
export class HostScreen {
  constructor() {
    this.box = $("#room-screen");
    this.clock = h("p", { class: "ts-clock", role: "timer" });
    this.timer = new Timer(this.clock, () => {});
    this.timer.signal = () => {};  // the room's own timer rings once for the page
    this.media = window.matchMedia(`(min-width: ${WIDE_PX}px)`);
    this.last = null;
    this.onMedia = () => { if (this.last) this.draw(...this.last); };
    this.media.addEventListener("change", this.onMedia);
  }

  /** Draw (or hide) the screen beside the host's column; offset: the room timer's server offset. */
  draw(view, joinUrl, offset) {
    this.last = [view, joinUrl, offset];
    const wide = view.you.host && this.media.matches;
    document.body.classList.toggle("host-wide", wide);
    this.box.hidden = !wide;
    if (!wide) return;
    this.box.style.top = `${document.querySelector("header").offsetHeight}px`;
    const r = view.round;
    this.timer.offset = offset;
    this.timer.set(`${r.number}:${r.started_at}`, r.deadline, r.phase, r.locked_by);
    drawScreen(this.box, view, joinUrl, this.clock);
  }

  close() {
    clearInterval(this.timer.handle);
    this.media.removeEventListener("change", this.onMedia);
    document.body.classList.remove("host-wide");
    this.box.hidden = true;
  }
}
