#!/usr/bin/env python3
"""Write boggle_cv/data/en-word-zipf.txt.gz: how common each word of the default
English dictionary is, for the prior of the handwriting reader
(vision/handwriting/commonness.py), from the `wordfreq` package's English data.

    pip install 'wordfreq>=3.1' && python scripts/build_word_frequencies.py [--out boggle_cv/data]

Each word's Zipf frequency (log10 of its uses per billion words: "the" 7.7, "value"
5.2, "valve" 4.1, "haply" 1.6; 0 when wordfreq has never seen it) is rounded to a
tenth; the file holds one line per tenth, "<zipf x 10> word word ...", words sorted,
unseen words left out; gzip with mtime 0, so a rebuild from the same wordfreq gives
the same bytes. Also writes en-word-zipf.LICENSE (wordfreq's data is CC BY-SA 4.0;
the attributions its licence asks for). wordfreq is needed here only, never at run
time.
"""
from __future__ import annotations

import argparse
import gzip
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boggle_cv.vision.handwriting.commonness import ZIPF_FILE  # noqa: E402

NOTICE = """en-word-zipf.txt.gz: how common each word of boggle-cv's English dictionary is

Made by boggle-cv's scripts/build_word_frequencies.py with wordfreq {version}
(Robyn Speer, https://github.com/rspeer/wordfreq; code Apache-2.0): each word's
English Zipf frequency from wordfreq's data, rounded to a tenth.

This file is derived from wordfreq's data and is licensed, as that data is, under the
Creative Commons Attribution-ShareAlike 4.0 license
(https://creativecommons.org/licenses/by-sa/4.0/). Changes: only the words of
boggle-cv's English dictionary kept, frequencies rounded.

wordfreq's data is built from, and credits:
- Google Books Ngrams (http://books.google.com/ngrams) and Google Books Syntactic Ngrams;
- the Leeds Internet Corpus, University of Leeds Centre for Translation Studies
  (http://corpus.leeds.ac.uk/list.html);
- Wikipedia, the free encyclopedia (http://www.wikipedia.org);
- ParaCrawl (https://paracrawl.eu);
- OPUS OpenSubtitles 2018 (http://opus.nlpl.eu/OpenSubtitles.php), from the
  OpenSubtitles project (http://www.opensubtitles.org/);
- the SUBTLEX word lists (SUBTLEX-US, SUBTLEX-UK) by Marc Brysbaert et al.
  (http://crr.ugent.be/programs-data/subtitle-frequencies), freely available data,
  distributed in wordfreq with the authors' permission on condition that they are
  credited;
- word counts from the Twitter streaming API and Reddit.

Cite: Robyn Speer. (2022). rspeer/wordfreq: v3.0 (v3.0.2). Zenodo.
https://doi.org/10.5281/zenodo.7199437
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "boggle_cv" / "data")
    a = ap.parse_args()
    try:
        import wordfreq
        from importlib.metadata import version
    except ImportError:
        print("build_word_frequencies: needs the wordfreq package (pip install 'wordfreq>=3.1')", file=sys.stderr)
        return 2
    from boggle_cv.game.dictionary import load_default
    by_tenth: dict[int, list[str]] = defaultdict(list)
    words = sorted(set(load_default("en").words()))
    for w in words:
        z = round(10 * wordfreq.zipf_frequency(w, "en"))
        if z > 0:
            by_tenth[z].append(w)
    lines = [" ".join([str(z)] + sorted(ws)) for z, ws in sorted(by_tenth.items())]
    data = gzip.compress(("\n".join(lines) + "\n").encode("ascii"), compresslevel=9, mtime=0)
    (a.out / ZIPF_FILE).write_bytes(data)
    (a.out / ZIPF_FILE.replace(".txt.gz", ".LICENSE")).write_text(NOTICE.format(version=version("wordfreq")))
    seen = sum(len(ws) for ws in by_tenth.values())
    print(f"{a.out / ZIPF_FILE}: {seen} of {len(words)} words seen by wordfreq, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
