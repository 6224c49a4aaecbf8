"""The game and its referee: boards and cubes, dictionaries and editions, the
solver, the scoring rules, one round refereed and shown as text. Imports nothing
from vision/, room/, web/ or cli/."""
