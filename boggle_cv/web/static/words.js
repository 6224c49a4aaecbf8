// A player's words box on this phone: saved to the server as the player types
// (debounced), at once when the time is up, on lock and when the page is hidden
// (fetch keepalive), with a visible "saved" state. A copy not yet saved is kept in
// localStorage so that a reload without network loses nothing.
//
// Two tabs or phones of one player never wipe each other's words: every save says
// which revision of the list the box was in step with (`base`); the server refuses
// a save on an older revision (409 StaleList, with its list), and the box merges
// (the words it added are added to the server's list, the words it removed are
// removed) and saves again. When another tab saves, a box with no unsaved edits
// takes the new list; one with unsaved edits merges.
//
// A paper list goes in through "Photo of my sheet" (sheet.js): the server adds the
// words it read to the list (a save like any other: the box takes it, or merges
// it into unsaved edits) and the doubtful ones are listed first, above the box, each
// beside its handwriting with its alternatives one tap away, the word as written and
// a field to type it (the page scrolls to them); then the words a re-read with the
// board changed, while nobody has checked them; the other words from the sheet show
// their handwriting on a tap, with a field to type them over (folded under the box).
// Every word a sheet added stays open to corrections until Score, lock or no lock:
// the lock closes the box (no new words), not what the ink said.
import { request, draft, saveDraft } from "./api.js";
import { h, say, guarded } from "./dom.js";
import { t, tn } from "./i18n.js";
import { sendSheet, sheetSummary, settleWord, correctEntry, settledText, sheetPanels, panelState } from "./sheet.js";

export const SAVE_DELAY_MS = 600;
const RETRY_MS = 2000;
const MAX_MERGES = 5;   // 409s in a row before the box waits RETRY_MS (another tab saving as fast)

const SEPARATORS = /[\s,;]+/u;
const EDGES = /^[^\p{L}\p{N}\p{M}]+|[^\p{L}\p{N}\p{M}]+$/gu;

/** The words of a box's text as the server splits them (spaces, commas, semicolons; edge punctuation). */
export function tokens(text) {
  return String(text || "").split(SEPARATORS).map((t) => t.replace(EDGES, "")).filter(Boolean);
}

const key = (w) => w.normalize("NFKC").toLowerCase();

/**
 * Three-way merge of word lists: `mine` and `theirs` were both made from `base`.
 * The result is `theirs` without the words `mine` removed, then the words `mine`
 * added (in its order); a word is the same word in any case.
 */
export function mergeWords(base, mine, theirs) {
  const inBase = new Set(base.map(key)), inMine = new Set(mine.map(key));
  const removed = new Set([...inBase].filter((k) => !inMine.has(k)));
  const out = theirs.filter((w) => !removed.has(key(w)));
  const have = new Set(out.map(key));
  for (const w of mine) {
    const k = key(w);
    if (!inBase.has(k) && !have.has(k)) { out.push(w); have.add(k); }
  }
  return out;
}

const nWords = (n) => tn("{n} word", "{n} words", n);

