// One room on this phone: the host's and/or players' passes kept in localStorage,
// the room as this phone sees it (GET /api/rooms/CODE), kept fresh by the live
// stream, and every section of the page drawn from it: the round's bar on top and one
// screen below it (screens.js), the step's screen first (waiting: who is in; playing:
// the words; locked: the board to check; scored: my result; the game over: the
// winner). Every status line is worked out from the room as it is now (status.js).
import { request, passes, savePasses, forgetPlayer, forgetRoom } from "./api.js";
import { $, h, say, guarded, listNames } from "./dom.js";
import { recheck, forgetAll, known } from "./status.js";
import { Screens } from "./screens.js";
import { questionsLine } from "./errors.js";
import { t, tn, N_, currentLanguage } from "./i18n.js";
import { Live, STATE_TEXT, reachedServer } from "./live.js";
import { Timer, formatSeconds } from "./timer.js";
import { WordBox } from "./words.js";
import { BoardPanel } from "./boardpanel.js";
import { renderReport, renderStandings, isRoomsOwnGame } from "./report.js";
import { sendSheet, sheetSummary, settleWord, correctEntry, settledText, inkOf, sheetPanels, panelState } from "./sheet.js";
import { HostedRows, addHosted } from "./hosted.js";
import * as host from "./host.js";
import { HostScreen } from "./screen.js";
import { boardGrid } from "./practice.js";

/** The editions' names (the room's edition: its dictionary and rules), translated where shown. */
export const EDITIONS = {
  en: N_("English"), fr: N_("French"), de: N_("German"), es: N_("Spanish"), it: N_("Italian"), nl: N_("Dutch"),
};

/** The edition the round is played in: its settings (fixed when its clock started). */
function round_edition(r) {
  return (r.settings && r.settings.lang) || "en";
}

/**
 * What Score's success says: the round is kept, as which round of the game (named
 * when the host named it: a room's own name, "room KQ7M2XP", says nothing to a family).
 */
function savedAs(game) {
  if (!game) return "";
  return isRoomsOwnGame(game.name) ? t("Saved as round {n} of this game.", { n: game.round })
                                   : t("Saved as round {n} of the game “{game}”.", { n: game.round, game: game.name });
}

/** The referee's questions still open (the round locked), in words: false when none is. */
function openQuestionsLine(view) {
  const asked = view.round.phase === "locked" ? view.round.questions : null;
  return asked && asked.length ? questionsLine(asked) : false;
}

export class Room {
  /** code: the room; nav {leave(message): this phone's pass is gone, lost(message): no such room}. */
  constructor(code, nav) {
    this.code = code;
    this.nav = nav;
    this.passes = passes(code);
    this.view = null;
    this.joinUrl = "";
    this.boxes = new Map();           // player id -> WordBox (players held on this phone)
    this.fetching = null;
    this.again = false;
    this.standingsFor = undefined;
    this.showAllMissed = false;
    this.openLists = new Set();       // players whose words that do not count are shown (report)
    this.reportKey = null;            // the report drawn (it does not change once scored)
    this.renaming = null;             // the player id whose rename form is open
    this.selectedWord = null;
    this.closed = false;
    this.timer = new Timer($("#timer"), () => this.timeUp());
    this.live = new Live(code, (v) => this.changed(v), (s) => this.connection(s));
    this.board = new BoardPanel({ code, token: () => this.token(), onView: (v) => this.render(v) });
    this.wide = new HostScreen();     // the table screen beside the host's column on a wide display
    // the players without a phone the host acts for: rows of the players list, each with its words box
    this.hosted = new HostedRows(code, () => this.passes.host, (room) => this.fromOther(room),
                                 () => this.timer.remaining() !== null && this.timer.remaining() <= 0);
    this.screens = new Screens($("#stage"), $("#room-nav"));
    this.allWords = false;            // the report shows every player's words (else my result)
    document.body.classList.add("in-room");
    // the page's language switch: at the foot of the players' screen (the page never scrolls to a footer)
    this.footer = $(".page-lang");
    $("#players-section").after(this.footer);
    this.listeners = [];
    this.listen(document, "visibilitychange", () => {
      if (document.visibilityState === "hidden") this.flushAll(true); else this.live.wake();
    });
    this.listen(window, "pagehide", () => this.flushAll(true));
    this.wire();
  }

