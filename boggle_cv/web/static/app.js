// The page: a landing view (start a room, join one by code, one phone for the
// whole table), the join form (/?room=CODE) and the room itself (room.js).
// No framework, no build step: small ES modules served as they are.
import { request, passes, savePasses, knownRooms } from "./api.js";
import { $, h, say, guarded } from "./dom.js";
import { t, tn, loadLanguage, translatePage, currentLanguage, rememberLanguage } from "./i18n.js";
import { Practice } from "./practice.js";
import { Room } from "./room.js";
import { TableScreen } from "./screen.js";
import { unlockSound } from "./timer.js";

function codeFromUrl() {
  const code = new URLSearchParams(location.search).get("room") || "";
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function show(which) {
  for (const id of ["landing", "join", "room", "practice", "screen"]) $(`#${id}`).hidden = id !== which;
  document.body.classList.toggle("screen-mode", which === "screen");
}

function goToRoom(code) {
  history.replaceState(null, "", `/?room=${encodeURIComponent(code)}`);
  route();
}

async function createRoom(button, msg, table) {
  await guarded(button, msg, t("Starting a room…"), async () => {
    const doc = await request("POST", "/api/rooms", { json: {} });
    savePasses(doc.code, { host: doc.host_token, players: {}, table });
    goToRoom(doc.code);
  });
}

function landing(message = "") {
  show("landing");
  $("#room-badge").hidden = true;
  $("#conn").hidden = true;
  const rooms = knownRooms();
  $("#known").hidden = !rooms.length;
  $("#known-list").replaceChildren(...rooms.slice(0, 5).map((r) => h("li", {},
    h("a", { href: `/?room=${r.code}`, class: "button" }, t("Room {code}", { code: r.code })),
    h("span", { class: "help" }, " " + (r.host ? t("you are the host")
                                              : tn("{n} player on this phone", "{n} players on this phone", r.players))))));
  say($("#code-msg"), message, message ? "error" : "");
}

function joinForm(code, message = "") {
  show("join");
  $("#join-h").textContent = t("Join room {code}", { code });
  $("#room-badge").hidden = true;
  say($("#join-msg"), message, message ? "error" : "");
  $("#join-name").focus();
}

async function join(code) {
  const name = $("#join-name").value;
  const msg = $("#join-msg");
  if (!name.trim()) { say(msg, t("Type your name first: the others see it in the report."), "error"); return; }
  await guarded($("#join-form button"), msg, t("Joining…"), async () => {
    const doc = await request("POST", `/api/rooms/${code}/players`, { json: { name } });
    const p = passes(code);
    p.players[doc.player_id] = doc.token;
    savePasses(code, p);
    route();
  });
}

let current = null;

function route() {
  if (current) { current.close(); current = null; }
  if (new URLSearchParams(location.search).has("practice")) {  // practice alone (practice.js)
    show("practice");
    current = new Practice();
    current.start();
    return;
  }
  const screen = new URLSearchParams(location.search).get("screen");
  if (screen) {  // the table screen (/?screen=CODE#PASS): reads the room with the host's screen pass
    show("screen");
    current = new TableScreen(screen.toUpperCase().replace(/[^A-Z0-9]/g, ""), location.hash.slice(1),
      (message) => { current = null; history.replaceState(null, "", "/"); landing(message); });
    current.start();
    return;
  }
  const code = codeFromUrl();
  if (!code) { landing(); return; }
  const p = passes(code);
  if (!p.host && !Object.keys(p.players).length) { joinForm(code); return; }
  show("room");
  current = new Room(code, {
    leave: (message) => { current = null; if (passes(code).host || Object.keys(passes(code).players).length) route(); else joinForm(code, message); },
    lost: (message) => { current = null; history.replaceState(null, "", "/"); landing(message); },
  });
  current.start();
}

/** The language switch: this phone's choice, kept; the page is drawn again in it. */
function languageSwitch() {
  const select = $("#ui-lang");
  select.value = currentLanguage();
  select.addEventListener("change", () => {
    rememberLanguage(select.value);
    location.reload();  // every string drawn again (the room's passes stay in localStorage)
  });
}

async function init() {
  await loadLanguage();
  translatePage();
  languageSwitch();
  $("#create").addEventListener("click", (e) => createRoom(e.currentTarget, $("#create-msg"), false));
  $("#table").addEventListener("click", (e) => createRoom(e.currentTarget, $("#table-msg"), true));
  $("#code-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("#code-input").value.toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (!code) { say($("#code-msg"), t("Type the room code the host sees (7 letters and digits)."), "error"); return; }
    goToRoom(code);
  });
  $("#join-form").addEventListener("submit", (e) => { e.preventDefault(); join(codeFromUrl()); });
  // browsers allow sound only after a tap: unlock it for the end of the round
  for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, unlockSound, { passive: true });
  window.addEventListener("popstate", route);
  route();
  document.body.dataset.ready = "1";
  document.dispatchEvent(new Event("boggle-cv:ready"));  // boot.js: the page loaded
}

init();
