// The page's logic: photo -> /api/scan, corrections, players' words -> /api/score,
// rounds and standings -> /api/rounds, /api/games. No framework, no build step.
import { renderBoard, plainGeometry, PATH_COLOURS } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const FACES = [..."ABCDEFGHIJKLMNOPRSTUVWXYZ", "Qu", "An", "Er", "He", "In", "Th", "#"];
const MAX_UPLOAD = 25 * 1024 * 1024;
const STORE_KEY = "boggle-cv.players";
const MISSED_SHOWN = 40;

const state = {
  board: null,     // {faces, read, geometry, photo, scanId}
  sheet: null,     // the last ScoreSheet from the server
  paths: [],       // word paths drawn on the board
  selectedWord: null,
  whole: false,
  picking: null,   // [r, c] while the picker is open
  showAllMissed: false,
};

// ---- messages and requests ---------------------------------------------------
function say(text, kind = "") {
  const m = $("#message");
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

async function call(url, options = {}) {
  let res;
  try {
    res = await fetch(url, options);
  } catch (e) {
    throw new Error("the server cannot be reached; is boggle-cv serve still running?");
  }
  let doc = null;
  try { doc = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) {
    const msg = doc && doc.error ? doc.error + (doc.hint ? ` (${doc.hint})` : "") : `error ${res.status}`;
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return doc;
}

const postJSON = (url, body) => call(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify(body) });

// ---- the board -----------------------------------------------------------------
function boardText(faces) {
  return faces.map((row) => row.map((f) => (f === "Qu" ? "Q" : f.length === 2 ? `[${f}]` : f)).join("")).join("/");
}

function drawBoard() {
  const b = state.board;
  if (!b) return;
  $("#board-view").hidden = false;
  renderBoard($("#board"), b, { whole: state.whole, paths: state.paths, selected: state.picking,
                               onCell: openPicker });
  $("#zoom").hidden = !b.photo;
  $("#zoom").textContent = state.whole ? "Board only" : "Whole photo";
  const n = b.faces.length;
  let summary = `${n}×${n}`;
  if (b.read) {
    const doubtful = b.read.flat().filter((c) => c.flagged && b.faces[c.row][c.col] === c.face).length;
    const fixed = b.read.flat().filter((c) => b.faces[c.row][c.col] !== c.face).length;
    summary += ` · read with mean confidence ${Math.round(b.meanConfidence * 100)}%` +
               (doubtful ? ` · ${doubtful} uncertain` : "") + (fixed ? ` · ${fixed} corrected` : "");
    if (b.sets) summary += b.sets.length ? ` · fits ${b.sets.join(", ")}` : " · fits no known cube set";
  } else {
    summary += " · typed";
  }
  $("#board-summary").textContent = summary;
  $("#board-text").textContent = boardText(b.faces);
}

async function uploadPhoto(file) {
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    say(`That photo is ${(file.size / 1048576).toFixed(1)} MB; the server takes at most 25 MB.`, "error");
    return;
  }
  say("Reading the board…", "busy");
  $("#photo").disabled = true;
  try {
    const size = $("#size").value;
    const doc = await call(`/api/scan?size=${encodeURIComponent(size)}`, {
      method: "POST", headers: { "Content-Type": file.type || "application/octet-stream" }, body: file });
    const n = doc.board.size;
    const read = [];
    for (let r = 0; r < n; r++) read.push(doc.board.cells.slice(r * n, r * n + n));
    state.board = {
      faces: doc.board.faces.map((row) => row.slice()), read, geometry: doc.geometry,
      photo: { url: doc.photo_url, width: doc.image.width, height: doc.image.height },
      scanId: doc.scan_id, meanConfidence: doc.board.mean_confidence, sets: doc.sets,
    };
    state.whole = false;
    const doubtful = doc.board.flagged.length;
    say(doubtful ? `Board read. Check the ${doubtful} uncertain cell${doubtful > 1 ? "s" : ""} (marked ?): tap to correct.`
                 : "Board read. Tap any cell that is wrong.");
    drawBoard();
    await scoreRound(false);
  } catch (e) {
    say(`The photo could not be read: ${e.message}`, "error");
  } finally {
    $("#photo").disabled = false;
    $("#photo").value = "";
  }
}

