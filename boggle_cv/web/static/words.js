// A player's words box on this phone: saved to the server as the player types
// (debounced), at once when the time is up, on lock and when the page is hidden
// (fetch keepalive), with a visible "saved" state. A copy not yet saved is kept in
// localStorage so that a reload without network loses nothing.
import { request, draft, saveDraft } from "./api.js";
import { h, plural } from "./dom.js";

export const SAVE_DELAY_MS = 600;
const RETRY_MS = 2000;

export class WordBox {
  /** code: room; player {id, name}; token: the player's; onSaved(room view) after each save. */
  constructor(code, player, token, onSaved) {
    this.code = code;
    this.id = player.id;
    this.token = token;
    this.onSaved = onSaved;
    this.round = null;
    this.sent = null;        // text the server holds (as far as we know)
    this.inFlight = false;
    this.timer = null;
    this.locked = false;
    this.loading = false;    // the saved words are being fetched
    const id = `words-${player.id}`;
    this.label = h("label", { for: id, class: "words-label" });
    this.status = h("span", { class: "save-state", role: "status", "aria-live": "polite" });
    this.area = h("textarea", { id, rows: 6, autocapitalize: "none", autocomplete: "off", spellcheck: "false",
                                autocorrect: "off", placeholder: "One word per line (spaces or commas work too)",
                                class: "words-box", dataset: { player: player.id } });
    this.area.addEventListener("input", () => this.changed());
    this.node = h("div", { class: "wordbox", dataset: { player: player.id } },
                  h("div", { class: "row spread" }, this.label, this.status), this.area);
    this.rename(player.name);
  }

  rename(name) {
    this.name = name;
    this.label.textContent = `${name}'s words`;
  }

  /**
   * The round moved on (number, phase) with the server's words for this player
   * (null: not known from the view in hand; fetched with the player's token).
   */
  async sync(number, phase, words) {
    const playing = phase === "playing";
    if (this.round !== number) {
      this.round = number;
      clearTimeout(this.timer);
      if (words === null) {
        // unknown until fetched: not editable meanwhile (what was typed would be overwritten)
        this.loading = true;
        this.area.readOnly = true;
        this.show("loading the saved words…", "pending");
        words = await this.fetchWords();
        this.loading = false;
        if (this.round !== number) return;  // the round moved on meanwhile: a newer sync holds it
      }
      if (words === null) {
        // the saved words could not be fetched: never show (and later save) an empty box
        // as if it were this player's list; ask again
        this.round = null;
        this.area.readOnly = true;
        this.show("loading the saved words…", "pending");
        this.timer = setTimeout(() => this.sync(number, phase, null), RETRY_MS);
        return;
      }
      const text = (words || []).join("\n");
      const kept = draft(this.code, this.id);
      const unsaved = kept && kept.round === number && kept.text !== text && playing;
      this.area.value = unsaved ? kept.text : text;
      this.sent = text;
      if (unsaved) this.save();
      else this.show(words && words.length ? `saved · ${plural(words.length, "word")}` : "", "saved");
    }
    this.setLocked(!playing);
    if (phase === "waiting" && !this.area.value) this.show("opens when the host starts the round", "");
  }

  async fetchWords() {
    try {
      const doc = await request("GET", `/api/rooms/${this.code}`, { token: this.token });
      const me = doc.room.players.find((p) => p.id === this.id);
      return me ? me.words || [] : [];
    } catch (e) {
      return null;  // not known (no connection, server busy): sync asks again
    }
  }

  setLocked(locked) {
    if (locked && !this.locked && this.dirty()) this.flush();
    this.locked = locked;
    this.area.readOnly = locked || this.loading;
    this.node.classList.toggle("locked", locked);
    if (locked && !this.dirty() && this.area.value.trim() === "") this.show("no words", "");
  }

  dirty() {
    return this.sent !== null && this.area.value !== this.sent;
  }

  changed() {
    saveDraft(this.code, this.id, { round: this.round, text: this.area.value });
    this.show("typing…", "pending");
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
    this.inFlight = true;
    this.show("saving…", "pending");
    try {
      const doc = await request("PUT", `/api/rooms/${this.code}/players/${this.id}/words`,
                                { token: this.token, json: { words: text }, keepalive });
      this.sent = text;
      if (this.area.value === text) saveDraft(this.code, this.id, null);
      const me = doc.room.players.find((p) => p.id === this.id);
      if (this.area.value === text) this.show(`saved ✓ · ${plural(me ? me.word_count : 0, "word")}`, "saved");
      this.onSaved(doc.room);
    } catch (err) {
      if (err.status === 0) {
        this.show("not saved yet (no connection): retrying", "error");
        this.timer = setTimeout(() => this.save(), RETRY_MS);
      } else if (err.status === 409) {
        this.show(`not saved: ${err.message}`, "error");
        this.area.readOnly = true;
      } else {
        this.show(`not saved: ${err.message}`, "error");
      }
    } finally {
      this.inFlight = false;
      if (this.again) { this.again = false; if (this.dirty()) this.save(); }
    }
  }

  show(text, kind) {
    this.status.textContent = text;
    this.status.dataset.state = kind;
  }
}
