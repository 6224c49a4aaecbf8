// The cell picker: tap a board cell, choose its face. The reading and its
// runner-up come first; choosing the face already shown confirms a doubtful cell.
import { $, h, cellName, faceName } from "./dom.js";

export const FACES = [..."ABCDEFGHIJKLMNOPRSTUVWXYZ", "Qu", "An", "Er", "He", "In", "Th", "#"];

/**
 * Open the picker for cell (r, c).
 * info: {face (now), read: {face, confidence, runner_up, runner_up_confidence} | null,
 *        doubtful: bool, fixedBy: name | null}
 * choose(face): called with the chosen face (the dialog is closed first).
 */
export function openPicker(r, c, info, choose, onClose) {
  const dialog = $("#picker");
  $("#picker-h").textContent = cellName(r, c);
  const pct = (p) => `${Math.round(p * 100)}%`;
  const parts = [`Now ${faceName(info.face)}`];
  if (info.read) {
    parts.push(`read as ${faceName(info.read.face)} (${pct(info.read.confidence)}), runner-up ` +
               `${faceName(info.read.runner_up)} (${pct(info.read.runner_up_confidence)})`);
  }
  if (info.fixedBy) parts.push(`✎ corrected by ${info.fixedBy}`);
  if (info.doubtful) parts.push("doubtful: choose the right face, even if it is the one shown");
  $("#picker-info").textContent = parts.join("; ") + ".";
  const first = [info.face];
  if (info.read) first.push(info.read.face, info.read.runner_up);
  const button = (face, suggest) => h("button", {
    type: "button", class: suggest ? "suggest" : "", dataset: { face },
    "aria-label": faceName(face), onclick: () => { dialog.close(); choose(face); },
  }, faceName(face));
  $("#picker-suggest").replaceChildren(...[...new Set(first)].filter(Boolean).map((f) => button(f, true)));
  $("#picker-faces").replaceChildren(...FACES.map((f) => button(f, false)));
  dialog.onclose = onClose;
  dialog.showModal();
}