  listen(target, ev, fn) {
    target.addEventListener(ev, fn);
    this.listeners.push([target, ev, fn]);
  }

  /** The token this phone reads the room with: the host's, else its first player's. */
  token() {
    return this.passes.host || Object.values(this.passes.players)[0] || null;
  }

  start() {
    this.live.start();
    this.refresh();
  }

  close() {
    this.closed = true;
    this.live.stop();
    for (const [t, ev, fn] of this.listeners) t.removeEventListener(ev, fn);
    clearInterval(this.timer.handle);
    this.wide.close();
    this.hosted.close();
    this.screens.close();
    forgetAll();
    document.body.classList.remove("in-room");
    document.body.append(this.footer);
  }

  // ---- the room from the server --------------------------------------------------------------
  changed(version) {
    if (version !== null && this.view && version <= this.view.version) return;
    this.refresh();
  }

  async refresh() {
    if (this.fetching) { this.again = true; return this.fetching; }
    this.fetching = (async () => {
      const t0 = Date.now();
      try {
        const doc = await request("GET", `/api/rooms/${this.code}`, { token: this.token() });
        this.live.reached(true);
        this.timer.sync(doc.room.server_time, t0, Date.now());
        this.joinUrl = doc.join_url;
        await this.render(doc.room);
      } catch (err) {
        this.live.reached(reachedServer(err));  // out of reach: "reconnecting", asked again until it answers
        if (err.status === 401) this.passLost(err);
        else if (err.status === 404) {  // the room is gone (another --db): forget its passes
          forgetRoom(this.code);
          this.close();
          this.nav.lost(t("Room {code}: {error}", { code: this.code, error: err.message }));
        }
      } finally {
        this.fetching = null;
        if (this.again && !this.closed) { this.again = false; this.refresh(); }
      }
    })();
    return this.fetching;
  }

  /** A pass the server no longer knows (player removed, database replaced). */
  passLost(err) {
    const token = this.token();
    if (this.passes.host === token) this.passes.host = null;
    for (const [id, t] of Object.entries(this.passes.players)) if (t === token) delete this.passes.players[id];
    savePasses(this.code, this.passes);
    this.close();
    this.nav.leave(`${err.message}`);
  }

  connection(state) {
    const el = $("#conn");
    el.hidden = false;
    el.dataset.state = state;
    el.textContent = STATE_TEXT[state] ? t(STATE_TEXT[state]) : state;
    el.title = state === "live" ? t("changes arrive at once") : t("changes may take a few seconds");
  }

