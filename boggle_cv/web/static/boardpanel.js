// The board section of the room: a photo or typed board sent by any player, the
// board as read drawn over the photo with doubtful cells marked, corrections (with
// who made them), the red marks (bonus cells, the challenge cube: from the photo or
// tapped in) and the path of the word tapped in the report.
import { request, fetchImage } from "./api.js";
import { $, h, say, guarded, cellName, faceName } from "./dom.js";
import { askedCells, byText, cellQuestion, cellStates, keyOf } from "./cellstate.js";
import { t, tn } from "./i18n.js";
import { renderBoard } from "./board.js";
import { openPicker } from "./picker.js";

const MAX_UPLOAD = 25 * 1024 * 1024;

export class BoardPanel {
  /** room: {code, token(), onView(view)} (the page's room state). */
  constructor(room) {
    this.room = room;
    this.view = null;     // the round's board (view.round.board)
    this.photo = null;    // {version, url, width, height}
    this.whole = false;
    this.path = null;     // the tapped word's path
    this.picking = null;
    this.open = true;     // can the board change (not scored)
    this.settings = null; // the room's settings (red marks in photos: use or ignore)
    this.questions = null; // the referee's open questions (the view's round.questions: null until locked)
    $("#photo").addEventListener("change", (e) => this.upload(e.target.files[0]));
    $("#board-form").addEventListener("submit", (e) => { e.preventDefault(); this.typed($("#board-input").value); });
    $("#zoom").addEventListener("click", () => { this.whole = !this.whole; this.draw(); });
  }

  /** The round's board from the room view (phase decides whether it may change). */
  async update(board, phase, settings = null, questions = null) {
    const sizeChanged = !this.view || this.view.size !== board.size || this.view.text !== board.text;
    this.view = board;
    this.settings = settings;
    this.questions = questions;
    this.open = phase !== "scored";
    $("#photo-button").hidden = !this.open;
    $("#type-board").hidden = !this.open;
    $("#photo").disabled = !this.open;
    $("#board-help").hidden = !this.open;
    if (sizeChanged) this.path = null;
    if (board.photo_url && (!this.photo || this.photo.src !== board.photo_url)) {
      const img = board.read.image || {};
      try {
        const url = await fetchImage(board.photo_url, this.room.token());
        if (this.photo) URL.revokeObjectURL(this.photo.url);
        this.photo = { src: board.photo_url, url, width: img.width, height: img.height };
      } catch (e) {
        this.photo = null;
      }
    }
    this.draw();
  }

  draw() {
    const b = this.view;
    const has = !!(b && b.faces);
    $("#board-view").hidden = !has;
    $("#no-board").hidden = has;
    if (!has) {
      $("#board").replaceChildren();
      $("#corrections").replaceChildren();
      this.path = null;
      return;
    }
    const photo = b.source === "photo" && this.photo && this.photo.src === b.photo_url ? this.photo : null;
    // a cell is doubtful while the referee has a question open about it; a confirmed cell is ✓, a corrected one ✎
    const states = cellStates(b, this.questions), asked = states.doubtful;
    const marks = this.marks();
    const model = { faces: b.faces, geometry: photo && b.read ? b.read.geometry : null, photo, ...states, ...marks };
    renderBoard($("#board"), model, { whole: this.whole, path: this.path, selected: this.picking,
                                       onCell: this.open ? (r, c) => this.pick(r, c) : () => this.closedTap() });
    $("#zoom").hidden = !photo;
    $("#zoom").textContent = this.whole ? t("Board only") : t("Whole photo");
    const n = b.size;
    const photoBoard = b.source === "photo", by = b.set_by;
    let summary = `${n}×${n}, ` + (by ? byText(photoBoard ? "photo" : "typed", by)
                                        : (photoBoard ? t("from a photo") : t("typed")));
    if (asked.size) summary += ` · ${tn("{n} doubtful cell", "{n} doubtful cells", asked.size)}`;
    $("#board-summary").textContent = summary;
    // one clear way to say "the doubtful cells are right as read"
    const looks = $("#looks-right");
    looks.hidden = !this.open || !asked.size;
    looks.textContent = tn("Looks right: confirm the doubtful cell", "Looks right: confirm the {n} doubtful cells", asked.size);
    looks.onclick = () => this.confirmAll(looks);
    $("#board-text").textContent = b.text;
    const items = Object.entries(b.corrections).map(([label, c]) => {
      const [r, col] = keyOf(label).split(",").map(Number);
      return h("li", { dataset: { cell: label, confirmed: c.confirmed ? "1" : null } }, `${cellName(r, col)}: ${faceName(c.face)} `,
               c.confirmed ? h("span", { class: "ok-by" }, byText("confirmed", c.by))
                           : h("span", { class: "by" }, byText("fixed", c.by)));
    });
    $("#corrections").replaceChildren(...items);
    const said = [];
    const name = (key) => { const [r, col] = key.split(",").map(Number); return cellName(r, col); };
    if (marks.bonus.size) said.push(`◯ ${tn("Bonus cell (words through it score double): {cells}", "Bonus cells (words through it score double): {cells}", marks.bonus.size, { cells: [...marks.bonus].map(name).join("; ") })}`);
    if (marks.challenge) said.push(`★ ${t("The challenge cube (+5 a word through it): {cell}", { cell: name(marks.challenge) })}`);
    $("#board-marks").textContent = said.join(". ");
    $("#board-marks").hidden = !said.length;
  }