export class WordBox {
  /** code: room; player {id, name}; token: the player's; onSaved(room view) after each save. */
  constructor(code, player, token, onSaved) {
    this.code = code;
    this.id = player.id;
    this.token = token;
    this.onSaved = onSaved;
    this.round = null;
    this.sent = null;        // the box's text when it was last in step with the server
    this.base = 0;           // the list's revision then (what a save sends as `base`)
    this.baseWords = [];     // the server's list at that revision (the merge's common ancestor)
    this.newest = 0;         // the newest revision seen in a room view
    this.inFlight = false;
    this.again = false;
    this.merges = 0;         // 409s in a row
    this.mergedNote = "";    // said once the merged list is saved
    this.timer = null;
    this.locked = false;
    this.loading = false;    // the saved words are being fetched
    this.catchingUp = false;
    const id = `words-${player.id}`;
    this.label = h("label", { for: id, class: "words-label" });
    this.status = h("span", { class: "save-state", role: "status", "aria-live": "polite" });
    this.area = h("textarea", { id, rows: 6, autocapitalize: "none", autocomplete: "off", spellcheck: "false",
                                autocorrect: "off", placeholder: t("One word per line (spaces or commas work too)"),
                                class: "words-box", dataset: { player: player.id } });
    this.area.addEventListener("input", () => this.changed());
    this.lastChange = null;  // the room's last change (what moved the list: a sheet, another tab)
    // a paper list: the camera (or a photo from the gallery), the words read added to the box
    const sheetId = `sheet-${player.id}`;
    this.sheetInput = h("input", { id: sheetId, type: "file", accept: "image/*", capture: "environment",
                                   class: "visually-hidden sheet-input" });
    this.sheetInput.addEventListener("change", () => this.uploadSheet(this.sheetInput.files[0]));
    this.sheetText = h("span");
    this.sheetButton = h("label", { class: "button sheet-button", for: sheetId }, "📷 ", this.sheetText);
    this.sheetRow = h("div", { class: "row sheet-row" }, this.sheetButton, this.sheetInput);
    // (say() sets the class: the message is found by its data-role)
    this.sheetMsg = h("p", { class: "msg", role: "status", hidden: true, dataset: { role: "sheet-msg", lasts: "round" } });
    this.doubtful = h("div", { class: "doubtful-holder" });
    this.doubtfulKey = "";
    this.changes = h("div", { class: "reread-holder" });
    this.fromSheet = h("div", { class: "sheet-words-holder" });
    this.fromSheetState = panelState();  // what the player unfolded and typed there, across redraws
    this.shared = false;     // a phone holding several players' boxes (the table's phone)
    this.round_ = 0;         // the round the view shows (the sheet is sent for it)
    this.node = h("div", { class: "wordbox", dataset: { player: player.id } },
                  h("div", { class: "row spread" }, this.label, this.status), this.sheetMsg, this.doubtful,
                  this.changes, this.area, this.sheetRow, this.fromSheet);
    this.rename(player.name);
  }

  rename(name, shared = this.shared) {
    this.name = name;
    this.shared = shared;
    this.label.textContent = t("{name}'s words", { name });
    this.sheetText.textContent = shared ? t("Photo of {name}'s sheet", { name }) : t("Photo of my sheet");
  }

  /**
   * The sheet's part of a room view: the round number and phase (a sheet is taken,
   * and its words corrected, while the round is playing or locked), this list's
   * doubtful words ({word: [[alternative, p], ...]}, null when the view does not hold
   * them), the words of the list, their handwriting's images ({word: image id}, the
   * view's `images`) and what the room knows of each word from a sheet (the view's
   * `sheet_words`: free, was, by).
   */
  showSheet(number, phase, marks, words = [], images = {}, info = {}) {
    if (number !== this.round_) {  // last round's sheet is old news
      say(this.sheetMsg, "");
      this.fromSheetState = panelState();
    }
    this.round_ = number;
    const c = this.lastChange || {};
    if (c.what === "sheet" && c.player_id === this.id && this.sheetMsg.classList.contains("error") &&
        JSON.stringify(c) !== this.sheetErrorAt) {
      // a later sheet for this player got through (the host's photo of it): the error is old news
      say(this.sheetMsg, c.by === "host" ? t("The host sent a photo of this sheet: its words are added.")
                                         : t("words from the sheet added"));
    }
    this.sheetRow.hidden = !(phase === "playing" || phase === "locked");
    this.sheetInput.disabled = this.sheetRow.hidden;
    if (marks === null || marks === undefined) return;
    const open = phase === "playing" || phase === "locked";
    const key = JSON.stringify([marks, words, images, info, open]);
    if (key === this.doubtfulKey) return;
    this.doubtfulKey = key;
    const acts = open ? { answer: (w, c, b, i) => this.choose(w, c, b, i), correct: (w, c, b, i) => this.correct(w, c, b, i) }
                      : null;
    const panels = sheetPanels(this.code, { id: this.id, words, doubtful: marks, images, sheet_words: info }, this.token,
                               this.fromSheetState, acts);
    this.doubtful.replaceChildren(panels.questions);
    this.changes.replaceChildren(panels.changes);
    this.fromSheet.replaceChildren(panels.words);
  }

