"""A server that cannot take more work says so at once, with when to come back: a
photo that found every reading slot busy, and a games database busy or out of reach,
are answered 503 with Retry-After (never a hang, never a bare 500)."""
from __future__ import annotations

import anyio
import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from starlette.responses import JSONResponse  # noqa: E402

from boggle_cv.errors import StorageError  # noqa: E402
from boggle_cv.web.config import ServeConfig  # noqa: E402
from boggle_cv.web.errors import STORAGE_RETRY_S, from_boggle_error  # noqa: E402
from boggle_cv.web.uploads import BUSY_RETRY_S, BodyLimit  # noqa: E402


def test_a_photo_that_finds_every_reading_slot_busy_is_told_when_to_come_back(tmp_path):
    async def slow_reader(scope, receive, send) -> None:  # one photo read takes 2 s
        while (await receive()).get("more_body"):
            pass
        await anyio.sleep(2)
        await JSONResponse({"ok": True})(scope, receive, send)

    config = ServeConfig(db_path=tmp_path / "g.db", max_photo_requests=1, max_photo_requests_per_client=4,
                         photo_wait_s=0.3)
    app = BodyLimit(slow_reader, lambda path: 1 << 20, config)

    async def main() -> list[httpx.Response]:
        out: list[httpx.Response] = []
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            async def post() -> None:
                out.append(await client.post("/api/scan", content=b"\xff\xd8jpeg",
                                             headers={"Content-Type": "image/jpeg"}))
            async with anyio.create_task_group() as tg:
                tg.start_soon(post)
                await anyio.sleep(0.1)
                tg.start_soon(post)
        return out

    first_done, second = sorted(anyio.run(main), key=lambda r: r.status_code)
    assert first_done.status_code == 200
    assert second.status_code == 503 and second.headers["Retry-After"] == str(BUSY_RETRY_S)
    assert second.json()["code"] == "server.busy"


def test_a_busy_database_is_503_with_retry_after_and_other_storage_errors_stay_500():
    busy = from_boggle_error(StorageError("the games database is busy", "try again", code="storage.busy"))
    assert busy.status_code == 503 and busy.headers["Retry-After"] == str(STORAGE_RETRY_S)
    broken = from_boggle_error(StorageError("the games database is damaged", "move it aside"))
    assert broken.status_code == 500 and "Retry-After" not in broken.headers
