"""A device and a push service for tests of Web Push, both real: the device holds a P-256
key pair and an auth secret as a browser does, and decrypts what it is sent (RFC 8291,
with http_ece, the receiving side of the library the site encrypts with); the push service
is a tiny HTTP server on 127.0.0.1 that keeps each request and answers as told."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from config.vapid import b64url, b64url_decode
from leagues.models import PushSubscription


@dataclass(frozen=True)
class Pushed:
    """One request the push service received."""

    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushService:
    """Answers `status` (201, as a push service that took the message) or, for a path in
    `answers`, that path's status."""

    server: ThreadingHTTPServer
    received: list[Pushed] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    status: int = 201

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def to(self, path: str) -> list[Pushed]:
        return [request for request in self.received if request.path == path]


def start_push_service() -> PushService:
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.received.append(
                Pushed(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            self.send_response(service.answers.get(self.path, service.status))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    service = PushService(ThreadingHTTPServer(("127.0.0.1", 0), Handler))
    threading.Thread(target=service.server.serve_forever, daemon=True).start()
    return service


@dataclass(frozen=True)
class Device:
    """A browser's side of a subscription: its private key and auth secret."""

    key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        )

    def subscribe(self, player) -> PushSubscription:
        return PushSubscription.objects.create(
            player=player, endpoint=self.endpoint, p256dh=self.p256dh, auth=b64url(self.auth)
        )

    def as_json(self) -> dict:
        """What the browser's `PushSubscription.toJSON()` gives."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def read(self, pushed: Pushed) -> dict:
        """The message, decrypted as the browser would: it must be aes128gcm."""
        assert pushed.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            pushed.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def new_device(endpoint: str) -> Device:
    return Device(ec.generate_private_key(ec.SECP256R1()), os.urandom(16), endpoint)


def vapid_claims(pushed: Pushed, public_key: str) -> dict:
    """The claims of the request's VAPID token (RFC 8292), once its ES256 signature is
    checked against `public_key` and the header names that key; AssertionError if not."""
    scheme, _, params = pushed.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    values = dict(part.strip().split("=", 1) for part in params.split(","))
    assert values["k"] == public_key
    head, claims, signature = values["t"].split(".")
    raw = b64url_decode(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(public_key))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("The VAPID token is not signed by the site's key.") from None
    assert json.loads(b64url_decode(head)) == {"typ": "JWT", "alg": "ES256"}
    decoded = json.loads(b64url_decode(claims))
    assert decoded["exp"] > time.time()
    return decoded