  /** The photo of this player's sheet: its words added to the list (never in its place). */
  async uploadSheet(file) {
    this.sheetInput.value = "";  // the same photo may be chosen again
    if (!file || this.sheetBusy) return;
    this.sheetBusy = true;
    this.sheetButton.classList.add("busy");
    await guarded(null, this.sheetMsg, t("Reading the sheet…"), async () => {
      let doc;
      try {
        doc = await sendSheet(this.code, this.id, this.token, this.round_, file);
      } catch (err) {
        throw new Error(t("The sheet was not read: {error}. The list is as it was.", { error: err.message }));
      }
      this.fromServer(doc.room, t("words from the sheet added"));
      return t("From the sheet: {summary}", { summary: sheetSummary(doc.sheet) });
    });
    this.sheetErrorAt = JSON.stringify(this.lastChange || {});  // an error: a later sheet clears it
    // the words to confirm are the player's next taps: bring them into view
    if (!this.doubtful.firstElementChild?.hidden) this.sheetMsg.scrollIntoView({ block: "start", behavior: "smooth" });
    this.sheetBusy = false;
    this.sheetButton.classList.remove("busy");
  }

  /**
   * A doubtful word settled: the reading kept, an alternative chosen, the word as
   * written or a typed one, or dropped (choice null); true once stored.
   */
  async choose(word, choice, button, image = null) {
    return this.settled(word, choice, button, () => settleWord(this.code, this.id, this.token, word, choice, image));
  }

  /** Any word from the sheet confirmed, typed over or dropped (choice null); true once stored. */
  async correct(word, choice, button, image = null) {
    return this.settled(word, choice, button, () => correctEntry(this.code, this.id, this.token, word, choice, image));
  }

  async settled(word, choice, button, send) {
    let stored = false;
    await guarded(button, this.sheetMsg, "", async () => {
      const room = await send();
      stored = true;
      this.fromServer(room, null);
      return settledText(word, choice);
    });
    return stored;
  }

  /** A view answered to a change of this list made on the server (a sheet, a settled word). */
  fromServer(room, why) {
    const me = room.players.find((p) => p.id === this.id);
    if (me && Array.isArray(me.words) && typeof me.revision === "number") {
      if (this.inFlight) this.newest = Math.max(this.newest, me.revision);  // the save's answer catches up
      else if (me.revision > this.base) this.takeServerList(me.words, me.revision, why);
    }
    this.onSaved(room);
  }

  /**
   * A room view: the round (number, phase) with the server's words for this player
   * (null: not in the view in hand; fetched with the player's token) and the list's
   * revision (undefined from a server that does not count them).
   */
  async sync(number, phase, words, revision) {
    const playing = phase === "playing";
    const rev = typeof revision === "number" ? revision : null;
    if (this.round !== number) {
      this.round = number;
      this.newest = 0;
      clearTimeout(this.timer);
      let got = words === null ? null : { words, revision: rev };
      if (words === null) {
        // unknown until fetched: not editable meanwhile (what was typed would be overwritten)
        this.loading = true;
        this.area.readOnly = true;
        this.show(t("loading the saved words…"), "pending");
        got = await this.fetchWords();
        this.loading = false;
        if (this.round !== number) return;  // the round moved on meanwhile: a newer sync holds it
      }
      if (got === null) {
        // the saved words could not be fetched: never show (and later save) an empty box
        // as if it were this player's list; ask again
        this.round = null;
        this.area.readOnly = true;
        this.show(t("loading the saved words…"), "pending");
        this.timer = setTimeout(() => this.sync(number, phase, null), RETRY_MS);
        return;
      }
      this.start(number, playing, got.words || [], got.revision || 0);
    } else if (rev !== null && !this.loading) {
      this.newest = Math.max(this.newest, rev);
      if (rev > this.base) this.catchUp(words, rev);
    }
    this.setLocked(!playing);
    if (phase === "locked" || phase === "scored") this.lockedNote();
    if (phase === "waiting" && !this.area.value) {
      this.show(t("opens when the host starts the clock"), "");
      this.waitingNote = true;
    } else if (this.waitingNote && playing) {
      this.show(t("open: type your words"), "");  // the clock runs: the waiting note is old news
    }
  }

