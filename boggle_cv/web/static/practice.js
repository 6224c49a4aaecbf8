// "Practice alone" (/?practice): one player, against the clock and their personal
// best. A virtual shake (the server deals a board of the real cubes) or a real tray
// (the page runs the clock; then the tray's photo, the words typed here or read
// from a photo of the sheet). The round is kept on this phone until the server has
// recorded it: a reload or a lost connection loses nothing (docs/practice.md).
import { request } from "./api.js";
import { $, h, say, guarded } from "./dom.js";
import { t, tn, N_ } from "./i18n.js";
import { statusText } from "./report.js";
import { Timer, formatSeconds } from "./timer.js";

const KEY = "boggle-cv.practice";        // {name, size, lang, dice, minutes}
const ROUND_KEY = "boggle-cv.practice.round";  // the round being played, until recorded
const MISSED = 5;
const CONFIRM_LEFT_S = 10;               // "I'm done" asks once more while more than this is left
const CONFIRM_MS = 4000;
const EDITION_NAMES = { en: "English", fr: "French", de: "German", es: "Spanish", it: "Italian", nl: "Dutch" };

/** The cube sets as a family knows them (the server names them classic-4, fr-4, ...). */
const CUBE_SETS = {
  "classic-4": N_("Classic cubes (1976–86)"), "modern-4": N_("Modern cubes (1987 on)"),
  "big-1979": N_("Big Boggle (1979)"), "big-deluxe": N_("Big Boggle Deluxe"), "super-big-6": N_("Super Big Boggle"),
  "fr-4": N_("French edition's cubes"), "it-4": N_("Il Paroliere's cubes"),
};

/** A cube set's name on the page: its family name, else the server's. */
export function cubeSetName(name) {
  return CUBE_SETS[name] ? t(CUBE_SETS[name]) : name;
}

function load(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}

function keep(key, doc) {
  try { if (doc) localStorage.setItem(key, JSON.stringify(doc)); else localStorage.removeItem(key); } catch (e) { /* private mode */ }
}

/** "4×4 English, 3:00". */
function kindOf(size, lang, seconds) {
  return t("{size}×{size} {edition}, {time}", { size, edition: t(EDITION_NAMES[lang] || lang), time: formatSeconds(seconds) });
}

/** The board as a grid of cubes; path: cells [[r, c], ...] numbered in order; doubt: "r,c" cells read doubtfully. */
export function boardGrid(faces, path = [], doubt = new Set()) {
  const step = new Map(path.map(([r, c], i) => [`${r},${c}`, i + 1]));
  const n = faces.length;
  return h("div", { class: "pr-grid", dataset: { n }, role: "img",
                    "aria-label": t("The board: {rows}", { rows: faces.map((row) => row.join(" ")).join(" / ") }) },
    faces.flatMap((row, r) => row.map((f, c) => {
      const k = step.get(`${r},${c}`);
      const doubtful = doubt.has(`${r},${c}`);
      return h("span", { class: `pr-cube${k ? " on" : ""}${f === "#" ? " blank" : ""}${doubtful ? " doubt" : ""}`,
                         dataset: { step: k || null } },
               f === "#" ? "" : f, k ? h("span", { class: "step" }, String(k)) : null);
    })));
}

export class Practice {
  constructor() {
    this.options = null;
    this.round = null;   // {deal doc, words, offset, done}
    this.timer = new Timer($("#pr-timer"), () => this.timeUp());
  }

  async start() {
    const saved = load(KEY) || {};
    $("#pr-name").value = saved.name || "";
    try {
      this.options = await request("GET", "/api/practice/options");
    } catch (err) {
      say($("#pr-msg"), err.message, "error");
      return;
    }
    for (const [id, value] of [["#pr-size", saved.size], ["#pr-lang", saved.lang]]) if (value) $(id).value = String(value);
    this.fillDice(saved.dice);
    if (saved.minutes) $("#pr-minutes").value = saved.minutes;
    for (const id of ["#pr-size", "#pr-lang"]) $(id).addEventListener("change", () => { this.fillDice(); this.showBest(); });
    $("#pr-name").addEventListener("change", () => this.showBest());
    $("#pr-form").addEventListener("submit", (e) => e.preventDefault());
    $("#pr-shake").addEventListener("click", (e) => this.deal("shake", e.currentTarget));
    $("#pr-tray").addEventListener("click", (e) => this.deal("tray", e.currentTarget));
    $("#pr-done").addEventListener("click", () => this.doneTapped());
    $("#pr-words").addEventListener("input", () => this.typed());
    $("#pr-photo").addEventListener("change", (e) => this.photo(e.currentTarget));
    $("#pr-sheet").addEventListener("change", (e) => this.sheet(e.currentTarget));
    $("#pr-score").addEventListener("click", (e) => this.submit(e.currentTarget));
    $("#pr-again").addEventListener("click", () => this.setup());
    $("#pr-history-box").addEventListener("toggle", () => { if ($("#pr-history-box").open) this.history(); });
    const pending = load(ROUND_KEY);
    if (pending && pending.deal) this.resume(pending); else this.setup();
  }

