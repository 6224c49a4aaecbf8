"""Fetching handwriting faces (train/font_fetch.py): licences, glyph checks, weights
and the restartable fetch, on fake package folders (no network, no npm): the face in
them is Pillow's built-in one (a-z, A-Z, no umlauts)."""
from __future__ import annotations

import json
import shutil
import string
from pathlib import Path

import pytest

from boggle_cv.train import font_fetch

OFL = ("Copyright 2020 The Example Project Authors\n\nThis Font Software is licensed under the SIL Open Font "
       "License, Version 1.1.\nThis license is copied below, and is also available with a FAQ at:\n")
APACHE = "\n                                 Apache License\n                           Version 2.0, January 2004\n"
MIT = "MIT License\n\nCopyright (c) 2020 Someone\n\nPermission is hereby granted, free of charge, ...\n"


def pillow_face_bytes() -> bytes:
    from PIL import ImageFont
    return ImageFont.load_default(20).font_bytes


def fake_package(cache: Path, name: str, licence: str | None, weights=(400,)) -> Path:
    """CACHE/packages/NAME laid out as ``font_fetch.pack`` leaves it."""
    folder = cache / "packages" / name
    (folder / "files").mkdir(parents=True)
    if licence is not None:
        (folder / "LICENSE").write_text(licence)
    (folder / "package.json").write_text(json.dumps({"name": f"@fontsource/{name}", "version": "5.0.0"}))
    for w in weights:
        (folder / "files" / f"{name}-latin-{w}-normal.ttf").write_bytes(pillow_face_bytes())
    (folder / "files" / f"{name}-cyrillic-400-normal.ttf").write_bytes(b"not a face: never read")
    return folder


def test_licence_text_is_told_apart():
    assert font_fetch.licence_of(OFL) == "OFL-1.1"
    assert font_fetch.licence_of(APACHE) == "Apache-2.0"
    assert font_fetch.licence_of(MIT) == "other"
    assert font_fetch.licence_of("SIL Open Font License, Version 1.0") == "other"


@pytest.mark.parametrize("text,kept", [(OFL, True), (APACHE, True), (MIT, False), (None, False)])
def test_licence_filter_keeps_ofl_and_apache_only(tmp_path, text, kept):
    folder = fake_package(tmp_path, "fake-hand", text)
    faces, why = font_fetch.check_package(folder, "fake-hand", "5.0.0", required=string.ascii_letters)
    assert bool(faces) == kept and bool(why) != kept
    if kept:
        (face,) = faces
        assert face["licence"] == font_fetch.licence_of(text)
        assert face["package"] == "@fontsource/fake-hand" and face["version"] == "5.0.0" and face["weight"] == 400
        assert (tmp_path / face["file"]).is_file() and "-latin-400-normal" in face["file"]
    else:
        assert "LICENSE" in why or "licence" in why


def test_a_face_without_umlauts_is_dropped(tmp_path):
    face = fake_package(tmp_path, "no-umlauts", OFL) / "files" / "no-umlauts-latin-400-normal.ttf"
    assert font_fetch.missing_glyphs(face, string.ascii_letters) == ""
    assert font_fetch.missing_glyphs(face) == "äöüßÄÖÜ"
    faces, why = font_fetch.check_package(face.parent.parent, "no-umlauts", "5.0.0")
    assert faces == [] and why == "lacks glyphs äöüßÄÖÜ"


def test_at_most_two_weights_of_a_family(tmp_path):
    assert font_fetch.chosen_weights([]) == []
    assert font_fetch.chosen_weights([700]) == [700]
    assert font_fetch.chosen_weights([300, 400, 500, 700]) == [400, 700]
    assert font_fetch.chosen_weights([100, 400, 700]) == [400, 700]
    assert font_fetch.chosen_weights([200, 300]) == [300, 200]
    folder = fake_package(tmp_path, "many", OFL, weights=(300, 400, 500, 700))
    faces, _ = font_fetch.check_package(folder, "many", "5.0.0", required=string.ascii_letters)
    assert sorted(f["weight"] for f in faces) == [400, 700]


def test_fetch_is_restartable_and_writes_the_manifest(tmp_path, monkeypatch):
    made = tmp_path / "made"
    fake_package(made, "good", OFL)
    fake_package(made, "mit", MIT)
    calls = []

    def view(name):
        calls.append(("view", name))
        if name == "gone":
            raise FileNotFoundError(name)
        return {"version": "5.0.0", "license": "OFL-1.1"}

    def pack(name, version, folder):
        calls.append(("pack", name))
        shutil.copytree(made / "packages" / name, folder)

    monkeypatch.setattr(font_fetch, "npm", lambda: "npm")
    monkeypatch.setattr(font_fetch, "view", view)
    monkeypatch.setattr(font_fetch, "pack", pack)
    monkeypatch.setattr(font_fetch, "REQUIRED", string.ascii_letters)  # Pillow's face has no umlauts
    cache = tmp_path / "cache"
    manifest = font_fetch.fetch(cache, ("good", "mit", "gone"), jobs=2)
    assert [f["family"] for f in manifest["faces"]] == ["good"]
    assert set(manifest["dropped"]) == {"mit", "gone"}
    assert json.loads((cache / "manifest.json").read_text()) == manifest
    faces = font_fetch.load_faces(cache)
    assert faces[0]["path"] == cache / manifest["faces"][0]["file"] and faces[0]["path"].is_file()
    assert "1 faces kept from 1 families" in font_fetch.summary(manifest)
    n = len(calls)
    again = font_fetch.fetch(cache, ("good", "mit", "gone"), jobs=2)
    assert again == manifest and len(calls) == n  # nothing asked of npm the second time


def test_missing_npm_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(font_fetch.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="npm is not installed"):
        font_fetch.npm()


def test_no_fetched_faces_names_the_fetch_command(tmp_path):
    with pytest.raises(SystemExit, match="font_hands fetch"):
        font_fetch.load_faces(tmp_path)