  /**
   * The red marks in force: {bonus: Set of "r,c", challenge: "r,c" | null}: those chosen
   * on the page (the view's board.bonus / board.challenge, cells as "r2c3"), else those
   * seen in the photo (unless the room ignores red marks).
   */
  marks() {
    const b = this.view;
    const seen = b.read && b.read.marks && !(this.settings && this.settings.marks === "ignore") ? b.read.marks : {};
    const bonus = "bonus" in b ? (b.bonus || []).map(keyOf) : (seen.bonus_cells || []).map(([r, c]) => `${r},${c}`);
    let challenge = null;
    if ("challenge" in b) challenge = b.challenge ? keyOf(b.challenge) : null;
    else if (seen.challenge_cell) challenge = `${seen.challenge_cell[0]},${seen.challenge_cell[1]}`;
    return { bonus: new Set(bonus), challenge };
  }

  /** A cell tapped once the round is scored: say why nothing opens. */
  closedTap() {
    say($("#board-msg"), t("This round is scored: its board can no longer change. Tap a word in the report to see its path."));
  }

  /** Draw one word's path (from the report), or none. */
  showPath(path) {
    this.path = path;
    this.draw();
  }

  pick(r, c) {
    const b = this.view, key = `${r},${c}`;
    const read = b.read ? b.read.cells.find((x) => x.row === r && x.col === c) : null;
    const fixedBy = Object.entries(b.corrections).find(([label]) => keyOf(label) === key);
    const question = cellQuestion(this.questions, r, c);
    this.picking = [r, c];
    this.draw();
    const marks = this.marks(), bonus = marks.bonus.has(key), challenge = marks.challenge === key;
    const label = (k) => { const [x, y] = k.split(",").map(Number); return `r${x + 1}c${y + 1}`; };
    const others = [...marks.bonus].filter((k) => k !== key).map(label);
    openPicker(r, c, { face: b.faces[r][c], read, doubtful: !!question,
                       fixedBy: fixedBy && !fixedBy[1].confirmed ? fixedBy[1].by : null,
                       confirmedBy: fixedBy && fixedBy[1].confirmed ? fixedBy[1].by : null,
                       options: question ? question.options : b.read && b.read.options ? b.read.options[key] || null : null },
               (face) => this.fix(r, c, face),
               () => { this.picking = null; this.draw(); },
               { bonus, challenge,
                 onBonus: () => this.setMarks({ bonus: bonus ? others : [...others, label(key)] },
                                              bonus ? t("{cell} is no longer a bonus cell.", { cell: cellName(r, c) })
                                                    : t("{cell} is a bonus cell: words through it score double.", { cell: cellName(r, c) })),
                 onChallenge: () => this.setMarks({ challenge: challenge ? null : label(key) },
                                                  challenge ? t("No challenge cube on the board.")
                                                            : t("The challenge cube is at {cell}: +5 a word through it.", { cell: cellName(r, c) })) });
  }

  /** Bonus cells or the challenge cube's cell, chosen on the page. */
  async setMarks(json, done) {
    await guarded(null, $("#board-msg"), "", async () => {
      const doc = await request("PUT", `/api/rooms/${this.room.code}/rounds/current/board`, { token: this.room.token(), json });
      await this.room.onView(doc.room);
      // said while the marks stay as this tap left them
      const marks = (v) => JSON.stringify([v.round.board.bonus, v.round.board.challenge]);
      const now = marks(doc.room);
      return { text: done, still: (v) => marks(v) === now && v.round.phase !== "scored" };
    });
  }

