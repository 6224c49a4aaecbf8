"""Practice alone and beat a personal best (RULES.md: "A solo player plays for a
personal best"); docs/practice.md.

  shake     the virtual shake: the real cubes of a size and edition (Deal, shake)
  clock     the round's clock and words typed against it (usual_seconds, Clock,
            type_against_clock)
  record    the rounds played alone in the games database, a player's record
            (PracticeRound, Record, save, record, history)
  round     a practice round refereed, recorded and summed up (score_practice,
            practice_round, record_round, Summary)

The command is cli/practice.py, the page's routes web/practice.py.
"""
