"""The page's strings and their gettext catalogues (boggle_cv/web/static/i18n/<lang>.po).

Every user-visible string of the page is a msgid: the English text of a `t("...")`,
`tn("one", "many", n)` or `N_("...")` call in static/*.js, and the text (or the
attributes named by data-i18n-attr) of the elements of index.html marked data-i18n.
Translators edit the .po files; the page reads them as they are (static/i18n.js).

    python scripts/page_strings.py            # list the msgids, and what each catalogue lacks
    python scripts/page_strings.py --update   # add the missing msgids (empty msgstr) to every catalogue

tests/web/test_i18n.py fails when a msgid is missing from a catalogue or untranslated,
and when the page shows text some other way: `shown_literals` finds the string and
template literals of static/*.js outside t()/tn()/N_() that read as English (two words,
one of them a common one, or a word such as "by" beside a value: "✎ by ${name}"), and
`unmarked_text` the text and attributes of index.html outside data-i18n and
data-i18n-attr (code, and elements marked translate="no", are left as they are).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "boggle_cv" / "web" / "static"
CATALOGUES = STATIC / "i18n"
#: The page's languages and each one's Plural-Forms header (the GNU gettext manual's table).
LANGS = {
    "en": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
}
NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "nl": "Dutch"}


@dataclass(frozen=True)
class Msg:
    """One msgid (and its plural, for tn) and where the page uses it."""

    msgid: str
    plural: str | None = None

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.msgid, self.plural)


_CALL = re.compile(r"(?<![\w.$])(tn|t|N_)\(\s*")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _js_unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def _strings_at(text: str, pos: int, count: int) -> list[str] | None:
    """`count` string arguments from text[pos:] ("a" + "b" joined), or None if not literals."""
    out: list[str] = []
    for k in range(count):
        parts: list[str] = []
        while True:
            m = _STRING.match(text, pos)
            if m is None:
                return None
            parts.append(_js_unescape(m.group(1)))
            pos = m.end()
            plus = re.compile(r"\s*\+\s*").match(text, pos)
            if plus and _STRING.match(text, plus.end()):
                pos = plus.end()
                continue
            break
        out.append("".join(parts))
        if k + 1 < count:
            comma = re.compile(r"\s*,\s*").match(text, pos)
            if comma is None:
                return None
            pos = comma.end()
    return out


def js_messages(text: str) -> list[Msg]:
    out = []
    for m in _CALL.finditer(text):
        args = _strings_at(text, m.end(), 2 if m.group(1) == "tn" else 1)
        if args is None:
            continue  # t(VARIABLE): a msgid marked with N_ elsewhere
        out.append(Msg(args[0], args[1] if m.group(1) == "tn" else None))
    return out


class _Marked(HTMLParser):
    """The msgids of index.html: data-i18n elements' text, data-i18n-attr attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Msg] = []
        self.problems: list[str] = []
        self._open: list[tuple[str, bool, list[str]]] = []  # tag, marked, its text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if any(marked for _, marked, _ in self._open):
            self.problems.append(f"<{tag}> inside an element marked data-i18n: mark the leaves")
        for name in (a.get("data-i18n-attr") or "").split():
            value = a.get(name)
            if not value:
                self.problems.append(f"<{tag}> data-i18n-attr names {name!r}, which it does not have")
            else:
                self.found.append(Msg(value))
        if tag in ("input", "img", "meta", "link", "br"):
            return
        self._open.append((tag, "data-i18n" in a, []))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            t, marked, text = self._open.pop()
            if marked:
                msgid = " ".join("".join(text).split())
                if msgid:
                    self.found.append(Msg(msgid))
                else:
                    self.problems.append(f"<{t}> marked data-i18n has no text")
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def html_messages(text: str) -> tuple[list[Msg], list[str]]:
    p = _Marked()
    p.feed(text)
    p.close()
    return p.found, p.problems


def page_messages(static: Path = STATIC) -> dict[tuple[str, str | None], list[str]]:
    """Every msgid of the page (in the order first used) -> the files that use it."""
    out: dict[tuple[str, str | None], list[str]] = {}
    html, problems = html_messages((static / "index.html").read_text(encoding="utf-8"))
    if problems:
        raise ValueError("index.html: " + "; ".join(problems))
    for msg in html:
        out.setdefault(msg.key, []).append("index.html")
    for js in sorted(static.glob("*.js")):
        for msg in js_messages(js.read_text(encoding="utf-8")):
            where = out.setdefault(msg.key, [])
            if js.name not in where:
                where.append(js.name)
    return out


# ---- text the page shows without a catalogue ------------------------------------------------

@dataclass(frozen=True)
class Literal:
    """A string or template literal of a page module: where it is and its text (a
    template's ${...} parts as PLACEHOLDER)."""

    line: int
    text: str
    start: int
    end: int


PLACEHOLDER = "\x00"


