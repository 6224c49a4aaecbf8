"""Rooms: one table playing one game of rounds, every player on their own phone.

  model    the room's state as data (players, settings, the current round)
  db       rooms kept in SQLite (the games database file), one transaction a change
  service  what can be done, by whom (host / player tokens), and when: a package
           of the actions by their job (players, rounds, board, lists, re-reads)
  sheets   the rules of a list that a sheet photo adds to
  view     what one viewer may see
  dictionaries  one dictionary per edition, loaded when first needed

The web layer (boggle_cv.web.rooms) only turns HTTP into these calls.
"""