  // ---- drawing ---------------------------------------------------------------------------------
  async render(view) {
    if (this.closed || (this.view && view.version < this.view.version)) return;
    const roundChanged = !this.view || this.view.round.number !== view.round.number;
    const justScored = !!this.view && view.round.phase === "scored" &&
                       (roundChanged || this.view.round.phase !== "scored");
    this.view = view;
    known(view);  // what an action says from now on is judged against this view
    const r = view.round, isHost = view.you.host;
    if (roundChanged) { this.selectedWord = null; this.showAllMissed = false; this.openLists.clear(); this.allWords = false; }
    $("#room").dataset.phase = r.phase;
    $("#room").classList.toggle("host", isHost);
    $("#room").classList.toggle("table", this.passes.table);
    $("#room").classList.toggle("first-round", r.number === 1);
    const mine = this.minePlayers(view);
    // the room code gives way (ellipsis) before the player's name is ever cut
    const badge = $("#room-badge");
    badge.hidden = false;
    badge.replaceChildren(h("span", { class: "code" }, h("span", { class: "label" }, t("Room") + " "), view.code),
      h("span", { class: "who" }, mine.length ? `· ${listNames(mine.map((p) => p.name))}` : isHost ? `· ${t("host")}` : ""));
    $("#phase-h").textContent = r.phase === "scored" && view.game_state.over ? t("Game over")
      : t("Round {n}", { n: r.number });
    const edition = round_edition(r);
    $("#edition").textContent = t("Edition: {edition}", { edition: t(EDITIONS[edition] || edition) });
    $("#edition").title = $("#edition").textContent;
    $("#edition").dataset.lang = edition;
    $("#edition").hidden = edition === currentLanguage();  // said only when it is not the page's own language
    $("#phase-line").textContent = this.phaseLine(view, mine.length > 0);
    this.timer.set(`${r.number}:${r.started_at}`, r.deadline, r.phase, r.locked_by);
    this.wide.draw(view, this.joinUrl, this.timer.offset);
    if (isHost) {
      host.renderControls(view);
      host.renderInvite(view, this.joinUrl);
      host.renderSettings(view);
    } else {
      $("#host-controls").hidden = true;
    }
    this.renderBoxes(view, mine);
    this.hosted.sync(view);
    host.renderPlayers(view, new Set(mine.map((p) => p.id)), (p, button) => this.remove(p, button),
                       (p) => this.openRename(p), (p) => this.pickSheet(p), this.hosted);
    this.renderRename(view);
    this.renderLists(view);
    $("#add-form").hidden = !isHost;
    $("#hosted-form").hidden = !isHost || this.passes.table;  // a table's phone holds everyone already
    $("#add-label").textContent = this.passes.table || mine.length ? t("Add a player on this device") : t("Playing too? Add yourself on this device");
    const report = r.phase === "scored" ? r.report : null;
    $("#report-section").hidden = !report;
    if (report) {
      const key = `${r.number}:${report.game ? report.game.round : ""}:${this.showAllMissed}:${mine.map((p) => p.name)}`;
      if (key !== this.reportKey) this.drawReport(report);
      this.reportKey = key;
    } else {
      this.reportKey = null;
    }
    this.standings(view);
    this.placeScreens(view, mine, justScored);
    await this.board.update(r.board, r.phase, view.settings, r.questions);
    if (this.view !== view) return;  // a newer view was drawn meanwhile
    if (!report && this.board.path) this.board.showPath(null);
    recheck(view);  // what the last actions said, as far as it is still true
  }

  /**
   * The screen of the round's step: waiting, who is in (the host's first round: the
   * invitation with them), or from the game's second round on its standings; playing,
   * the words (a host who holds no player: the players' counts); locked, the board to
   * check; scored, my result, or the game's end once someone reached the target.
   */
  stepScreen(view, mine) {
    const phase = view.round.phase;
    if (phase === "waiting") return view.round.number > 1 ? "game" : "players";
    if (phase === "playing") return mine.length ? "words" : "players";
    if (phase === "locked") return "board";
    return view.game_state.over ? "game" : "report";
  }

  /** The screens there are, and the step's shown when the step changed (a new phase or round). */
  placeScreens(view, mine, justScored) {
    const r = view.round, step = `${r.number}:${r.phase}`;
    this.screens.offer({ words: mine.length > 0 && r.phase !== "scored", report: r.phase === "scored",
                         settings: view.you.host, players: true, board: true, game: true });
    this.screens.setStep(this.stepScreen(view, mine), justScored || this.stepOf !== step);
    this.stepOf = step;
  }

  /** A view answered to another of this phone's passes: drawn only if it is this phone's view. */
  fromOther(view) {
    const first = Object.keys(this.passes.players)[0];
    const same = view.you.host ? !!this.passes.host : !this.passes.host && view.you.player_id === first;
    if (same) this.render(view); else this.changed(view.version);
  }

  minePlayers(view) {
    return view.players.filter((p) => p.id in this.passes.players);
  }

