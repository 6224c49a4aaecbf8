// Talking to the server: JSON requests with this phone's token, errors as one
// readable line in this phone's language, and the tokens this phone holds, kept in
// localStorage per room. A refusal that says "not now" (429: too many connections
// from this network, or a limit with a short Retry-After; 503: the server or its
// database busy) is asked again by itself, waiting longer each time, while a notice
// under the header says so in the phone's language; it is never a blank page.
import { serverErrorText } from "./errors.js";
import { t, tn } from "./i18n.js";

/** An answer that is not 2xx: status (0: no connection), message "error (hint)" in this phone's language. */
export class ApiError extends Error {
  /** doc: the error's JSON body ({error, hint, kind, code, params} and any extra keys such as `current`). */
  constructor(status, message, kind = "", doc = null) {
    super(message);
    this.status = status;
    this.kind = kind;
    this.doc = doc;
  }
}

/** The waits between tries of a refused request (ms): longer each time, then every 30 s. */
export const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000, 30000];
/** A change (POST, PUT, DELETE) is tried this many times before its refusal is shown; a read, for ever. */
export const CHANGE_TRIES = 6;
/** The longest Retry-After waited for by itself (s): a longer one (a room limit per hour) is said, not waited. */
const MAX_WAIT_S = 30;
/** The codes of refusals that mean "not now" (a code-less 429 or 503 too: the connection refused). */
const NOT_NOW = new Set(["server.busy", "storage.busy", "request.rate_limited"]);

/** How long to wait before trying a refused request again (ms), or null: not a refusal to try again. */
export function retryWait(err, attempt) {
  if (err.status !== 429 && err.status !== 503) return null;
  const code = err.doc && err.doc.code;
  if (code && !NOT_NOW.has(code)) return null;  // the reader missing, a guess guard: trying again changes nothing
  const after = Number(err.retryAfter);
  if (Number.isFinite(after) && after > MAX_WAIT_S) return null;
  const backoff = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  return Number.isFinite(after) && after > 0 ? Math.max(after * 1000, backoff) : backoff;
}

let waiting = 0;  // requests waiting to be tried again (the notice shows while any does)

function notice(err, ms) {
  const el = document.getElementById("notice");
  if (!el) return;
  if (err === null) {
    if (waiting === 0) { el.hidden = true; el.textContent = ""; }
    return;
  }
  el.hidden = false;
  el.textContent = t("{why}: trying again in {seconds}…", { why: err.message.replace(/\.$/, ""),
                                                          seconds: tn("{n} second", "{n} seconds", Math.round(ms / 1000)) });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * request(method, url, {token, json, body, type, keepalive}) -> the JSON answer.
 * json: an object sent as JSON; body + type: a raw body (a photo). A change (POST,
 * PUT, DELETE) always has a body and its Content-Type: `{}` when it needs nothing, so
 * that the server can refuse the "simple" requests another site's page could send.
 * A refusal that means "not now" is tried again (retryWait), a read until it gets
 * through, a change CHANGE_TRIES times; a keepalive request (the page closing) once.
 */
export async function request(method, url, opts = {}) {
  const tries = opts.keepalive ? 1 : method === "GET" ? Infinity : CHANGE_TRIES;
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await requestOnce(method, url, opts);
      if (attempt) { waiting -= 1; notice(null); }
      return doc;
    } catch (err) {
      const wait = attempt + 1 < tries ? retryWait(err, attempt) : null;
      if (wait === null) {
        if (attempt) { waiting -= 1; notice(null); }
        throw err;
      }
      if (!attempt) waiting += 1;
      notice(err, wait);
      await sleep(wait);
    }
  }
}

async function requestOnce(method, url, opts) {
  const headers = {};
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body = opts.body;
  if (opts.json === undefined && body === undefined && method !== "GET" && method !== "HEAD") opts = { ...opts, json: {} };
  if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (body !== undefined) {
    headers["Content-Type"] = opts.type || "application/octet-stream";
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body, keepalive: !!opts.keepalive, cache: "no-store" });
  } catch (e) {
    throw new ApiError(0, t("the server cannot be reached (no connection?); try again in a moment"), "offline");
  }
  let doc = null;
  try { doc = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) {
    const msg = serverErrorText(doc, res.status);  // in this phone's language (errors.js), else the server's English
    const err = new ApiError(res.status, msg.charAt(0).toUpperCase() + msg.slice(1), doc && doc.kind, doc);
    err.retryAfter = res.headers.get("Retry-After");
    throw err;
  }
  return doc;
}

/** A photo fetched with the token, as a blob: URL (an <image> cannot send the token). */
export async function fetchImage(url, token) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new ApiError(res.status, t("the photo cannot be loaded"));
  return URL.createObjectURL(await res.blob());
}

const KEY = "boggle-cv.rooms";

function readAll() {
  try {
    const doc = JSON.parse(localStorage.getItem(KEY) || "{}");
    return doc && typeof doc === "object" ? doc : {};
  } catch (e) {
    return {};
  }
}

function writeAll(doc) {
  try { localStorage.setItem(KEY, JSON.stringify(doc)); } catch (e) { /* private mode: this tab only */ }
}

/**
 * What this phone holds for room `code`: {host: token | null, players: {id: token},
 * table: bool (one phone for the whole table), at: last use (ms)}.
 */
export function passes(code) {
  const p = readAll()[code] || {};
  return { host: p.host || null, players: { ...(p.players || {}) }, table: !!p.table, at: p.at || 0 };
}

export function savePasses(code, p) {
  const all = readAll();
  all[code] = { ...p, at: Date.now() };
  writeAll(all);
}

export function forgetPlayer(code, id) {
  const p = passes(code);
  delete p.players[id];
  savePasses(code, p);
}

export function forgetRoom(code) {
  const all = readAll();
  delete all[code];
  writeAll(all);
}

/** Rooms this phone knows, most recent first: [{code, host, players}]. */
export function knownRooms() {
  return Object.entries(readAll())
    .map(([code, p]) => ({ code, host: !!p.host, players: Object.keys(p.players || {}).length, at: p.at || 0 }))
    .sort((a, b) => b.at - a.at);
}

/** A word list not yet saved, kept so that a reload without network loses nothing. */
export function draft(code, id) {
  try { return JSON.parse(localStorage.getItem(`boggle-cv.draft.${code}.${id}`) || "null"); } catch (e) { return null; }
}

export function saveDraft(code, id, doc) {
  try {
    const key = `boggle-cv.draft.${code}.${id}`;
    if (doc) localStorage.setItem(key, JSON.stringify(doc)); else localStorage.removeItem(key);
  } catch (e) { /* private mode */ }
}
