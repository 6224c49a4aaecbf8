// The players a host acts for: added on the host's device ("Someone without a
// phone?"), they have no pass of their own. Each is a row of the players list
// holding their words box (words.js), worked on the host's phone with the host's
// pass: their words while the round is played, the photo of their sheet, the
// answers to its questions and corrections of its words until Score. The host's own
// page stays the host's: these players are never "you", never in the header.
import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { WordBox } from "./words.js";

/** Add `name` as a player without a phone (the host's token): the server's answer {player_id, room}. */
export async function addHosted(code, hostToken, name) {
  return request("POST", `/api/rooms/${code}/players`, { token: hostToken, json: { name, hosted: true } });
}

export class HostedRows {
  /**
   * code: the room; hostToken(): the host's pass (null on a phone that is not the
   * host's); onSaved(room view) after each save from a row; timeUp(): true once this
   * phone's clock has run out (the boxes close before the server's lock arrives).
   */
  constructor(code, hostToken, onSaved, timeUp) {
    this.code = code;
    this.hostToken = hostToken;
    this.onSaved = onSaved;
    this.timeUp = timeUp;
    this.rows = new Map();  // player id -> {li, head, box}
  }

  /** The rows in step with the host's room view: one box per player without a phone. */
  sync(view) {
    const token = this.hostToken();
    const hosted = view.you.host && token ? view.players.filter((p) => p.hosted) : [];
    for (const [id, row] of this.rows) {
      if (!hosted.some((p) => p.id === id)) { row.li.remove(); this.rows.delete(id); }
    }
    const r = view.round;
    for (const p of hosted) {
      let row = this.rows.get(p.id);
      if (!row) {
        const box = new WordBox(this.code, p, token, this.onSaved);
        const head = h("div", { class: "hosted-head" });
        row = { box, head, li: h("li", { class: "hosted", dataset: { player: p.id } }, head, box.node) };
        this.rows.set(p.id, row);
      }
      row.box.rename(p.name, true);
      row.box.lastChange = view.last_change;
      row.box.sync(r.number, this.timeUp() ? "locked" : r.phase, p.words, p.revision);
      row.box.showSheet(r.number, r.phase, p.doubtful || {}, p.words || [], p.images || {}, p.sheet_words || {});
      row.box.node.hidden = r.phase === "scored";  // the report shows the words then
    }
  }

  /** Is player `p` a row of these (its <li> kept across redraws)? */
  holds(p) {
    return this.rows.has(p.id);
  }

  /** The row of player `p` with its head made of `bits`: the same <li> every time, so its box keeps what is typed. */
  row(p, bits) {
    const row = this.rows.get(p.id);
    row.head.replaceChildren(...bits, h("span", { class: "tag" }, t("no phone: on this device")));
    return row.li;
  }

  /** Save what is typed now (time is up, lists locked, page hidden). */
  flush(keepalive) {
    for (const { box } of this.rows.values()) box.flush(keepalive);
  }

  lockAll() {
    for (const { box } of this.rows.values()) box.setLocked(true);
  }

  close() {
    for (const { box } of this.rows.values()) clearTimeout(box.timer);
    this.rows.clear();
  }
}

/**
 * Put `items` (<li>s) into list `holder` in that order without moving a node that is
 * already in place (moving one drops its focus: a row's box being typed in).
 */
export function placeItems(holder, items) {
  const keep = new Set(items);
  for (const child of [...holder.children]) if (!keep.has(child)) child.remove();
  items.forEach((item, i) => {
    if (holder.children[i] !== item) holder.insertBefore(item, holder.children[i] || null);
  });
}
