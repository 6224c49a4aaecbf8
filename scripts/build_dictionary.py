#!/usr/bin/env python3
"""Compile the default dictionary (boggle_cv/data/default-dict.{bin,json}) from SCOWL,
or with --lang fr|de|es|it|nl an edition's (boggle_cv/data/<lang>-dict.{bin,json,LICENSE}).

The other editions' sources, filters and licences are in scripts/dict_sources.py
(and docs/editions.md): each is read from its installed Debian package, folded by
the edition (boggle_cv.game.folding), compiled as below, and shipped with a licence
notice beside it (<lang>-dict.LICENSE). With --second DIR (the unpacked npm package
of the edition's second list) the coverage both ways goes in the metadata.

Source: Debian's `scowl` package (apt-get install -y scowl), files
/usr/share/dict/scowl/<category>-words.<size>. SCOWL's licence (see
/usr/share/doc/scowl/copyright) allows redistribution of derived lists.

What we take, and why:
  * sub-category "words" only: the "upper" (proper nouns), "proper-names",
    "abbreviations" and "contractions" files are left out, as Boggle forbids them.
  * spelling categories english + american + british + british_z, plus the
    variant_1/variant_2 and british_variant_1/british_variant_2 files: Boggle allows
    any word of a standard English dictionary, and both "color" and "colour" are in
    one. variant_3 ("seldom used, may not even be considered correct") is left out.
  * sizes 10..80: size 80 ("huge") is where SCOWL keeps the inflections and the
    Scrabble-style vocabulary that players expect (ENABLE2K coverage jumps from
    ~60% at 70 to ~98% at 80); size 95 ("insane") adds ~180k obscure words and no
    ENABLE2K coverage, so it is left out.
  * a word is "common" when it appears at size <= 50 ("medium", a typical
    spell-checker dictionary): reports use it to tell players which missed words
    were within reach.
  * then the filter of boggle_cv.game.dictionary.normalise_word: ASCII a-z only (drops
    possessives "'s", hyphenated and accented words), every q followed by u.
  * each word's smallest size also goes to en-word-levels.txt.gz (one line per size:
    the size, then its words): how common a word is, the prior of the handwriting
    reader (boggle_cv.vision.handwriting.commonness). gzip with no name or time in
    its header, so a rebuild gives the same bytes.

Usage: python scripts/build_dictionary.py [--scowl DIR] [--enable PATH]
  --enable PATH: also measure coverage of ENABLE2K's 3-16-letter words (read only,
  never copied) and record it in the .json metadata.
       python scripts/build_dictionary.py --lang fr [--second DIR]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from boggle_cv.game.dictionary import DEFAULT_BIN, DEFAULT_META, build_edges, normalise_word, save_compiled
from boggle_cv.vision.handwriting.commonness import LEVELS_FILE  # noqa: E402

CATEGORIES = ("english", "american", "british", "british_z",
              "variant_1", "variant_2", "british_variant_1", "british_variant_2")
SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80)
COMMON_MAX_SIZE = 50


def collect(scowl: Path) -> tuple[dict[str, int], list[str]]:
    """word -> smallest SCOWL size it appears at; and the files read."""
    level: dict[str, int] = {}
    used = []
    for size in SIZES:
        for cat in CATEGORIES:
            p = scowl / f"{cat}-words.{size}"
            if not p.exists():
                continue
            used.append(p.name)
            # SCOWL's Debian files are UTF-8 (some older ones Latin-1): decode leniently,
            # non-ASCII words are dropped by normalise_word anyway.
            for line in p.read_bytes().decode("utf-8", errors="replace").splitlines():
                w = line.strip()
                if w != w.lower():  # any capital: a proper noun or an acronym
                    continue
                n = normalise_word(w)
                if n is not None and n not in level:
                    level[n] = size
    return level, used


SCOWL_COPYRIGHT = Path("/usr/share/doc/scowl/copyright")
LICENSE_HEAD = """default-dict.bin, default-dict.json and en-word-levels.txt.gz: the English word list of boggle-cv

Source: Debian package scowl 2020.12.07-2 (SCOWL, Spell Checker Oriented Word Lists, Kevin Atkinson), files /usr/share/dict/scowl/<category>-words.<size>
Made by boggle-cv's scripts/build_dictionary.py: the word files of the categories and sizes listed in default-dict.json, ASCII a-z words only, compiled to a word graph (default-dict.bin); each word's smallest SCOWL size (how common it is) in en-word-levels.txt.gz.

SCOWL's copyright and permission notices follow, as /usr/share/doc/scowl/copyright of that package gives them:

