"""deploy/nginx.conf as the drill renders it for several hosts: Debian's nginx accepts
it, and only the upstream lists and the certificate differ from the file."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import require
from tests.drill.hosts import (
    NGINX_CONF,
    UPSTREAM_HEADER,
    make_certificate,
    nginx_main_conf,
    render_site_conf,
)

WORKERS = ["10.0.0.2:8001", "10.0.0.2:8002", "10.0.0.3:8001", "10.0.0.3:8002"]


def directives(text: str) -> list[str]:
    """Every directive of a configuration, comments and blank lines left out."""
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def test_debians_nginx_accepts_the_rendered_configuration(tmp_path):
    require("nginx")
    cert, key = make_certificate(tmp_path)
    site = tmp_path / "fairway.conf"
    site.write_text(render_site_conf(WORKERS, cert, key))
    main = tmp_path / "nginx.conf"
    main.write_text(nginx_main_conf(tmp_path, site))
    checked = subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_only_the_upstreams_and_the_certificate_change(tmp_path):
    cert, key = tmp_path / "site.pem", tmp_path / "site.key"
    rendered = directives(render_site_conf(WORKERS, cert, key))
    original = directives(NGINX_CONF.read_text())
    upstreams = re.findall(r"upstream\s+(\w+)", "\n".join(original))
    assert len(upstreams) == 2
    for name in upstreams:
        start = rendered.index(f"upstream {name} {{")
        end = rendered.index("}", start)
        servers = [line for line in rendered[start:end] if line.startswith("server ")]
        assert [line.split()[1] for line in servers] == WORKERS

    def kept(lines: list[str]) -> list[str]:
        return [
            line
            for line in lines
            if not line.startswith(("server 1", "ssl_certificate", "add_header"))
        ]

    assert kept(rendered) == kept(original)
    assert f"add_header {UPSTREAM_HEADER} $upstream_addr always;" in rendered