  close() {
    clearInterval(this.timer.handle);
  }

  fillDice(chosen) {
    const size = $("#pr-size").value, lang = $("#pr-lang").value;
    const edition = this.options.editions.find((e) => e.code === lang);
    const own = edition ? edition.dice[size] : null;
    const select = $("#pr-dice");
    const sets = this.options.sets[size] || [];
    select.replaceChildren(...(own ? [h("option", { value: "" }, t("{cubes} (usual)", { cubes: cubeSetName(own) }))] : []),
                           ...sets.filter((s) => s !== own).map((s) => h("option", { value: s }, cubeSetName(s))));
    if (chosen && sets.includes(chosen)) select.value = chosen;
    $("#pr-minutes").placeholder = String(this.options.usual_seconds[size] / 60);
  }

  settings() {
    const minutes = parseFloat($("#pr-minutes").value);
    return { name: $("#pr-name").value.trim(), size: Number($("#pr-size").value), lang: $("#pr-lang").value,
             dice: $("#pr-dice").value || null, minutes: Number.isFinite(minutes) ? minutes : null };
  }

  show(part) {
    for (const id of ["setup", "play", "after", "result"]) $(`#pr-${id}`).hidden = id !== part;
  }

  setup() {
    this.round = null;
    keep(ROUND_KEY, null);
    this.timer.set(null, null, "waiting", null);
    this.show("setup");
    this.showBest();
  }

  async record(name) {
    if (!name) return [];
    const doc = await request("GET", `/api/practice/record?name=${encodeURIComponent(name)}`);
    return doc.records;
  }

  async showBest() {
    const s = this.settings(), el = $("#pr-best");
    el.textContent = "";
    if (!s.name || !this.options) return;
    try {
      const seconds = s.minutes ? Math.round(s.minutes * 60) : this.options.usual_seconds[s.size];
      const rec = (await this.record(s.name)).find((r) => r.size === s.size && r.lang === s.lang && r.seconds === seconds);
      el.textContent = !rec ? t("Your first round of this kind.")
        : rec.round_count > 1 ? t("Your best: {best} · average of the last {n}: {average}",
                                  { best: rec.best.score, n: Math.min(rec.round_count, 10), average: rec.average_last_10.toFixed(1) })
        : t("Your best: {best}", { best: rec.best.score });
    } catch (err) { /* the record shows once the server answers */ }
  }

  async deal(mode, button) {
    const s = this.settings();
    if (!s.name) { say($("#pr-msg"), t("Type your name first: your record is kept under it."), "error"); $("#pr-name").focus(); return; }
    keep(KEY, s);
    await guarded(button, $("#pr-msg"), t("Shaking…"), async () => {
      const body = { mode, size: s.size, lang: s.lang, dice: mode === "shake" ? s.dice : null };
      if (s.minutes) body.seconds = Math.round(s.minutes * 60);
      const t0 = Date.now();
      const doc = await request("POST", "/api/practice/deals", { json: body });
      const offset = doc.server_time - (t0 + Date.now()) / 2000;
      this.play({ deal: doc, name: s.name, words: "", offset, done: false, board: "", scan: null });
    });
  }

  resume(pending) {
    this.play(pending);
  }

  play(round) {
    this.round = round;
    keep(ROUND_KEY, round);
    const d = round.deal;
    $("#pr-kind").textContent = kindOf(d.size, d.lang, d.seconds);
    $("#pr-board").hidden = !d.faces;
    $("#pr-tray-help").hidden = !!d.faces;
    if (d.faces) $("#pr-board").replaceChildren(boardGrid(d.faces));
    const box = $("#pr-words");
    box.value = round.words;
    box.readOnly = false;
    this.show("play");
    this.typed();
    this.timer.offset = round.offset || 0;
    this.timer.ended = null;
    if (round.done) {  // reopened after the clock: on to the photo, or to the score
      box.readOnly = true;
      this.timer.set(d.id, null, "waiting", null);
      this.afterClock();
      return;
    }
    this.timer.set(d.id, d.deadline, "playing", null);
    if (this.timer.remaining() > 0) box.focus();
  }