----------------------------------------------------------------------
"""


def save_levels(level: dict[str, int], path: Path) -> int:
    """Write word -> SCOWL size as gzip text, one line per size ("10 a able about ..."),
    words sorted; the same bytes for the same words (no name, mtime 0). Returns bytes."""
    import gzip
    lines = [" ".join([str(size)] + sorted(w for w, s in level.items() if s == size)) for size in SIZES]
    data = gzip.compress(("\n".join(lines) + "\n").encode("ascii"), compresslevel=9, mtime=0)
    path.write_bytes(data)
    return len(data)


def build_edition(lang: str, out: Path, second: Path | None) -> int:
    """Compile edition `lang`'s dictionary, metadata and licence notice into `out`."""
    import dict_sources as S
    from boggle_cv.game.editions import get_edition

    src = S.SOURCES[lang]
    missing = [f for f in src.files if not Path(f).exists()]
    if missing:
        print(f"build_dictionary: {missing[0]} not found (apt-get install -y {src.package.split()[0]})",
              file=sys.stderr)
        return 3
    t0 = time.perf_counter()
    words, dropped, lines = S.collect(lang)
    edges, count = build_edges(words, (), minimise=True)
    stem = get_edition(lang).dictionary
    out.mkdir(parents=True, exist_ok=True)
    save_compiled(out / f"{stem}.bin", edges, count)
    lengths = [len(w) for w in words]
    meta: dict[str, object] = {
        "lang": lang,
        "source": src.package,
        "files": list(src.files),
        "licence": src.licence,
        "licence_file": f"{stem}.LICENSE",
        "copyright": src.copyright,
        "folding": f"boggle_cv.game.folding.fold_word(word, {lang!r})",
        "filters": src.filters,
        "lines_read": lines,
        "dropped": dropped,
        "words": count,
        "words_3_16": sum(1 for n in lengths if 3 <= n <= 16),
        "longest": max(lengths),
        "common_words": 0,
        "edges": len(edges),
        "bytes": (out / f"{stem}.bin").stat().st_size,
        "second_list": src.second or "none: no independent list of this language in the registries",
    }
    if second is not None and src.second:
        meta["coverage"] = S.coverage(words, S.second_list(lang, second))
    (out / f"{stem}.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / f"{stem}.LICENSE").write_text(
        f"{stem}.bin and {stem}.json: the {get_edition(lang).name} word list of boggle-cv\n\n"
        f"Source: Debian package {src.package}\n{src.copyright}\nLicence: {src.licence}\n\n"
        f"{src.licence_note}\n\nWhat was changed: {src.filters}.\n", encoding="utf-8")
    print(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"built in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scowl", type=Path, default=Path("/usr/share/dict/scowl"))
    ap.add_argument("--enable", type=Path, default=REPO.parent / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--out", type=Path, default=REPO / "boggle_cv" / "data")
    ap.add_argument("--lang", default="en", choices=("en", "fr", "de", "es", "it", "nl"),
                    help="the edition to build (en: the default dictionary, from SCOWL)")
    ap.add_argument("--second", type=Path, help="the unpacked npm package of the edition's second list")
    args = ap.parse_args()
    if args.lang != "en":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        return build_edition(args.lang, args.out, args.second)
    if not args.scowl.is_dir():
        print(f"build_dictionary: {args.scowl} not found (apt-get install -y scowl)", file=sys.stderr)
        return 3
    t0 = time.perf_counter()
    level, used = collect(args.scowl)
    common = [w for w, s in level.items() if s <= COMMON_MAX_SIZE]
    edges, count = build_edges(level.keys(), common, minimise=True)
    args.out.mkdir(parents=True, exist_ok=True)
    save_compiled(args.out / DEFAULT_BIN, edges, count)
    levels_bytes = save_levels(level, args.out / LEVELS_FILE)
    if SCOWL_COPYRIGHT.is_file():  # SCOWL's notice goes with every copy of its lists
        (args.out / "default-dict.LICENSE").write_text(LICENSE_HEAD + SCOWL_COPYRIGHT.read_text(encoding="utf-8"),
                                                      encoding="utf-8")
    meta = {
        "source": "SCOWL (Debian package scowl), http://wordlist.aspell.net/",
        "categories": list(CATEGORIES),
        "sub_category": "words (no upper, proper-names, abbreviations, contractions)",
        "sizes": list(SIZES),
        "common_max_size": COMMON_MAX_SIZE,
        "files": used,
        "words": count,
        "common_words": len(common),
        "edges": len(edges),
        "levels_file": LEVELS_FILE,
        "levels_file_bytes": levels_bytes,
    }
    if args.enable.exists():
        enable = {w for w in (l.strip().lower() for l in args.enable.read_text(encoding="utf-8-sig").splitlines())
                  if 3 <= len(w) <= 16}
        ours = {w for w in level if 3 <= len(w) <= 16}
        meta["enable2k"] = {
            "words_3_16": len(enable),
            "covered": len(enable & ours),
            "coverage_percent": round(100 * len(enable & ours) / len(enable), 2),
            "extra_words_3_16": len(ours - enable),
        }
    (args.out / DEFAULT_META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in meta.items() if k != "files"}, indent=1))
    print(f"built in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
