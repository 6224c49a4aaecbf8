// The host's part of the room: the join link and its QR code, the settings, the
// round's buttons (start, lock, reopen, score, next), removing players, and the rows
// of the players without a phone that the host acts for (hosted.js).
import { $, h, say } from "./dom.js";
import { t, tn } from "./i18n.js";
import { formatSeconds } from "./timer.js";
import { placeItems } from "./hosted.js";

const BUTTONS = { waiting: ["start"], playing: ["lock"], locked: ["reopen", "score"], scored: ["next"] };

/** Show the buttons of the round's phase; labels say which round they act on. */
export function renderControls(view) {
  const r = view.round, show = BUTTONS[r.phase] || [];
  $("#host-controls").hidden = false;
  for (const id of ["start", "lock", "reopen", "score", "next"]) $(`#${id}`).hidden = !show.includes(id);
  // the game over (or played with no target): a new game with the same players
  const over = !!view.game_state.over;
  $("#new-game").hidden = !(r.phase === "scored" && (over || view.game_state.target === null));
  $("#next").hidden = $("#next").hidden || over;
  // a waiting round has no clock yet: the table shakes the tray, the host starts it
  const seconds = view.settings.seconds;
  $("#start").textContent = seconds === null ? t("Start round {n} (no timer)", { n: r.number })
                                             : t("Start the clock ({time})", { time: formatSeconds(seconds) });
  $("#next").textContent = t("Next round ({n})", { n: r.number + 1 });
  $("#score").textContent = t("Score round {n}", { n: r.number });
}

let qrFor = null;
const CONFIRM_MS = 4000;
let confirming = { id: null, until: 0 };  // the remove button waiting for its second tap

/** The join link, code and QR code (the image is fetched once per room). */
export function renderInvite(view, joinUrl) {
  $("#invite-section").hidden = false;
  const a = $("#join-link");
  a.href = joinUrl;
  a.textContent = joinUrl;
  $("#join-code").textContent = view.code;
  if (view.you.screen_key) $("#screen-link").href = `/?screen=${encodeURIComponent(view.code)}#${view.you.screen_key}`;
  if (qrFor !== view.code) {
    qrFor = view.code;
    $("#qr").src = `/api/rooms/${encodeURIComponent(view.code)}/qr.svg`;
  }
  const local = /^https?:\/\/(127\.|localhost|\[::1\])/.test(joinUrl);
  $("#invite-note").textContent = local
    ? t("This link works on this computer only. To let phones on the same Wi-Fi join, start the server with " +
        "boggle-cv serve --host 0.0.0.0 and open the page again.")
    : t("Phones must be on the same Wi-Fi as this computer.");
}

/** The settings form, filled from the room unless the host is editing it. */
export function renderSettings(view) {
  $("#settings-section").hidden = false;
  const form = $("#settings-form");
  if (form.contains(document.activeElement) || form.dataset.dirty === "1") return;
  const s = view.settings;
  $("#set-seconds").value = s.seconds === null ? "" : String(s.seconds);
  $("#set-untimed").checked = s.seconds === null;
  $("#set-seconds").disabled = s.seconds === null;
  $("#set-target").value = s.target === null ? "" : String(s.target);
  $("#set-untargeted").checked = s.target === null;
  $("#set-target").disabled = s.target === null;
  $("#set-min").value = s.min_length === null ? "" : String(s.min_length);
  $("#set-variant").value = s.variant || "";
  $("#set-long").value = s.long_words;
  $("#set-marks").value = s.marks;
  $("#set-lang").value = s.lang || "en";
}

