"""The web page for the game table: `boggle-cv serve`.

Players open the page on their phones, take a photo of the tray, check the board as
read (drawn over the photo), type their words and get the referee's report; rounds
go into the same SQLite games store as the command line.

Needs the optional extra ``web`` (Starlette, uvicorn, python-multipart). Modules:
  config    ServeConfig: limits and places (upload cap, preview size, database)
  uploads   body size cap while streaming, image-only uploads, bounded decoding
  geometry  board cells in photo pixels for the overlay (centres, outlines, view box)
  api       the JSON endpoints
  app       create_app(): routes, static assets, JSON errors
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .config import ServeConfig

__all__ = ["ServeConfig", "create_app"]


if TYPE_CHECKING:
    from .app import create_app
else:
    def create_app(*args: Any, **kwargs: Any) -> Any:
        """Build the ASGI app (see app.create_app); imported lazily so the CLI can check the extra."""
        from .app import create_app as _create
        return _create(*args, **kwargs)
