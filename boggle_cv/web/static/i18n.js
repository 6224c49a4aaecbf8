// The page's language: every user-visible string goes through t() / tn(), whose
// English text is the msgid of a gettext catalogue, static/i18n/<lang>.po (what
// translators edit; tests/web/test_i18n.py fails when a msgid of the page is missing
// from a catalogue or untranslated). The catalogue is fetched and parsed here (no
// build step). Each phone chooses its own language: the switch in the header (kept
// in localStorage), else the browser's languages (navigator.languages), else English.
// Placeholders are named: t("Round {n}", { n: 3 }).

/** The page's languages, each named in itself (the switch shows these). */
export const LANGUAGES = {
  en: "English", fr: "Français", de: "Deutsch", es: "Español", it: "Italiano", nl: "Nederlands",
};
const KEY = "boggle-cv.lang";

// Plural-Forms formulas the catalogues use (the CSP forbids evaluating one): plural= -> index.
const PLURALS = {
  "n!=1": (n) => (n !== 1 ? 1 : 0),
  "n>1": (n) => (n > 1 ? 1 : 0),
};

let lang = "en";
let entries = new Map();              // msgid (or msgid + "\u0004" + msgid_plural) -> [msgstr, ...]
let pluralIndex = PLURALS["n!=1"];

/** Marks a msgid for extraction where it is translated later (t(CONSTANT[key])). */
export const N_ = (msgid) => msgid;

function unquote(s) {
  // a .po string: "…" with C escapes
  const body = s.trim().replace(/^"/, "").replace(/"$/, "");
  return body.replace(/\\(["\\ntr])/g, (_, c) => ({ n: "\n", t: "\t", r: "\r" }[c] || c));
}

/**
 * A .po file's text -> {headers: {name: value}, entries: Map(key -> [msgstr...])};
 * key: the msgid, or msgid + "\u0004" + msgid_plural for a plural entry. Comments and
 * obsolete entries are skipped; msgctxt is not used by the page.
 */
export function parsePo(text) {
  const out = new Map();
  let cur = null, field = null;
  const flush = () => {
    if (cur && cur.msgid !== undefined) {
      const key = cur.msgid_plural !== undefined ? `${cur.msgid}\u0004${cur.msgid_plural}` : cur.msgid;
      const strs = Object.keys(cur.msgstr).sort((a, b) => a - b).map((i) => cur.msgstr[i]);
      out.set(key, strs);
    }
    cur = null; field = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) { if (!line) flush(); continue; }
    let m;
    if ((m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$/.exec(line))) {
      const [, name, index, str] = m;
      if (name === "msgid" || name === "msgctxt") { if (cur && cur.msgid !== undefined) flush(); cur = cur || { msgstr: {} }; }
      if (!cur) cur = { msgstr: {} };
      if (name.startsWith("msgstr")) { field = ["msgstr", index === undefined ? "0" : index]; cur.msgstr[field[1]] = unquote(str); }
      else { field = [name]; cur[name] = unquote(str); }
    } else if (line.startsWith('"') && cur && field) {
      if (field[0] === "msgstr") cur.msgstr[field[1]] += unquote(line); else cur[field[0]] += unquote(line);
    }
  }
  flush();
  const headers = {};
  for (const h of (out.get("") || [""])[0].split("\n")) {
    const i = h.indexOf(":");
    if (i > 0) headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  out.delete("");
  return { headers, entries: out };
}

/** The plural index function of a Plural-Forms header ("nplurals=2; plural=(n > 1);"). */
export function pluralFunction(header) {
  const m = /plural\s*=\s*([^;]+)/.exec(header || "");
  const formula = m ? m[1].replace(/\s+/g, "").replace(/^\((.*)\)$/, "$1") : "n!=1";
  return PLURALS[formula] || PLURALS["n!=1"];
}

/** The language to show: the one chosen on this phone, else the browser's first we have, else English. */
export function chooseLanguage(stored, browser) {
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of browser || []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (primary in LANGUAGES) return primary;
  }
  return "en";
}

function stored() {
  try { return localStorage.getItem(KEY); } catch (e) { return null; }
}

/** This phone's choice (the switch): kept in localStorage. */
export function rememberLanguage(code) {
  try { localStorage.setItem(KEY, code); } catch (e) { /* private mode: this page only */ }
}

export function currentLanguage() {
  return lang;
}

/** Load the catalogue of this phone's language (English text stays as it is when it cannot be had). */
export async function loadLanguage(code = chooseLanguage(stored(), navigator.languages || [navigator.language])) {
  lang = code;
  document.documentElement.lang = code;
  try {
    const res = await fetch(`/static/i18n/${code}.po`, { cache: "no-cache" });
    if (!res.ok) throw new Error(String(res.status));
    const po = parsePo(await res.text());
    entries = po.entries;
    pluralIndex = pluralFunction(po.headers["Plural-Forms"]);
  } catch (e) {
    entries = new Map();
    pluralIndex = PLURALS["n!=1"];
  }
}

function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** The translation of `msgid` (its English text), placeholders {name} filled from vars. */
export function t(msgid, vars) {
  const strs = entries.get(msgid);
  return fill(strs && strs[0] ? strs[0] : msgid, vars);
}

/** The plural form for n: tn("{n} word", "{n} words", n) -> "1 word" / "3 words" (vars.n is n). */
export function tn(one, many, n, vars) {
  const strs = entries.get(`${one}\u0004${many}`);
  const i = pluralIndex(n);
  const text = strs && strs[i] ? strs[i] : (n === 1 ? one : many);
  return fill(text, { n, ...(vars || {}) });
}

/**
 * Translate the page's fixed text: an element with data-i18n gets its text (the
 * msgid: its English text, spaces collapsed) translated; data-i18n-attr="placeholder
 * aria-label" translates those attributes' values.
 */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const msgid = el.dataset.i18n || el.textContent.replace(/\s+/g, " ").trim();
    el.dataset.i18n = msgid;
    el.textContent = t(msgid);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const attr of el.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const key = `i18n${attr.replace(/(^|-)(\w)/g, (_, d, c) => c.toUpperCase())}`;
      const msgid = el.dataset[key] || el.getAttribute(attr) || "";
      el.dataset[key] = msgid;
      el.setAttribute(attr, t(msgid));
    }
  }
}
