// Paper lists: a photo of a player's sheet sent to the room, what it added said in
// one line, and every word it added open to a person until Score, each beside its
// handwriting (the room keeps a small image of each word a sheet added):
//   questions  the doubtful words: the reading ✓, its alternatives, the word as
//              written (the reader's open reading), a typed word, or ✕ not a word;
//   changes    the words a re-read with the board changed, while nobody has checked
//              them: keep the new word, put back the old one, or type it;
//   words      every other word from the sheet, folded: a tap shows it as written
//              and, for whoever may act, a field to type it over (or ✕ drop it).
// What is shown is computed from the room's view (`sheet_words`), so a change shown
// goes once it is no longer true. A word being typed survives every redraw (the
// caller keeps `state.typing`), and a correction names the word the phone showed and
// its handwriting's id: the server refuses it (409) if a person changed the word
// meanwhile, and finds it if only a re-read did.
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
 * when words are to be confirmed, how many and where (`where`: "below", in the
 * player's box under this line; "name", under the player's name in the host's list;
 * "later", there once the lists are locked: the host does not see a player's words before).
 */
export function sheetSummary(sheet, where = "below") {
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
    text += " " + (where === "below" ? tn("{n} to confirm: tap the right reading.", "{n} to confirm: tap the right reading.", n)
      : where === "name" ? tn("{n} to confirm under their name.", "{n} to confirm under their name.", n)
      : tn("{n} to confirm (under their name once the lists are locked).",
           "{n} to confirm (under their name once the lists are locked).", n));
  }
  return text;
}

/**
 * Answer the question about a doubtful word: choice = the word (confirm), another word
 * (an alternative, as written, typed), or null (drop). image: its handwriting's id. The room view.
 */
export async function settleWord(code, id, token, word, choice, image = null) {
  const doc = await request("POST", `/api/rooms/${code}/players/${id}/doubtful`,
                            { token, json: { word, choice, ...(image ? { image } : {}) } });
  return doc.room;
}

/** Any word a sheet added, confirmed (choice = word), typed over (another word) or dropped (null). The room view. */
export async function correctEntry(code, id, token, word, choice, image = null) {
  const doc = await request("POST", `/api/rooms/${code}/players/${id}/entry`,
                            { token, json: { word, choice, ...(image ? { image } : {}) } });
  return doc.room;
}

/** What a settled word became, in one line (the message next to it). */
export function settledText(word, choice) {
  if (choice === null) return t("“{word}” removed.", { word });
  return choice === word ? t("“{word}” confirmed.", { word }) : t("“{word}” replaced with “{choice}”.", { word, choice });
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
 * sheet left none; ink.has(word) tells which without fetching; ink.id(word) its image
 * id (null: none). images: {word: image id} of player `pid` (a room view's `images`),
 * read with `token`.
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
  ink.id = (word) => ids.get(key(word)) || null;
  return ink;
}

/** A fresh state for one list's panels, kept by the caller across redraws. */
export function panelState() {
  return { open: false, shown: new Set(), typing: new Map(), focus: null };
}

/**
 * A field to type a word for `word` (its entry: `id`, the handwriting's id or the
 * word): the text typed survives redraws (state.typing) and the field takes the focus
 * back when it had it; Enter or ✓ calls onTyped(text, button). `value`: what the
 * field starts with when nothing was typed yet.
 */
function typedField(word, id, state, onTyped, value = "") {
  const field = `${id}`;
  const input = h("input", { type: "text", class: "typed", autocapitalize: "none", autocomplete: "off",
                             autocorrect: "off", spellcheck: "false", enterkeyhint: "done", maxlength: 72,
                             placeholder: t("or type it"), dataset: { field },
                             "aria-label": t("Type the word written for “{word}”", { word }) });
  input.value = state.typing.has(field) ? state.typing.get(field) : value;
  const send = h("button", { type: "submit", class: "typed-send",
                             "aria-label": t("Use the word typed for “{word}”", { word }) }, "✓");
  const form = h("form", { class: "typed-form", dataset: { field } }, input, send);
  input.addEventListener("input", () => state.typing.set(field, input.value));
  input.addEventListener("focus", () => { state.focus = field; });
  input.addEventListener("blur", () => setTimeout(() => {  // a redraw removes the field: it keeps the focus
    if (input.isConnected && state.focus === field) state.focus = null;
  }, 0));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) { input.focus(); return; }
    const ok = await onTyped(text, send);
    if (ok !== false) { state.typing.delete(field); if (state.focus === field) state.focus = null; }
  });
  if (state.focus === field) {
    queueMicrotask(() => { if (input.isConnected) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); } });
  }
  return form;
}

/** The word's sheet facts from a view's `sheet_words` (free, was, by), or {}. */
const factsOf = (info, word) => (info && info[word]) || {};