  typed() {
    if (!this.round) return;
    this.round.words = $("#pr-words").value;
    keep(ROUND_KEY, this.round);
    const n = this.round.words.split(/[\s,;]+/).filter(Boolean).length;
    $("#pr-count").textContent = tn("{n} word", "{n} words", n);
  }

  /**
   * "I'm done": with more than CONFIRM_LEFT_S seconds left the first tap asks once more
   * (a round ended by a stray tap is recorded as it stands); the second stops the clock.
   */
  doneTapped() {
    const button = $("#pr-done"), left = this.timer.remaining();
    if (left !== null && left > CONFIRM_LEFT_S && !(this.confirmUntil > Date.now())) {
      this.confirmUntil = Date.now() + CONFIRM_MS;
      button.textContent = tn("{n} second left. Stop now?", "{n} seconds left. Stop now?", Math.ceil(left));
      button.classList.add("confirm");
      setTimeout(() => {
        if (this.confirmUntil <= Date.now()) { button.textContent = t("I'm done"); button.classList.remove("confirm"); }
      }, CONFIRM_MS);
      return;
    }
    this.confirmUntil = 0;
    button.textContent = t("I'm done");
    button.classList.remove("confirm");
    this.timeUp(true);
  }

  /** The clock ran out (or the player is done): the words are locked. */
  timeUp(early = false) {
    if (!this.round || this.round.done) return;
    this.typed();
    this.round.done = true;
    keep(ROUND_KEY, this.round);
    if (early) this.timer.set(this.round.deal.id, null, "waiting", null);
    $("#pr-words").readOnly = true;
    this.afterClock();
  }

  afterClock() {
    const d = this.round.deal;
    if (d.mode === "shake") { this.submit(null); return; }
    this.show("after");
    $("#pr-after-words").value = this.round.words;
    $("#pr-board-text").value = this.round.board || "";
    $("#pr-read").replaceChildren();
  }

  async photo(input) {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    await guarded(null, $("#pr-after-msg"), t("Reading the photo…"), async () => {
      const doc = await request("POST", `/api/scan?size=${this.round.deal.size}`, { body: file, type: file.type || "application/octet-stream" });
      this.round.scan = doc.scan_id;
      this.round.board = doc.board.text;
      keep(ROUND_KEY, this.round);
      $("#pr-board-text").value = doc.board.text;
      const flagged = doc.board.cells.flat().filter((c) => c.flagged);
      const doubtful = flagged.length;
      $("#pr-read").replaceChildren(boardGrid(doc.board.faces, [], new Set(flagged.map((c) => `${c.row},${c.col}`))));
      return doubtful ? tn("Read; check {n} doubtful cell and correct the text if needed.",
                           "Read; check {n} doubtful cells and correct the text if needed.", doubtful)
                      : t("Read: check the board, correct the text if needed.");
    });
  }

  async sheet(input) {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    const board = $("#pr-board-text").value.trim();
    if (!board) { say($("#pr-after-msg"), t("Take the photo of the tray first: the sheet is read against its board."), "error"); return; }
    await guarded(null, $("#pr-after-msg"), t("Reading your sheet…"), async () => {
      const url = `/api/practice/sheet?board=${encodeURIComponent(board)}&lang=${this.round.deal.lang}`;
      const doc = await request("POST", url, { body: file, type: file.type || "application/octet-stream" });
      const box = $("#pr-after-words");
      const have = new Set(box.value.toLowerCase().split(/[\s,;]+/).filter(Boolean));
      const added = doc.words.map((w) => w.word).filter((w) => w && !have.has(w));
      box.value = [box.value.trim(), ...added].filter(Boolean).join("\n");
      this.round.words = box.value;
      keep(ROUND_KEY, this.round);
      const doubtful = doc.words.filter((w) => w.flagged).map((w) => w.word);
      return tn("{n} word added from the sheet", "{n} words added from the sheet", added.length) +
             (doubtful.length ? " · " + t("check these: {words}", { words: doubtful.join(", ") }) : "");
    });
  }

