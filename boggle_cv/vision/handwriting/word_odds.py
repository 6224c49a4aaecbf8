"""How a lexicon reading turns a word's CTC likelihood under the ink into odds: a
candidate's score is log P(word | ink) / TEMPERATURE + its prior of common words +
LENGTH_BONUS a letter (natural log units). The reader's softmax over a lexicon
(``reading``) and the board check's weighing of a board word against the readings off
the board (``board_check``) score alike."""

#: Softmax temperature over candidate log-likelihoods (1 = the model's own odds; 1.5
#: and reading.FLAG_BELOW were chosen on the "tune" split: `python -m boggle_cv.train.word_flags`;
#: both again for the fine-tuned reader read at one stretch: at 1.5 and 0.90, 2.9%
#: confident errors on Jeremy's 489 tune words, 44.2% flagged; at 2.0 and 0.90, 1.4%
#: and 55.4% (DHSD's 95 tune crops: 0.0%, 3.2% flagged)).
TEMPERATURE = 2.0
#: A bonus per letter of a lexicon candidate (natural log units, added after the
#: temperature, beside the prior of common words): without it the reading leans to
#: short words - CTC lets blanks swallow unclear ink, so "order" hides in a blurred
#: "predecessor", "tile" in "children" - and of its errors on Jeremy's tune words 1 in
#: 4 was a letter or more too short against 1 in 75 too long. Chosen on the tune split
#: with the temperature and the prior kept (`python -m boggle_cv.train.word_flags
#: ../shared/handwriting-public --length`, T 2.0, threshold 0.90): 0 / 0.5 / 1.0 /
#: 1.5 / 2.0 gave Jeremy 85.7 / 87.5 / 89.6 / 89.4 / 88.5% top-1 (confident errors 1.4
#: / 1.2 / 1.2 / 1.2 / 1.4%), and on its words cut at their true boxes from sheets
#: composed of the tune crops (scripts/compose_sheets.py --seed 77) 77.5 / 80.2 / 81.5
#: / 81.7 / 81.5%; DHSD 98.9% at each.
LENGTH_BONUS = 1.0