async function useTypedBoard(text) {
  // Let the server parse it (one parser for every client): score with no players.
  try {
    const sheet = await postJSON("/api/score", { board: text, players: [] });
    const n = sheet.board.size;
    state.board = { faces: sheet.board.faces, read: null, geometry: plainGeometry(n), photo: null, scanId: null };
    say("");
    drawBoard();
    await scoreRound(false);
  } catch (e) {
    say(`That board cannot be used: ${e.message}`, "error");
  }
}

// ---- correcting a cell -----------------------------------------------------------
function openPicker(r, c) {
  const b = state.board;
  state.picking = [r, c];
  drawBoard();
  const read = b.read ? b.read[r][c] : null;
  $("#picker-h").textContent = `Row ${r + 1}, column ${c + 1}`;
  $("#picker-info").textContent = read
    ? `Read as ${read.face} (${Math.round(read.confidence * 100)}%), runner-up ${read.runner_up} (${Math.round(read.runner_up_confidence * 100)}%). Now: ${b.faces[r][c]}.`
    : `Now: ${b.faces[r][c]}.`;
  const suggest = $("#picker-suggest");
  suggest.replaceChildren();
  if (read) {
    for (const f of [...new Set([read.face, read.runner_up])]) suggest.appendChild(faceButton(f, true));
  }
  const all = $("#picker-faces");
  all.replaceChildren(...FACES.map((f) => faceButton(f, false)));
  $("#picker").showModal();
}

function faceButton(face, suggest) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = face === "#" ? "blank" : face;
  b.dataset.face = face;
  if (suggest) b.classList.add("suggest");
  b.addEventListener("click", () => setFace(face));
  return b;
}

async function setFace(face) {
  const [r, c] = state.picking;
  $("#picker").close();
  state.board.faces[r][c] = face;
  state.picking = null;
  say(`Row ${r + 1}, column ${c + 1} is now ${face === "#" ? "a blank" : face}.`);
  state.paths = [];
  drawBoard();
  await scoreRound(false);
}

// ---- players -----------------------------------------------------------------------
function addPlayer(name = "", words = "") {
  const node = $("#player-template").content.firstElementChild.cloneNode(true);
  const count = document.querySelectorAll(".player").length;
  node.querySelector(".player-name").value = name || `Player ${count + 1}`;
  node.querySelector(".player-words").value = words;
  node.querySelector(".remove").addEventListener("click", () => { node.remove(); savePlayers(); });
  node.addEventListener("input", savePlayers);
  $("#players").appendChild(node);
  return node;
}

function players() {
  return [...document.querySelectorAll(".player")].map((p) => ({
    name: p.querySelector(".player-name").value.trim(), words: p.querySelector(".player-words").value,
  }));
}

function savePlayers() {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(players())); } catch (e) { /* private mode */ }
}

