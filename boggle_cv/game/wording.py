"""Counts in English prose: "1 doubtful cell", "3 doubtful cells", never "cell(s)"."""
from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """n and the noun phrase in its number: counted(1, "doubtful cell") -> "1 doubtful cell",
    counted(2, "doubtful cell") -> "2 doubtful cells" (`many` for an irregular plural)."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