  /** The round's first view: the server's list, or this phone's unsaved copy merged into it. */
  start(number, playing, list, revision) {
    const text = list.join("\n");
    this.base = revision;
    this.newest = revision;
    this.baseWords = list;
    this.sent = text;
    const kept = draft(this.code, this.id);
    const unsaved = kept && kept.round === number && kept.text !== text && playing;
    if (!unsaved) {
      this.area.value = text;
      this.fit();
      this.show(list.length ? t("saved ✓ · {words}", { words: nWords(list.length) }) : "", "saved");
      return;
    }
    if (typeof kept.base === "number" && kept.base === revision) {
      this.area.value = kept.text;            // the copy was made from this very list
    } else {
      // the list was saved elsewhere since the copy was made (another tab, a save that
      // got through): keep both
      this.area.value = mergeWords(Array.isArray(kept.words) ? kept.words : [], tokens(kept.text), list).join("\n");
      this.mergedNote = t("merged with the list saved elsewhere");
    }
    if (this.dirty()) this.save(); else this.show(t("saved ✓ · {words}", { words: nWords(list.length) }), "saved");
  }

  /**
   * The box asks for 6 to 14 lines (its screen gives it what is there: a long list
   * scrolls inside it); a list that came from elsewhere (a reload, a sheet, another
   * tab) shows its latest words, at the end.
   */
  fit() {
    const lines = this.area.value.split("\n").length + 1;
    this.area.rows = Math.min(14, Math.max(6, lines));
    if (document.activeElement !== this.area) this.area.scrollTop = this.area.scrollHeight;
  }

  /**
   * The lists locked: the status line says what is true from then on, the list as the
   * server keeps it ("saved ✓ · 4 words · lists locked"), no longer how it got there
   * (another tab, a sheet). An unsaved list or an error keeps its own line.
   */
  lockedNote() {
    if (this.loading || this.inFlight || this.dirty() || this.status.dataset.state !== "saved") return;
    this.show(t("saved ✓ · {words} · lists locked", { words: nWords(this.baseWords.length) }), "saved");
  }

  /** Why the list moved on the server, as the status line says it. */
  movedBy() {
    const c = this.lastChange || {};
    if (c.player_id === this.id && c.what === "sheet") return t("words from the sheet added");
    if (c.player_id === this.id && c.settled) return t("a word from the sheet settled");
    if (c.what === "reread") return "";  // which words changed is said above the box, while it holds
    return t("saved in another tab or phone");
  }

  /** The view says the list moved past our base (another tab or phone saved it). */
  async catchUp(words, revision) {
    if (this.inFlight || this.catchingUp) return;  // the save's answer (or its 409) brings it
    if (words === null) {
      this.catchingUp = true;
      const got = await this.fetchWords();
      this.catchingUp = false;
      if (!got || typeof got.revision !== "number") return;
      ({ words, revision } = got);
      if (this.inFlight || revision <= this.base) return;
    }
    this.takeServerList(words, revision, this.movedBy());
  }

  /**
   * The server holds `list` at `revision`, newer than our base: an unedited box takes
   * it; a box with unsaved edits merges them into it and saves the merge. why: what
   * the status line says after "saved ✓ · N words" when nothing is left to save.
   */
  takeServerList(list, revision, why) {
    const edited = this.dirty();
    const mine = tokens(this.area.value);
    const text = list.join("\n");
    const merged = edited ? mergeWords(this.baseWords, mine, list).join("\n") : text;
    this.base = revision;
    this.newest = Math.max(this.newest, revision);
    this.baseWords = list;
    this.sent = text;
    if (this.area.value !== merged) { this.area.value = merged; this.fit(); }
    if (this.dirty()) {
      this.mergedNote = t("merged with the list saved in another tab or phone");
      this.save();
    } else {
      saveDraft(this.code, this.id, null);
      this.show(why ? t("saved ✓ · {words} ({why})", { words: nWords(list.length), why })
                    : t("saved ✓ · {words}", { words: nWords(list.length) }), "saved");
    }
  }

