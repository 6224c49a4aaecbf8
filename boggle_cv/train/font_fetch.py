"""Handwriting font faces from npm's ``@fontsource/*`` packages, fetched at training
time into a cache folder (never into the repository, never shipped).

Each family in ``PRINT``, ``SCHOOL`` and ``SCRIPT`` is looked up (``npm view
@fontsource/NAME version license``), packed (``npm pack``) and only its licence
files and latin-subset faces (``files/NAME-latin-WEIGHT-normal.woff2``, Pillow's
FreeType reads them) are kept, under ``CACHE/packages/NAME/``. A family is kept when
its LICENSE text is the SIL Open Font License 1.1 or the Apache License 2.0, and a
face of it when it draws every character of ``REQUIRED`` (a-z, A-Z, ä ö ü ß Ä Ö Ü:
each a real glyph with ink, not the font's "missing" box). A family gives at most
``MAX_PER_FAMILY`` faces (the regular weight and the one furthest from it).

``CACHE/manifest.json``: ``{"faces": [face...], "dropped": {name: reason}}``, a face
being ``{"family", "package", "version", "licence", "kind", "weight", "file"}`` with
``file`` relative to the cache and ``kind`` one of "print", "school", "script" (how
the family writes: separate letters, a school hand, joined letters). The fetch is
restartable: a package already checked (``packages/NAME/check.json``) is not asked
for again; one whose npm call failed is tried again on the next run.
"""
from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DEFAULT_CACHE = Path.home() / ".cache" / "boggle-cv" / "fonts"
#: Characters a face must draw (German names and UPPER-case words included).
REQUIRED = string.ascii_letters + "äöüßÄÖÜ"
KEPT_LICENCES = ("OFL-1.1", "Apache-2.0")
MAX_PER_FAMILY = 2
#: Face files looked for, best first (the names fontsource gives its latin subset).
EXTENSIONS = (".woff2", ".woff", ".ttf", ".otf")

#: Separate letters, as most people write a list.
PRINT = (
    "caveat", "caveat-brush", "indie-flower", "patrick-hand", "patrick-hand-sc", "shadows-into-light",
    "shadows-into-light-two", "gloria-hallelujah", "reenie-beanie", "rock-salt", "kalam", "nanum-pen-script",
    "architects-daughter", "coming-soon", "covered-by-your-grace", "gochi-hand", "just-another-hand",
    "loved-by-the-king", "nothing-you-could-do", "over-the-rainbow", "schoolbell", "sue-ellen-francisco",
    "swanky-and-moo-moo", "waiting-for-the-sunrise", "zeyada", "annie-use-your-telescope", "give-you-glory",
    "neucha", "short-stack", "handlee", "itim", "mali", "sriracha", "gaegu", "hi-melody", "delius",
    "delius-unicase", "comic-neue", "comic-relief", "permanent-marker", "amatic-sc", "pangolin", "sedgwick-ave",
    "sedgwick-ave-display", "playpen-sans", "crafty-girls", "the-girl-next-door", "walter-turncoat",
    "just-me-again-down-here", "unkempt", "love-ya-like-a-sister", "sunshiney", "square-peg", "mansalva",
    "fuzzy-bubbles", "grape-nuts", "delicious-handrawn", "shantell-sans", "chilanka", "poor-story",
    "gamja-flower", "single-day", "yomogi", "klee-one", "zen-kurenaido", "yusei-magic", "hachi-maru-pop",
    "mynerve", "sofadi-one", "balsamiq-sans", "dekko", "kavivanar", "rancho", "kite-one", "nerko-one",
    "east-sea-dokdo", "dokdo", "cute-font", "finger-paint", "nanum-brush-script",
)
#: School handwriting (the letters children are taught, print and joined).
SCHOOL = (
    "edu-sa-beginner", "edu-nsw-act-foundation", "edu-vic-wa-nt-beginner", "edu-qld-beginner",
    "edu-tas-beginner", "playwrite-de-grund", "playwrite-de-la", "playwrite-de-sas", "playwrite-de-va",
    "playwrite-at", "playwrite-gb-s", "playwrite-gb-j", "playwrite-us-trad", "playwrite-us-modern",
    "playwrite-au-nsw", "playwrite-nz", "playwrite-ie", "playwrite-fr-moderne", "playwrite-it-moderna",
    "playwrite-dk-loopet", "playwrite-no", "playwrite-es", "playwrite-nl", "playwrite-pl", "playwrite-cz",
    "playwrite-hu", "borel",
)
#: Joined letters (cursive and brush scripts).
SCRIPT = (
    "cedarville-cursive", "homemade-apple", "dawning-of-a-new-day", "kristi", "la-belle-aurore", "yellowtail",
    "dancing-script", "satisfy", "sacramento", "allura", "great-vibes", "pacifico", "kaushan-script",
    "marck-script", "damion", "mr-dafoe", "bad-script", "courgette", "cookie", "grand-hotel", "condiment",
    "calligraffitti", "meddon", "league-script", "mrs-saint-delafield", "alex-brush", "italianno",
    "parisienne", "rochester", "oooh-baby", "birthstone", "ephesis", "whisper", "licorice", "smooch",
    "montecarlo", "twinkle-star", "merienda", "norican", "niconne", "playball", "yesteryear", "vibur",
    "style-script", "comforter", "hurricane", "updock", "allison", "ole", "sassy-frass", "ms-madi",
)
KIND = {**{n: "print" for n in PRINT}, **{n: "school" for n in SCHOOL}, **{n: "script" for n in SCRIPT}}