  async submit(button) {
    const r = this.round, d = r.deal, msg = d.mode === "shake" ? $("#pr-msg-play") : $("#pr-after-msg");
    if (d.mode === "tray") {
      r.words = $("#pr-after-words").value;
      r.board = $("#pr-board-text").value.trim();
      keep(ROUND_KEY, r);
    }
    await guarded(button, msg, t("Scoring…"), async () => {
      const body = { deal: d.deal, name: r.name, words: r.words };
      if (d.mode === "tray") { body.board = r.board || null; body.scan_id = r.scan || null; }
      const doc = await request("POST", "/api/practice/rounds", { json: body });
      keep(ROUND_KEY, null);
      this.result(doc);
    });
  }

  result(doc) {
    const faces = doc.round.board.faces;
    const board = h("div", { id: "pr-result-board", class: "pr-result-board" }, boardGrid(faces));
    const best = doc.best || {};
    const lines = [
      h("p", { class: "pr-score" }, tn("{n} point", "{n} points", doc.score)),
      h("p", {}, t("You found {share} of the board's points ({found} of {words} words, {points} points).",
                   { share: `${Math.round(doc.share * 100)}%`, found: doc.words_scored, words: doc.board_words, points: doc.max_points })),
      h("p", { class: best.new ? "pr-new" : "" }, best.new
        ? (best.before === null ? t("New personal best! (your first round of this kind)") : t("New personal best! (before: {before})", { before: best.before }))
        : t("Personal best: {best}", { best: best.score })),
      doc.round_count > 1  // an average of one round is that round: said only from the second
        ? h("p", { id: "pr-average" }, t("Average of the last {n}: {average}", { n: Math.min(doc.round_count, 10), average: doc.average_last_10.toFixed(1) }))
        : null,
      doc.sent_before ? h("p", { class: "help" }, t("This round was recorded already: it counts once.")) : null,
    ];
    const missed = doc.best_missed.slice(0, MISSED);
    const pick = (path, button) => {
      for (const b of document.querySelectorAll("#pr-missed button")) b.setAttribute("aria-pressed", String(b === button));
      board.replaceChildren(boardGrid(faces, path));
    };
    const missedList = h("ol", { id: "pr-missed", class: "pr-missed" }, missed.map((w) => h("li", {},
      h("button", { type: "button", class: "chip missed", "aria-pressed": "false", onclick: (e) => pick(w.path, e.currentTarget) },
        h("span", { class: "w" }, w.word), h("span", { class: "pts" }, `+${w.points}`)))));
    const player = doc.round.players[0];
    const mine = h("ul", { class: "chips" }, player.words.map((w) => h("li", {},
      h("button", { type: "button", class: `chip ${w.status}`, onclick: () => pick(w.path || [], null) },
        h("span", { class: "w" }, w.word), w.points ? h("span", { class: "pts" }, `+${w.points}`) : null,
        w.status !== "scored" ? h("span", { class: "why" }, statusText(w)) : null))));
    const parts = [h("h2", {}, `${doc.player} · ${kindOf(doc.size, doc.lang, doc.seconds)}`), ...lines,
      missed.length ? h("h3", {}, t("Best words missed (tap one to see its path)")) : null, missed.length ? missedList : null,
      board, h("h3", {}, t("Your words")), mine];
    $("#pr-summary").replaceChildren(...parts.filter(Boolean));
    this.timer.set(null, null, "waiting", null);
    this.show("result");
  }

  async history() {
    const el = $("#pr-history");
    const name = this.settings().name || (this.round && this.round.name);
    if (!name) { el.textContent = t("Type your name first: your record is kept under it."); return; }
    try {
      const records = await this.record(name);
      el.replaceChildren(...(records.length ? records.map((r) => h("div", { class: "pr-record" },
        h("h3", {}, kindOf(r.size, r.lang, r.seconds)),
        h("p", {}, tn("{n} round", "{n} rounds", r.round_count) + " · " +
          (r.round_count > 1 ? t("best {best} · average of the last {n}: {average}", { best: r.best.score, n: Math.min(r.round_count, 10), average: r.average_last_10.toFixed(1) })
                             : t("best {best}", { best: r.best.score }))),
        h("ol", { class: "pr-rounds", reversed: true }, r.rounds.slice(-10).reverse().map((x) => h("li", {},
          `${new Date(x.played_at * 1000).toLocaleDateString()} · ${tn("{n} point", "{n} points", x.score)} · ${Math.round(x.share * 100)}%`)))))
        : [h("p", {}, t("No practice rounds recorded yet."))]));
    } catch (err) {
      el.textContent = err.message;
    }
  }
}
