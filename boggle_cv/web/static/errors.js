// The server's errors in the phone's language. Each error answer carries a stable
// `code` and its `params` (boggle_cv/error_codes.py, CODES); MESSAGES maps each code to
// a msgid of the catalogues (static/i18n/<lang>.po), filled from the params.
// tests/web/test_error_codes.py fails when the server has a code this table lacks, or
// when an entry uses a param its code does not have. An answer without a code, or
// with one this page does not know (a newer server), or missing a param, shows the
// server's English text: never a blank.
import { t, tn } from "./i18n.js";
import { cellName, faceName } from "./dom.js";

/** code -> (params) => the text, in this phone's language. One entry a line. */
export const MESSAGES = {
  "room.not_found": (p) => t("No room with that code (check the code, or ask the host for the link)", p),
  "room.no_free_code": (p) => t("No free room code was found (try again)", p),
  "room.full": (p) => tn("The room is full ({n} player)", "The room is full ({n} players)", p.max),
  "room.guesses": (p) => t("Too many unknown room codes from this device (wait a few minutes)", p),
  "server.rooms_full": (p) => tn("This server already holds {n} room (try again tomorrow)", "This server already holds {n} rooms (try again tomorrow)", p.max),
  "player.not_found": (p) => t("No such player in this room (they may have been removed)", p),
  "auth.no_token": (p) => t("This needs the room's link on this phone (join the room first)", p),
  "auth.bad_token": (p) => t("This phone's pass for the room is not valid: removed, or another room (join the room again)", p),
  "auth.host_only": (p) => t("Only the host can do that", p),
  "auth.not_yours": (p) => t("Only {name} can change {name}'s name and words", p),
  "auth.not_yours_sheet": (p) => t("Only {name} or the host can add {name}'s sheet or settle its words", p),
  "name.taken": (p) => t("“{name}” is already playing in this room (choose another name)", p),
  "name.empty": (p) => t("The name is empty (type a name)", p),
  "name.too_long": (p) => tn("The name is longer than {n} character (use a shorter one)", "The name is longer than {n} characters (use a shorter one)", p.max),
  "name.control": (p) => t("The name holds control characters (use printable characters)", p),
  "name.invisible": (p) => t("The name holds an invisible or unusable character (type it again with letters, digits and spaces)", p),
  "settings.timer": (p) => tn("The timer must be {min} to {n} second, or off", "The timer must be {min} to {n} seconds, or off", p.max, { min: p.min }),
  "settings.target": (p) => t("The target must be a whole number from {min} to {max}", p),
  "round.not_started": (p) => t("The round has not started (wait for the host)", p),
  "round.locked": (p) => t("The lists are locked (wait for the host)", p),
  "round.not_scored": (p) => t("Round {round} is not scored yet (score it first, or drop it)", p),
  "round.cannot_lock": (p) => t("The lists can be locked only while the round is played", p),
  "round.cannot_reopen": (p) => t("Only locked lists can be reopened", p),
  "round.score_not_locked": (p) => t("The round cannot be scored yet (lock the lists first)", p),
  "round.questions_open": (p) => t("A doubt changes a score: {question} (settle it, then score)", p),
  "round.scored_lists": (p) => t("This round is scored; its lists can no longer change (start the next round)", p),
  "round.scored_board": (p) => t("This round is scored; its board can no longer change (start the next round)", p),
  "board.missing": (p) => t("There is no board yet (take a photo of the tray or type the board)", p),
  "board.none_to_correct": (p) => t("There is no board to correct yet (take a photo or type the board)", p),
  "board.cell_outside": (p) => t("Cell {cell} is outside the {size}×{size} board", p),
  "board.challenge_missing": (p) => t("This round is scored with the challenge cube, and its cell is not known (tap the red cube's cell)", p),
  "board.text": (p) => t("This is not a board (type its rows separated by /, e.g. PERS/LATG/SINE/TERS; Q is Qu, [Th] a two-letter face, # a blank)", p),
  "list.too_long": (p) => tn("A list holds at most {n} word", "A list holds at most {n} words", p.max),
  "list.stale": (p) => t("The list was saved elsewhere since (revision {revision}, this save was made from {base})", p),
  "sheet.round_moved": (p) => t("The sheet was sent for round {sent}, and round {round} is on now: nothing was added (photograph the sheet of this round)", p),
  "sheet.round_scored": (p) => t("The sheet was sent for round {sent}, which is scored now: nothing was added", p),
  "sheet.no_writing": (p) => t("No writing found in the photo (photograph a player's sheet, the words dark enough to see)", p),
  "word.not_doubtful": (p) => t("“{word}” is no longer a word to confirm (it was confirmed or changed meanwhile)", p),
  "word.not_on_sheet": (p) => t("“{word}” is no longer a word from the sheet (it was typed or changed meanwhile)", p),
  "image.not_found": (p) => t("This handwriting is no longer kept (its word was removed, or the round is over)", p),
  "image.hidden": (p) => t("{name}'s words are shown once the lists are locked", p),
  "photo.unreadable": (p) => t("Cannot read the uploaded photo (take it again)", p),
  "photo.too_many_pixels": (p) => t("The photo has too many pixels to decode, at most {megapixels} megapixels (scale it down)", p),
  "photo.no_board": (p) => t("No board found in the photo (photograph the tray from above, the whole grid in the frame, or type the board)", p),
  "photo.none": (p) => t("This round has no photo (take one)", p),
  "photo.not_image": (p) => t("That file is not a photo (send a JPEG, PNG, WebP, TIFF or BMP image)", p),
  "photo.heic": (p) => t("HEIC photos cannot be read (set the camera to “Most Compatible”: JPEG)", p),
  "photo.missing": (p) => t("The request holds no photo", p),
  "photo.too_large": (p) => t("The photo is larger than {mb} MB (send a smaller photo)", p),
  "body.too_large": (p) => t("The request is larger than {mb} MB (send fewer words)", p),
  "body.timeout": (p) => t("The upload took too long (send it again on a better connection)", p),
  "request.type": (p) => t("The server refused the request's type (reload the page)", p),
  "request.cross_site": (p) => t("Requests from other sites are refused (open the room's own page: its link or QR code)", p),
  "request.rate_limited": (p) => tn("Too many requests of this kind from this device (try again in {n} second)", "Too many requests of this kind from this device (try again in {n} seconds)", p.seconds),
  "practice.deal": (p) => t("This practice round was not dealt by this server (start a new round)", p),
  "practice.expired": (p) => t("This practice round ended more than an hour ago: it can no longer be recorded (start a new round)", p),
  "practice.no_words": (p) => t("No words in the list: the round is not recorded", p),
  "practice.clock": (p) => t("The clock must run from {min} to {max} seconds", p),
  "server.busy": (p) => t("The server is busy reading other photos (try again in a moment)", p),
  "reader.missing": (p) => t("The photo reader is not available on the server (type the board instead)", p),
  "reader.stopped": (p) => t("The photo reader stopped while reading the photo (try again)", p),
  "storage.busy": (p) => t("The server's database is busy (try again in a moment)", p),
  "storage.error": (p) => t("The server cannot write its games database (tell whoever runs it)", p),
  "server.internal": (p) => t("Something went wrong on the server (try again)", p),
};

