"""The word reader's calibration (vision.handwriting.doubt) and the board's weight:
which readings the player is asked about."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from boggle_cv.errors import EngineMissingError
from boggle_cv.vision.handwriting import commonness, ctc, doubt, reading


def _views_for(spec: str, other: float = 0.02) -> list[np.ndarray]:
    """One view whose frames read `spec`: a letter a frame between blanks; "x|y" is a
    frame that cannot tell x from y."""
    parts = spec.split(",")
    probs = np.full((2 * len(parts) + 1, 27), other)
    probs[0::2, 0] = 0.9
    for i, part in enumerate(parts):
        for c in part.split("|"):
            probs[2 * i + 1, ord(c) - 96] = 0.9 / len(part.split("|"))
    return [probs / probs.sum(axis=1, keepdims=True)]


def _evidence(**kw: float) -> doubt.Evidence:
    base = dict(doubt=3.0, margin=3.0, fit_gap=0.0, same=1.0, misfit=0.0, agree=2.0, length=5.0, common=4.0,
                on_board=0.0, per_frame=-0.1)
    return doubt.Evidence(**{**base, **kw})


CAL = doubt.Calibration(doubt.NAMES, (0.0,) * len(doubt.NAMES), (1.0,) * len(doubt.NAMES),
                        tuple(1.0 if n in ("doubt", "margin", "same") else -0.5 if n == "fit_gap" else 0.0
                              for n in doubt.NAMES), -4.0, 0.9)


def test_the_calibration_is_a_logistic_regression_over_the_evidence():
    sure, unsure = _evidence(doubt=6.0, margin=6.0), _evidence(doubt=0.5, margin=0.1, same=0.0, fit_gap=4.0)
    assert CAL.p_right(sure) == pytest.approx(1 / (1 + np.exp(-(6 + 6 + 1 - 4))))
    assert CAL.p_right(unsure) < 0.05 < 0.99 < CAL.p_right(sure)
    # an impossible word's log-likelihood (-1e30) stays a number
    assert 0.0 <= CAL.p_right(_evidence(fit_gap=1e30, per_frame=-1e30)) <= 1.0


def test_a_calibration_file_is_checked_and_read(tmp_path, monkeypatch):
    path = tmp_path / "word_doubt.json"
    doubt.write(path, CAL)
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", str(path))
    assert doubt.calibration() == CAL
    assert doubt.Calibration.from_dict(CAL.to_dict()) == CAL
    path.write_text(path.read_text().replace('"bias": -4.0', '"bias": 4.0'))
    with pytest.raises(EngineMissingError, match="SHA-256"):
        doubt.calibration()
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")
    assert doubt.calibration() is None
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", str(tmp_path / "missing.json"))
    with pytest.raises(EngineMissingError, match="not found"):
        doubt.calibration()


def test_a_reading_carries_its_evidence_and_the_calibration_flags_it(tmp_path, monkeypatch):
    path = tmp_path / "word_doubt.json"
    doubt.write(path, CAL)
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", str(path))
    lexicon = ["seat", "sent"]
    clear = reading.read_views(_views_for("s,e,a,t", other=0.001), lexicon)
    assert clear.word == "seat" and clear.evidence is not None
    assert clear.evidence.same == 1.0 and clear.evidence.length == 4.0 and clear.evidence.agree == 2.0
    assert clear.p_right == pytest.approx(CAL.p_right(clear.evidence)) and not clear.flagged
    torn = reading.read_views(_views_for("s,e,a|n,t"), lexicon)  # a or n: a coin toss
    assert torn.evidence.margin < 0.5 and torn.flagged and torn.p_right < CAL.ask_below
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")
    plain = reading.read_views(_views_for("s,e,a,t", other=0.001), lexicon)
    assert plain.p_right is None and plain.evidence == clear.evidence


def test_the_fit_gap_is_what_the_lexicon_word_costs_against_the_free_reading():
    views = _views_for("s,e,a,t,s")
    r = reading.read_views(views, ["seat", "tears"])
    assert r.free == "seats" and r.word == "seat"
    want = float(ctc.log_likelihoods(views[0], *ctc.encode(["seats"]))[0]
                 - ctc.log_likelihoods(views[0], *ctc.encode(["seat"]))[0])
    assert r.evidence.fit_gap == pytest.approx(want) and r.evidence.fit_gap > 0
    assert r.evidence.misfit == pytest.approx(1 / 4)


def test_a_word_on_the_board_wins_a_near_tie_and_says_so(monkeypatch):
    """fire or five, the ink unsure of r and v: the one on the board is read."""
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")
    views = _views_for("f,i,r|v,e")
    lexicon = ["fire", "five"]
    prior = commonness.log_prior(lexicon)
    for on in ("fire", "five"):
        mask = reading.board_mask(lexicon, [on])
        r = reading.read_views(views, lexicon, None, prior, mask)
        assert r.word == on and r.evidence.on_board == 1.0
        assert r.confidence > 0.9
    off = reading.read_views(views, lexicon, None, prior)
    assert off.evidence.on_board == 0.0 and off.confidence < 0.9


def test_clear_ink_off_the_board_is_read_as_written(monkeypatch):
    """A word its player wrote though it is not on the board is read as written when
    the ink says so: the board weighs, it does not overrule."""
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")
    views = _views_for("f,i,r,e", other=0.0001)
    lexicon = ["fire", "five"]
    r = reading.read_views(views, lexicon, None, commonness.log_prior(lexicon), reading.board_mask(lexicon, ["five"]))
    assert r.word == "fire" and r.evidence.on_board == 0.0


def test_read_words_weighs_the_board_words_up(monkeypatch):
    """The lexicon's reading weighs the board's words up (the board check that weighs
    it against the readings off the board is left out here: test_handwriting_board_check)."""
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")
    monkeypatch.setattr(reading, "ink_decides", lambda r, *args, **kwargs: r)
    captured = {}

    def fake_views(images):
        return [_views_for("f,i,r|v,e") for _ in images]
    monkeypatch.setattr(reading, "crop_views", fake_views)
    monkeypatch.setattr(reading.recogniser, "frame_probs", lambda images, s=1.0: [v[0] for v in fake_views(images)])
    img = np.full((48, 100, 3), 255, np.uint8)
    captured["plain"] = reading.read_words([img], ["fire", "five"])[0]
    captured["board"] = reading.read_words([img], ["fire", "five"], board_words=["FIVE"])[0]
    assert captured["board"].word == "five" and captured["board"].confidence > captured["plain"].confidence
    assert dataclasses.replace(captured["board"], evidence=None).evidence is None