function loadPlayers() {
  let saved = [];
  try { saved = JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { saved = []; }
  if (!Array.isArray(saved) || !saved.length) saved = [{ name: "Player 1", words: "" }, { name: "Player 2", words: "" }];
  for (const p of saved) addPlayer(p.name, p.words);
}

function rules() {
  const v = $("#min-length").value;
  return v ? { min_length: Number(v) } : {};
}

// ---- scoring -------------------------------------------------------------------------
async function scoreRound(withPlayers = true) {
  if (!state.board) {
    say("First take a photo of the board (or type it).", "error");
    return;
  }
  const list = players().filter((p) => withPlayers || p.words.trim());
  try {
    state.sheet = await postJSON("/api/score", { board: state.board.faces, players: list, rules: rules() });
    state.selectedWord = null;
    state.paths = state.sheet.missed.slice(0, 3).map((w) => w.path);
    renderSheet();
    drawBoard();
    if (withPlayers) $("#result-section").scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (e) {
    say(`Cannot score: ${e.message}`, "error");
  }
}

const STATUS_TEXT = { scored: "", crossed_off: "crossed off", not_on_board: "not on the board",
                      not_in_dictionary: "not in the dictionary", too_short: "too short", repeated: "repeated",
                      not_a_word: "not a word" };

function wordItem(w, extra = "") {
  const li = document.createElement("li");
  li.className = `${w.status || "missed"} ${w.common ? "common" : ""}`.trim();
  li.dataset.word = w.word;
  li.append(w.word);
  if (w.points) {
    const s = document.createElement("span"); s.className = "pts"; s.textContent = `+${w.points}`; li.append(s);
  }
  const why = extra || STATUS_TEXT[w.status] || "";
  if (why) { const s = document.createElement("span"); s.className = "why"; s.textContent = `(${why})`; li.append(s); }
  if (w.path) {
    li.addEventListener("click", () => {
      const same = state.selectedWord === li;
      document.querySelectorAll(".words li.on").forEach((x) => x.classList.remove("on"));
      state.selectedWord = same ? null : li;
      if (!same) li.classList.add("on");
      state.paths = same ? state.sheet.missed.slice(0, 3).map((m) => m.path) : [w.path];
      drawBoard();
    });
  }
  return li;
}

function renderSheet() {
  const s = state.sheet;
  $("#result-section").hidden = false;
  const tbody = $("#scores tbody");
  tbody.replaceChildren();
  for (const p of s.players) {
    const tr = document.createElement("tr");
    tr.dataset.player = p.name;
    if (s.winners.includes(p.name) && s.players.length > 1) tr.classList.add("won");
    const valid = p.words.filter((w) => w.status === "scored").length;
    const crossed = p.words.filter((w) => w.status === "crossed_off").length;
    tr.innerHTML = "<td class='name'></td><td class='score'></td><td class='count'></td>";
    tr.querySelector(".name").textContent = p.name;
    tr.querySelector(".score").textContent = p.score;
    tr.querySelector(".count").textContent = `${valid} scored, ${crossed} crossed off, ${p.words.length - valid - crossed} refused`;
    tbody.appendChild(tr);
  }
  $("#scores").hidden = !s.players.length;
  const w = $("#winner");
  if (!s.players.length) w.textContent = `${s.word_count} words on this board, worth ${s.max_points} points in all.`;
  else if (s.winners.length === 1) w.textContent = `${s.winners[0]} wins with ${s.players.find((p) => p.name === s.winners[0]).score} points!`;
  else w.textContent = `Tie: ${s.winners.join(" and ")}.`;
  const box = $("#player-words");
  box.replaceChildren();
  for (const p of s.players) {
    const div = document.createElement("div");
    div.className = "pw";
    div.dataset.player = p.name;
    const h = document.createElement("h4"); h.textContent = `${p.name}: ${p.score}`; div.append(h);
    const ol = document.createElement("ol"); ol.className = "words";
    for (const word of p.words) {
      const also = word.crossed_off_by ? `also ${word.crossed_off_by.join(", ")}` : "";
      ol.appendChild(wordItem(word, also));
    }
    if (!p.words.length) { const li = document.createElement("li"); li.textContent = "no words"; ol.append(li); }
    div.append(ol);
    box.append(div);
  }
  const missedPoints = s.missed.reduce((a, m) => a + m.points, 0);
  $("#missed-summary").textContent = s.missed.length
    ? `${s.missed.length} of ${s.word_count} words (${missedPoints} of ${s.max_points} points), best first; ★ common words. ` +
      "The best three are drawn on the board; tap a word to see its path."
    : "Nothing: every word on the board was found!";
  const shown = state.showAllMissed ? s.missed : s.missed.slice(0, MISSED_SHOWN);
  const ol = $("#missed");
  ol.replaceChildren(...shown.map((m) => wordItem(m)));
  [...ol.children].slice(0, 3).forEach((li, k) => { li.style.borderColor = PATH_COLOURS[k]; });
  $("#more-missed").hidden = s.missed.length <= shown.length;
}

// ---- games ---------------------------------------------------------------------------
async function refreshGames(select = "") {
  try {
    const doc = await call("/api/games");
    const list = $("#game-list"), names = $("#game-names");
    list.replaceChildren(new Option("— stored games —", ""), ...doc.games.map((g) => new Option(g, g)));
    names.replaceChildren(...doc.games.map((g) => new Option(g)));
    if (select) list.value = select;
  } catch (e) { say(`Cannot list the games: ${e.message}`, "error"); }
}

async function saveRound(game) {
  if (!state.board) { say("First take a photo of the board (or type it).", "error"); return; }
  try {
    const doc = await postJSON("/api/rounds", { game, board: state.board.faces, players: players(), rules: rules(),
                                                scan_id: state.board.scanId });
    state.sheet = doc;
    renderSheet();
    say(`Saved as round ${doc.game.round} of “${doc.game.name}”.`);
    await refreshGames(doc.game.name);
    await showStandings(doc.game.name);
  } catch (e) { say(`Not saved: ${e.message}`, "error"); }
}

async function showStandings(game) {
  if (!game) return;
  const target = $("#target").value;
  try {
    const s = await call(`/api/games/${encodeURIComponent(game)}/standings` + (target ? `?target=${encodeURIComponent(target)}` : ""));
    const box = $("#standings");
    const table = document.createElement("table");
    table.innerHTML = "<thead><tr><th>Player</th><th>Total</th><th>Rounds</th><th>Best</th></tr></thead><tbody></tbody>";
    for (const p of s.players) {
      const tr = document.createElement("tr");
      for (const v of [p.player, p.total, p.rounds, p.best_round]) { const td = document.createElement("td"); td.textContent = v; tr.append(td); }
      if (p.reached_target_in_round) tr.cells[0].textContent += ` (reached ${s.target} in round ${p.reached_target_in_round})`;
      table.tBodies[0].append(tr);
    }
    const p = document.createElement("p");
    p.className = "help";
    p.textContent = `${s.game}: ${s.rounds} round${s.rounds === 1 ? "" : "s"}` +
      (s.target ? (s.first_to_target.length ? ` · first to ${s.target}: ${s.first_to_target.join(", ")}` : ` · nobody has ${s.target} yet`) : "");
    box.replaceChildren(p, table);
  } catch (e) { say(`No standings: ${e.message}`, "error"); }
}

// ---- wiring ---------------------------------------------------------------------------
function init() {
  loadPlayers();
  $("#photo").addEventListener("change", (e) => uploadPhoto(e.target.files[0]));
  $("#board-form").addEventListener("submit", (e) => { e.preventDefault(); useTypedBoard($("#board-input").value); });
  $("#zoom").addEventListener("click", () => { state.whole = !state.whole; drawBoard(); });
  $("#add-player").addEventListener("click", () => { addPlayer().querySelector(".player-name").select(); savePlayers(); });
  $("#score").addEventListener("click", () => scoreRound(true));
  $("#min-length").addEventListener("change", () => state.sheet && scoreRound(false));
  $("#more-missed").addEventListener("click", () => { state.showAllMissed = true; renderSheet(); });
  $("#picker").addEventListener("close", () => { if (state.picking) { state.picking = null; drawBoard(); } });
  $("#save-form").addEventListener("submit", (e) => { e.preventDefault(); saveRound($("#game-name").value.trim()); });
  $("#standings-form").addEventListener("submit", (e) => { e.preventDefault(); showStandings($("#game-list").value); });
  $("#game-list").addEventListener("change", (e) => showStandings(e.target.value));
  refreshGames();
  document.body.dataset.ready = "1";
}

init();
