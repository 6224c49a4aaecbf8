"""docs/hosting.md's nginx configuration, run as it is written (ports, certificate
and host name changed) in front of `boggle-cv serve --proxy 127.0.0.1` on loopback:
TLS, only the configured host name, the limits per address applying to each phone's
own address, https join links, and the live stream passing event by event.
Skipped where nginx or openssl is not installed."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from .conftest import REPO  # noqa: E402
from .serving import free_port, serve, stop, wait_health  # noqa: E402

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
NAME = "boggle.test"


def site_config() -> str:
    doc = (REPO / "docs" / "hosting.md").read_text(encoding="utf-8")
    block = doc.split("<!-- nginx-config -->", 1)[1].split("<!-- /nginx-config -->", 1)[0]
    return block.split("```nginx", 1)[1].rsplit("```", 1)[0]


@pytest.fixture()
def proxied(tmp_path):
    """(nginx's TLS port, serve's port): serve --proxy 127.0.0.1 behind the documented nginx."""
    if NGINX is None or shutil.which("openssl") is None:
        pytest.skip("nginx or openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    f"/CN={NAME}", "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    app_port, tls_port = free_port(), free_port()
    site = site_config().replace("127.0.0.1:8765", f"127.0.0.1:{app_port}")
    site = site.replace("listen 443 ssl", f"listen 127.0.0.1:{tls_port} ssl").replace("boggle.example.org", NAME)
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)
    (tmp_path / "site.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    (tmp_path / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;\n"
        f"fastcgi_temp_path {tmp_path}/f; uwsgi_temp_path {tmp_path}/u; scgi_temp_path {tmp_path}/s;\n"
        f"include {tmp_path}/site.conf; }}\n")
    app = serve("--port", str(app_port), "--proxy", "127.0.0.1", "--db", str(tmp_path / "g.db"))
    nginx = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_health(app_port, app)
        end = time.monotonic() + 20
        while time.monotonic() < end and nginx.poll() is None:
            try:
                httpx.get(f"https://127.0.0.1:{tls_port}/api/health", headers={"Host": NAME}, verify=False)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert nginx.poll() is None, nginx.stderr.read() if nginx.stderr else ""
        yield tls_port, app_port
    finally:
        nginx.terminate()
        nginx.wait(10)
        stop(app)


def _phone(tls_port: int, address: str) -> httpx.Client:
    """A client from its own loopback address, as a phone would be."""
    return httpx.Client(base_url=f"https://127.0.0.1:{tls_port}", headers={"Host": f"{NAME}:{tls_port}"},
                        transport=httpx.HTTPTransport(local_address=address, verify=False), timeout=10)


def test_the_documented_nginx_serves_the_rooms_over_tls(proxied):
    tls_port, _ = proxied
    with httpx.Client(verify=False, timeout=10) as other:  # a host name nginx does not serve
        with pytest.raises(httpx.HTTPError):
            other.get(f"https://127.0.0.1:{tls_port}/", headers={"Host": "evil.example"})
    with _phone(tls_port, "127.0.0.2") as ann, _phone(tls_port, "127.0.0.3") as bob:
        made = [ann.post("/api/rooms", json={}) for _ in range(10)]
        assert [r.status_code for r in made] == [201] * 10
        assert made[0].json()["join_url"].startswith(f"https://{NAME}:{tls_port}/?room=")
        assert ann.post("/api/rooms", json={}).status_code == 429  # ann's own limit...
        room = bob.post("/api/rooms", json={}).json()  # ...not bob's: each phone its own address
        code, host = room["code"], room["host_token"]
        with bob.stream("GET", f"/api/rooms/{code}/events") as events:
            lines = events.iter_lines()
            assert any("hello" in line for line in lines)
            t0 = time.monotonic()
            changed = ann.put(f"/api/rooms/{code}/settings", json={"seconds": 90},
                              headers={"Authorization": f"Bearer {host}"})
            assert changed.status_code == 200, changed.text
            assert any(line.startswith("id: ") and int(line[4:]) > room["room"]["version"] for line in lines)
            assert time.monotonic() - t0 < 2.0  # not held back in a buffer