  async fix(r, c, face) {
    const msg = $("#board-msg");
    await guarded(null, msg, "", async () => {
      const doc = await request("PUT", `/api/rooms/${this.room.code}/rounds/current/board`,
                                { token: this.room.token(), json: { fix: { [`r${r + 1}c${c + 1}`]: face } } });
      await this.room.onView(doc.room);
      return { text: t("{cell} is now {face}.", { cell: cellName(r, c), face: faceName(face) }),
               still: (v) => !!v.round.board.faces && v.round.board.faces[r][c] === face && v.round.phase !== "scored" };
    });
  }

  /**
   * Every cell in doubt confirmed as it reads now (one request; each shows ✓, confirmed
   * by this player). The line after it counts those cells the room still holds confirmed
   * (one corrected since on another phone: one fewer; none left, or the round moved on:
   * no line).
   */
  async confirmAll(button) {
    const b = this.view;
    const fix = Object.fromEntries([...askedCells(this.questions)].map((k) => k.split(",").map(Number))
      .map(([r, c]) => [`r${r + 1}c${c + 1}`, b.faces[r][c]]));
    await guarded(button, $("#board-msg"), "", async () => {
      const doc = await request("PUT", `/api/rooms/${this.room.code}/rounds/current/board`, { token: this.room.token(), json: { fix } });
      await this.room.onView(doc.room);
      const round = doc.room.round.number;
      const line = (v) => {
        if (v.round.number !== round || v.round.phase !== "locked") return false;
        const held = Object.keys(fix).filter((label) => (v.round.board.corrections[label] || {}).confirmed).length;
        return held ? tn("{n} cell confirmed as read.", "{n} cells confirmed as read.", held) : false;
      };
      return { text: line(doc.room), still: line };
    });
  }

  async typed(text) {
    const msg = $("#board-msg");
    if (!text.trim()) { say(msg, t("Type the board first, rows joined by / (e.g. PERS/LATG/SINE/TERS)."), "error"); return; }
    await guarded($("#board-form button"), msg, "", async () => {
      const doc = await request("PUT", `/api/rooms/${this.room.code}/rounds/current/board`,
                                { token: this.room.token(), json: { board: text } });
      $("#type-board").open = false;
      await this.room.onView(doc.room);
      const board = doc.room.round.board.text;
      return { text: t("Board set: {board}.", { board }),
               still: (v) => v.round.board.text === board && v.round.phase !== "scored" };
    });
  }

  async upload(file) {
    if (!file) return;
    const msg = $("#board-msg");
    if (file.type && !file.type.startsWith("image/")) {
      // a PDF or a document: not sent (the server takes images only, and says so less kindly)
      say(msg, t("That file ({file}) is not a photo: choose a photo of the tray (JPEG, PNG, WebP…).", { file: file.name }), "error");
      $("#photo").value = "";
      return;
    }
    if (file.size > MAX_UPLOAD) {
      say(msg, t("That photo is {mb} MB; the server takes at most 25 MB.", { mb: (file.size / 1048576).toFixed(1) }), "error");
      $("#photo").value = "";
      return;
    }
    $("#photo-button").classList.add("busy");
    await guarded($("#photo"), msg, t("Reading the board…"), async () => {
      try {
        const doc = await request("POST", `/api/rooms/${this.room.code}/rounds/current/photo`,
                                  { token: this.room.token(), body: file, type: file.type || "application/octet-stream" });
        this.whole = false;
        await this.room.onView(doc.room);
        const version = doc.room.round.board.photo_version;
        const line = (v) => {  // what is left to check now (the doubtful cells settled on any phone: fewer, then none)
          const b = v.round.board;
          if (b.photo_version !== version || b.source !== "photo" || v.round.phase === "scored") return false;
          const d = askedCells(v.round.questions).size;
          // nothing left in doubt: the board and the round's line say the rest
          return d ? tn("Board read. Check the {n} doubtful cell (marked ?): tap to correct.", "Board read. Check the {n} doubtful cells (marked ?): tap to correct.", d)
                   : false;
        };
        return { text: line(doc.room), still: line };
      } finally {
        $("#photo-button").classList.remove("busy");
        $("#photo").value = "";
      }
    });
  }
}