  phaseLine(view, playing) {
    const r = view.round, isHost = view.you.host;
    if (r.phase === "waiting") {
      if (isHost) return view.players.length ? tn("{n} player in. Get ready: shake the tray, then start the clock.",
                                                  "{n} players in. Get ready: shake the tray, then start the clock.", view.players.length)
                                             : t("Invite the players (the link or QR code), then start the clock.");
      return t("Get ready: shake the tray. The clock starts when the host taps Start.");
    }
    if (r.phase === "playing") {
      return (playing ? t("Find words! Type each on its own line; they are saved as you type.") : t("The players are finding words.")) +
             (r.deadline ? "" : " " + t("No timer: the host locks the lists."));
    }
    if (r.phase === "locked") {
      const by = r.locked_by === "timer" ? t("Time's up: the lists are locked.")
        : isHost ? t("You locked the lists.") : t("The host locked the lists.");
      const board = r.board || {};
      if (board.faces) {  // the board is read: what is left is checking it, and the referee's questions
        // (the timer's place says "Locked" or "Time's up!": the line says only what comes next)
        const asked = r.questions || [];
        const cells = asked.filter((q) => q.kind === "cell").length, words = asked.length - cells;
        const check = cells ? tn("Check the {n} doubtful cell on the board (tap it to fix or confirm).",
                                 "Check the {n} doubtful cells on the board (tap one to fix or confirm).", cells)
                    : words ? tn("Settle the {n} word from a sheet that changes a score (under its player's name).",
                                 "Settle the {n} words from sheets that change a score (under each player's name).", words)
                    : t("Check the board against the tray (tap a cell to fix it).");
        return `${check} ` + (isHost ? t("Then score the round.") : t("Then the host scores it."));
      }
      return `${by} ` + (isHost ? t("Take a photo of the tray (or type the board), check the doubtful cells, then score the round.")
                                : t("Take a photo of the tray (or type the board), check the doubtful cells, then the host scores it."));
    }
    const over = view.game_state.over;
    if (over) {
      return tn("🏆 {names} wins the game!", "🏆 {names} win the game!", over.winners.length, { names: listNames(over.winners) }) +
             " " + (isHost ? t("Start a new game (the same players) when the table is ready.")
                           : t("The host starts the next game."));
    }
    return t("Round {n} is scored.", { n: r.number }) + (isHost ? " " + t("Start the next round when the table is ready.") : "");
  }

  renderBoxes(view, mine) {
    const holder = $("#wordboxes");
    for (const [id, box] of this.boxes) if (!mine.some((p) => p.id === id)) { box.node.remove(); this.boxes.delete(id); }
    for (const p of mine) {
      let box = this.boxes.get(p.id);
      if (!box) {
        box = new WordBox(this.code, p, this.passes.players[p.id], (room) => this.fromOther(room));
        this.boxes.set(p.id, box);
      }
      box.rename(p.name, mine.length > 1 || this.passes.table);
      // keep the room's order, moving a box only when it is out of place (moving drops the focus)
      const at = mine.indexOf(p);
      if (holder.children[at] !== box.node) holder.insertBefore(box.node, holder.children[at] || null);
      const timeUp = this.timer.remaining() !== null && this.timer.remaining() <= 0;
      const words = view.you.player_id === p.id || p.words ? p.words : null;
      box.lastChange = view.last_change;
      box.sync(view.round.number, timeUp ? "locked" : view.round.phase, words, p.revision);
      box.showSheet(view.round.number, view.round.phase, words === null ? null : p.doubtful || {}, words || [],
                    p.images || {}, p.sheet_words || {});
    }
    $("#words-section").hidden = !mine.length || view.round.phase === "scored";
    $("#words-h").textContent = mine.length > 1 ? t("The players' words") : t("Your words");
  }

