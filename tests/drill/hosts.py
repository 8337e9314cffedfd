"""Three hosts on one machine: two app hosts and a front host, each a network namespace.

The namespaces hang off a bridge of their own in the machine's namespace, which keeps
the bridge's first address (the gateway). PostgreSQL and Redis listen on the machine's
127.0.0.1 only: an nftables table of the drill's own forwards their ports on the gateway
there (DNAT, with the bridge's `route_localnet`), and makes the connections come from
127.0.0.1 (SNAT on input), so they pass PostgreSQL's `pg_hba.conf` and Redis's protected
mode as a local client would. Nothing of the machine's own configuration changes: the
bridge, its setting and the table go with the drill.

An app host runs what `deploy/serve.sh` starts (`app_host_processes`); the front host
runs Debian's nginx with `deploy/nginx.conf` as it is, but for its upstream lists (the
app hosts' workers), its certificate (one made for the drill) and a header naming the
worker that answered. Every process of a namespace can be killed at once, as a machine
that dies takes them all.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.conftest import ROOT

#: The site's name, as the front host's certificate and the app's ALLOWED_HOSTS know it.
SITE = "fairway.example.org"
#: daphne workers per app host and the first one's port (serve.sh's WORKERS, BASE_PORT).
WORKERS = 2
BASE_PORT = 8001
#: What a worker must answer with 200 before it counts as up, asked of the worker
#: itself as a load balancer's check would (over plain HTTP, saying the proxy took it
#: over HTTPS).
READY_PATH = "/readyz"
#: A page asked through nginx: once it loads, the front host is up; after a host dies,
#: it must still load.
PAGE_PATH = "/accounts/login/"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
#: The header the front host adds to every answer: the worker's address and port.
UPSTREAM_HEADER = "X-Drill-Upstream"


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(args, check=check, capture_output=True, text=True)


def worker_ports() -> list[int]:
    return [BASE_PORT + i for i in range(WORKERS)]


def app_host_processes(address: str) -> dict[str, list[str]]:
    """The processes an app host runs, by name, with their command lines: what
    `deploy/serve.sh` starts (its daphne workers, bound to the host's address, and a task
    worker, named "tasks": the drill asks the living one for the dead host's reviews)."""
    processes = {}
    for port in worker_ports():
        processes[f"daphne-{port}"] = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            address,
            "-p",
            str(port),
            "--proxy-headers",
            "--websocket-max-message-size",
            "65536",
            "config.asgi:application",
        ]
    # As serve.sh starts them (TASK_WORKERS=1): the queue is the shared database's.
    processes["tasks"] = [
        *("nice", "-n", "19"),
        *(sys.executable, "manage.py", "db_worker", "--no-reload"),
    ]
    return processes


@dataclass
class Host:
    """One network namespace: its name, its address on the bridge, what it runs."""

    namespace: str
    address: str
    logs: Path
    #: The end of its link on the bridge.
    link: str = ""
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        """Run `command` inside the host (`ip netns exec` becomes the command itself)."""
        log = self.logs / f"{self.namespace}-{name}.log"
        with open(log, "ab") as out:
            process = subprocess.Popen(
                ["ip", "netns", "exec", self.namespace, *command],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes[name] = process
        return process

    def pids(self) -> list[int]:
        """Every process inside the namespace, whoever started it."""
        listed = run("ip", "netns", "pids", self.namespace, check=False).stdout
        return [int(pid) for pid in listed.split()]

    def kill(self) -> None:
        """SIGKILL everything the host runs, as when the machine dies (its network stays
        up: the kernel closes the processes' connections)."""
        for _ in range(50):  # again, for a child started meanwhile
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)

    def cut_off(self) -> None:
        """Take the host off the network: nothing it was sent is answered, not even
        with a refusal, as when a machine is gone."""
        run("ip", "link", "set", self.link, "down")

    def alive(self) -> list[str]:
        return [name for name, p in self.processes.items() if p.poll() is None]

    def exited(self) -> dict[str, int]:
        return {name: p.returncode for name, p in self.processes.items() if p.poll() is not None}