/** params that refuse a name they do not hold (the entry then falls back to English). */
function strict(params) {
  const has = (o, k) => {
    if (!Object.prototype.hasOwnProperty.call(o, k)) throw new Error(`no param ${String(k)}`);
    return true;
  };
  return new Proxy(params, { has, get: (o, k) => (has(o, k) && o[k]) });
}

/** "E, I or blank": a question's options in words (a blank face, no word for a dropped entry). */
function choices(options, cell) {
  const names = options.map(([v]) => (cell ? faceName(v) : v || t("no word")));
  return names.length > 1 ? t("{choices} or {last}", { choices: names.slice(0, -1).join(", "), last: names[names.length - 1] })
                          : names.join("");
}

/**
 * One of the referee's questions (questions.Question.to_dict) in words: "Row 1,
 * column 4: E or blank?", "Ann: slat, slab or no word?".
 */
export function questionText(q) {
  const cell = q.kind === "cell" && Array.isArray(q.cell);
  const where = cell ? cellName(q.cell[0], q.cell[1]) : String(q.player || "");
  return t("{where}: {choices}?", { where, choices: choices(q.options || [], cell) });
}

/** The questions open before scoring, the first in words. */
export function questionsLine(questions) {
  return tn("Before scoring, settle this question: {question}", "Before scoring, settle these {n} questions, the first: {question}",
            questions.length, { question: questionText(questions[0]) });
}

/** An error answer ({error, hint, kind, code, params}) as one line in this phone's language. */
export function serverErrorText(doc, status) {
  if (!doc || !doc.error) return refusalText(status) || t("the server answered {status}", { status });
  if (doc.code === "round.questions_open" && Array.isArray(doc.questions) && doc.questions.length) {
    return questionsLine(doc.questions);  // the question in words, not the server's "r1c4 E (or #)"
  }
  const entry = Object.prototype.hasOwnProperty.call(MESSAGES, doc.code) ? MESSAGES[doc.code] : null;
  const params = doc.params && typeof doc.params === "object" ? doc.params : {};
  if (entry) {
    try { return entry(strict(params)); } catch (e) { /* a param missing: the server's text */ }
  }
  return doc.error + (doc.hint ? ` (${doc.hint})` : "");
}

/**
 * A refusal that carries no words of the server's (a connection over the address's
 * limit, a server over its connections: a plain-text 429 or 503), in this phone's
 * language; "" for any other status.
 */
export function refusalText(status) {
  if (status === 429) return t("The server refused this phone for a moment (too many connections from this network)");
  if (status === 503) return t("The server is busy");
  return "";
}