  /**
   * Once locked, every list is open: under each player's name (the report follows);
   * the host answers there the questions about the sheets of the players this phone
   * does not hold and may type over any word a sheet added, beside its handwriting
   * (sheet.sheetPanels); anyone sees which words a re-read with the board changed
   * and may tap a word that came from a sheet to see it as written.
   */
  renderLists(view) {
    if (!["locked"].includes(view.round.phase)) return;
    if (!this.sheetStates || this.sheetStates.round !== view.round.number) {
      this.sheetStates = { round: view.round.number, of: new Map() };  // player id -> what is unfolded and typed
    }
    for (const p of view.players) {
      if (this.hosted.holds(p)) continue;  // a row the host acts for: its box shows it all
      const li = $(`#players li[data-player="${p.id}"]`);
      if (li && p.words) li.append(h("p", { class: "their-words" }, p.words.length ? p.words.join(" · ") : t("no words")));
      if (!li || p.id in this.passes.players || !p.words) continue;  // this phone's own lists: their box shows it all
      if (!this.sheetStates.of.has(p.id)) this.sheetStates.of.set(p.id, panelState());
      const acts = view.you.host ? { answer: (w, c, b, i) => this.hostSettle(p, w, c, b, i),
                                     correct: (w, c, b, i) => this.hostSettle(p, w, c, b, i, correctEntry) } : null;
      const panels = sheetPanels(this.code, p, this.token(), this.sheetStates.of.get(p.id), acts);
      li.append(panels.questions, panels.changes, panels.words);
    }
  }

  /** The host photographs the sheet of a player (one without a phone): the file chooser first. */
  pickSheet(player) {
    this.sheetFor = player;
    const input = $("#host-sheet");
    input.value = "";
    input.click();
  }

  async hostSheet(file) {
    const p = this.sheetFor, msg = $("#players-msg");
    $("#host-sheet").value = "";
    if (!file || !p || !this.view) return;
    await guarded(null, msg, t("Reading {name}'s sheet…", { name: p.name }), async () => {
      let doc;
      try {
        doc = await sendSheet(this.code, p.id, this.passes.host, this.view.round.number, file);
      } catch (err) {
        throw new Error(t("{name}'s sheet was not read: {error}. The list is as it was.", { name: p.name, error: err.message }));
      }
      await this.render(doc.room);
      return t("{name}'s sheet: {summary}", { name: p.name, summary: sheetSummary(doc.sheet, doc.room.round.phase === "locked" ? "name" : "later") });
    });
  }

  /** The host answers a question about a word of `player`'s sheet, or (send: correctEntry) types over any of its words; true once stored. */
  async hostSettle(player, word, choice, button, image = null, send = settleWord) {
    let stored = false;
    await guarded(button, $("#players-msg"), "", async () => {
      const room = await send(this.code, player.id, this.passes.host, word, choice, image);
      stored = true;
      await this.render(room);
      return settledText(word, choice);
    });
    return stored;
  }

  /**
   * Score: the referee refuses (409 round.questions_open, its first question shown
   * here) while a doubt whose answer changes a score is open, and scores at once when
   * none is (a doubtful word that changes nothing counts as read).
   */
  score(button) {
    this.hostAction(button, "/rounds/current/score", t("Scoring…"), (doc) => savedAs(doc.game),
                    undefined, (err) => {
                      // the referee's questions: said while one is open, the first one named (as it is now)
                      if (err.doc && err.doc.code === "round.questions_open") err.still = (view) => openQuestionsLine(view);
                    });
  }

  drawReport(report) {
    const players = new Map((this.view ? this.view.players : []).map((p) => [p.name, p]));
    renderReport($("#report"), report, {
      onWord: (w, button) => this.pickWord(w, button),
      inkOf: (name) => {  // the words a sheet added keep their handwriting until the next round
        const p = players.get(name);
        return p && p.images ? inkOf(this.code, p.id, this.token(), p.images) : null;
      },
      mine: this.minePlayers(this.view).map((p) => p.name),
      showAll: this.showAllMissed,
      onShowAll: () => { this.showAllMissed = true; this.reportKey = null; this.drawReport(report); },
      open: this.openLists,
      allWords: this.allWords,
      onAllWords: (on) => {  // every player's words take the screen (or my result comes back)
        this.allWords = on;
        $("#report").classList.toggle("all-words", on);
        $("#report-all").scrollTop = 0;
        if (on) $("#report-all").focus({ preventScroll: true });
      },
      onStandings: () => this.screens.show("game", { smooth: true }),
    });
    if (this.selectedWord) {
      const b = $(`#report button.chip[data-word="${CSS.escape(this.selectedWord)}"]`);
      if (b) b.setAttribute("aria-pressed", "true");
    }
  }

