// The table screen: what the whole table looks at together (a laptop or a TV), drawn
// from the room's view one step at a time (screensteps.js: the lobby, the clock, the
// board, the round's story, the game over). It fits the screen: no scrolling.
// `TableScreen` is the screen's own page (/?screen=CODE#PASS, a pass that only reads);
// `HostScreen` draws it beside the host's controls on a wide display (room.js).
// Both show when the room is out of reach (the clock then dimmed: it is no longer
// live) and catch up once it answers again; when a round ends the game, its story
// stays on screen for STORY_MS before the game-over screen.
import { request } from "./api.js";
import { $, h } from "./dom.js";
import { t, N_ } from "./i18n.js";
import { Live, reachedServer } from "./live.js";
import { Timer } from "./timer.js";
import { drawScreen, fitNames } from "./screensteps.js";

/** How long the game's last round's story stays before the game-over screen (ms). */
export const STORY_MS = 12000;
/** The connection states in which the screen says it is out of reach (live.js's states). */
const LOST = { reconnecting: N_("Reconnecting to the room…"), offline: N_("No connection to the room: retrying…") };

/**
 * The game's last round, told before the game over: a screen that saw the round being
 * scored (live) shows its story for STORY_MS; one opened later shows the game over.
 */
class Finale {
  constructor(redraw) {
    this.redraw = redraw;
    this.last = null;    // "game:round:phase" of the view drawn last
    this.until = null;   // {key, at}: the story of round `key` shows until `at` (ms)
    this.timer = null;
  }

  /** True while `view`'s round, the one that ended the game, is still being told. */
  story(view) {
    const r = view.round, key = `${view.game_state.number}:${r.number}`;
    const ending = r.phase === "scored" && !!view.game_state.over;
    if (ending && this.last && this.last !== `${key}:scored` && this.last.startsWith(`${key}:`)) {
      this.until = { key, at: Date.now() + STORY_MS };
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.redraw(), STORY_MS + 50);
    }
    this.last = `${key}:${r.phase}`;
    return ending && !!this.until && this.until.key === key && Date.now() < this.until.at;
  }

  close() {
    clearTimeout(this.timer);
  }
}

/**
 * Say on `box` whether the room is in reach: a banner (role status) and the box's
 * data-conn, which dims the clock while the changes cannot arrive.
 */
function showConnection(box, state) {
  box.dataset.conn = state;
  let banner = box.querySelector(":scope > .ts-conn");
  if (!banner) {
    banner = h("p", { class: "ts-conn", role: "status" });
    box.append(banner);
  }
  banner.textContent = LOST[state] ? t(LOST[state]) : "";
  banner.hidden = !LOST[state];
}

/** The screen's own page: the room read with the screen's pass, kept fresh by the live stream. */
export class TableScreen {
  constructor(code, pass, onLost) {
    this.code = code;
    this.pass = pass;
    this.onLost = onLost;
    this.view = null;
    this.joinUrl = "";
    this.box = $("#screen");
    this.clock = h("p", { class: "ts-clock", role: "timer", id: "ts-clock" });
    this.timer = new Timer(this.clock, () => {});
    this.finale = new Finale(() => this.draw());
    this.live = new Live(code, (v) => { if (!this.view || v === null || v > this.view.version) this.refresh(); },
                         (state) => showConnection(this.box, state));
    this.onResize = () => fitNames(this.box);
    window.addEventListener("resize", this.onResize);
  }

  start() {
    this.live.start();
    this.refresh();
  }

  close() {
    this.live.stop();
    this.finale.close();
    clearInterval(this.timer.handle);
    window.removeEventListener("resize", this.onResize);
  }

  draw() {
    if (this.view) drawScreen(this.box, this.view, this.joinUrl, this.clock, { story: this.finale.story(this.view) });
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
      this.draw();
    } catch (err) {
      // a change announced but the room out of reach (the stream may still look open):
      // the banner says so, and live.js asks again until it answers
      this.live.reached(reachedServer(err));
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
    this.finale = new Finale(() => this.onMedia());
    this.onResize = () => fitNames(this.box);
    window.addEventListener("resize", this.onResize);
    // the header's connection indicator (room.js) says whether the room is in reach: the panel follows it
    this.conn = new MutationObserver(() => showConnection(this.box, $("#conn").dataset.state || ""));
    this.conn.observe($("#conn"), { attributes: true, attributeFilter: ["data-state"] });
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
    drawScreen(this.box, view, joinUrl, this.clock, { level: 2, story: this.finale.story(view) });
    showConnection(this.box, $("#conn").dataset.state || "");
  }

  close() {
    clearInterval(this.timer.handle);
    this.finale.close();
    this.conn.disconnect();
    window.removeEventListener("resize", this.onResize);
    this.media.removeEventListener("change", this.onMedia);
    document.body.classList.remove("host-wide");
    this.box.hidden = true;
  }
}
