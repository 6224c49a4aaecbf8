// The cell picker: tap a board cell, choose its face. The faces the referee would
// weigh come first (the reading, and its runner-up only where the referee counts it:
// a runner-up at 0.1% is no choice); choosing the face already shown confirms a
// doubtful cell (✓).
import { $, h, cellName, faceName } from "./dom.js";
import { t } from "./i18n.js";
import { byText } from "./cellstate.js";

export const FACES = [..."ABCDEFGHIJKLMNOPRSTUVWXYZ", "Qu", "An", "Er", "He", "In", "Th", "#"];

/** A probability as the picker says it: "94%", "<1%" (never "0%" for a face still possible). */
export function percent(p) {
  const n = Math.round(p * 100);
  return n < 1 && p > 0 ? "<1%" : `${n}%`;
}

/**
 * Open the picker for cell (r, c).
 * info: {face (now), read: {face, confidence, runner_up, runner_up_confidence} | null,
 *        options: [[face, p], ...] | null (the faces the referee weighs: an open
 *        question's, else the view's read.options for the cell), doubtful: bool (a
 *        question is open about it), fixedBy: who | null (corrected), confirmedBy:
 *        who | null (confirmed as read); who: a player's name, or "host"}
 * choose(face): called with the chosen face (the dialog is closed first).
 * marks: {bonus: bool, challenge: bool, onBonus(), onChallenge()} for the red marks
 * (toggles; the dialog is closed first), or null.
 */
export function openPicker(r, c, info, choose, onClose, marks = null) {
  const dialog = $("#picker");
  $("#picker-h").textContent = cellName(r, c);
  const parts = [t("Now {face}", { face: faceName(info.face) })];
  const options = info.options || (info.read ? [[info.read.face, info.read.confidence]] : []);
  if (options.length > 1) {
    parts.push(t("read as {face} ({p}), runner-up {second} ({q})", {
      face: faceName(options[0][0]), p: percent(options[0][1]),
      second: faceName(options[1][0]), q: percent(options[1][1]) }));
  } else if (options.length === 1 && info.read) {
    parts.push(t("read as {face} ({p})", { face: faceName(options[0][0]), p: percent(info.read.confidence) }));
  }
  if (info.fixedBy) parts.push(byText("corrected", info.fixedBy));
  if (info.confirmedBy) parts.push(byText("confirmed", info.confirmedBy));
  if (info.doubtful) parts.push(t("doubtful: choose the right face, even if it is the one shown"));
  $("#picker-info").textContent = parts.join("; ") + ".";
  const first = [info.face, ...options.map(([f]) => f)];
  const button = (face, suggest) => h("button", {
    type: "button", class: suggest ? "suggest" : "", dataset: { face },
    "aria-label": faceName(face), onclick: () => { dialog.close(); choose(face); },
  }, faceName(face));
  $("#picker-suggest").replaceChildren(...[...new Set(first)].filter(Boolean).map((f) => button(f, true)));
  $("#picker-faces").replaceChildren(...FACES.map((f) => button(f, false)));
  $("#picker-marks").hidden = !marks;
  if (marks) {
    const toggle = (id, on, label, act) => {
      const b = $(id);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.setAttribute("aria-label", on ? t("{mark}: on (tap to remove)", { mark: label }) : label);
      b.onclick = () => { dialog.close(); act(); };
    };
    toggle("#picker-bonus", marks.bonus, t("Bonus cell (red ring: words through it score double)"), marks.onBonus);
    toggle("#picker-challenge", marks.challenge, t("The red challenge cube (+5 a word through it)"), marks.onChallenge);
  }
  dialog.onclose = onClose;
  dialog.showModal();
}
