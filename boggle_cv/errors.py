"""One exception type per failure a user can meet, each with its exit code.

Exit codes (stable, documented in docs/errors.md):
  0 ok, 1 internal error, 2 usage (bad board text, bad option, bad word list),
  3 missing engine or model, 4 unreadable image, 5 no board found (or, for a
  player's sheet, no writing found),
  6 reading below the confidence bar with --strict, 7 cannot write an output file or
  the games database,
  130 interrupted (Ctrl-C).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .error_codes import ErrorCode


class BoggleError(Exception):
    """Base of every error the user can meet; `exit_code` is what the CLI returns.

    `code` (error_codes.CODES) names the message for a phone that shows it in its own
    language, `params` the values it shows; a class may give a default code for all
    its messages (an unreadable photo is one message to a player, whatever the cause)."""

    exit_code: int = 1
    default_code: ErrorCode | None = None

    def __init__(self, message: str, hint: str | None = None, *, code: ErrorCode | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.code: ErrorCode | None = code or self.default_code
        self.params: dict[str, Any] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # keeps the hint, code and params (and a subclass's own state) when the error
        # crosses processes (scan --jobs, the server's photo readers)
        return type(self), (self.message, self.hint), dict(self.__dict__)

    def details(self) -> dict[str, Any]:
        """Extra keys for the JSON error answer beside error, hint and kind (none here)."""
        return {}

    def one_line(self) -> str:
        """The single line printed on stderr: what is wrong, then what to do."""
        return f"{self.message}" + (f" ({self.hint})" if self.hint else "")


class UsageError(BoggleError, ValueError):
    """Bad input: an option, a board text, a word list, a library argument's value.
    A ValueError, so library callers can catch it as one."""

    exit_code = 2


class ArgumentTypeError(UsageError, TypeError):
    """A library argument of the wrong type (a str where a list of words belongs,
    None where a photo belongs). Also a TypeError."""


class BoardTextError(UsageError):
    """A board text that cannot be parsed (names the row and character)."""

    default_code: ErrorCode | None = "board.text"


class WordListError(UsageError):
    """A players' word list or dictionary file that cannot be used."""


class EngineMissingError(BoggleError):
    """A required engine (tesseract) or model file is missing or corrupt."""

    exit_code = 3
    default_code: ErrorCode | None = "reader.missing"


class ImageReadError(BoggleError):
    """The photo cannot be read as an image."""

    exit_code = 4
    default_code: ErrorCode | None = "photo.unreadable"


class NoBoardError(BoggleError):
    """No complete board was found in the photo."""

    exit_code = 5
    default_code: ErrorCode | None = "photo.no_board"


class NoWritingError(BoggleError):
    """No writing was found in a photo given as a player's sheet (a blank page, the
    tray's photo): exit 5, like a photo with no board."""

    exit_code = 5
    default_code: ErrorCode | None = "sheet.no_writing"


class LowConfidenceError(BoggleError):
    """A doubt whose answer changes a score (a cell read below the confidence bar, a
    sheet word) is open and --strict was given."""

    exit_code = 6


class StorageError(BoggleError):
    """The games database cannot be opened or written."""

    exit_code = 7
    default_code: ErrorCode | None = "storage.error"


class OutputError(StorageError):
    """An output file (annotated image, debug image) cannot be written."""


class RepeatedRoundError(StorageError):
    """The round is already stored in its game (the same photo and lists): `scan
    --replace` replaces it, `standings NAME --remove N` removes it."""


class RoomError(BoggleError):
    """A room request that cannot be done; `status` is its HTTP status."""

    exit_code = 2
    status = 400


class RoomNotFound(RoomError):
    """No room, player or round by that name (404): also what a guessed code gets."""

    status = 404


class NotAuthenticated(RoomError):
    """No token, or a token this room does not know (401)."""

    status = 401


class NotAllowed(RoomError):
    """A known token asking for what it may not do: another player's list, a host action (403)."""

    status = 403


class RoundStateError(RoomError):
    """Not now: the lists are locked, the round has not started, it is already scored (409)."""

    status = 409


class RoundChanged(RoundStateError):
    """A sheet photo read for a round that is no longer the room's current one, or was
    scored while it was read (409): nothing was added."""


class QuestionsOpen(RoundStateError):
    """Score while a doubt whose answer changes a score is open (409): `questions` are
    the referee's (questions.Question.to_dict each), first to settle first; nothing
    was scored."""

    default_code: ErrorCode | None = "round.questions_open"

    def __init__(self, message: str, hint: str | None = None, questions: list[dict[str, Any]] | None = None, *,
                 code: ErrorCode | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, hint, code=code, params=params)
        self.questions: list[dict[str, Any]] = questions or []

    def details(self) -> dict[str, Any]:
        return {"questions": self.questions}


class NotDoubtful(RoomError):
    """A word to confirm or fix that is not (or no longer) marked doubtful in that
    player's list: settled meanwhile on another phone (409)."""

    status = 409


class NotOnSheet(RoomError):
    """A word to type over that is not (or no longer) a word a sheet added to that
    player's list: typed by the player, or changed meanwhile on another phone (409)."""

    status = 409


class LimitReached(RoomError):
    """A room, player or list limit (429 for the server's rooms and guesses, else 409)."""

    status = 409


class StaleList(RoomError):
    """A list saved from a revision that is not the server's (409): another tab or phone
    of the same player saved since. Nothing was stored; `current` is the server's list
    {"words": [...], "revision": N}, sent with the error so the phone can merge and
    save again with base N."""

    status = 409

    default_code: ErrorCode | None = "list.stale"

    def __init__(self, message: str, hint: str | None = None, current: dict[str, Any] | None = None, *,
                 code: ErrorCode | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, hint, code=code, params=params)
        self.current: dict[str, Any] = current or {}

    def details(self) -> dict[str, Any]:
        return {"current": self.current}
