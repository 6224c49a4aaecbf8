// Messages that stay only while they are true. A message said after an action ("Row 1,
// column 1 is now F.", "Board read: check the 4 doubtful cells") is kept with what makes
// it true: at every view of the room (room.js calls recheck), each kept message is
// asked again: still true (kept), no longer true (gone), or true in other words (a new
// text, e.g. fewer cells left to check). A message is never appended to: it is what the
// room's state says now. Without a rule of its own, a message is true while the round
// stays at the step it was said at (or in the same round: data-lasts="round").

/** el -> {text shown, still(view) -> true | false | a new text} */
const kept = new Map();
let latest = null;  // the last view rechecked: what a new message is judged against

/** The step a view is at ("3:locked"): a message said at one step is old news at the next. */
export function stepOf(view) {
  return view ? `${view.round.number}:${view.round.phase}` : "";
}

/**
 * How long a message lasts without a rule of its own: while the round stays at its
 * step, or, for an element marked data-lasts="round" (a sheet's message: the lock does
 * not make it untrue), while the round is the same.
 */
function lasting(el) {
  const of = el.dataset.lasts === "round" ? (view) => (view ? String(view.round.number) : "") : stepOf;
  const at = of(latest);
  return (view) => of(view) === at;
}

/**
 * Show `text` in the message element `el` (placed next to its action), styled by
 * kind ("" ok, "error", "busy"); an empty text hides it. The message is kept while
 * `still(view)` holds (without it: while the round stays at its step). A message the
 * phone would not see (off its screen) is scrolled into view, unless `quiet` (a
 * message kept up to date, not the answer to a tap).
 */
export function say(el, text, kind = "", { quiet = false, still = null } = {}) {
  if (!el) return;
  el.textContent = text || "";
  el.className = `msg ${kind}`.trim();
  el.hidden = !text;
  if (!text) { kept.delete(el); return; }
  if (quiet) return;
  kept.set(el, { text: el.textContent, still: still || lasting(el) });
  const r = el.getBoundingClientRect();
  if (r.bottom > window.innerHeight || r.top < 0 || r.left < 0 || r.right > window.innerWidth) {
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

/**
 * Say `text` in `el` and keep it while `still(view)` holds (see say). The text is
 * judged at once against the room as the page knows it now (known): an action whose
 * answer a newer view has overtaken (another phone's change drawn meanwhile) says what
 * is true now, or nothing (a busy text of its own is cleared).
 */
export function claim(el, text, kind = "", still = null) {
  if (still && latest) {
    let now;
    try { now = still(latest); } catch (e) { now = false; }
    if (now !== true && !(typeof now === "string" && now)) {
      if (el && el.classList.contains("busy")) say(el, "", "", { quiet: true });
      return;
    }
    if (typeof now === "string") text = now;
  }
  say(el, text, kind, { still });
}

/** The room as the page knows it now (room.js, as soon as it takes a newer view). */
export function known(view) {
  latest = view;
}

/** Every kept message asked again against `view` (the room as it is now). */
export function recheck(view) {
  latest = view;
  for (const [el, entry] of [...kept]) {
    if (!el.isConnected || el.hidden || el.textContent !== entry.text) { kept.delete(el); continue; }  // said over
    let now;
    try { now = entry.still(view); } catch (e) { now = false; }
    if (now === true) continue;
    if (typeof now === "string" && now) {
      say(el, now, el.classList.contains("error") ? "error" : "", { quiet: true });
      entry.text = el.textContent;
      continue;
    }
    say(el, "", "", { quiet: true });
    kept.delete(el);
  }
}

/** Forget every kept message (the room is left). */
export function forgetAll() {
  kept.clear();
  latest = null;
}
