"""Names people type (players, games): one rule for the room, the page's API and the CLI.

`clean_name(text)` returns the name as it is kept and shown:
  * NFKC-normalised (full-width "ＡＮＮ" -> "ANN", the "ﬁ" ligature -> "fi", no-break
    spaces -> spaces);
  * refused (UsageError) if it holds a character of category Cc (controls: C0, DEL,
    C1, also tab and newline), Cf (format: zero-width space and joiners, bidi
    overrides, soft hyphen), Co (private use), Cs (lone surrogates) or Cn
    (unassigned): invisible or look-alike names cannot sit beside the real one, and
    nothing reaches a page or terminal that it cannot draw;
  * runs of spaces collapsed to one, ends trimmed; refused if then empty;
  * at most `max_len` characters (MAX_NAME, 40), counted after the above.

`name_key(name)` is what two names are compared by (NFKC of the case-folded NFKC
form): "Ann", "ann" and "ＡＮＮ" are one name. Length is in code points.
"""
from __future__ import annotations

import unicodedata
from typing import Any

from ..errors import UsageError

#: Player and game names: at most this many characters.
MAX_NAME = 40
#: Unicode general categories a name may not hold (see the module docstring).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})


def utf8_ok(text: str) -> bool:
    """True if `text` encodes as UTF-8 (holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def without_surrogates(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (for text stored by an
    older version, which must still be shown)."""
    if utf8_ok(text):
        return text
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def scrub_surrogates(value: Any) -> Any:
    """A JSON value with every lone surrogate in its strings (keys too) replaced by
    U+FFFD; the same object when there is none. For documents stored by an older
    version that accepted such text: they must load and be shown, not fail forever."""
    if isinstance(value, str):
        return without_surrogates(value)
    if isinstance(value, list):
        items = [scrub_surrogates(v) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else items
    if isinstance(value, dict):
        pairs = [(scrub_surrogates(k), scrub_surrogates(v)) for k, v in value.items()]
        same = all(k2 is k and v2 is v for (k2, v2), (k, v) in zip(pairs, value.items()))
        return value if same else dict(pairs)
    return value


def _refused(text: str) -> str | None:
    """The first character of `text` a name may not hold, or None."""
    return next((ch for ch in text if unicodedata.category(ch) in REFUSED_CATEGORIES), None)


def clean_name(text: object, what: str = "name", max_len: int = MAX_NAME) -> str:
    """The name as kept (see the module docstring); UsageError naming `what`
    ("name", "game name", ...) when it cannot be one."""
    if not isinstance(text, str):
        raise UsageError(f"the {what} must be text", f"type a {what}")
    bad = _refused(text)  # before NFKC: a lone surrogate is refused as such, not normalised
    if bad is None:
        text = unicodedata.normalize("NFKC", text)
        bad = _refused(text)
    if bad is not None:
        what_char = f"U+{ord(bad):04X}"
        if unicodedata.category(bad) == "Cc":
            raise UsageError(f"the {what} holds control characters ({what_char})", "use printable characters",
                             code="name.control")
        raise UsageError(f"the {what} holds an invisible or unusable character ({what_char})",
                         "type it again with letters, digits and spaces", code="name.invisible")
    clean = " ".join(text.split())
    if not clean:
        raise UsageError(f"the {what} is empty", f"type a {what}", code="name.empty")
    if len(clean) > max_len:
        raise UsageError(f"the {what} is longer than {max_len} characters", "use a shorter one", code="name.too_long",
                         params={"max": max_len})
    return clean


def name_key(name: str) -> str:
    """What names are compared by: NFKC(casefold(NFKC(name))); "ＡＮＮ" and "ann" match."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