class NpmError(RuntimeError):
    """npm failed in a way worth trying again (network, registry); a missing package is
    a "dropped" reason instead."""


def npm() -> str:
    """The npm executable, or a SystemExit saying how to get it."""
    exe = shutil.which("npm")
    if exe is None:
        raise SystemExit("npm is not installed: the handwriting faces come from npm's @fontsource packages "
                         "(Debian: apt-get install -y npm)")
    return exe


def _npm(args: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run([npm(), *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        err = done.stderr + done.stdout
        if "E404" in err or "404 Not Found" in err:
            raise FileNotFoundError(args[-1])
        raise NpmError(" ".join(err.split())[:300])
    return done.stdout


def view(name: str) -> dict:
    """``npm view @fontsource/NAME version license`` as {"version", "license"};
    FileNotFoundError when there is no such package, NpmError when npm failed."""
    out = json.loads(_npm(["view", f"@fontsource/{name}", "version", "license", "--json"]) or "{}")
    return {"version": str(out.get("version", "")), "license": str(out.get("license", ""))}


def pack(name: str, version: str, folder: Path) -> None:
    """``npm pack @fontsource/NAME@VERSION`` and keep, in `folder`, its LICENSE,
    package.json, metadata.json and latin-subset normal-style faces (files/...)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as tmp:
        out = json.loads(_npm(["pack", f"@fontsource/{name}@{version}", "--json", "--silent"], cwd=Path(tmp)))
        tgz = Path(tmp) / out[0]["filename"]
        face = re.compile(r"package/files/[a-z0-9-]+-latin-\d+-normal\.(woff2|woff|ttf|otf)")
        folder.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tgz) as tar:
            for m in tar.getmembers():
                keep = m.name in ("package/LICENSE", "package/package.json", "package/metadata.json") \
                    or face.fullmatch(m.name)
                if keep and m.isfile():
                    dest = folder / m.name[len("package/"):]
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    src = tar.extractfile(m)
                    if src is not None:
                        dest.write_bytes(src.read())


def licence_of(text: str) -> str:
    """The licence a LICENSE text grants: "OFL-1.1", "Apache-2.0", or "other"."""
    flat = " ".join(text.split())
    if re.search(r"SIL Open Font License,? Version 1\.1", flat, re.I):
        return "OFL-1.1"
    if re.search(r"Apache License,? Version 2\.0", flat, re.I):
        return "Apache-2.0"
    return "other"


def missing_glyphs(font: Path, text: str | None = None) -> str:
    """The characters of `text` that `font` does not draw: no glyph (it draws its
    "missing" box, ``word_renders.has_glyphs``) or a glyph without ink."""
    from PIL import ImageFont

    from boggle_cv.train.word_renders import has_glyphs
    text = REQUIRED if text is None else text
    face = ImageFont.truetype(str(font), 32)
    return "".join(ch for ch in dict.fromkeys(text)
                   if ch != " " and (not has_glyphs(font, ch) or face.getbbox(ch)[2] <= face.getbbox(ch)[0]))


def face_files(folder: Path) -> dict[int, Path]:
    """{weight: face file} of the latin normal-style faces in `folder`/files, the best
    format (``EXTENSIONS``) of each weight."""
    out: dict[int, Path] = {}
    for ext in reversed(EXTENSIONS):
        for p in (folder / "files").glob(f"*-latin-*-normal{ext}"):
            m = re.search(r"-latin-(\d+)-normal", p.name)
            if m:
                out[int(m.group(1))] = p
    return out


def chosen_weights(weights: list[int], most: int = MAX_PER_FAMILY) -> list[int]:
    """Up to `most` weights of a family: the one nearest 400 (the lighter on a tie),
    then the one furthest from it (the heavier on a tie)."""
    if not weights:
        return []
    first = min(weights, key=lambda w: (abs(w - 400), w))
    rest = sorted((w for w in weights if w != first), key=lambda w: (-abs(w - first), -w))
    return [first, *rest][:most]


def check_package(folder: Path, name: str, version: str, required: str | None = None) -> tuple[list[dict], str]:
    """(faces kept, why dropped: '' when some were kept) of a package laid out as
    ``pack`` leaves it in `folder` (a fake one in the tests); a face must draw
    `required` (default ``REQUIRED``). Face files are given relative to
    ``folder.parent.parent`` (the cache)."""
    required = REQUIRED if required is None else required
    lic = folder / "LICENSE"
    if not lic.is_file():
        return [], "no LICENSE file"
    licence = licence_of(lic.read_text(encoding="utf-8", errors="replace"))
    if licence not in KEPT_LICENCES:
        return [], f"licence not OFL-1.1 or Apache-2.0 (LICENSE: {lic.read_text(errors='replace').strip()[:60]!r})"
    files = face_files(folder)
    if not files:
        return [], "no latin normal-style face"
    faces: list[dict] = []
    lacks = ""
    for w in sorted(files):
        try:
            gone = missing_glyphs(files[w], required)
        except OSError as e:  # a file FreeType cannot read
            gone = f"(unreadable: {e})"
        if gone:
            lacks = lacks or gone
            continue
        faces.append({"family": name, "package": f"@fontsource/{name}", "version": version, "licence": licence,
                      "kind": KIND.get(name, "print"), "weight": w,
                      "file": str(files[w].relative_to(folder.parent.parent))})
    keep = set(chosen_weights([int(f["weight"]) for f in faces]))
    faces = [f for f in faces if f["weight"] in keep]
    return faces, "" if faces else f"lacks glyphs {lacks}"


def fetch_one(name: str, cache: Path) -> tuple[list[dict], str]:
    """(faces, reason dropped) of one family, from its check.json when it was
    checked before; NpmError when npm failed (not recorded: tried again next time)."""
    folder = cache / "packages" / name
    done = folder / "check.json"
    if done.is_file():
        got = json.loads(done.read_text())
        return got["faces"], got["dropped"]
    faces: list[dict]
    try:
        info = view(name)
    except FileNotFoundError:
        faces, why = [], "no such npm package"
    else:
        if info["license"] and not any(k.lower() in info["license"].lower() for k in ("OFL", "Apache")):
            faces, why = [], f"licence {info['license']} (npm)"
        else:
            pack(name, info["version"], folder)
            faces, why = check_package(folder, name, info["version"])
    folder.mkdir(parents=True, exist_ok=True)
    done.write_text(json.dumps({"faces": faces, "dropped": why}, indent=1))
    return faces, why


def fetch(cache: Path = DEFAULT_CACHE, names: tuple[str, ...] | None = None, jobs: int = 4) -> dict:
    """Fetch and check every family of `names` (default: PRINT, SCHOOL and SCRIPT)
    into `cache`, `jobs` npm calls at a time; writes and returns the manifest."""
    npm()
    names = names or tuple(KIND)
    cache.mkdir(parents=True, exist_ok=True)
    faces: list[dict] = []
    dropped: dict[str, str] = {}

    def one(name: str) -> tuple[str, list[dict], str]:
        try:
            return (name, *fetch_one(name, cache))
        except (NpmError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            return name, [], f"npm failed (tried again next run): {e}"

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for name, got, why in pool.map(one, names):
            faces += got
            if why:
                dropped[name] = why
            print(f"  {name}: {len(got)} face(s) kept" + (f", dropped: {why}" if why else ""), flush=True)
    manifest = {"faces": faces, "dropped": dropped}
    (cache / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    return manifest


def load_faces(cache: Path = DEFAULT_CACHE) -> list[dict]:
    """The kept faces of a fetched cache, each with ``path`` (absolute) added; a
    SystemExit naming the fetch command when there is none."""
    path = Path(cache) / "manifest.json"
    if not path.is_file():
        raise SystemExit(f"no fetched faces in {cache}: run python -m boggle_cv.train.font_hands fetch --cache {cache}")
    faces = json.loads(path.read_text())["faces"]
    out = [{**f, "path": Path(cache) / f["file"]} for f in faces]
    out = [f for f in out if f["path"].is_file()]
    if not out:
        raise SystemExit(f"the manifest of {cache} lists no face on disk: fetch again")
    return out


def summary(manifest: dict) -> str:
    """How many faces and families were kept, by kind and licence, and why the others
    were dropped (one line a reason)."""
    faces = manifest["faces"]
    fams = {f["family"] for f in faces}
    lines = [f"{len(faces)} faces kept from {len(fams)} families"]
    for key in ("kind", "licence"):
        counts: dict[str, int] = {}
        for f in faces:
            counts[f[key]] = counts.get(f[key], 0) + 1
        lines.append(f"  by {key}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    why: dict[str, list[str]] = {}
    for name, reason in sorted(manifest["dropped"].items()):
        lacks = re.fullmatch(r"lacks glyphs (.*)", reason)
        why.setdefault("lacks glyphs" if lacks else reason, []).append(f"{name} ({lacks.group(1)})" if lacks else name)
    lines.append(f"{len(manifest['dropped'])} families dropped:")
    lines += [f"  {reason}: {', '.join(ns)}" for reason, ns in sorted(why.items())]
    return "\n".join(lines)
