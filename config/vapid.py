"""The VAPID key pair that signs Fairway's Web Push (RFC 8292), as the environment holds
it: the private key as the 32 bytes of its P-256 scalar, the public key as the 65 bytes of
its uncompressed point (what a browser's `pushManager.subscribe` takes), each in base64url
without padding. Plain `cryptography`, so that the settings can check a pair before any
app loads."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_of(private_key: str) -> str:
    """The public key that goes with `private_key`; ValueError for a malformed one."""
    raw = b64url_decode(private_key.strip())
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes in base64url")
    key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    return b64url(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def new_pair() -> tuple[str, str]:
    """A fresh (private, public) pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, public_key_of(private)


def check(private_key: str, public_key: str, subject: str) -> None:
    """ValueError unless all three are set and agree, or none is."""
    if not any((private_key, public_key, subject)):
        return
    if not all((private_key, public_key, subject)):
        raise ValueError("set all three of them, or none (push off)")
    if not subject.startswith(("mailto:", "https://")):
        raise ValueError("the subject is a mailto: or https: address")
    try:
        matches = public_key_of(private_key) == public_key.strip()
    except ValueError as error:
        raise ValueError(f"the private key is malformed ({error})") from None
    if not matches:
        raise ValueError("the public key is not the private key's")