  /** {words, revision} of this player from the server, or null (not known: no connection). */
  async fetchWords() {
    try {
      const doc = await request("GET", `/api/rooms/${this.code}`, { token: this.token });
      const me = doc.room.players.find((p) => p.id === this.id);
      return { words: me ? me.words || [] : [], revision: me && typeof me.revision === "number" ? me.revision : 0 };
    } catch (e) {
      return null;  // not known (no connection, server busy): sync asks again
    }
  }

  setLocked(locked) {
    if (locked && !this.locked && this.dirty()) this.flush();
    this.locked = locked;
    this.area.readOnly = locked || this.loading;
    this.node.classList.toggle("locked", locked);
    if (locked && !this.dirty() && this.area.value.trim() === "") this.show(t("no words"), "");
  }

  dirty() {
    return this.sent !== null && this.area.value !== this.sent;
  }

  keepDraft() {
    saveDraft(this.code, this.id, { round: this.round, text: this.area.value, base: this.base, words: this.baseWords });
  }

  changed() {
    this.keepDraft();
    this.show(t("typing…"), "pending");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  /** Save now (time is up, lists locked, page hidden): keepalive outlives the page. */
  flush(keepalive = false) {
    clearTimeout(this.timer);
    if (this.dirty()) this.save(keepalive);
  }

  async save(keepalive = false) {
    clearTimeout(this.timer);
    if (this.inFlight && !keepalive) { this.again = true; return; }
    const text = this.area.value;
    let stale = null;  // the server's list when it refused our base (409 StaleList)
    this.inFlight = true;
    this.show(t("saving…"), "pending");
    try {
      const doc = await request("PUT", `/api/rooms/${this.code}/players/${this.id}/words`,
                                { token: this.token, json: { words: text, base: this.base }, keepalive });
      const me = doc.room.players.find((p) => p.id === this.id);
      this.merges = 0;
      this.sent = text;
      this.baseWords = me && Array.isArray(me.words) ? me.words : tokens(text);
      if (me && typeof me.revision === "number") {
        this.base = me.revision;
        this.newest = Math.max(this.newest, me.revision);
      }
      if (this.area.value === text) {
        saveDraft(this.code, this.id, null);
        const words = nWords(me ? me.word_count : 0);
        const note = this.mergedNote;
        this.mergedNote = "";
        this.show(note ? t("saved ✓ · {words} ({why})", { words, why: note }) : t("saved ✓ · {words}", { words }), "saved");
      } else {
        this.keepDraft();
      }
      this.onSaved(doc.room);
    } catch (err) {
      const current = err.doc && err.doc.current;
      if (err.status === 409 && err.kind === "StaleList" && current && Array.isArray(current.words)) {
        // another tab or phone saved first: merge into its list and save again
        this.merges += 1;
        if (this.merges > MAX_MERGES) {
          this.merges = 0;
          this.show(t("not saved yet (the list keeps changing elsewhere): retrying"), "error");
          this.timer = setTimeout(() => this.save(), RETRY_MS);
        } else {
          stale = current;
        }
      } else if (err.status === 0) {
        this.show(t("not saved yet (no connection): retrying"), "error");
        this.timer = setTimeout(() => this.save(), RETRY_MS);
      } else if (err.status === 409) {
        this.show(t("not saved: {error}", { error: err.message }), "error");
        this.area.readOnly = true;
      } else {
        this.show(t("not saved: {error}", { error: err.message }), "error");
      }
    } finally {
      this.inFlight = false;
      if (stale) {
        this.again = false;  // the merge holds what was typed meanwhile
        this.takeServerList(stale.words, typeof stale.revision === "number" ? stale.revision : this.base,
                            t("merged with the list saved in another tab or phone"));
      } else if (this.again) {
        this.again = false;
        if (this.dirty()) this.save();
      } else if (this.newest > this.base) {
        this.catchUp(null, this.newest);  // another save was announced while ours was in flight
      }
    }
  }

  show(text, kind) {
    this.waitingNote = false;
    this.status.textContent = text;
    this.status.dataset.state = kind;
  }
}