/** The settings the form holds, as the API takes them (checked by the server). */
export function settingsFromForm() {
  const num = (v) => (v.trim() === "" ? NaN : Number(v));
  const untimed = $("#set-untimed").checked;
  const seconds = num($("#set-seconds").value);
  if (!untimed && !Number.isInteger(seconds)) throw new Error(t("Type the timer in whole seconds (e.g. 180), or tick “no timer”."));
  const untargeted = $("#set-untargeted").checked;
  const target = untargeted ? null : num($("#set-target").value);
  if (!untargeted && !Number.isInteger(target)) throw new Error(t("Type the target as a whole number of points (e.g. 50), or tick “no target”."));
  const min = $("#set-min").value;
  return { seconds: untimed ? null : seconds, target, min_length: min ? Number(min) : null,
           variant: $("#set-variant").value || null, long_words: $("#set-long").value, marks: $("#set-marks").value,
           lang: $("#set-lang").value };
}

/**
 * The players list: name, how many words (during the round) and, for the host, a
 * remove button that asks once more before removing.
 * mine: ids of players held on this phone (each may be renamed: onRename(player));
 * onRemove(player) -> Promise; onSheet(player): the host photographs that player's
 * sheet (players this phone does not hold, while the round is playing or locked).
 * A list with words read from a sheet and not yet confirmed says how many.
 * hosted (hosted.HostedRows): the players without a phone the host acts for, each a
 * row holding their words box (its <li> kept across redraws), renamed by the host.
 */
export function renderPlayers(view, mine, onRemove, onRename, onSheet, hosted = null) {
  const host = view.you.host, phase = view.round.phase;
  const items = view.players.map((p) => {
    const scored = phase === "scored" && view.round.report
      ? view.round.report.players.find((q) => q.name === p.name) : null;
    const count = scored ? tn("{n} point", "{n} points", scored.score)
      : p.word_count ? tn("{n} word", "{n} words", p.word_count)
      : phase === "playing" ? t("no words yet") : t("no words");
    const bits = [h("span", { class: "name" }, p.name)];
    const row = hosted && hosted.holds(p);
    if (mine.has(p.id) || row) {
      if (!row) bits.push(h("span", { class: "tag" }, t("this phone")));
      bits.push(h("button", { type: "button", class: "link rename", "aria-label": t("Rename {name}", { name: p.name }),
                              dataset: { player: p.id }, onclick: () => onRename(p) }, t("rename")));
    }
    if (phase !== "waiting") bits.push(h("span", { class: "count help" }, count));
    if (p.doubtful_count && (phase === "playing" || phase === "locked")) {
      bits.push(h("span", { class: "to-confirm" }, tn("{n} to confirm", "{n} to confirm", p.doubtful_count)));
    }
    if (host && onSheet && !mine.has(p.id) && !row && (phase === "playing" || phase === "locked")) {
      bits.push(h("button", { type: "button", class: "sheet", dataset: { player: p.id },
                              "aria-label": t("Photo of {name}'s sheet", { name: p.name }),
                              onclick: () => onSheet(p) }, t("📷 sheet")));
    }
    if (host) {
      const asking = confirming.id === p.id && Date.now() < confirming.until;
      const button = h("button", { type: "button", class: asking ? "remove confirm" : "remove",
                                   "aria-label": t("Remove {name}", { name: p.name }), dataset: { player: p.id } },
                       asking ? t("Remove {name}?", { name: p.name }) : "✕");
      button.addEventListener("click", () => {
        if (confirming.id !== p.id || Date.now() >= confirming.until) {
          confirming = { id: p.id, until: Date.now() + CONFIRM_MS };
          button.textContent = t("Remove {name}?", { name: p.name });
          button.classList.add("confirm");
          setTimeout(() => {
            if (button.isConnected && Date.now() >= confirming.until) { button.textContent = "✕"; button.classList.remove("confirm"); }
          }, CONFIRM_MS);
          return;
        }
        confirming = { id: null, until: 0 };
        onRemove(p, button);
      });
      bits.push(button);
    }
    return row ? hosted.row(p, bits) : h("li", { dataset: { player: p.id } }, bits);
  });
  placeItems($("#players"), items.length ? items : [h("li", { class: "help" }, t("Nobody has joined yet."))]);
}

export function clearMessages() {
  for (const id of ["round-msg", "settings-msg", "players-msg"]) say($(`#${id}`), "");
}
