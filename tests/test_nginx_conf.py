"""The example proxy (deploy/nginx.conf), run by nginx itself in front of a worker: a
load balancer's /healthz reaches a worker over plain HTTP and HTTPS, everything else on
plain HTTP goes to https, and readiness and metrics are not served to the public."""

from __future__ import annotations

import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import DaphneServer, free_port

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def proxy_config(tmp_path: Path, worker_port: int, http_port: int, https_port: int) -> Path:
    """deploy/nginx.conf inside a whole nginx configuration of its own: its workers
    listed as the one test worker, its ports and certificate this test's."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    conf = re.sub(r"server 127\.0\.0\.1:800\d", f"server 127.0.0.1:{worker_port}", conf)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    conf = conf.replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
    conf = re.sub(r"/etc/letsencrypt/live/fairway\.example\.org/", f"{tmp_path}/", conf)
    temp = tmp_path / "temp"
    temp.mkdir()
    temp.chmod(0o777)
    whole = tmp_path / "nginx.conf"
    whole.write_text(
        f"pid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\n"
        "events {}\n"
        "http {\n"
        "    access_log off;\n"
        + "".join(
            f"    {kind}_temp_path {temp}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + conf
        + "\n}\n"
    )
    return whole


def get(url: str) -> tuple[int, str, str]:
    """(status, body, Location) of a GET that follows no redirect."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, response.read().decode(), ""
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers.get("Location", "")


def test_the_example_proxy_serves_healthz_and_keeps_readiness_and_metrics_in(
    transactional_db, tmp_path
):
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=fairway.example.org",
            "-keyout",
            str(tmp_path / "privkey.pem"),
            "-out",
            str(tmp_path / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )
    worker = DaphneServer().start()
    nginx = None
    try:
        http_port, https_port = free_port(), free_port()
        config = proxy_config(tmp_path, worker.port, http_port, https_port)
        checked = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen([NGINX, "-c", str(config), "-g", "daemon off;"])
        plain, secure = f"http://127.0.0.1:{http_port}", f"https://127.0.0.1:{https_port}"
        deadline = time.monotonic() + 15
        while get(plain + "/healthz")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert get(plain + "/healthz")[:2] == (200, '{"status": "ok"}')
        assert get(secure + "/healthz")[:2] == (200, '{"status": "ok"}')
        status, _, location = get(plain + "/lobby/")
        assert (status, location) == (301, "https://127.0.0.1/lobby/")
        for path in ("/readyz", "/metrics"):
            status, body, _ = get(secure + path)
            assert status == 404
            assert "fairway_" not in body and "ready" not in body
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        worker.stop()
