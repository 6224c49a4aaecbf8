// Paper lists: a photo of a player's sheet sent to the room, what it added
// said in one line, and the doubtful words it read, each beside its handwriting (the
// room keeps a small image of each word a sheet added) with its alternatives one
// tap away (the reading ✓ confirms it, another replaces it, ✕ drops it); every other
// word from the sheet shows its handwriting on a tap.
import { request, fetchImage } from "./api.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

export const MAX_UPLOAD = 25 * 1024 * 1024;

const percent = (p) => `${Math.round(100 * p)}%`;

/**
 * Send `file` as the sheet of player `id` (token: the player's or the host's) for
 * round `round`: {room, sheet} (the server's answer); an ApiError when it failed
 * (nothing was stored then).
 */
export async function sendSheet(code, id, token, round, file) {
  if (file.size > MAX_UPLOAD) throw new Error(t("That photo is over 25 MB; take a smaller one."));
  return request("POST", `/api/rooms/${code}/players/${id}/sheet?round=${round}`,
                 { token, body: file, type: file.type || "application/octet-stream" });
}

/**
 * What a sheet did, in one line: "8 words added, 1 crossed out (not added): dose" and,
 * when words are to be confirmed, how many and where (`where`: "above", at the top of
 * the player's box; "name", under the player's name in the host's list; "later", there once the
 * lists are locked: the host does not see a player's words before).
 */
export function sheetSummary(sheet, where = "above") {
  const bits = [tn("{n} word added", "{n} words added", sheet.added.length)];
  if (sheet.already.length) bits.push(tn("{n} already in the list", "{n} already in the list", sheet.already.length));
  if (sheet.crossed_out.length) {
    bits.push(tn("{n} crossed out (not added): {words}", "{n} crossed out (not added): {words}",
                 sheet.crossed_out.length, { words: sheet.crossed_out.join(", ") }));
  }
  if (sheet.unreadable) bits.push(tn("{n} could not be read", "{n} could not be read", sheet.unreadable));
  let text = `${bits.join(", ")}.`;
  const n = sheet.doubtful.length;
  if (n) {
    text += " " + (where === "above" ? tn("{n} to confirm: tap the right reading.", "{n} to confirm: tap the right reading.", n)
      : where === "name" ? tn("{n} to confirm under their name.", "{n} to confirm under their name.", n)
      : tn("{n} to confirm (under their name once the lists are locked).",
           "{n} to confirm (under their name once the lists are locked).", n));
  }
  return text;
}

/** Settle one doubtful word: choice = the word (confirm), another word, or null (drop). The room view. */
export async function settleWord(code, id, token, word, choice) {
  const doc = await request("POST", `/api/rooms/${code}/players/${id}/doubtful`, { token, json: { word, choice } });
  return doc.room;
}

const key = (w) => String(w).normalize("NFKC").toLowerCase();
const inkUrls = new Map();  // image id -> Promise of its blob: URL (an image's URL never changes)

/** The image `id` of player `pid` as a blob: URL, fetched once per page with `token`. */
function inkUrl(code, pid, id, token) {
  let url = inkUrls.get(id);
  if (!url) {
    url = fetchImage(`/api/rooms/${encodeURIComponent(code)}/players/${encodeURIComponent(pid)}/images/${encodeURIComponent(id)}`, token);
    inkUrls.set(id, url);
    url.catch(() => inkUrls.delete(id));  // asked again next time
  }
  return url;
}

/**
 * ink(word) -> an <img> of that word's handwriting (fetched then), or null when the
 * sheet left none; ink.has(word) tells which without fetching. images: {word: image
 * id} of player `pid` (a room view's `images`), read with `token`.
 */
export function inkOf(code, pid, token, images) {
  const ids = new Map(Object.entries(images || {}).map(([w, id]) => [key(w), id]));
  const ink = (word) => {
    const id = ids.get(key(word));
    if (!id) return null;
    const img = h("img", { class: "ink", alt: t("“{word}” as written on the sheet", { word }), dataset: { image: id } });
    inkUrl(code, pid, id, token).then((url) => { img.src = url; })
      .catch(() => img.replaceWith(h("span", { class: "ink missing" }, t("(the handwriting cannot be shown)"))));
    return img;
  };
  ink.has = (word) => ids.has(key(word));  // without fetching it
  return ink;
}