def _skip_string(text: str, i: int) -> int:
    """The index after the string literal that starts at text[i] (a quote)."""
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _template(text: str, i: int) -> tuple[int, str]:
    """The template literal at text[i] ("`"): (index after it, its text with PLACEHOLDERs)."""
    j, out = i + 1, []
    while j < len(text) and text[j] != "`":
        if text[j] == "\\":
            out.append(text[j:j + 2])
            j += 2
        elif text.startswith("${", j):
            j, depth = j + 2, 1
            while j < len(text) and depth:
                if text[j] in "\"'`":
                    j = _template(text, j)[0] if text[j] == "`" else _skip_string(text, j)
                    continue
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            out.append(PLACEHOLDER)
        else:
            out.append(text[j])
            j += 1
    return j + 1, "".join(out)


_REGEX_AFTER = re.compile(r"(?:[(,=:\[!&|?{};+\-*%<>~^]|\breturn|\btypeof)\s*$")


def js_literals(text: str) -> list[Literal]:
    """Every string and template literal of a module, comments and regular expressions skipped."""
    out: list[Literal] = []
    i = 0
    while i < len(text):
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
        elif text[i] in "\"'":
            end = _skip_string(text, i)
            out.append(Literal(text.count("\n", 0, i) + 1, _js_unescape(text[i + 1:end - 1]), i, end))
            i = end
        elif text[i] == "`":
            end, body = _template(text, i)
            out.append(Literal(text.count("\n", 0, i) + 1, body, i, end))
            i = end
        elif text[i] == "/" and _REGEX_AFTER.search(text[max(0, i - 12):i]):
            j, in_class = i + 1, False
            while j < len(text) and text[j] != "\n" and (text[j] != "/" or in_class):
                if text[j] == "\\":
                    j += 1
                in_class = (in_class or text[j] == "[") and text[j] != "]"
                j += 1
            i = j + 1
        else:
            i += 1
    return out


def _translated_spans(text: str, literals: list[Literal]) -> list[tuple[int, int]]:
    """The argument lists of every t(), tn() and N_() call: (start, end) indices."""
    after = {lit.start: lit.end for lit in literals}
    spans = []
    for m in _CALL.finditer(text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            if j in after:
                j = after[j]
                continue
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        spans.append((m.start(), j))
    return spans


#: Words that make a literal read as English to a player.
_COMMON = frozenset("the by of to and in on at as is are was your you with from for not no all this that it its "
                    "left saved words word points point cells cell round players player host photo room".split())
#: Words that say something of a value beside them ("✎ by ${name}", "of ${n}").
_LINKING = frozenset("by of to with from for and the your in on at as".split())
_CODE_LIKE = re.compile(r"[#\[\]=<>{}]|^\.|\w\.\w|^/|https?:")


def reads_as_english(text: str) -> bool:
    """True for a literal a player would read as English: two words (letters only), one
    of them a common one, or a linking word beside a value. CSS selectors, URLs, class
    lists and identifiers ("ts-points", "not_on_board") are not."""
    if _CODE_LIKE.search(text):
        return False
    words = [w.strip(",.:;!?()\"'…") for w in text.replace(PLACEHOLDER, f" {PLACEHOLDER} ").split()]
    plain = [w.lower() for w in words if re.fullmatch(r"[A-Za-z]+", w)]
    if len(plain) >= 2 and any(w in _COMMON for w in plain):
        return True
    return PLACEHOLDER in text and any(w in _LINKING for w in plain)


def shown_literals(text: str) -> list[Literal]:
    """The literals of a module outside t()/tn()/N_() that read as English (a player would
    see them untranslated)."""
    literals = js_literals(text)
    spans = _translated_spans(text, literals)
    return [lit for lit in literals if not any(a <= lit.start < b for a, b in spans) and reads_as_english(lit.text)]


class _Unmarked(HTMLParser):
    """Text and attributes of index.html a player reads that no data-i18n covers."""

    SHOWN_ATTRS = ("placeholder", "aria-label", "alt", "title")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._open: list[tuple[str, bool]] = []  # tag, left as it is (marked, code, translate="no")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        kept = bool(self._open and self._open[-1][1]) or a.get("translate") == "no" or tag in ("code", "script", "style")
        named = set((a.get("data-i18n-attr") or "").split())
        for name in self.SHOWN_ATTRS:
            value = a.get(name)
            if value and re.search(r"[A-Za-z]{2,}", value) and name not in named and not kept:
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag not in ("input", "img", "meta", "link", "br"):
            self._open.append((tag, kept or "data-i18n" in a))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._open and not self._open[-1][1] and re.search(r"[A-Za-z]{2,}", data):
            self.found.append(" ".join(data.split()))


def unmarked_text(html: str) -> list[str]:
    """The text and shown attributes of `html` outside data-i18n / data-i18n-attr."""
    p = _Unmarked()
    p.feed(html)
    p.close()
    return p.found


# ---- .po files ------------------------------------------------------------------------------

@dataclass
class Entry:
    msgid: str
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _po_unquote(s: str) -> str:
    body = s.strip()
    assert body.startswith('"') and body.endswith('"'), s
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body[1:-1])