class Network:
    """A bridge, its gateway address in this namespace, hosts hung off it, and the
    forwarding of PostgreSQL's and Redis's ports; `close` undoes it all, each step
    taken whatever became of the others."""

    def __init__(self, logs: Path) -> None:
        self.tag = f"{os.getpid() % 0xFFFF:04x}{random.randrange(0x100):02x}"
        self.bridge = f"fw{self.tag}br"
        self.table = f"fairway_drill_{self.tag}"
        self.prefix = self._free_prefix()
        self.gateway = f"{self.prefix}.1"
        self.logs = logs
        self.hosts: list[Host] = []
        self.undo: list[Callable[[], object]] = []

    @staticmethod
    def _free_prefix() -> str:
        """A /24 under 10.0.0.0/8 that no route of this machine covers yet."""
        routes = run("ip", "-4", "route", "show", "table", "all").stdout
        while True:
            prefix = f"10.{random.randrange(64, 250)}.{random.randrange(1, 250)}"
            if f"{prefix}." not in routes:
                return prefix

    def open(self, forwarded_ports: list[int]) -> None:
        self.undo.append(lambda: run("ip", "link", "del", self.bridge, check=False))
        run("ip", "link", "add", self.bridge, "type", "bridge")
        run("ip", "addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        run("ip", "link", "set", self.bridge, "up")
        Path(f"/proc/sys/net/ipv4/conf/{self.bridge}/route_localnet").write_text("1\n")
        ports = ", ".join(str(port) for port in forwarded_ports)
        to_services = f'iifname "{self.bridge}" ip daddr {self.gateway} tcp dport {{ {ports} }}'
        rules = f"""
        table ip {self.table} {{
            chain services {{
                type nat hook prerouting priority dstnat; policy accept;
                {to_services} dnat to 127.0.0.1
            }}
            chain as_local {{
                type nat hook input priority 100; policy accept;
                iifname "{self.bridge}" ip daddr 127.0.0.1 snat to 127.0.0.1
            }}
        }}
        """
        self.undo.append(lambda: run("nft", "delete", "table", "ip", self.table, check=False))
        subprocess.run(["nft", "-f", "-"], input=rules, check=True, capture_output=True, text=True)

    def add_host(self, role: str) -> Host:
        number = len(self.hosts) + 2
        outside, inside = f"fw{self.tag}h{number}", f"fw{self.tag}n{number}"
        host = Host(f"fairway-{self.tag}-{role}", f"{self.prefix}.{number}", self.logs, outside)
        self.undo.append(lambda: run("ip", "netns", "del", host.namespace, check=False))
        run("ip", "netns", "add", host.namespace)
        self.undo.append(lambda: run("ip", "link", "del", outside, check=False))
        run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
        run("ip", "link", "set", outside, "master", self.bridge)
        run("ip", "link", "set", outside, "up")
        run("ip", "link", "set", inside, "netns", host.namespace)
        inns = ("ip", "-n", host.namespace)
        run(*inns, "link", "set", inside, "name", "eth0")
        run(*inns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        run(*inns, "link", "set", "eth0", "up")
        run(*inns, "link", "set", "lo", "up")
        run(*inns, "route", "add", "default", "via", self.gateway)
        self.hosts.append(host)
        return host

    def via_gateway(self, url: str) -> str:
        """`url` (a service on this machine's 127.0.0.1) as the hosts reach it."""
        parts = urlsplit(url)
        netloc = parts.netloc.replace(parts.hostname or "", self.gateway, 1)
        return urlunsplit(parts._replace(netloc=netloc))

    def close(self) -> list[str]:
        """Kill every host's processes while their connections can still close (else
        PostgreSQL keeps their sessions open, and the test database with them), then
        undo every step taken, last first; what went wrong, as sentences."""
        problems = []
        for step in [*(host.kill for host in self.hosts), *reversed(self.undo)]:
            try:
                step()
            except Exception as error:  # every other step is still undone
                problems.append(repr(error))
        self.undo.clear()
        return problems


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for SITE (and its key), for the front host."""
    cert, key = directory / "site.pem", directory / "site.key"
    run(
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "2",
        "-subj",
        f"/CN={SITE}",
        "-addext",
        f"subjectAltName=DNS:{SITE}",
        "-keyout",
        str(key),
        "-out",
        str(cert),
    )
    return cert, key


UPSTREAM = re.compile(r"(upstream\s+\w+\s*\{)(.*?)(\})", re.S)
SERVER_LINE = re.compile(r"^[ \t]*server\s+[^;\n]+;[ \t]*\n", re.M)


def render_site_conf(workers: list[str], cert: Path, key: Path) -> str:
    """deploy/nginx.conf with every upstream listing `workers` (address:port, with the
    file's own server options) in place of its own servers, the drill's certificate,
    and the upstream header; the routing as the file has it."""
    text = NGINX_CONF.read_text()

    def upstream(match: re.Match) -> str:
        head, body, tail = match.groups()
        lines = SERVER_LINE.findall(body)
        if not lines:
            raise AssertionError(f"no server line in {head!r} of {NGINX_CONF.name}")
        indent, options = re.match(r"([ \t]*)server\s+\S+?(\s[^;]*)?;", lines[0]).groups()
        servers = "".join(f"{indent}server {worker}{options or ''};\n" for worker in workers)
        body = SERVER_LINE.sub("", body, count=len(lines) - 1)
        return head + SERVER_LINE.sub(servers, body) + tail

    text, found = UPSTREAM.subn(upstream, text)
    assert found, f"no upstream block in {NGINX_CONF.name}"
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    assert str(cert) in text and str(key) in text, "no certificate lines to replace"
    header = f"add_header {UPSTREAM_HEADER} $upstream_addr always;"
    text, found = re.subn(
        r"(location / \{\n)(\s*proxy_pass http://\$workers;)", rf"\1        {header}\n\2", text
    )
    assert found == 1, "no `location /` passing to the workers to add the upstream header to"
    return text


def nginx_main_conf(directory: Path, site_conf: Path) -> str:
    """The main configuration around the site's: files under `directory` only."""
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""pid {directory / "nginx.pid"};
error_log {directory / "error.log"} warn;
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
    access_log {directory / "access.log"};
{temp}
    include {site_conf};
}}
"""
