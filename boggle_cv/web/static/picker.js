// The cell picker: tap a board cell, choose its face. The reading and its
// runner-up come first; choosing the face already shown confirms a doubtful cell.
import { $, h, cellName, faceName } from "./dom.js";
import { t } from "./i18n.js";

export const FACES = [..."ABCDEFGHIJKLMNOPRSTUVWXYZ", "Qu", "An", "Er", "He", "In", "Th", "#"];

/**
 * Open the picker for cell (r, c).
 * info: {face (now), read: {face, confidence, runner_up, runner_up_confidence} | null,
 *        doubtful: bool, fixedBy: name | null}
 * choose(face): called with the chosen face (the dialog is closed first).
 * marks: {bonus: bool, challenge: bool, onBonus(), onChallenge()} for the red marks
 * (toggles; the dialog is closed first), or null.
 */
export function openPicker(r, c, info, choose, onClose, marks = null) {
  const dialog = $("#picker");
  $("#picker-h").textContent = cellName(r, c);
  const pct = (p) => `${Math.round(p * 100)}%`;
  const parts = [t("Now {face}", { face: faceName(info.face) })];
  if (info.read) {
    parts.push(t("read as {face} ({p}), runner-up {second} ({q})", {
      face: faceName(info.read.face), p: pct(info.read.confidence),
      second: faceName(info.read.runner_up), q: pct(info.read.runner_up_confidence) }));
  }
  if (info.fixedBy) parts.push(t("✎ corrected by {name}", { name: info.fixedBy }));
  if (info.doubtful) parts.push(t("doubtful: choose the right face, even if it is the one shown"));
  $("#picker-info").textContent = parts.join("; ") + ".";
  const first = [info.face];
  if (info.read) first.push(info.read.face, info.read.runner_up);
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