def read_po(path: Path) -> tuple[dict[str, str], dict[tuple[str, str | None], Entry]]:
    """A .po file -> (headers, (msgid, msgid_plural) -> Entry); the header entry apart."""
    entries: list[Entry] = []
    cur: Entry | None = None
    field_name: tuple[str, int] | None = None
    comments: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            cur, field_name = None, None
            continue
        if line.startswith("#"):
            comments.append(raw)
            continue
        m = re.match(r'^(msgid_plural|msgid|msgstr(?:\[(\d+)\])?|msgctxt)\s+(".*")$', line)
        if m:
            name, index, value = m.group(1), m.group(2), _po_unquote(m.group(3))
            if name == "msgid":
                cur = Entry(value, comments=comments)
                comments = []
                entries.append(cur)
                field_name = ("msgid", 0)
            elif cur is None:
                raise ValueError(f"{path}: {name} without msgid")
            elif name == "msgid_plural":
                cur.plural, field_name = value, ("plural", 0)
            elif name.startswith("msgstr"):
                i = int(index or 0)
                while len(cur.msgstr) <= i:
                    cur.msgstr.append("")
                cur.msgstr[i], field_name = value, ("msgstr", i)
            continue
        if line.startswith('"') and cur is not None and field_name is not None:
            v = _po_unquote(line)
            kind, i = field_name
            if kind == "msgid":
                cur.msgid += v
            elif kind == "plural":
                cur.plural = (cur.plural or "") + v
            else:
                cur.msgstr[i] += v
            continue
        raise ValueError(f"{path}: cannot read {raw!r}")
    headers: dict[str, str] = {}
    out: dict[tuple[str, str | None], Entry] = {}
    for e in entries:
        if e.msgid == "" and e.plural is None:
            for h in (e.msgstr[0] if e.msgstr else "").split("\n"):
                if ":" in h:
                    k, v = h.split(":", 1)
                    headers[k.strip()] = v.strip()
        else:
            out[(e.msgid, e.plural)] = e
    return headers, out


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_po(path: Path, lang: str, entries: list[Entry]) -> None:
    head = [f"# The page of boggle-cv in {NAMES[lang]}.",
            "# Edit the msgstr lines; {name} placeholders stay as they are (the page fills them).",
            "# python scripts/page_strings.py --update adds the page's new strings.",
            'msgid ""', 'msgstr ""',
            _quote("Project-Id-Version: boggle-cv page\n"),
            _quote(f"Language: {lang}\n"),
            _quote("MIME-Version: 1.0\n"),
            _quote("Content-Type: text/plain; charset=UTF-8\n"),
            _quote("Content-Transfer-Encoding: 8bit\n"),
            _quote(f"Plural-Forms: {LANGS[lang]}\n"), ""]
    body: list[str] = []
    for e in entries:
        body += e.comments
        body.append(f"msgid {_quote(e.msgid)}")
        if e.plural is not None:
            body.append(f"msgid_plural {_quote(e.plural)}")
            strs = e.msgstr or ["", ""]
            body += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(strs)]
        else:
            body.append(f"msgstr {_quote(e.msgstr[0] if e.msgstr else '')}")
        body.append("")
    path.write_text("\n".join(head + body), encoding="utf-8")


def update(lang: str, messages: dict[tuple[str, str | None], list[str]]) -> int:
    """Bring <lang>.po to the page's msgids (kept translations; new ones empty, English
    filled in for en); the number added."""
    path = CATALOGUES / f"{lang}.po"
    old = read_po(path)[1] if path.exists() else {}
    added = 0
    entries = []
    for key, where in messages.items():
        e = old.get(key)
        if e is None:
            added += 1
            e = Entry(key[0], key[1], ([key[0], key[1]] if key[1] is not None else [key[0]]) if lang == "en"
                      else (["", ""] if key[1] is not None else [""]))
        e.comments = [c for c in e.comments if not c.startswith("#:")] + ["#: " + " ".join(where)]
        entries.append(e)
    write_po(path, lang, entries)
    return added


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="add the missing msgids to every catalogue")
    args = ap.parse_args(argv)
    messages = page_messages()
    print(f"{len(messages)} msgids ({sum(1 for k in messages if k[1] is not None)} with plural forms)")
    for js in sorted(STATIC.glob("*.js")):
        for lit in shown_literals(js.read_text(encoding="utf-8")):
            print(f"{js.name}:{lit.line}: shown without t(): {lit.text.replace(PLACEHOLDER, '${…}')!r}")
    for text in unmarked_text((STATIC / "index.html").read_text(encoding="utf-8")):
        print(f"index.html: shown without data-i18n: {text!r}")
    for lang in LANGS:
        if args.update:
            print(f"{lang}.po: {update(lang, messages)} added")
        else:
            path = CATALOGUES / f"{lang}.po"
            have = read_po(path)[1] if path.exists() else {}
            missing = [k for k in messages if k not in have or not all(have[k].msgstr)]
            print(f"{lang}.po: {len(missing)} missing or untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