  pickWord(w, button) {
    const on = button.getAttribute("aria-pressed") !== "true";
    for (const b of document.querySelectorAll("#report button.chip[aria-pressed=true]")) b.setAttribute("aria-pressed", "false");
    this.selectedWord = on && w.path ? w.word : null;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    this.board.showPath(on && w.path ? w.path : null);
    // the path beside the word, numbered cube by cube (the big board shows it too)
    for (const old of document.querySelectorAll("#report .path-box")) old.remove();
    const faces = this.view && this.view.round.board.faces;
    if (on && w.path && faces) {
      const box = h("li", { class: "path-box", dataset: { word: w.word } }, boardGrid(faces, w.path));
      button.closest("li").after(box);
      box.scrollIntoView({ block: "nearest" });
    }
  }

  standings(view) {
    const r = view.round;
    renderStandings($("#standings"), view.game_state, r.phase === "scored" ? r.number : r.number - 1,
                    this.minePlayers(view).map((p) => p.name));
  }

  // ---- actions ---------------------------------------------------------------------------------
  timeUp() {
    this.flushAll(false);
    for (const box of this.boxes.values()) box.setLocked(true);
    this.hosted.lockAll();
    setTimeout(() => this.refresh(), 400);  // the server locks the lists at the deadline
  }

  flushAll(keepalive) {
    for (const box of this.boxes.values()) box.flush(keepalive);
    this.hosted.flush(keepalive);
  }

  async hostAction(button, path, busy, done, json, refused = null) {
    const msg = $("#round-msg");
    host.clearMessages();
    return guarded(button, msg, busy, async () => {
      if (path.endsWith("/lock") || path.endsWith("/score")) this.flushAll(false);
      let doc;
      try {
        doc = await request("POST", `/api/rooms/${this.code}${path}`, { token: this.passes.host, json });
      } catch (err) {
        if (refused) refused(err);
        throw err;
      }
      if (doc.room) await this.render(doc.room); else await this.refresh();
      return done(doc);
    });
  }

  async remove(player, button) {
    await guarded(button, $("#players-msg"), t("Removing {name}…", { name: player.name }), async () => {
      const doc = await request("DELETE", `/api/rooms/${this.code}/players/${player.id}`, { token: this.passes.host });
      if (player.id in this.passes.players) { forgetPlayer(this.code, player.id); this.passes = passes(this.code); }
      await this.render(doc.room);
      return t("{name} was removed.", { name: player.name });
    });
  }

  /** The rename form (one player held on this phone at a time). */
  openRename(player) {
    this.renaming = player.id;
    $("#rename-name").value = player.name;
    say($("#rename-msg"), "");
    this.renderRename(this.view);
    $("#rename-name").focus();
    $("#rename-name").select();
  }

  renderRename(view) {
    const p = view && this.renaming ? this.minePlayers(view).concat(view.players.filter((x) => this.hosted.holds(x)))
      .find((x) => x.id === this.renaming) : null;
    if (!p) this.renaming = null;
    $("#rename-form").hidden = !p;
    if (p) $("#rename-label").textContent = t("New name for {name}", { name: p.name });
  }

  async rename() {
    const id = this.renaming, name = $("#rename-name").value, msg = $("#rename-msg");
    const p = this.view && this.view.players.find((x) => x.id === id);
    if (!p) return;
    if (!name.trim()) { say(msg, t("Type the new name first."), "error"); return; }
    await guarded($("#rename-form button[type=submit]"), msg, t("Renaming…"), async () => {
      const doc = await request("PUT", `/api/rooms/${this.code}/players/${id}`,
                                { token: this.passes.players[id] || this.passes.host, json: { name } });
      const now = doc.room.players.find((x) => x.id === id);
      this.renaming = null;
      this.fromOther(doc.room);
      this.renderRename(this.view);
      return t("{old} is now {name}.", { old: p.name, name: now ? now.name : name });
    });
  }