/**
 * The doubtful words of one list (marks: {word: [[alternative, p], ...]}), each on
 * its line: the word marked "?", its handwriting (ink(word), when there is one),
 * then its alternatives as buttons (the reading first, with ✓) and ✕ "not a word".
 * onChoose(word, choice, button) -> Promise. An empty element (hidden) when there are none.
 */
export function doubtfulPanel(marks, onChoose, owner = "", ink = null) {
  const words = Object.keys(marks || {});
  const box = h("div", { class: "doubtful-words", hidden: !words.length, dataset: { owner } });
  if (!words.length) return box;
  box.append(h("p", { class: "doubtful-h" },
                tn("{n} word to confirm: tap the right reading", "{n} words to confirm: tap the right reading", words.length)));
  const list = h("ul", { class: "plain-list" });
  for (const word of words) {
    const alts = marks[word].length ? marks[word] : [[word, 0]];
    const choices = alts.map(([alt, p], i) => h("button", {
      type: "button", class: i === 0 ? "alt reading" : "alt", dataset: { choice: alt },
      "aria-label": i === 0 ? t("Keep “{word}”", { word: alt }) : t("Replace with “{word}”", { word: alt }),
      onclick: (e) => onChoose(word, alt, e.currentTarget),
    }, h("span", { class: "w" }, i === 0 ? `${alt} ✓` : alt), p ? h("span", { class: "p" }, percent(p)) : null));
    const drop = h("button", { type: "button", class: "alt drop", dataset: { choice: "" },
                               "aria-label": t("“{word}” is not a word: remove it", { word }),
                               onclick: (e) => onChoose(word, null, e.currentTarget) }, t("✕ not a word"));
    const written = ink ? ink(word) : null;
    list.append(h("li", { dataset: { word } }, h("span", { class: "dword" }, word, h("span", { class: "q" }, "?")),
                  written ? h("span", { class: "ink-box" }, written) : null,
                  h("span", { class: "alts" }, choices, drop)));
  }
  box.append(list);
  return box;
}

/**
 * The words of a list that came from a sheet (those with a handwriting image, in the
 * list's order, the doubtful ones left out: their panel shows theirs), folded under
 * one line; a tap on a word shows its handwriting beside it, another tap hides it.
 * state {open, shown: Set of words}: what the player unfolded, kept by the caller
 * across redraws (the panel updates it). An empty element (hidden) when no word
 * came from a sheet.
 */
export function sheetWordsPanel(words, marks, ink, owner = "", state = { open: false, shown: new Set() }) {
  const doubtful = new Set(Object.keys(marks || {}).map(key));
  const from = (words || []).filter((w) => !doubtful.has(key(w)) && ink.has(w));
  const box = h("details", { class: "sheet-words", hidden: !from.length, open: state.open && from.length > 0,
                             dataset: { owner } });
  if (!from.length) return box;
  box.addEventListener("toggle", () => { state.open = box.open; });
  box.append(h("summary", {}, tn("{n} word from the sheet: tap it to see it as written",
                                 "{n} words from the sheet: tap one to see it as written", from.length)));
  const list = h("ul", { class: "plain-list sheet-word-list" });
  for (const word of from) {
    const shown = h("span", { class: "ink-box", hidden: true });
    const button = h("button", { type: "button", class: "chip sheet-word", "aria-expanded": "false", dataset: { word },
                                 "aria-label": t("Show “{word}” as written", { word }) }, word);
    const show = (on) => {
      if (on && !shown.firstChild) shown.append(ink(word));
      shown.hidden = !on;
      button.setAttribute("aria-expanded", String(on));
      if (on) state.shown.add(key(word)); else state.shown.delete(key(word));
    };
    button.addEventListener("click", () => show(shown.hidden));
    if (state.shown.has(key(word))) show(true);
    list.append(h("li", { dataset: { word } }, button, shown));
  }
  box.append(list);
  return box;
}
