// The page's first moments, before its modules run (a classic script: it needs none of
// them). When the page's modules cannot be loaded (the server refused them: too many
// connections from this network, a server restarting), the page would stay blank: this
// says so in the phone's language (its catalogue, static/i18n/<lang>.po, when the
// server gives it; English otherwise) and loads the page again by itself, waiting
// longer each time (2 s, 4 s, 8 s, 15 s, then every 30 s).
(function boot() {
  "use strict";
  var WAITS_S = [2, 4, 8, 15, 30];
  var KEY = "boggle-cv.boot-tries";
  var READY_WITHIN_MS = 12000;  // a page that is not drawn by then did not load
  var LANGS = ["en", "fr", "de", "es", "it", "nl"];
  var failed = false;

  /** Marks a msgid of the catalogues (scripts/page_strings.py reads N_ calls). */
  function N_(msgid) { return msgid; }

  function tries() {
    try { return Number(sessionStorage.getItem(KEY) || 0); } catch (e) { return 0; }
  }

  function remember(n) {
    try { sessionStorage.setItem(KEY, String(n)); } catch (e) { /* private mode: every try waits 2 s */ }
  }

  function language() {
    var stored = null;
    try { stored = localStorage.getItem("boggle-cv.lang"); } catch (e) { stored = null; }
    if (stored && LANGS.indexOf(stored) >= 0) return stored;
    var wanted = navigator.languages || [navigator.language || "en"];
    for (var i = 0; i < wanted.length; i++) {
      var primary = String(wanted[i]).toLowerCase().split(/[-_]/)[0];
      if (LANGS.indexOf(primary) >= 0) return primary;
    }
    return "en";
  }

  /** The msgstr of `msgid` in a catalogue's text (a plain entry), or null. */
  function lookUp(po, msgid) {
    var quoted = JSON.stringify(msgid);
    var at = po.indexOf("\nmsgid " + quoted + "\nmsgstr ");
    if (at < 0) return null;
    var line = po.slice(at + quoted.length + 15).split("\n")[0];
    try { return JSON.parse(line) || null; } catch (e) { return null; }
  }

  function say(text) {
    var el = document.getElementById("boot");
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }

  function fail() {
    if (failed || (document.body && document.body.dataset.ready)) return;
    failed = true;
    var n = tries();
    var wait = WAITS_S[Math.min(n, WAITS_S.length - 1)];
    remember(n + 1);
    var english = N_("The page did not load: the server is busy or restarting. It loads again by itself in {n} s.");
    var show = function (text) { say((text || english).replace("{n}", String(wait))); };
    show(null);
    var lang = language();
    if (lang !== "en" && window.fetch) {
      fetch("/static/i18n/" + lang + ".po").then(function (res) { return res.ok ? res.text() : ""; })
        .then(function (po) { if (po) show(lookUp(po, english)); }, function () { /* English it is */ });
    }
    setTimeout(function () { location.reload(); }, wait * 1000);
  }

  // a script of the page that cannot be loaded (a module of the app's graph fails its script element)
  window.addEventListener("error", function (e) {
    var el = e.target;
    if (el && el.tagName === "SCRIPT") fail();
  }, true);
  window.addEventListener("load", function () {
    setTimeout(function () { if (!document.body.dataset.ready) fail(); }, READY_WITHIN_MS);
  });
  // drawn at last: the next refusal starts again from the shortest wait
  document.addEventListener("boggle-cv:ready", function () { remember(0); });
})();