/**
 * The doubtful words of one list (marks: {word: [[alternative, p], ...]}), each on
 * its line: the word marked "?", its handwriting (ink(word), when there is one),
 * then its alternatives as buttons (the reading first, with ✓), the word as first
 * read when a re-read changed it, the word as written (the open reading, when it is
 * none of them), ✕ "not a word" and a field to type the word. onChoose(word, choice,
 * button, image) -> Promise. info: the view's `sheet_words` of the list; state: the
 * panels' state (panelState). An empty element (hidden) when there are none.
 */
export function doubtfulPanel(marks, onChoose, owner = "", ink = null, info = {}, state = panelState()) {
  const words = Object.keys(marks || {});
  const box = h("div", { class: "doubtful-words", hidden: !words.length, dataset: { owner } });
  if (!words.length) return box;
  box.append(h("p", { class: "doubtful-h" },
                tn("{n} word to confirm: tap the right reading", "{n} words to confirm: tap the right reading", words.length)));
  const list = h("ul", { class: "plain-list" });
  for (const word of words) {
    const image = ink && ink.id ? ink.id(word) : null;
    const choose = (choice) => (e) => onChoose(word, choice, e.currentTarget, image);
    const alts = marks[word].length ? marks[word] : [[word, 0]];
    const offered = new Set(alts.map(([a]) => key(a)));
    const choices = alts.map(([alt, p], i) => h("button", {
      type: "button", class: i === 0 ? "alt reading" : "alt", dataset: { choice: alt },
      "aria-label": i === 0 ? t("Keep “{word}”", { word: alt }) : t("Replace with “{word}”", { word: alt }),
      onclick: choose(alt),
    }, h("span", { class: "w" }, i === 0 ? `${alt} ✓` : alt), p ? h("span", { class: "p" }, percent(p)) : null));
    const facts = factsOf(info, word);
    for (const [other, label] of [[facts.was, t("first read")], [facts.free, t("as written")]]) {
      if (!other || offered.has(key(other))) continue;
      offered.add(key(other));
      choices.push(h("button", { type: "button", class: "alt other", dataset: { choice: other },
                                 "aria-label": t("Replace with “{word}”", { word: other }), onclick: choose(other) },
                     h("span", { class: "w" }, other), h("span", { class: "p" }, label)));
    }
    const drop = h("button", { type: "button", class: "alt drop", dataset: { choice: "" },
                               "aria-label": t("“{word}” is not a word: remove it", { word }),
                               onclick: choose(null) }, t("✕ not a word"));
    const typed = typedField(word, image || `q:${word}`, state, (text, button) => onChoose(word, text, button, image));
    const written = ink ? ink(word) : null;
    list.append(h("li", { dataset: { word } }, h("span", { class: "dword" }, word, h("span", { class: "q" }, "?")),
                  written ? h("span", { class: "ink-box" }, written) : null,
                  facts.was ? h("span", { class: "reread-note small" }, t("read again with the board")) : null,
                  h("span", { class: "alts" }, choices, drop), typed));
  }
  box.append(list);
  return box;
}

/**
 * The words of one list that a re-read with the board changed and nobody has checked
 * since (info: the view's `sheet_words`, each {was}), the doubtful ones left out (their
 * question shows it): "life → lite" beside the handwriting, then keep the new word,
 * put back the old one, the word as written, or a typed word. act(word, choice,
 * button, image) -> Promise, or null to only show them. Hidden when there are none.
 */
export function changesPanel(words, marks, info, ink, act, owner = "", state = panelState()) {
  const asked = new Set(Object.keys(marks || {}).map(key));
  const changed = (words || []).filter((w) => !asked.has(key(w)) && factsOf(info, w).was);
  const box = h("div", { class: "reread-changes", hidden: !changed.length, dataset: { owner } });
  if (!changed.length) return box;
  box.append(h("p", { class: "reread-h" }, tn("{n} word changed when read again with the board: check it",
                                              "{n} words changed when read again with the board: check them",
                                              changed.length)));
  const list = h("ul", { class: "plain-list" });
  for (const word of changed) {
    const facts = factsOf(info, word);
    const image = ink && ink.id ? ink.id(word) : null;
    const written = ink ? ink(word) : null;
    const row = [h("span", { class: "dword" }, h("s", {}, facts.was), " → ", h("strong", {}, word)),
                 written ? h("span", { class: "ink-box" }, written) : null];
    if (act) {
      const choose = (choice) => (e) => act(word, choice, e.currentTarget, image);
      const buttons = [h("button", { type: "button", class: "alt reading", dataset: { choice: word },
                                     "aria-label": t("Keep “{word}”", { word }), onclick: choose(word) }, `${word} ✓`),
                       h("button", { type: "button", class: "alt", dataset: { choice: facts.was },
                                     "aria-label": t("Replace with “{word}”", { word: facts.was }),
                                     onclick: choose(facts.was) }, facts.was)];
      if (facts.free && key(facts.free) !== key(word) && key(facts.free) !== key(facts.was)) {
        buttons.push(h("button", { type: "button", class: "alt other", dataset: { choice: facts.free },
                                   "aria-label": t("Replace with “{word}”", { word: facts.free }),
                                   onclick: choose(facts.free) },
                       h("span", { class: "w" }, facts.free), h("span", { class: "p" }, t("as written"))));
      }
      row.push(h("span", { class: "alts" }, buttons),
               typedField(word, image || `c:${word}`, state, (text, button) => act(word, text, button, image)));
    }
    list.append(h("li", { dataset: { word } }, row));
  }
  box.append(list);
  return box;
}

