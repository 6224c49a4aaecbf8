// Small DOM helpers shared by the page's modules: element building, messages shown
// next to the action they are about, lists of names (in the page's language: i18n.js).

import { t } from "./i18n.js";
import { say, claim } from "./status.js";

export { say };

export const $ = (sel, root = document) => root.querySelector(sel);

/** h("button", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child, ...) -> Element */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k in e && typeof v !== "string") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}


/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** The message text of an API error: "what is wrong (what to do)". */
export function errorText(err) {
  return err && err.message ? err.message : String(err);
}

/**
 * Run `action` while `button` is disabled (a double tap cannot send it twice); the
 * message element gets `busy` meanwhile, then the action's success text or the error.
 * The action may answer {text, still(view)}: the text stays only while still(view)
 * holds (status.js; a plain text stays while the round is at the same step).
 */
export async function guarded(button, msgEl, busy, action) {
  if (button && button.disabled) return undefined;
  if (button) button.disabled = true;
  if (busy) say(msgEl, busy, "busy");
  try {
    const done = await action();
    if (done && typeof done === "object") claim(msgEl, done.text || "", "", done.still);
    else claim(msgEl, typeof done === "string" ? done : "");
    return done;
  } catch (err) {
    claim(msgEl, errorText(err), "error", err.still || null);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

export function faceName(face) {
  return face === "#" ? t("blank") : face;
}

/** Cell (r, c) from 0 -> "Row 1, column 2". */
export function cellName(r, c) {
  return t("Row {row}, column {col}", { row: r + 1, col: c + 1 });
}