  async addPlayer() {
    const name = $("#add-name").value, msg = $("#add-msg");
    if (!name.trim()) { say(msg, t("Type the player's name first."), "error"); return; }
    await guarded($("#add-form button"), msg, t("Adding…"), async () => {
      const doc = await request("POST", `/api/rooms/${this.code}/players`, { json: { name } });
      this.passes.players[doc.player_id] = doc.token;
      savePasses(this.code, this.passes);
      $("#add-name").value = "";
      await this.refresh();
      return t("{name} is in: their words go in the box “{box}”.", { name: doc.room.you.name, box: t("{name}'s words", { name: doc.room.you.name }) });
    });
  }

  /** The host adds a player without a phone: a row of the players list the host acts for. */
  async addHostedPlayer() {
    const input = $("#hosted-name"), msg = $("#hosted-msg"), name = input.value;
    if (!name.trim()) { say(msg, t("Type the player's name first."), "error"); return; }
    await guarded($("#hosted-form button"), msg, t("Adding…"), async () => {
      const doc = await addHosted(this.code, this.passes.host, name);
      input.value = "";
      await this.render(doc.room);
      const added = doc.room.players.find((p) => p.id === doc.player_id);
      return t("{name} is in: type their words, or photograph their sheet, in their row under Players.",
               { name: added ? added.name : name });
    });
  }

  async saveSettings() {
    const msg = $("#settings-msg"), form = $("#settings-form");
    await guarded(form.querySelector("button[type=submit]"), msg, t("Saving…"), async () => {
      const doc = await request("PUT", `/api/rooms/${this.code}/settings`, { token: this.passes.host, json: host.settingsFromForm() });
      form.dataset.dirty = "";
      await this.render(doc.room);
      const s = doc.room.settings;
      // a round takes the settings when its clock starts: a waiting round gets them too
      const when = doc.room.round.phase === "waiting" ? t("from this round's clock on") : t("from the next round on");
      return t("Saved: {timer}, target {points} ({when}).", {
        timer: s.seconds === null ? t("no timer") : t("timer {s} s", { s: s.seconds }),
        points: tn("{n} point", "{n} points", s.target), when });
    });
  }

  wire() {
    const on = (id, fn) => this.listen($(id), id.endsWith("form") ? "submit" : "click", fn);
    on("#start", (e) => this.hostAction(e.currentTarget, "/rounds", t("Starting…"), () => ""));
    // the next round waits (no clock) while the table shakes the tray; #start starts its clock
    on("#next", (e) => this.hostAction(e.currentTarget, "/rounds", t("Opening the next round…"), () => "", { wait: true }));
    // the round's bar says what the lock and the reopening did (no message to outlive it)
    on("#lock", (e) => this.hostAction(e.currentTarget, "/rounds/current/lock", t("Locking…"), () => ""));
    on("#reopen", (e) => this.hostAction(e.currentTarget, "/rounds/current/reopen", t("Reopening…"), () => ""));
    on("#score", (e) => this.score(e.currentTarget));
    on("#new-game", (e) => this.hostAction(e.currentTarget, "/games", t("Starting a new game…"),
                                           () => t("A new game: the same players, everyone at 0."), {}));
    this.listen($("#host-sheet"), "change", (e) => this.hostSheet(e.target.files[0]));
    on("#settings-form", (e) => { e.preventDefault(); this.saveSettings(); });
    on("#add-form", (e) => { e.preventDefault(); this.addPlayer(); });
    on("#hosted-form", (e) => { e.preventDefault(); this.addHostedPlayer(); });
    on("#rename-form", (e) => { e.preventDefault(); this.rename(); });
    on("#rename-cancel", () => { this.renaming = null; this.renderRename(this.view); });
    on("#copy-link", () => this.copyLink());
    const form = $("#settings-form");
    const dirty = () => {
      form.dataset.dirty = "1";
      $("#set-seconds").disabled = $("#set-untimed").checked;
      $("#set-target").disabled = $("#set-untargeted").checked;
    };
    this.listen(form, "input", dirty);
  }

  async copyLink() {
    const msg = $("#round-msg");
    try {
      await navigator.clipboard.writeText(this.joinUrl);
      say(msg, t("Link copied."));
    } catch (e) {
      say(msg, t("Copy it by hand: {url}", { url: this.joinUrl }));
    }
  }
}