/**
 * The words of a list that came from a sheet (those with a handwriting image, in the
 * list's order; those of `shownElsewhere`, {word: ...} such as the doubtful ones, left
 * out: their panels show theirs), folded under one line; a tap on a word shows its handwriting beside it
 * and, when act(word, choice, button, image) is given (the player, or the host), a
 * field to type it over, ✓ to keep it as it is, ✕ to drop it; another tap hides it.
 * A word a person checked shows ✓. state (panelState): what the player unfolded and
 * typed, kept by the caller across redraws (the panel updates it). An empty element
 * (hidden) when no word came from a sheet.
 */
export function sheetWordsPanel(words, shownElsewhere, ink, owner = "", state = panelState(), info = {}, act = null) {
  const skip = new Set(Object.keys(shownElsewhere || {}).map(key));
  const from = (words || []).filter((w) => !skip.has(key(w)) && ink.has(w));
  const box = h("details", { class: "sheet-words", hidden: !from.length, open: state.open && from.length > 0,
                             dataset: { owner } });
  if (!from.length) return box;
  box.addEventListener("toggle", () => { state.open = box.open; });
  box.append(h("summary", {}, act ? tn("{n} word from the sheet: tap it to check or correct it",
                                       "{n} words from the sheet: tap one to check or correct it", from.length)
                                  : tn("{n} word from the sheet: tap it to see it as written",
                                       "{n} words from the sheet: tap one to see it as written", from.length)));
  const list = h("ul", { class: "plain-list sheet-word-list" });
  for (const word of from) {
    const by = factsOf(info, word).by;
    const image = ink.id ? ink.id(word) : null;
    const shown = h("span", { class: "ink-box", hidden: true });
    const button = h("button", { type: "button", class: "chip sheet-word", "aria-expanded": "false", dataset: { word },
                                 "aria-label": t("Show “{word}” as written", { word }) }, word,
                     by ? h("span", { class: "checked", title: by === "host" ? t("checked by the host")
                                                                              : t("checked by {name}", { name: by }) }, " ✓")
                        : null);
    const show = (on) => {
      if (on && !shown.firstChild) {
        shown.append(ink(word));
        if (act) {
          shown.append(typedField(word, image || `w:${word}`, state, (text, b) => act(word, text, b, image), word),
                       h("button", { type: "button", class: "alt drop", "aria-label": t("“{word}” is not a word: remove it", { word }),
                                     onclick: (e) => act(word, null, e.currentTarget, image) }, "✕"));
        }
      }
      shown.hidden = !on;
      button.setAttribute("aria-expanded", String(on));
      if (on) state.shown.add(key(word)); else state.shown.delete(key(word));
    };
    button.addEventListener("click", () => show(shown.hidden));
    if (state.shown.has(key(word)) || state.typing.has(image || `w:${word}`)) show(true);
    list.append(h("li", { dataset: { word } }, button, shown));
  }
  box.append(list);
  if (from.some((w) => state.shown.has(key(w)) || state.typing.has((ink.id && ink.id(w)) || `w:${w}`))) {
    box.open = true;
    state.open = true;
  }
  return box;
}

/**
 * One list's three panels from a room view's player `p` (words, doubtful, images,
 * sheet_words): {questions, changes, words}. acts: {answer, correct} (each (word,
 * choice, button, image) -> Promise) for whoever may act on the list, or null to only
 * show it; state: panelState(), kept by the caller.
 */
export function sheetPanels(code, p, token, state, acts = null) {
  const ink = inkOf(code, p.id, token, p.images);
  const info = p.sheet_words || {};
  const marks = p.doubtful || {};
  // each word in one panel: asked about (for whoever answers), changed by a re-read, or folded with the others
  const elsewhere = Object.fromEntries(Object.entries(info).filter(([w, f]) => f.was && !(w in marks)));
  if (acts) Object.assign(elsewhere, marks);
  return {
    questions: acts ? doubtfulPanel(marks, acts.answer, p.id, ink, info, state) : h("div", { hidden: true }),
    changes: changesPanel(p.words, marks, info, ink, acts ? acts.correct : null, p.id, state),
    words: sheetWordsPanel(p.words, elsewhere, ink, p.id, state, info, acts ? acts.correct : null),
  };
}
